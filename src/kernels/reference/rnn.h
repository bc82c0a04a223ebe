// One step of TFLite's basic RNN cell (kernel_utils::RnnBatchStep) for `batch` rows:
//
//   out_b = act(bias + W x_b + W_aux aux_b + R h_b),   h_b = out_b
//
// Output rows are `out_stride` floats apart (the bidirectional op interleaves its two
// directions in one merged output). The float step adds each dot product (accumulated from
// 0) to the bias in that order, as TFLite's portable kernels do.
//
// The hybrid step (int8 W, W_aux, R with one scale each; float x, aux, h, bias) quantizes
// each row of x, of aux and of h on its own (symmetric, or asymmetric with a zero point when
// the op asks for it), takes int32 dot products with the weight rows and scales them back,
// with the shared helpers of kernels/reference/hybrid_recurrent.h. As in TFLite, a whole
// operand (all batch rows) that is zero skips its product.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/reference/fused_activation.h"
#include "kernels/reference/hybrid_recurrent.h"

namespace octet::reference {

struct RnnStepShape {
  int batch = 0;
  int input_size = 0;
  int aux_size = 0;  // 0: no auxiliary input
  int units = 0;
  int64_t out_stride = 0;  // floats between output rows (>= units)
};

// result[r * stride + j] += Σ_k m[j, k] * v[r, k] for a [n, cols] matrix.
inline void RnnAccumulateProducts(const float* m, int n, int cols, const float* v, int rows,
                                  float* result, int64_t stride) {
  for (int r = 0; r < rows; ++r) {
    const float* x = v + static_cast<int64_t>(r) * cols;
    float* out = result + r * stride;
    for (int j = 0; j < n; ++j) {
      const float* w = m + static_cast<int64_t>(j) * cols;
      float dot = 0.f;
      for (int k = 0; k < cols; ++k) dot += w[k] * x[k];
      out[j] += dot;
    }
  }
}

// Bias into each output row, later the activation, and the rows copied into the state.
inline void RnnStart(const RnnStepShape& s, const float* bias, float* out) {
  for (int b = 0; b < s.batch; ++b) std::copy(bias, bias + s.units, out + b * s.out_stride);
}

inline void RnnFinish(const RnnStepShape& s, FusedActivation act, float* hidden, float* out) {
  for (int b = 0; b < s.batch; ++b) {
    float* row = out + b * s.out_stride;
    for (int j = 0; j < s.units; ++j) row[j] = ApplyFusedActivation(act, row[j]);
    std::copy(row, row + s.units, hidden + static_cast<int64_t>(b) * s.units);
  }
}

// `aux`/`aux_weights` are ignored when s.aux_size == 0.
inline void RnnStepFloat(const RnnStepShape& s, const float* input, const float* weights,
                         const float* aux, const float* aux_weights, const float* recurrent_weights,
                         const float* bias, FusedActivation act, float* hidden, float* out) {
  RnnStart(s, bias, out);
  RnnAccumulateProducts(weights, s.units, s.input_size, input, s.batch, out, s.out_stride);
  if (s.aux_size > 0) {
    RnnAccumulateProducts(aux_weights, s.units, s.aux_size, aux, s.batch, out, s.out_stride);
  }
  RnnAccumulateProducts(recurrent_weights, s.units, s.units, hidden, s.batch, out, s.out_stride);
  RnnFinish(s, act, hidden, out);
}

// One int8 weight matrix of the hybrid step: [units, cols], its scale and (asymmetric
// inputs only) its row sums.
struct RnnHybridWeights {
  const int8_t* data = nullptr;
  float scale = 1.f;
  const int32_t* row_sums = nullptr;
};

// Per-step buffers: q holds batch * max(input_size, aux_size, units) int8 values, scales and
// zero_points batch entries, dots batch * units int32 values.
struct RnnHybridScratch {
  int8_t* q = nullptr;
  float* scales = nullptr;
  int32_t* zero_points = nullptr;
  int32_t* dots = nullptr;
};

// out rows += W v for `rows` float rows of `cols` values, quantized row by row.
inline void RnnHybridProduct(const RnnStepShape& s, const RnnHybridWeights& w, const float* v,
                             int cols, bool asymmetric, const RnnHybridScratch& scratch,
                             float* out) {
  if (HybridIsZero(v, static_cast<int64_t>(s.batch) * cols)) return;
  HybridQuantizeRows(v, s.batch, cols, asymmetric, scratch.q, scratch.scales, scratch.zero_points);
  HybridDots(w.data, s.units, cols, scratch.q, s.batch, scratch.dots, s.units);
  HybridAccumulate(scratch.dots, s.units, s.units, s.batch, w.scale, scratch.scales,
                   asymmetric ? scratch.zero_points : nullptr, w.row_sums, out, s.out_stride);
}

inline void RnnStepHybrid(const RnnStepShape& s, const float* input, const RnnHybridWeights& w,
                          const float* aux, const RnnHybridWeights& aux_w,
                          const RnnHybridWeights& recurrent_w, const float* bias,
                          FusedActivation act, bool asymmetric, const RnnHybridScratch& scratch,
                          float* hidden, float* out) {
  RnnStart(s, bias, out);
  RnnHybridProduct(s, w, input, s.input_size, asymmetric, scratch, out);
  if (s.aux_size > 0) RnnHybridProduct(s, aux_w, aux, s.aux_size, asymmetric, scratch, out);
  RnnHybridProduct(s, recurrent_w, hidden, s.units, asymmetric, scratch, out);
  RnnFinish(s, act, hidden, out);
}

}  // namespace octet::reference
