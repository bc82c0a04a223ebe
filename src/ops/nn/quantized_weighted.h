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

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/qdw/qdw_driver.h"
#include "kernels/optimized/qgemm/qgemm_driver.h"
#include "kernels/optimized/window.h"
#include "kernels/reference/conv.h"
#include "kernels/reference/depthwise_conv.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/nn_util.h"
#include "ops/nn/packing_cache.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

enum class WeightedOp { kConv, kDepthwise, kFullyConnected };

// What the op computed in its own prepare. Convolutions use the NHWC fields, FULLY_CONNECTED
// rows / depth / units.
struct WeightedGeometry : optimized::Window2D {
  WeightedOp op = WeightedOp::kConv;
  int out_c = 1;
  int groups = 1;                      // CONV_2D
  int depth_multiplier = 1;            // DEPTHWISE_CONV_2D
  int rows = 1, depth = 1, units = 1;  // FULLY_CONNECTED
};

// The geometry of a CONV_2D / DEPTHWISE_CONV_2D node from its NHWC input, filter size,
// per-axis windows and its builtin params (stride and dilation fields, same names in both).
template <typename WindowParams>
WeightedGeometry ConvLikeGeometry(WeightedOp op, const TfLiteIntArray& input_dims, int out_c,
                                  int kernel_h, int kernel_w, const AxisWindow& wh,
                                  const AxisWindow& ww, const WindowParams& params) {
  WeightedGeometry g;
  g.op = op;
  g.batches = input_dims.data[0];
  g.in_h = input_dims.data[1];
  g.in_w = input_dims.data[2];
  g.in_c = input_dims.data[3];
  g.out_h = wh.out_size;
  g.out_w = ww.out_size;
  g.out_c = out_c;
  g.kernel_h = kernel_h;
  g.kernel_w = kernel_w;
  g.stride_h = params.stride_height;
  g.stride_w = params.stride_width;
  g.dilation_h = params.dilation_height_factor;
  g.dilation_w = params.dilation_width_factor;
  g.pad_h = wh.pad;
  g.pad_w = ww.pad;
  return g;
}

// A quantized weighted node's state, from prepare to invoke.
struct QuantizedWeighted {
  QuantizedWeightsData quant;  // multipliers and offsets (reference terms)
  WeightedGeometry geometry;
  const char* kernel_name = "reference";
  bool optimized = false;
  // A DEPTHWISE_CONV_2D with one input channel is a convolution with kc = 1 (every output
  // channel reads the same input pixel): it runs on the GEMM kernel, whose columns are the
  // channels, instead of the depthwise kernel, which would use one input lane per output.
  bool depthwise_as_conv = false;
  optimized::QGemmPacked gemm;
  optimized::QDwPacked depthwise;
  const uint8_t* zero_row = nullptr;  // in_c bytes of the input zero point
  PackingCache packing;
  // The op's node temporaries; DEPTHWISE_CONV_2D's optimized kernel uses one (a depth
  // multiplier's repeated input), so it passes its NodeScratch here.
  const NodeScratch* scratch = nullptr;
  // Temporary 0 of `scratch` holds the GEMM convolution's input inside a border of its zero
  // point (optimized::QGemmConvPaddedInputBytes).
  bool padded_input = false;
};

// Quantization checks and multipliers (PrepareQuantizedWeightedOp), then the variant choice.
// `reference_only` pins the reference kernel (Register_X_REF).
// The GEMM micro-kernel for a conv-like or FULLY_CONNECTED node on `isa` (nullptr on the
// reference path): a FULLY_CONNECTED of few rows takes the variant with smaller weights.
const optimized::QGemmKernel* GemmKernelFor(cpu::Isa isa, const WeightedGeometry& g);

TfLiteStatus PrepareQuantizedWeighted(TfLiteContext* context, TfLiteNode* node, const char* op,
                                      const WeightedGeometry& geometry,
                                      const WeightedOpTensors& tensors,
                                      TfLiteFusedActivation activation, bool reference_only,
                                      NodeScratch* scratch, QuantizedWeighted* q);

void EvalQuantizedWeighted(TfLiteContext* context, TfLiteNode* node, const QuantizedWeighted& q,
                           const WeightedOpTensors& tensors);

}  // namespace octet::ops::nn
