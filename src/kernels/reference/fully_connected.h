// Reference fully-connected layer: output[b, o] = sum_d input[b, d] * weights[o, d] + bias[o],
// summed in float in d order, bias added after the sum, clamp last (TFLite's reference order).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "kernels/types.h"

namespace octet::reference {

using octet::FullyConnectedParams;

// input [batches, depth] (flattened), weights [units, depth], bias [units] or nullptr,
// output [batches, units].
inline void FullyConnected(const FullyConnectedParams& p, int batches, int depth, int units,
                           const float* input, const float* weights, const float* bias,
                           float* output) {
  for (int b = 0; b < batches; ++b) {
    const float* in = input + static_cast<int64_t>(b) * depth;
    for (int o = 0; o < units; ++o) {
      const float* w = weights + static_cast<int64_t>(o) * depth;
      float total = 0.f;
      for (int d = 0; d < depth; ++d) total += in[d] * w[d];
      const float bias_value = bias ? bias[o] : 0.f;
      output[static_cast<int64_t>(b) * units + o] =
          std::min(std::max(total + bias_value, p.act_min), p.act_max);
    }
  }
}

}  // namespace octet::reference
