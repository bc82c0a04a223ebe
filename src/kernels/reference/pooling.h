// Reference 2-D pooling (NHWC) in TFLite's reference order. Windows are clipped to the
// image: average and L2 divide by the number of in-bounds cells, not the filter area.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/shape.h"
#include "kernels/types.h"

namespace octet::reference {

using octet::PoolParams;

enum class PoolKind { kAverage, kMax, kL2 };

// Returns false if some window has no in-bounds cell (impossible with shapes computed
// from SAME/VALID padding, but the division must not happen).
inline bool Pool(PoolKind kind, const PoolParams& p, const Shape& input_shape, const float* input,
                 const Shape& output_shape, float* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int depth = input_shape.dim(3);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < out_h; ++oy) {
      const int in_y0 = oy * p.stride_height - p.pad_height;
      const int fy_begin = std::max(0, -in_y0);
      const int fy_end = std::min(p.filter_height, in_h - in_y0);
      for (int ox = 0; ox < out_w; ++ox) {
        const int in_x0 = ox * p.stride_width - p.pad_width;
        const int fx_begin = std::max(0, -in_x0);
        const int fx_end = std::min(p.filter_width, in_w - in_x0);
        for (int c = 0; c < depth; ++c) {
          float acc = kind == PoolKind::kMax ? std::numeric_limits<float>::lowest() : 0.f;
          int count = 0;
          for (int fy = fy_begin; fy < fy_end; ++fy) {
            for (int fx = fx_begin; fx < fx_end; ++fx) {
              const float v = input[input_shape.Offset(b, in_y0 + fy, in_x0 + fx, c)];
              switch (kind) {
                case PoolKind::kAverage:
                  acc += v;
                  break;
                case PoolKind::kMax:
                  acc = std::max(acc, v);
                  break;
                case PoolKind::kL2:
                  acc += v * v;
                  break;
              }
              ++count;
            }
          }
          if (count == 0) return false;
          float value = acc;
          if (kind == PoolKind::kAverage) value = acc / static_cast<float>(count);
          if (kind == PoolKind::kL2) value = std::sqrt(acc / static_cast<float>(count));
          output[output_shape.Offset(b, oy, ox, c)] =
              std::min(std::max(value, p.act_min), p.act_max);
        }
      }
    }
  }
  return true;
}

}  // namespace octet::reference
