#include "ops/nn/transpose_conv_quantized.h"

#include <cstdint>

#include "kernels/reference/hybrid_quantize.h"
#include "kernels/reference/integer_conv_transpose.h"
#include "kernels/shape.h"
#include "ops/nn/nn_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::transpose_conv {
namespace {

// quantized_bias_type as TFLite reads it: FLOAT32 (the schema default) or absent options
// leave the kernel's default.
bool BiasTypeRequested(TfLiteType t) { return t != kTfLiteNoType && t != kTfLiteFloat32; }

template <typename Acc, typename InT, typename WT, typename BiasT>
void Run(const TransposeConvParams& p, const QuantizedData& data, const TfLiteTensor* input,
         const TfLiteTensor* weights, const TfLiteTensor* bias, TfLiteTensor* output) {
  reference::QuantizedTransposeConv<Acc>(p, data.weights.params, Shape::Of(input),
                                         tflite::GetTensorData<InT>(input), Shape::Of(weights),
                                         tflite::GetTensorData<WT>(weights),
                                         bias ? tflite::GetTensorData<BiasT>(bias) : nullptr,
                                         Shape::Of(output), tflite::GetTensorData<InT>(output));
}

}  // namespace

TfLiteStatus PrepareQuantized(TfLiteContext* context, const TfLiteTransposeConvParams* params,
                              const TfLiteTensor* input, const TfLiteTensor* weights,
                              const TfLiteTensor* bias, TfLiteTensor* output, QuantizedData* data) {
  data->wide = false;
  if (input->type == kTfLiteInt16) {
    const TfLiteType requested = params->quantized_bias_type;
    if (BiasTypeRequested(requested)) {
      OCTET_OP_ENSURE(context, requested == kTfLiteInt32 || requested == kTfLiteInt64, kOp,
                      "quantized_bias_type %s must be INT32 or INT64",
                      TfLiteTypeGetName(requested));
      OCTET_OP_ENSURE(context, bias == nullptr || bias->type == requested, kOp,
                      "bias type %s does not match quantized_bias_type %s",
                      TfLiteTypeGetName(bias->type), TfLiteTypeGetName(requested));
    }
    // The bias's own type decides when quantized_bias_type is not given (TFLite would read
    // an INT32 bias as INT64 there).
    data->wide = bias != nullptr ? bias->type == kTfLiteInt64 : requested != kTfLiteInt32;
  }
  const int out_channels = weights->dims->data[0];
  return PrepareQuantizedWeightedOp(context, kOp, input, weights, bias, output, params->activation,
                                    /*channel_dim=*/0, out_channels, &data->weights);
}

TfLiteStatus PrepareHybrid(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* input,
                           const TfLiteTensor* weights, QuantizedData* data, NodeScratch* scratch) {
  const int out_channels = weights->dims->data[0];
  float scale = 0.f;
  TF_LITE_ENSURE_OK(context, ReadHybridWeightScales(context, kOp, weights, /*channel_dim=*/0,
                                                    out_channels, &scale, &data->channel_scales));
  if (data->channel_scales.empty()) data->channel_scales.assign(out_channels, scale);
  const int batches = input->dims->data[0];
  OCTET_OP_ENSURE(context, batches > 0, kOp, "hybrid input batch must be > 0, got %d", batches);
  return PrepareHybridScratch(context, node, scratch, tflite::NumElements(input), batches);
}

void EvalQuantized(const TransposeConvParams& p, const QuantizedData& data,
                   const TfLiteTensor* input, const TfLiteTensor* weights, const TfLiteTensor* bias,
                   TfLiteTensor* output) {
  switch (input->type) {
    case kTfLiteUInt8:
      Run<int32_t, uint8_t, uint8_t, int32_t>(p, data, input, weights, bias, output);
      break;
    case kTfLiteInt8:
      Run<int32_t, int8_t, int8_t, int32_t>(p, data, input, weights, bias, output);
      break;
    default:  // int16x8, checked in prepare
      if (data.wide) {
        Run<int64_t, int16_t, int8_t, int64_t>(p, data, input, weights, bias, output);
      } else {
        Run<int32_t, int16_t, int8_t, int32_t>(p, data, input, weights, bias, output);
      }
      break;
  }
}

void EvalHybrid(TfLiteContext* context, const TransposeConvParams& p, const QuantizedData& data,
                const NodeScratch& scratch, const TfLiteTensor* input, const TfLiteTensor* weights,
                const TfLiteTensor* bias, TfLiteTensor* output) {
  const reference::HybridConvScratch s = HybridScratchView(context, scratch);
  const Shape input_shape = Shape::Of(input);
  const int batches = input_shape.dim(0);
  const int64_t per_batch = batches > 0 ? input_shape.FlatSize() / batches : 0;
  for (int b = 0; b < batches; ++b) {
    reference::AsymmetricQuantize(input->data.f + b * per_batch, per_batch,
                                  s.quantized + b * per_batch, &s.scales[b], &s.offsets[b]);
  }
  reference::HybridTransposeConv(p, input_shape, s.quantized, s.scales, s.offsets,
                                 Shape::Of(weights), tflite::GetTensorData<int8_t>(weights),
                                 data.channel_scales.data(), bias ? bias->data.f : nullptr,
                                 Shape::Of(output), output->data.f);
}

}  // namespace octet::ops::nn::transpose_conv
