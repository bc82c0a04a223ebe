// FAKE_QUANT: quantize-then-dequantize float values through the num_bits grid that TFLite
// (and TensorFlow's FakeQuantWithMinMaxArgs) derives from [min, max]. The range is first
// nudged so that 0.0 lands exactly on a grid point. Everything is float arithmetic in the
// same order as TFLite's reference, so results are bit-identical.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace octet::reference {

struct FakeQuantGrid {
  float min;    // nudged
  float max;    // nudged
  float scale;  // grid step
};

// Nudges [min, max] for the integer grid [quant_min, quant_max] (quant_max <= 65535): the
// zero point is rounded half away from zero and clamped into the grid, as TFLite does.
inline FakeQuantGrid NudgeFakeQuantRange(float min, float max, int quant_min, int quant_max) {
  const float qmin = static_cast<float>(quant_min);
  const float qmax = static_cast<float>(quant_max);
  FakeQuantGrid g;
  g.scale = (max - min) / (qmax - qmin);
  const float zero_from_min = qmin - min / g.scale;
  // TFLite keeps the zero point in a uint16_t; subtracting it below promotes back to float.
  uint16_t zero_point;
  if (zero_from_min < qmin) {
    zero_point = static_cast<uint16_t>(quant_min);
  } else if (zero_from_min > qmax) {
    zero_point = static_cast<uint16_t>(quant_max);
  } else {
    zero_point = static_cast<uint16_t>(std::round(zero_from_min));
  }
  g.min = (qmin - zero_point) * g.scale;
  g.max = (qmax - zero_point) * g.scale;
  return g;
}

// out[i] = round((clamp(in[i]) - min) / scale) * scale + min, where the division is a
// multiplication by the float reciprocal (as in TFLite). std::max/std::min in this order
// send NaN to the nudged min, matching TFLite.
inline void FakeQuantize(const FakeQuantGrid& g, const float* in, float* out, int64_t n) {
  const float inv_scale = 1.0f / g.scale;
  for (int64_t i = 0; i < n; ++i) {
    const float clamped = std::min(g.max, std::max(g.min, in[i]));
    const float shifted = clamped - g.min;
    const float steps = std::round(shifted * inv_scale);
    out[i] = steps * g.scale + g.min;
  }
}

}  // namespace octet::reference
