// Reference L2 normalization and local response normalization over the innermost axis.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/types.h"

namespace octet::reference {

// out = in / max(sqrt(sum(in^2)), epsilon), per row of `depth` values.
inline void L2Normalization(int64_t outer, int depth, const float* input, float* output,
                            float epsilon = 1e-6f) {
  for (int64_t i = 0; i < outer; ++i) {
    const float* in = input + i * depth;
    float* out = output + i * depth;
    float squared = 0.f;
    for (int c = 0; c < depth; ++c) squared += in[c] * in[c];
    const float norm = std::max(std::sqrt(squared), epsilon);
    for (int c = 0; c < depth; ++c) out[c] = in[c] / norm;
  }
}

using octet::LrnParams;

// out[c] = in[c] * (bias + alpha * sum(in[k]^2 for k in [c - radius, c + radius]))^-beta.
// The window includes both ends, as TensorFlow defines the op and as TFLite's shipping
// (optimized) kernel computes it. TFLite's reference_ops variant stops at c + radius - 1.
inline void LocalResponseNormalization(const LrnParams& p, int64_t outer, int depth,
                                       const float* input, float* output) {
  for (int64_t i = 0; i < outer; ++i) {
    const float* in = input + i * depth;
    float* out = output + i * depth;
    for (int c = 0; c < depth; ++c) {
      const int begin = std::max(0, c - p.radius);
      const int end = static_cast<int>(std::min<int64_t>(depth, int64_t{c} + p.radius + 1));
      float accum = 0.f;
      for (int k = begin; k < end; ++k) accum += in[k] * in[k];
      out[c] = in[c] * std::pow(p.bias + p.alpha * accum, -p.beta);
    }
  }
}

}  // namespace octet::reference
