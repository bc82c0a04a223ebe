// TRANSPOSE_CONV's integer kernels (uint8, int8 per-tensor or per-channel, int16x8 with an
// int32 or int64 bias) and its hybrid kernel (float input, int8 weights): prepare-time
// validation and requantization parameters, and the invoke glue. transpose_conv.cc checks
// the shapes and options common to every type and calls these.
#pragma once

#include <vector>

#include "kernels/types.h"
#include "ops/nn/nn_quant.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn::transpose_conv {

inline constexpr char kOp[] = "TRANSPOSE_CONV";

struct QuantizedData {
  QuantizedWeightsData weights;  // integer kernels: offsets, clamp, per-channel multipliers
  // int16x8 only: accumulate in int64 (int64 bias, or none unless quantized_bias_type says
  // INT32); otherwise in int32 with TFLite's 32-bit requantization.
  bool wide = false;
  std::vector<float> channel_scales;  // hybrid: one weight scale per output channel
};

// Integer input: types, quantization of every tensor, quantized_bias_type, multipliers.
TfLiteStatus PrepareQuantized(TfLiteContext* context, const TfLiteTransposeConvParams* params,
                              const TfLiteTensor* input, const TfLiteTensor* weights,
                              const TfLiteTensor* bias, TfLiteTensor* output, QuantizedData* data);

// Float input with int8 weights: the weights' quantization and the input's quantization
// scratch (scratch temporaries 0..2).
TfLiteStatus PrepareHybrid(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* input,
                           const TfLiteTensor* weights, QuantizedData* data, NodeScratch* scratch);

void EvalQuantized(const TransposeConvParams& p, const QuantizedData& data,
                   const TfLiteTensor* input, const TfLiteTensor* weights, const TfLiteTensor* bias,
                   TfLiteTensor* output);

void EvalHybrid(TfLiteContext* context, const TransposeConvParams& p, const QuantizedData& data,
                const NodeScratch& scratch, const TfLiteTensor* input, const TfLiteTensor* weights,
                const TfLiteTensor* bias, TfLiteTensor* output);

}  // namespace octet::ops::nn::transpose_conv
