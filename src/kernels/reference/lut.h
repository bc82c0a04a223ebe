// 8-bit lookup tables for quantized activations: the float function is evaluated once per
// possible input value in prepare (TFLite's LUTPopulate for int8/uint8).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/reference/saturate.h"

namespace octet::reference {

using Lut8 = std::array<uint8_t, 256>;

// Index of an 8-bit value in a Lut8 (its bit pattern).
template <typename T>
inline uint8_t LutIndex(T value) {
  return static_cast<uint8_t>(value);
}

// table[q] = quantize_out(f(dequantize_in(q))), rounding half away from zero and saturating.
// A non-finite f(x) or product (a tiny output scale) is defined: +inf and huge values give the
// type's max, -inf its min, NaN its min (x86 TFLite's INT_MIN, clamped).
template <typename T, typename F>
Lut8 PopulateLut8(float input_scale, int32_t input_zero_point, float output_scale,
                  int32_t output_zero_point, F f) {
  static_assert(sizeof(T) == 1, "8-bit tables only");
  Lut8 table{};
  const float inverse_scale = 1.0f / output_scale;
  const int32_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  for (int32_t v = lo; v <= hi; ++v) {
    const float x = input_scale * static_cast<float>(v - input_zero_point);
    const float rescaled = std::round(f(x) * inverse_scale);
    // rescaled is a whole number, so adding the zero point in double is exact.
    const int32_t q = SaturatingTruncate(static_cast<double>(rescaled) + output_zero_point, lo, hi);
    table[LutIndex(static_cast<T>(v))] = static_cast<uint8_t>(static_cast<T>(q));
  }
  return table;
}

template <typename T>
void ApplyLut8(const Lut8& table, const T* input, int64_t n, T* output) {
  for (int64_t i = 0; i < n; ++i) output[i] = static_cast<T>(table[LutIndex(input[i])]);
}

}  // namespace octet::reference
