// 8-bit lookup tables for quantized activations: the float function is evaluated once per
// possible input value in prepare (TFLite's LUTPopulate for int8/uint8).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace octet::reference {

using Lut8 = std::array<uint8_t, 256>;

// Index of an 8-bit value in a Lut8 (its bit pattern).
template <typename T>
inline uint8_t LutIndex(T value) {
  return static_cast<uint8_t>(value);
}

// table[q] = quantize_out(f(dequantize_in(q))), rounding half away from zero and saturating.
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
    const int32_t q = static_cast<int32_t>(rescaled + static_cast<float>(output_zero_point));
    table[LutIndex(static_cast<T>(v))] =
        static_cast<uint8_t>(static_cast<T>(std::clamp(q, lo, hi)));
  }
  return table;
}

template <typename T>
void ApplyLut8(const Lut8& table, const T* input, int64_t n, T* output) {
  for (int64_t i = 0; i < n; ++i) output[i] = static_cast<T>(table[LutIndex(input[i])]);
}

}  // namespace octet::reference
