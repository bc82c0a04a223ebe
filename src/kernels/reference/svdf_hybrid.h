// Hybrid SVDF: float input, state, bias and output; int8 weights_feature and weights_time,
// each with one scale. As TFLite's EvalHybridSVDF computes one invoke:
//
//   1. the state slides one element to the left (svdf.h);
//   2. unless the whole input is zero, each batch row is quantized (symmetric, or asymmetric
//      when the op's asymmetric_quantize_inputs is set), dotted with every weights_feature
//      row in int32, and scaled back: filter = 0 + float(dot') * (row_scale * feature_scale)
//      (hybrid_recurrent.h); the filter values become the newest state column;
//   3. the time stage runs in float on the dequantized time weights (int8 * scale, computed
//      once): per filter, Σ over the memory of weight * state from 0; per unit, the sum of
//      its `rank` filters from 0, then + bias; then the activation.
//
// The feature products are a template parameter so that the optimized glue can compute the
// same int32 sums on the quantized GEMM kernels; everything else is shared.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/reference/hybrid_recurrent.h"
#include "kernels/reference/svdf.h"

namespace octet::reference {

// Buffers of one hybrid SVDF invoke.
struct SvdfHybridScratch {
  int8_t* quantized = nullptr;     // batch * input_size
  float* scales = nullptr;         // batch
  int32_t* zero_points = nullptr;  // batch
  int32_t* dots = nullptr;         // batch * num_filters
  float* filters = nullptr;        // batch * num_filters
};

// The dequantized time weights: float(w) * scale, as TFLite prepares them once.
inline void DequantizeSvdfWeightsTime(const int8_t* weights_time, int64_t n, float scale,
                                      float* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(weights_time[i]) * scale;
}

// The feature products as plain loops: dots[b * num_filters + f] = Σ_i w[f, i] * q[b, i].
struct SvdfHybridPlainDots {
  const int8_t* weights_feature = nullptr;  // [num_filters, input_size]
  int num_filters = 0;
  int input_size = 0;
  void operator()(const int8_t* quantized, int rows, int32_t* dots) const {
    HybridDots(weights_feature, num_filters, input_size, quantized, rows, dots, num_filters);
  }
};

// Time weights, rank reduction, bias and activation (step 3 above). `filters` is scratch of
// batch * num_filters floats.
inline void SvdfHybridTimeStage(const SvdfShape& s, const float* weights_time, const float* bias,
                                FusedActivation act, const float* state, float* filters,
                                float* output) {
  for (int b = 0; b < s.batch; ++b) {
    const float* st = state + int64_t{b} * s.num_filters * s.memory_size;
    float* out = filters + int64_t{b} * s.num_filters;
    const float* w = weights_time;
    for (int f = 0; f < s.num_filters; ++f) {
      float sum = 0.f;
      for (int m = 0; m < s.memory_size; ++m) sum += *w++ * *st++;
      out[f] = sum;
    }
  }
  const int units = s.num_units();
  const int64_t n_out = int64_t{s.batch} * units;
  const float* sc = filters;
  for (int64_t i = 0; i < n_out; ++i) {
    float sum = 0.f;
    for (int r = 0; r < s.rank; ++r) sum += *sc++;
    output[i] = sum;
  }
  if (bias != nullptr) {
    for (int64_t i = 0; i < n_out; ++i) output[i] += bias[i % units];
  }
  for (int64_t i = 0; i < n_out; ++i) output[i] = ApplyFusedActivation(act, output[i]);
}

// One invoke. input [batch, input_size]; `feature_dots(q, rows, dots)` gives the int32
// products of the quantized rows with weights_feature (SvdfHybridPlainDots or an optimized
// equivalent); feature_row_sums (HybridRowSums of weights_feature) is read only when
// asymmetric; weights_time is the dequantized [num_filters, memory_size] matrix; bias
// [num_units] or nullptr; state [batch, num_filters * memory_size] is updated; output
// [batch, num_units].
template <typename FeatureDots>
inline void SvdfHybrid(const SvdfShape& s, bool asymmetric, const float* input,
                       const FeatureDots& feature_dots, float feature_scale,
                       const int32_t* feature_row_sums, const float* weights_time,
                       const float* bias, FusedActivation act, float* state,
                       const SvdfHybridScratch& scratch, float* output) {
  SvdfShiftState(s, state);
  const int64_t n = int64_t{s.batch} * s.num_filters;
  std::fill(scratch.filters, scratch.filters + n, 0.f);
  if (!HybridIsZero(input, int64_t{s.batch} * s.input_size)) {
    HybridQuantizeRows(input, s.batch, s.input_size, asymmetric, scratch.quantized, scratch.scales,
                       scratch.zero_points);
    feature_dots(scratch.quantized, s.batch, scratch.dots);
    HybridAccumulate(scratch.dots, s.num_filters, s.num_filters, s.batch, feature_scale,
                     scratch.scales, asymmetric ? scratch.zero_points : nullptr, feature_row_sums,
                     scratch.filters, s.num_filters);
  }
  for (int64_t i = 0; i < n; ++i) state[i * s.memory_size + s.memory_size - 1] = scratch.filters[i];
  SvdfHybridTimeStage(s, weights_time, bias, act, state, scratch.filters, output);
}

}  // namespace octet::reference
