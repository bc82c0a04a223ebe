// The hybrid ("dynamic range": int8 weights, float activations) CONV_2D and FULLY_CONNECTED
// on the quantized GEMM micro-kernels. The input is quantized per batch (or per row) exactly
// as the reference does; the int8 GEMM yields the raw int32 sums, which are the reference's
// own integers (exact arithmetic), and the float finish repeats the reference's expression,
// so the output is bit-identical to the reference kernel's.
//
// For a convolution with a per-batch zero point (per-channel weights: asymmetric inputs) the
// padding taps read a row of that zero point and the packed bias is shifted by
// -zero_point * Σw per column, so padding contributes nothing, as in the reference.
#pragma once

#include <cstdint>

#include "kernels/optimized/fquant/fquant.h"
#include "kernels/optimized/qgemm/qgemm_driver.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/packing_cache.h"
#include "ops/nn/quantized_weighted.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

struct HybridWeighted {
  bool optimized = false;
  WeightedGeometry geometry;
  optimized::QGemmPacked gemm;                         // int8 inputs, input offset 0, no bias
  const optimized::FQuantKernel* quantizer = nullptr;  // the input's, bit-exact as the reference
  const int32_t* column_sums = nullptr;                // Σw per bias slot of the packed layout
  size_t bias_slots = 0;
  const int32_t* unit_sums = nullptr;  // FULLY_CONNECTED: Σw per unit, as the reference's
  // The float side: one weight scale or one per output channel, and the bias.
  float weights_scale = 1.f;
  const float* channel_scales = nullptr;
  bool asymmetric = false;  // per-batch (conv) or per-row (FC) zero points
  float act_min = 0.f, act_max = 0.f;
  PackingCache packing;
};

// Temporaries the optimized hybrid path uses; the ops reserve this many in init.
constexpr int kHybridScratchCount = 6;

// Chooses the kernel and, when optimized, packs the weights and sizes `scratch` (else the
// op sizes its reference scratch itself). `channel_scales` (one per output channel, or null
// for `weights_scale`) must outlive the node. Records the node's kernel name.
TfLiteStatus PrepareHybridWeighted(TfLiteContext* context, TfLiteNode* node,
                                   const WeightedGeometry& geometry, const WeightedOpTensors& t,
                                   float weights_scale, const float* channel_scales,
                                   bool asymmetric, float act_min, float act_max,
                                   bool reference_only, NodeScratch* scratch, HybridWeighted* h);

// Runs the optimized path; false when prepare chose the reference (the caller runs it).
bool EvalHybridWeighted(TfLiteContext* context, const HybridWeighted& h, const NodeScratch& scratch,
                        const WeightedOpTensors& t);

}  // namespace octet::ops::nn
