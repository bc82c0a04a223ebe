// int16 lookup tables for quantized elementwise functions (TFLite's LUTPopulate<int16_t> with
// float arithmetic, read through its interpolating LUTLookup): 512 samples of the function over
// the whole input range plus one for the last slope; the top 9 bits of an input pick the
// segment and the low 7 interpolate inside it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/reference/integer_softmax.h"

namespace octet::reference {

using Lut16 = std::array<int16_t, kInt16LutSize>;

namespace detail {

// A table value clamped to int16 as TFLite does (NaN passes through std::max/std::min);
// NaN, which TFLite converts with undefined behaviour, gives 0 as on x86 and WASM (the
// 32-bit conversion's INT_MIN with its low half kept).
inline int16_t ClampToInt16(float v) {
  const float lo = std::numeric_limits<int16_t>::min(), hi = std::numeric_limits<int16_t>::max();
  const float clamped = std::min<float>(std::max<float>(v, lo), hi);
  return std::isnan(clamped) ? int16_t{0} : static_cast<int16_t>(clamped);
}

}  // namespace detail

// table = TFLite's LUTPopulate<int16_t>(input_scale, input_zero_point, output_scale,
// output_zero_point, f) in float: entry i samples f at input_min + i * step (step = the input
// range / 512), scaled by 65536 / (output range), less half the rounding error linear
// interpolation makes at the segment's midpoint; entry 512 is f(input_max). Non-finite
// intermediates (f overflowing, tiny or huge scales) follow the same float arithmetic.
template <typename F>
Lut16 PopulateLut16(float input_scale, int32_t input_zero_point, float output_scale,
                    int32_t output_zero_point, F f) {
  constexpr int kSteps = kInt16LutSize - 1;
  constexpr int32_t kMin = std::numeric_limits<int16_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int16_t>::max();
  const float input_min = input_scale * static_cast<float>(kMin - input_zero_point);
  const float input_max = input_scale * static_cast<float>(kMax - input_zero_point);
  const float output_min = output_scale * static_cast<float>(kMin - output_zero_point);
  const float output_max = output_scale * static_cast<float>(kMax - output_zero_point);
  const float step = (input_max - input_min) / kSteps;
  const float half_step = step / 2;
  const float to_codes = static_cast<float>(kMax - kMin + 1) / (output_max - output_min);

  Lut16 table{};
  for (int i = 0; i < kSteps; ++i) {
    const float x = input_min + static_cast<float>(i) * step;
    const float y = f(x);
    const float y_mid = f(x + half_step);
    const float y_next = f(input_min + static_cast<float>(i + 1) * step);
    const float sample = std::round(y * to_codes);
    // What interpolating between this sample and the next gives at the midpoint, against
    // the function there: half that error moves the sample.
    const float interpolated_mid = std::round((y_next * to_codes + sample) / 2);
    const float actual_mid = std::round(y_mid * to_codes);
    const float bias = std::round((interpolated_mid - actual_mid) / 2);
    table[i] = detail::ClampToInt16(sample - bias);
  }
  table[kSteps] = detail::ClampToInt16(std::round(f(input_max) * to_codes));
  return table;
}

inline void ApplyLut16(const Lut16& table, const int16_t* input, int64_t n, int16_t* output) {
  for (int64_t i = 0; i < n; ++i) output[i] = Int16LutLookup(input[i], table.data());
}

}  // namespace octet::reference
