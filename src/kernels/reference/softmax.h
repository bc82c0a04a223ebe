// Reference softmax and log-softmax over the innermost axis, max-subtracted for stability,
// in TFLite's reference order (float sums in index order).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace octet::reference {

// `outer` rows of `depth` values each; `exp_row(values, n)` replaces n values by their exps in
// place (the reference: std::exp one by one; a fast path: a vector kernel). The sum is taken in
// index order after the exps, as the reference's single loop does.
template <typename ExpRow>
inline void SoftmaxWith(const ExpRow& exp_row, float beta, int64_t outer, int depth,
                        const float* input, float* output) {
  for (int64_t i = 0; i < outer; ++i) {
    const float* in = input + i * depth;
    float* out = output + i * depth;
    float max = std::numeric_limits<float>::lowest();
    for (int c = 0; c < depth; ++c) max = std::max(max, in[c]);
    for (int c = 0; c < depth; ++c) out[c] = (in[c] - max) * beta;
    exp_row(out, depth);
    float sum = 0.f;
    for (int c = 0; c < depth; ++c) sum += out[c];
    for (int c = 0; c < depth; ++c) out[c] = out[c] / sum;
  }
}

inline void Softmax(float beta, int64_t outer, int depth, const float* input, float* output) {
  SoftmaxWith(
      [](float* v, int n) {
        for (int c = 0; c < n; ++c) v[c] = std::exp(v[c]);
      },
      beta, outer, depth, input, output);
}

inline void LogSoftmax(int64_t outer, int depth, const float* input, float* output) {
  for (int64_t i = 0; i < outer; ++i) {
    const float* in = input + i * depth;
    float* out = output + i * depth;
    float max = std::numeric_limits<float>::lowest();
    for (int c = 0; c < depth; ++c) max = std::max(max, in[c]);
    float sum = 0.f;
    for (int c = 0; c < depth; ++c) sum += std::exp(in[c] - max);
    const float log_sum = std::log(sum);
    for (int c = 0; c < depth; ++c) out[c] = in[c] - max - log_sum;
  }
}

}  // namespace octet::reference
