// The float32 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED on the optimized kernels:
// fgemm for convolutions and FC, fdw for depthwise with multiplier 1, and fgemm again for a
// depthwise with one input channel (a convolution whose channels are the multiplier). Prepare
// packs the weights into persistent memory when the active kernel path has a kernel and the
// node qualifies (float32, constant weights and bias, one group); otherwise, or when pinned
// to the reference (OCTET_ISA=reference, Register_X_REF), the op keeps its reference kernel.
// Results equal the reference's within float rounding (summation order, FMA), not bit for bit.
#pragma once

#include "kernels/optimized/fdw/fdw_driver.h"
#include "kernels/optimized/fgemm/fgemm_driver.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/packing_cache.h"
#include "ops/nn/quantized_weighted.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

struct FloatWeighted {
  bool optimized = false;
  WeightedGeometry geometry;
  bool dense = false;      // FULLY_CONNECTED, or a 1x1 stride-1 unpadded convolution
  bool depthwise = false;  // runs fdw (else fgemm)
  optimized::FGemmPacked gemm;
  optimized::FDwPacked dw;
  const float* zero_row = nullptr;  // in_c zeros: the padding taps
  // Convolutions whose border pixels are many: temporary 0 of this scratch holds the input
  // inside a border of zeros (FConvPaddedInputFloats), so every pixel runs as an interior one.
  const NodeScratch* padded_input = nullptr;
  optimized::FloatClamp clamp{0.f, 0.f};
  PackingCache packing;
};

// Chooses the kernel and packs; records the node's kernel name. Fails only when out of memory.
// `scratch` (CONV_2D; may be null) receives the padded-input temporary when one pays.
TfLiteStatus PrepareFloatWeighted(TfLiteContext* context, TfLiteNode* node,
                                  const WeightedGeometry& geometry,
                                  const WeightedOpTensors& tensors, float act_min, float act_max,
                                  bool reference_only, FloatWeighted* f,
                                  NodeScratch* scratch = nullptr);

// Runs the optimized kernel; false when prepare chose the reference (the caller runs it).
// With `residual` (CONV_2D only) a fused ADD: the sum goes to `fused_output`, not the output.
bool EvalFloatWeighted(TfLiteContext* context, const FloatWeighted& f,
                       const WeightedOpTensors& tensors,
                       const optimized::FGemmResidual* residual = nullptr,
                       float* fused_output = nullptr);

}  // namespace octet::ops::nn
