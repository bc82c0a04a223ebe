// Hybrid ("dynamic range") BATCH_MATMUL: float lhs, int8 rhs (the weights) with one scale or
// one per output column, float output, as TFLite's hybrid batch matmul computes it:
//   - every lhs row (K values of the logical [..., M, K] lhs) is quantized to int8 on its
//     own, symmetrically or asymmetrically (zero point z), giving a scale s;
//   - per output element, dot = Σ_k q[k] * w[k][j] in int32 and the column sum Σ_k w[k][j];
//     the zero-point correction is done in float and truncated back to int32:
//       total = int32(float(dot) - float(column_sum) * float(z))   (z = 0 when symmetric)
//   - out = 0 + (s * w_scale) * total   (per column: (s * w_scale[j]) * total).
// The batch dimensions broadcast NumPy-style as in the float kernel.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/reference/batch_matmul.h"
#include "kernels/reference/fully_connected_hybrid.h"
#include "kernels/shape.h"

namespace octet::reference {

struct HybridBatchMatMulParams {
  bool adj_x = false;  // lhs given as [..., K, M]
  bool adj_y = false;  // rhs given as [..., N, K]
  bool asymmetric = false;
  float weights_scale = 1.f;              // used when channel_scales is null
  const float* channel_scales = nullptr;  // [N] or null
};

// The output element from the row's scale (weights scale already folded in when per-tensor).
inline float HybridMatMulOutput(float row_scale, const float* channel_scales, int j,
                                int32_t total) {
  const float scale = channel_scales ? row_scale * channel_scales[j] : row_scale;
  float out = 0.f;
  out += scale * static_cast<float>(total);
  return out;
}

// lhs [..., M, K] ([..., K, M] when adj_x), rhs [..., K, N] ([..., N, K] when adj_y), output
// [broadcast(...), M, N] (already the broadcast shape). `row` (K floats) and `quantized` (K
// bytes) are scratch.
inline void HybridBatchMatMul(const HybridBatchMatMulParams& p, const Shape& lhs_shape,
                              const float* lhs, const Shape& rhs_shape, const int8_t* rhs,
                              const Shape& output_shape, float* output, float* row,
                              int8_t* quantized) {
  const MatMulDims g(lhs_shape, p.adj_x, rhs_shape, output_shape);
  const int depth = g.depth;
  g.ForEachBatch(output_shape, [&](int64_t lhs_batch, int64_t rhs_batch, int64_t ob) {
    const float* a = lhs + lhs_batch * g.lhs_matrix;
    const int8_t* b = rhs + rhs_batch * g.rhs_matrix;
    float* out = output + ob * g.out_matrix;
    auto weight = [&](int k, int j) -> int32_t {
      return p.adj_y ? b[static_cast<int64_t>(j) * g.rhs_cols + k]
                     : b[static_cast<int64_t>(k) * g.rhs_cols + j];
    };
    for (int i = 0; i < g.m; ++i) {
      for (int k = 0; k < depth; ++k) {
        row[k] = p.adj_x ? a[static_cast<int64_t>(k) * g.lhs_cols + i]
                         : a[static_cast<int64_t>(i) * g.lhs_cols + k];
      }
      float scale = 1.f;
      int32_t zero_point = 0;
      if (p.asymmetric) {
        AsymmetricQuantize(row, depth, quantized, &scale, &zero_point);
      } else {
        SymmetricQuantize(row, depth, quantized, &scale);
      }
      if (p.channel_scales == nullptr) scale *= p.weights_scale;
      for (int j = 0; j < g.n; ++j) {
        // 64-bit sums: TFLite's int32 ones wherever those do not overflow.
        int64_t dot = 0, column_sum = 0;
        for (int k = 0; k < depth; ++k) {
          dot += weight(k, j) * static_cast<int32_t>(quantized[k]);
          column_sum += weight(k, j);
        }
        const int32_t total = HybridZeroPointCorrected(
            static_cast<int32_t>(dot), static_cast<int32_t>(column_sum), zero_point);
        out[static_cast<int64_t>(i) * g.n + j] =
            HybridMatMulOutput(scale, p.channel_scales, j, total);
      }
    }
  });
}

}  // namespace octet::reference
