// Reference 2-D convolution (NHWC input, OHWI filter). The loop and accumulation order
// follows TFLite's reference kernel so float results match it bit for bit: per output
// element, sum over filter y, filter x, then input channel, add the bias afterwards,
// clamp last.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "kernels/shape.h"
#include "kernels/types.h"

namespace octet::reference {

using octet::ConvParams;

// input [N,H,W,C], filter [O,KH,KW,C/groups], bias [O] or nullptr, output [N,OH,OW,O].
// Grouped when C is a multiple of the filter's channel count.
inline void Conv(const ConvParams& p, const Shape& input_shape, const float* input,
                 const Shape& filter_shape, const float* filter, const float* bias,
                 const Shape& output_shape, float* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int filter_depth = filter_shape.dim(3);
  const int filter_h = filter_shape.dim(1);
  const int filter_w = filter_shape.dim(2);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const int out_depth = output_shape.dim(3);
  const int groups = input_shape.dim(3) / filter_depth;
  const int filters_per_group = out_depth / groups;

  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < out_h; ++oy) {
      const int in_y0 = oy * p.stride_height - p.pad_height;
      for (int ox = 0; ox < out_w; ++ox) {
        const int in_x0 = ox * p.stride_width - p.pad_width;
        for (int oc = 0; oc < out_depth; ++oc) {
          const int channel_base = (oc / filters_per_group) * filter_depth;
          float total = 0.f;
          for (int fy = 0; fy < filter_h; ++fy) {
            const int iy = in_y0 + p.dilation_height * fy;
            for (int fx = 0; fx < filter_w; ++fx) {
              const int ix = in_x0 + p.dilation_width * fx;
              // Padding cells are zeros: they add nothing.
              if (iy < 0 || iy >= in_h || ix < 0 || ix >= in_w) continue;
              const float* in = input + input_shape.Offset(b, iy, ix, channel_base);
              const float* w = filter + filter_shape.Offset(oc, fy, fx, 0);
              for (int ic = 0; ic < filter_depth; ++ic) total += in[ic] * w[ic];
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

}  // namespace octet::reference
