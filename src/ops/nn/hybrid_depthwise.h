// The hybrid ("dynamic range": int8 filter, float activations) DEPTHWISE_CONV_2D on the
// quantized depthwise micro-kernels. Each batch image is quantized asymmetrically exactly as
// the reference does; the kernels return the raw int32 sums, which are the reference's own
// integers (exact arithmetic modulo 2^32, as its int32 sum), and the float finish repeats the
// reference's expression, so the output is bit-identical to the reference kernel's.
//
// Padding: the padding taps read a row holding the batch's zero point and the packed bias is
// -zero_point * Σw per channel, so every tap contributes w * (x - zero_point) and a padding
// tap exactly 0, as in the reference (which skips it).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/fquant/fquant.h"
#include "kernels/optimized/qdw/qdw_driver.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/packing_cache.h"
#include "ops/nn/quantized_weighted.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

struct HybridDepthwise {
  bool optimized = false;
  WeightedGeometry geometry;
  optimized::QDwPacked packed;                         // int8 inputs, input offset 0, no bias
  const optimized::FQuantKernel* quantizer = nullptr;  // the input's, bit-exact as the reference
  const int32_t* channel_sums = nullptr;               // Σw per bias slot of the packed layout
  size_t bias_slots = 0;
  const float* channel_scales = nullptr;  // one per output channel
  float act_min = 0.f, act_max = 0.f;
  PackingCache packing;
};

// Temporaries the optimized path uses; DEPTHWISE_CONV_2D reserves this many in init.
constexpr int kHybridDepthwiseScratchCount = 6;

// Chooses the kernel and, when optimized, packs the filter and sizes `scratch` (else the op
// sizes its reference scratch itself). `channel_scales` (one per output channel) must
// outlive the node. Records the node's kernel name.
TfLiteStatus PrepareHybridDepthwise(TfLiteContext* context, TfLiteNode* node,
                                    const WeightedGeometry& geometry, const WeightedOpTensors& t,
                                    const float* channel_scales, float act_min, float act_max,
                                    bool reference_only, NodeScratch* scratch, HybridDepthwise* h);

// Runs the optimized path; false when prepare chose the reference (the caller runs it).
bool EvalHybridDepthwise(TfLiteContext* context, const HybridDepthwise& h,
                         const NodeScratch& scratch, const WeightedOpTensors& t);

}  // namespace octet::ops::nn
