#include "kernels/optimized/pool/fpool.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace octet::optimized {
namespace {

using reference::PoolKind;

template <PoolKind kKind>
bool Run(const PoolParams& p, const Shape& input_shape, const float* input,
         const Shape& output_shape, float* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const size_t depth = static_cast<size_t>(input_shape.dim(3));
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const float start = kKind == PoolKind::kMax ? std::numeric_limits<float>::lowest() : 0.f;
  float* out = output;
  for (int b = 0; b < batches; ++b) {
    const float* image = input + static_cast<size_t>(b) * in_h * in_w * depth;
    for (int oy = 0; oy < out_h; ++oy) {
      const int in_y0 = oy * p.stride_height - p.pad_height;
      const int fy_begin = std::max(0, -in_y0);
      const int fy_end = std::min(p.filter_height, in_h - in_y0);
      for (int ox = 0; ox < out_w; ++ox, out += depth) {
        const int in_x0 = ox * p.stride_width - p.pad_width;
        const int fx_begin = std::max(0, -in_x0);
        const int fx_end = std::min(p.filter_width, in_w - in_x0);
        if (fy_end <= fy_begin || fx_end <= fx_begin) return false;
        const float count = static_cast<float>((fy_end - fy_begin) * (fx_end - fx_begin));
        std::fill(out, out + depth, start);
        for (int fy = fy_begin; fy < fy_end; ++fy) {
          for (int fx = fx_begin; fx < fx_end; ++fx) {
            const float* in =
                image + (static_cast<size_t>(in_y0 + fy) * in_w + (in_x0 + fx)) * depth;
            for (size_t c = 0; c < depth; ++c) {
              if (kKind == PoolKind::kMax) {
                out[c] = std::max(out[c], in[c]);
              } else if (kKind == PoolKind::kAverage) {
                out[c] += in[c];
              } else {
                out[c] += in[c] * in[c];
              }
            }
          }
        }
        for (size_t c = 0; c < depth; ++c) {
          float value = out[c];
          if (kKind == PoolKind::kAverage) value = value / count;
          if (kKind == PoolKind::kL2) value = std::sqrt(value / count);
          out[c] = std::min(std::max(value, p.act_min), p.act_max);
        }
      }
    }
  }
  return true;
}

}  // namespace

bool FloatPool(PoolKind kind, const PoolParams& p, const Shape& input_shape, const float* input,
               const Shape& output_shape, float* output) {
  switch (kind) {
    case PoolKind::kAverage:
      return Run<PoolKind::kAverage>(p, input_shape, input, output_shape, output);
    case PoolKind::kMax:
      return Run<PoolKind::kMax>(p, input_shape, input, output_shape, output);
    case PoolKind::kL2:
      return Run<PoolKind::kL2>(p, input_shape, input, output_shape, output);
  }
  return false;
}

}  // namespace octet::optimized
