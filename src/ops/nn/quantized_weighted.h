// The quantized kernels (int8, uint8, int16x8) of CONV_2D, DEPTHWISE_CONV_2D and
// FULLY_CONNECTED, behind one glue. Each op validates its own geometry; prepare here checks
// the quantization (nn_quant) and chooses the variant once:
//   1. the optimized micro-kernel of the active kernel path (cpu::ActiveIsa) when it
//      supports the node: 8-bit types, constant weights and bias, one group, taps the driver
//      can index. Its weights are packed then, into persistent memory;
//   2. otherwise, or when pinned (OCTET_ISA=reference, Register_X_REF), the reference kernel.
// Both give the same bytes: the optimized kernels are tested equal to the reference.
#pragma once

#include <cstdint>

#include "kernels/optimized/qdw/qdw_driver.h"
#include "kernels/optimized/qgemm/qgemm_driver.h"
#include "kernels/reference/conv.h"
#include "kernels/reference/depthwise_conv.h"
#include "ops/nn/nn_quant.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

enum class WeightedOp { kConv, kDepthwise, kFullyConnected };

// What the op computed in its own prepare. Convolutions use the NHWC fields, FULLY_CONNECTED
// rows / depth / units.
struct WeightedGeometry {
  WeightedOp op = WeightedOp::kConv;
  int batches = 1, in_h = 1, in_w = 1, in_c = 1;
  int out_h = 1, out_w = 1, out_c = 1;
  int kernel_h = 1, kernel_w = 1;
  int stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int pad_h = 0, pad_w = 0;
  int groups = 1;                      // CONV_2D
  int depth_multiplier = 1;            // DEPTHWISE_CONV_2D
  int rows = 1, depth = 1, units = 1;  // FULLY_CONNECTED
};

// A quantized weighted node's state, from prepare to invoke.
struct QuantizedWeighted {
  QuantizedWeightsData quant;  // multipliers and offsets (reference terms)
  WeightedGeometry geometry;
  const char* kernel_name = "reference";
  bool optimized = false;
  optimized::QGemmPacked gemm;
  optimized::QDwPacked depthwise;
  const uint8_t* zero_row = nullptr;  // in_c bytes of the input zero point
  // Packing cache: a re-prepare (after a resize) keeps the packed weights.
  const void* packed_weights = nullptr;
  const void* packed_kernel = nullptr;
  // The op's node temporaries; DEPTHWISE_CONV_2D's optimized kernel uses one (a depth
  // multiplier's repeated input), so it passes its NodeScratch here.
  const NodeScratch* scratch = nullptr;
};

// Quantization checks and multipliers (PrepareQuantizedWeightedOp), then the variant choice.
// `reference_only` pins the reference kernel (Register_X_REF).
TfLiteStatus PrepareQuantizedWeighted(TfLiteContext* context, TfLiteNode* node, const char* op,
                                      const WeightedGeometry& geometry,
                                      const WeightedOpTensors& tensors,
                                      TfLiteFusedActivation activation, bool reference_only,
                                      NodeScratch* scratch, QuantizedWeighted* q);

void EvalQuantizedWeighted(TfLiteContext* context, TfLiteNode* node, const QuantizedWeighted& q,
                           const WeightedOpTensors& tensors);

}  // namespace octet::ops::nn
