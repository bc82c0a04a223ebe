#include "kernels/optimized/pool/fpool.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "kernels/optimized/pool/pool_windows.h"

namespace octet::optimized {
namespace {

using reference::PoolKind;

template <PoolKind kKind>
bool Run(const PoolParams& p, const Shape& input_shape, const float* input,
         const Shape& output_shape, float* output) {
  const int in_w = input_shape.dim(2);
  const size_t depth = static_cast<size_t>(input_shape.dim(3));
  const float start = kKind == PoolKind::kMax ? std::numeric_limits<float>::lowest() : 0.f;
  return ForEachPoolWindow(p, input_shape, output_shape,
                           [&](size_t image, const PoolWindow& w, size_t pixel) {
                             float* out = output + pixel * depth;
                             const float count = static_cast<float>(w.cells());
                             std::fill(out, out + depth, start);
                             for (int fy = w.fy_begin; fy < w.fy_end; ++fy) {
                               for (int fx = w.fx_begin; fx < w.fx_end; ++fx) {
                                 const float* in = input + image + w.Offset(fy, fx, in_w, depth);
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
                           });
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
