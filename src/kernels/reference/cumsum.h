// CUMSUM: running sums along one axis, optionally exclusive (each output leaves out its own
// element) and/or reversed (summing from the end), as TFLite's reference CumSum.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/shape.h"

namespace octet::reference {

// Integers wrap (two's complement) instead of overflowing.
template <typename T>
inline T CumSumAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

template <typename T>
void CumSum(const Shape& shape, int axis, bool exclusive, bool reverse, const T* input, T* output) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= shape.dim(d);
  for (int d = axis + 1; d < shape.rank(); ++d) inner *= shape.dim(d);
  const int64_t depth = shape.dim(axis);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      T acc = T(0);
      for (int64_t k = 0; k < depth; ++k) {
        const int64_t kk = reverse ? depth - 1 - k : k;
        const int64_t at = (o * depth + kk) * inner + i;
        if (exclusive) {
          output[at] = acc;
          acc = CumSumAdd(acc, input[at]);
        } else {
          acc = CumSumAdd(acc, input[at]);
          output[at] = acc;
        }
      }
    }
  }
}

}  // namespace octet::reference
