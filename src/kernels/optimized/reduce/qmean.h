// Quantized MEAN / SUM when the reduced axes are one contiguous block: the input is
// [outer, count, inner] and each output sums `count` rows of `inner` values, read in memory
// order (the global average pool of NHWC images is the common case). The same int32 sums
// (modulo 2^32) and the same finish as reference::QuantizedMeanOrSum, without its per-element
// index arithmetic or its heap buffer. Portable code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/reference/reduce.h"
#include "kernels/shape.h"

namespace octet::optimized {

// The [outer, count, inner] split when the reduced axes are contiguous and at least one is
// reduced; false otherwise.
inline bool ContiguousReduction(const Shape& shape, const std::vector<bool>& reduced,
                                int64_t* outer, int64_t* count, int64_t* inner) {
  int first = -1, last = -1;
  for (int d = 0; d < shape.rank(); ++d) {
    if (!reduced[d]) continue;
    if (first < 0) first = d;
    if (last >= 0 && last != d - 1) return false;
    last = d;
  }
  if (first < 0) return false;
  *outer = shape.SizeBetween(0, first);
  *count = shape.SizeBetween(first, last + 1);
  *inner = shape.SizeBetween(last + 1, shape.rank());
  return true;
}

template <typename T>
void QuantizedMeanOrSumContiguous(int64_t outer, int64_t count, int64_t inner, const T* input,
                                  int32_t input_zero_point, int32_t multiplier, int shift,
                                  int32_t output_zero_point, bool compute_sum, T* output) {
  if (count == 0) {
    std::fill(output, output + outer * inner, T());
    return;
  }
  if (!compute_sum) reference::MeanMultiplier(count, &multiplier, &shift);
  constexpr int64_t kChunk = 512;
  uint32_t sums[kChunk];
  for (int64_t o = 0; o < outer; ++o) {
    const T* block = input + o * count * inner;
    for (int64_t i0 = 0; i0 < inner; i0 += kChunk) {
      const int64_t width = std::min(kChunk, inner - i0);
      std::fill(sums, sums + width, 0u);
      for (int64_t r = 0; r < count; ++r) {
        const T* row = block + r * inner + i0;
        for (int64_t j = 0; j < width; ++j) sums[j] += static_cast<uint32_t>(row[j]);
      }
      T* out = output + o * inner + i0;
      for (int64_t j = 0; j < width; ++j) {
        out[j] =
            reference::FinishMeanOrSum<T>(static_cast<int32_t>(sums[j]), count, input_zero_point,
                                          multiplier, shift, output_zero_point);
      }
    }
  }
}

}  // namespace octet::optimized
