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
#include <vector>

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

// TFLite's zero-point correction: the int32 dot product minus column_sum * zero_point, done
// in float and truncated to int32 (clamped first so that no conversion is undefined).
inline int32_t HybridMatMulTotal(int32_t dot, int32_t column_sum, int32_t zero_point) {
  const float v =
      static_cast<float>(dot) - static_cast<float>(column_sum) * static_cast<float>(zero_point);
  return static_cast<int32_t>(std::min(std::max(v, -2147483648.f), 2147483520.f));
}

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
  const int out_rank = output_shape.rank();
  const Shape lhs_ext = lhs_shape.Extended(out_rank);
  const Shape rhs_ext = rhs_shape.Extended(out_rank);
  const int m = output_shape.dim(out_rank - 2);
  const int n = output_shape.dim(out_rank - 1);
  const int depth = p.adj_x ? lhs_ext.dim(out_rank - 2) : lhs_ext.dim(out_rank - 1);
  const int lhs_cols = lhs_ext.dim(out_rank - 1);
  const int rhs_cols = rhs_ext.dim(out_rank - 1);
  const int64_t lhs_matrix = static_cast<int64_t>(lhs_ext.dim(out_rank - 2)) * lhs_cols;
  const int64_t rhs_matrix = static_cast<int64_t>(rhs_ext.dim(out_rank - 2)) * rhs_cols;
  const int64_t out_matrix = static_cast<int64_t>(m) * n;
  const int batch_rank = out_rank - 2;
  const int64_t out_batches = output_shape.SizeBetween(0, batch_rank);
  std::vector<int> index(batch_rank, 0);
  for (int64_t ob = 0; ob < out_batches; ++ob) {
    int64_t lhs_batch = 0, rhs_batch = 0;
    for (int d = 0; d < batch_rank; ++d) {
      lhs_batch = lhs_batch * lhs_ext.dim(d) + (lhs_ext.dim(d) == 1 ? 0 : index[d]);
      rhs_batch = rhs_batch * rhs_ext.dim(d) + (rhs_ext.dim(d) == 1 ? 0 : index[d]);
    }
    const float* a = lhs + lhs_batch * lhs_matrix;
    const int8_t* b = rhs + rhs_batch * rhs_matrix;
    float* out = output + ob * out_matrix;
    auto weight = [&](int k, int j) -> int32_t {
      return p.adj_y ? b[static_cast<int64_t>(j) * rhs_cols + k]
                     : b[static_cast<int64_t>(k) * rhs_cols + j];
    };
    for (int i = 0; i < m; ++i) {
      for (int k = 0; k < depth; ++k) {
        row[k] = p.adj_x ? a[static_cast<int64_t>(k) * lhs_cols + i]
                         : a[static_cast<int64_t>(i) * lhs_cols + k];
      }
      float scale = 1.f;
      int32_t zero_point = 0;
      if (p.asymmetric) {
        AsymmetricQuantize(row, depth, quantized, &scale, &zero_point);
      } else {
        SymmetricQuantize(row, depth, quantized, &scale);
      }
      if (p.channel_scales == nullptr) scale *= p.weights_scale;
      for (int j = 0; j < n; ++j) {
        // 64-bit sums: TFLite's int32 ones wherever those do not overflow.
        int64_t dot = 0, column_sum = 0;
        for (int k = 0; k < depth; ++k) {
          dot += weight(k, j) * static_cast<int32_t>(quantized[k]);
          column_sum += weight(k, j);
        }
        const int32_t total = HybridMatMulTotal(static_cast<int32_t>(dot),
                                                static_cast<int32_t>(column_sum), zero_point);
        out[static_cast<int64_t>(i) * n + j] =
            HybridMatMulOutput(scale, p.channel_scales, j, total);
      }
    }
    for (int d = batch_rank - 1; d >= 0; --d) {
      if (++index[d] < output_shape.dim(d)) break;
      index[d] = 0;
    }
  }
}

}  // namespace octet::reference
