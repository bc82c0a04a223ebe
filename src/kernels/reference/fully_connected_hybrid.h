// Hybrid ("dynamic range") fully-connected: int8 weights, float activations. As TFLite
// computes it: each input row is quantized to int8 on the fly (symmetric, or asymmetric
// with a zero point), dot products accumulate in int32, and the result is scaled back
// with input_scale * weight_scale and added to the bias. The quantizers
// (SymmetricQuantize, AsymmetricQuantize: hybrid_quantize.h) are shared with the other
// hybrid ops.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/reference/fully_connected.h"
#include "kernels/reference/hybrid_quantize.h"

namespace octet::reference {

// input [batches, depth] float, weights [units, depth] int8 with either one scale
// (`weights_scale`) or one per unit (`channel_scales`, nullptr when per-tensor), bias
// [units] or nullptr. `quantized` is scratch for one input row (depth bytes).
inline void HybridFullyConnected(const FullyConnectedParams& p, bool asymmetric, int batches,
                                 int depth, int units, const float* input, const int8_t* weights,
                                 float weights_scale, const float* channel_scales,
                                 const float* bias, int8_t* quantized, float* output) {
  for (int b = 0; b < batches; ++b) {
    const float* in = input + static_cast<int64_t>(b) * depth;
    float* out = output + static_cast<int64_t>(b) * units;
    for (int o = 0; o < units; ++o) out[o] = bias ? bias[o] : 0.f;

    float scale = 1.f;
    int32_t offset = 0;
    if (asymmetric) {
      AsymmetricQuantize(in, depth, quantized, &scale, &offset);
    } else {
      SymmetricQuantize(in, depth, quantized, &scale);
    }
    if (channel_scales == nullptr) scale *= weights_scale;

    for (int o = 0; o < units; ++o) {
      const int8_t* w = weights + static_cast<int64_t>(o) * depth;
      // 64-bit sums (exactly TFLite's int32 ones whenever those do not overflow).
      int64_t dot64 = 0;
      int64_t row_sum64 = 0;
      for (int d = 0; d < depth; ++d) {
        dot64 += static_cast<int32_t>(w[d]) * quantized[d];
        row_sum64 += w[d];
      }
      int32_t dot = static_cast<int32_t>(dot64);
      const int32_t row_sum = static_cast<int32_t>(row_sum64);
      if (asymmetric) {
        dot = HybridZeroPointCorrected(dot, row_sum, offset);
      }
      const float s = channel_scales ? scale * channel_scales[o] : scale;
      out[o] += static_cast<float>(dot) * s;
    }
    for (int o = 0; o < units; ++o) out[o] = std::min(std::max(out[o], p.act_min), p.act_max);
  }
}

}  // namespace octet::reference
