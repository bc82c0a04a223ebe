// Concatenation along one axis (also the core of PACK), and TFLite's uint8 variant that
// requantizes inputs whose scale/zero point differ from the output's.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/reference/saturate.h"
#include "kernels/reference/shape_util.h"
#include "kernels/shape.h"

namespace octet::reference {

// Walks a concatenation along `axis` of `inputs` (shapes equal except on `axis`) into
// `output`: for each slab of the dimensions before `axis`, the inputs' slabs one after the
// other, each moved by move(i, source, destination, count) for input i.
template <typename T, typename Move>
void ConcatenateSlabs(int axis, const std::vector<const T*>& inputs,
                      const std::vector<Shape>& input_shapes, const Shape& output_shape, T* output,
                      const Move& move) {
  const int64_t outer = output_shape.SizeBetween(0, axis);
  const int64_t inner = output_shape.SizeBetween(axis + 1, output_shape.rank());
  T* dst = output;
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const int64_t n = input_shapes[i].dim(axis) * inner;
      move(i, inputs[i] + o * n, dst, n);
      dst += n;
    }
  }
}

// Joins `inputs` into `output`, copying the values.
template <typename T>
void Concatenation(int axis, const std::vector<const T*>& inputs,
                   const std::vector<Shape>& input_shapes, const Shape& output_shape, T* output) {
  ConcatenateSlabs(axis, inputs, input_shapes, output_shape, output,
                   [](size_t, const T* src, T* dst, int64_t n) { CopyElements(dst, src, n); });
}

// One uint8 value mapped onto the output's quantization as TFLite does it: in float,
// scale = s_in * (1 / s_out) and bias = -zp_in * scale, rounded half away from zero.
inline uint8_t RequantizeForConcat(uint8_t q, float scale, float bias, int32_t output_zero_point) {
  // Saturating: an extreme scale ratio makes the product infinite (or 0 * inf NaN, which
  // gives 0).
  const double rounded = std::round(q * scale + bias);
  return static_cast<uint8_t>(SaturatingTruncate(rounded + output_zero_point, 0, 255));
}

// The (scale, bias) RequantizeForConcat takes for an input.
struct ConcatRescale {
  float scale, bias;
};
inline ConcatRescale ConcatRescaleOf(float input_scale, int32_t input_zero_point,
                                     float output_scale) {
  const float inverse_output_scale = 1.f / output_scale;
  const float scale = input_scale * inverse_output_scale;
  return {scale, -input_zero_point * scale};
}

// uint8 concatenation mapping each input's real values onto the output's quantization:
// q_out = round(q_in * s_in / s_out - zp_in * s_in / s_out) + zp_out, clamped to uint8.
inline void ConcatenationWithScaling(int axis, const std::vector<const uint8_t*>& inputs,
                                     const std::vector<Shape>& input_shapes,
                                     const std::vector<float>& input_scales,
                                     const std::vector<int32_t>& input_zero_points,
                                     float output_scale, int32_t output_zero_point,
                                     const Shape& output_shape, uint8_t* output) {
  ConcatenateSlabs(
      axis, inputs, input_shapes, output_shape, output,
      [&](size_t i, const uint8_t* src, uint8_t* dst, int64_t n) {
        if (input_zero_points[i] == output_zero_point && input_scales[i] == output_scale) {
          CopyElements(dst, src, n);
          return;
        }
        const ConcatRescale r =
            ConcatRescaleOf(input_scales[i], input_zero_points[i], output_scale);
        for (int64_t j = 0; j < n; ++j) {
          dst[j] = RequantizeForConcat(src[j], r.scale, r.bias, output_zero_point);
        }
      });
}

}  // namespace octet::reference
