// Reference depthwise 2-D convolution (NHWC input, [1,KH,KW,C*M] filter) in TFLite's
// reference order: per output element, sum over filter y then x in float, bias after,
// clamp last.
#pragma once

#include <algorithm>
#include <limits>

#include "kernels/shape.h"
#include "kernels/types.h"

namespace octet::reference {

using octet::DepthwiseParams;

// Output channel ic * depth_multiplier + m reads input channel ic.
inline void DepthwiseConv(const DepthwiseParams& p, const Shape& input_shape, const float* input,
                          const Shape& filter_shape, const float* filter, const float* bias,
                          const Shape& output_shape, float* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int in_depth = input_shape.dim(3);
  const int filter_h = filter_shape.dim(1);
  const int filter_w = filter_shape.dim(2);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const int mult = p.depth_multiplier;

  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < out_h; ++oy) {
      const int in_y0 = oy * p.stride_height - p.pad_height;
      for (int ox = 0; ox < out_w; ++ox) {
        const int in_x0 = ox * p.stride_width - p.pad_width;
        for (int ic = 0; ic < in_depth; ++ic) {
          for (int m = 0; m < mult; ++m) {
            const int oc = m + ic * mult;
            float total = 0.f;
            for (int fy = 0; fy < filter_h; ++fy) {
              const int iy = in_y0 + p.dilation_height * fy;
              for (int fx = 0; fx < filter_w; ++fx) {
                const int ix = in_x0 + p.dilation_width * fx;
                if (iy < 0 || iy >= in_h || ix < 0 || ix >= in_w) continue;
                total += input[input_shape.Offset(b, iy, ix, ic)] *
                         filter[filter_shape.Offset(0, fy, fx, oc)];
              }
            }
            const float bias_value = bias ? bias[oc] : 0.f;
            output[output_shape.Offset(b, oy, ox, oc)] =
                std::min(std::max(total + bias_value, p.act_min), p.act_max);
          }
        }
      }
    }
  }
}

}  // namespace octet::reference
