// Reference batched matrix multiply with NumPy-style broadcasting of the batch dimensions,
// float and quantized, as TFLite's reference kernels compute it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/shape.h"
#include "quant/quantization_util.h"

namespace octet::reference {

// The matrices of a batched product: lhs [..., M, K] ([..., K, M] when adj_x), rhs
// [..., K, N] ([..., N, K] when adj_y), output [broadcast(...), M, N] (already the broadcast
// shape), and the walk over the batch dimensions with NumPy-style broadcasting.
struct MatMulDims {
  MatMulDims(const Shape& lhs_shape, bool adj_x, const Shape& rhs_shape, const Shape& output_shape)
      : out_rank(output_shape.rank()),
        lhs_ext(lhs_shape.Extended(out_rank)),
        rhs_ext(rhs_shape.Extended(out_rank)),
        m(output_shape.dim(out_rank - 2)),
        n(output_shape.dim(out_rank - 1)),
        depth(adj_x ? lhs_ext.dim(out_rank - 2) : lhs_ext.dim(out_rank - 1)),
        lhs_cols(lhs_ext.dim(out_rank - 1)),
        rhs_cols(rhs_ext.dim(out_rank - 1)),
        lhs_matrix(static_cast<int64_t>(lhs_ext.dim(out_rank - 2)) * lhs_cols),
        rhs_matrix(static_cast<int64_t>(rhs_ext.dim(out_rank - 2)) * rhs_cols),
        out_matrix(static_cast<int64_t>(m) * n) {}

  // Calls fn(lhs_batch, rhs_batch, out_batch) for every output matrix in order, with the flat
  // indices of the operand matrices it reads (a size-1 batch dimension is broadcast).
  template <typename Fn>
  void ForEachBatch(const Shape& output_shape, Fn fn) const {
    const int batch_rank = out_rank - 2;
    const int64_t out_batches = output_shape.SizeBetween(0, batch_rank);
    std::vector<int> index(batch_rank, 0);
    for (int64_t ob = 0; ob < out_batches; ++ob) {
      int64_t lhs_batch = 0, rhs_batch = 0;
      for (int d = 0; d < batch_rank; ++d) {
        lhs_batch = lhs_batch * lhs_ext.dim(d) + (lhs_ext.dim(d) == 1 ? 0 : index[d]);
        rhs_batch = rhs_batch * rhs_ext.dim(d) + (rhs_ext.dim(d) == 1 ? 0 : index[d]);
      }
      fn(lhs_batch, rhs_batch, ob);
      // Advance the multi-index over the output batch dimensions (row-major).
      for (int d = batch_rank - 1; d >= 0; --d) {
        if (++index[d] < output_shape.dim(d)) break;
        index[d] = 0;
      }
    }
  }

  int out_rank;
  Shape lhs_ext, rhs_ext;
  int m, n, depth, lhs_cols, rhs_cols;
  int64_t lhs_matrix, rhs_matrix, out_matrix;
};

// Float BATCH_MATMUL: each output element a float sum over k in index order from 0.
inline void BatchMatMul(const Shape& lhs_shape, const float* lhs, bool adj_x,
                        const Shape& rhs_shape, const float* rhs, bool adj_y,
                        const Shape& output_shape, float* output) {
  const MatMulDims g(lhs_shape, adj_x, rhs_shape, output_shape);
  g.ForEachBatch(output_shape, [&](int64_t lhs_batch, int64_t rhs_batch, int64_t ob) {
    const float* a = lhs + lhs_batch * g.lhs_matrix;
    const float* b = rhs + rhs_batch * g.rhs_matrix;
    float* out = output + ob * g.out_matrix;
    for (int i = 0; i < g.m; ++i) {
      for (int j = 0; j < g.n; ++j) {
        float total = 0.f;
        for (int k = 0; k < g.depth; ++k) {
          const float av = adj_x ? a[static_cast<int64_t>(k) * g.lhs_cols + i]
                                 : a[static_cast<int64_t>(i) * g.lhs_cols + k];
          const float bv = adj_y ? b[static_cast<int64_t>(j) * g.rhs_cols + k]
                                 : b[static_cast<int64_t>(k) * g.rhs_cols + j];
          total += av * bv;
        }
        out[static_cast<int64_t>(i) * g.n + j] = total;
      }
    }
  });
}

// Quantized BATCH_MATMUL (TFLite's reference BatchMatMul<T, AccumT>): per output element
//   acc = Σ_k (lhs + lhs_offset) · (rhs + rhs_offset)     (int32 for int8, int64 for int16)
// int8 × int8 → int8, int16 × int16 → int16 and int16 × int8 → int16 (16x8: TRhs = int8_t).
//   out = clamp(MultiplyByQuantizedMultiplier(acc, multiplier, shift) + output_offset)
struct QuantizedBatchMatMulParams {
  int32_t lhs_offset = 0;  // −lhs zero point
  int32_t rhs_offset = 0;  // −rhs zero point
  int32_t output_offset = 0;
  int32_t multiplier = 0;
  int shift = 0;
  int32_t act_min = 0;
  int32_t act_max = 0;
};

template <typename T, typename Acc, typename TRhs = T>
void QuantizedBatchMatMul(const QuantizedBatchMatMulParams& q, const Shape& lhs_shape, const T* lhs,
                          bool adj_x, const Shape& rhs_shape, const TRhs* rhs, bool adj_y,
                          const Shape& output_shape, T* output) {
  const MatMulDims g(lhs_shape, adj_x, rhs_shape, output_shape);
  g.ForEachBatch(output_shape, [&](int64_t lhs_batch, int64_t rhs_batch, int64_t ob) {
    const T* a = lhs + lhs_batch * g.lhs_matrix;
    const TRhs* b = rhs + rhs_batch * g.rhs_matrix;
    T* out = output + ob * g.out_matrix;
    for (int i = 0; i < g.m; ++i) {
      for (int j = 0; j < g.n; ++j) {
        Acc acc = 0;
        for (int k = 0; k < g.depth; ++k) {
          const Acc av = adj_x ? a[static_cast<int64_t>(k) * g.lhs_cols + i]
                               : a[static_cast<int64_t>(i) * g.lhs_cols + k];
          const Acc bv = adj_y ? b[static_cast<int64_t>(j) * g.rhs_cols + k]
                               : b[static_cast<int64_t>(k) * g.rhs_cols + j];
          acc += (av + q.lhs_offset) * (bv + q.rhs_offset);
        }
        int32_t v = quant::MultiplyByQuantizedMultiplier(acc, q.multiplier, q.shift);
        v = std::min(std::max(v + q.output_offset, q.act_min), q.act_max);
        out[static_cast<int64_t>(i) * g.n + j] = static_cast<T>(v);
      }
    }
  });
}

}  // namespace octet::reference
