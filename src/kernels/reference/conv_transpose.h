// Reference transposed 2-D convolution (TRANSPOSE_CONV), float. Like TFLite's reference it
// scatters: each input element adds input * weight into every output cell it reaches (in
// input y, x, channel, then filter y, x, output channel order); bias and clamp come last.
#pragma once

#include <algorithm>
#include <limits>

#include "kernels/shape.h"
#include "kernels/types.h"

namespace octet::reference {

using octet::TransposeConvParams;

// input [N,H,W,C], filter [O,KH,KW,C], bias [O] or nullptr, output [N,OH,OW,O].
inline void TransposeConv(const TransposeConvParams& p, const Shape& input_shape,
                          const float* input, const Shape& filter_shape, const float* filter,
                          const float* bias, const Shape& output_shape, float* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int in_depth = input_shape.dim(3);
  const int filter_h = filter_shape.dim(1);
  const int filter_w = filter_shape.dim(2);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const int out_depth = output_shape.dim(3);

  std::fill(output, output + output_shape.FlatSize(), 0.f);
  for (int b = 0; b < batches; ++b) {
    for (int iy = 0; iy < in_h; ++iy) {
      for (int ix = 0; ix < in_w; ++ix) {
        for (int ic = 0; ic < in_depth; ++ic) {
          const float in_value = input[input_shape.Offset(b, iy, ix, ic)];
          const int oy0 = iy * p.stride_height - p.pad_height;
          const int ox0 = ix * p.stride_width - p.pad_width;
          for (int fy = 0; fy < filter_h; ++fy) {
            const int oy = oy0 + fy;
            if (oy < 0 || oy >= out_h) continue;
            for (int fx = 0; fx < filter_w; ++fx) {
              const int ox = ox0 + fx;
              if (ox < 0 || ox >= out_w) continue;
              for (int oc = 0; oc < out_depth; ++oc) {
                output[output_shape.Offset(b, oy, ox, oc)] +=
                    in_value * filter[filter_shape.Offset(oc, fy, fx, ic)];
              }
            }
          }
        }
      }
    }
  }
  const int64_t cells = output_shape.FlatSize() / (out_depth > 0 ? out_depth : 1);
  for (int64_t i = 0; i < cells; ++i) {
    for (int oc = 0; oc < out_depth; ++oc) {
      float& v = output[i * out_depth + oc];
      const float acc = bias ? v + bias[oc] : v;
      v = std::min(std::max(acc, p.act_min), p.act_max);
    }
  }
}

}  // namespace octet::reference
