// DEPTHWISE_CONV_2D, float32: NHWC input, [1,KH,KW,C*M] filter, optional bias, SAME/VALID
// padding, strides, dilations, depth multiplier, fused activation. An INT8 filter with a
// FLOAT32 input runs the hybrid (dynamic-range, per-channel) kernel.
#include <algorithm>
#include <memory>
#include <vector>

#include "kernels/reference/depthwise_conv.h"
#include "kernels/reference/depthwise_conv_hybrid.h"
#include "kernels/reference/integer_conv.h"
#include "kernels/shape.h"
#include "ops/nn/float_weighted.h"
#include "ops/nn/hybrid_depthwise.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/nn_util.h"
#include "ops/nn/quantized_weighted.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::depthwise_conv_2d {
namespace {

constexpr char kOp[] = "DEPTHWISE_CONV_2D";

using KernelFn = void (*)(const reference::DepthwiseParams&, const Shape&, const float*,
                          const Shape&, const float*, const float*, const Shape&, float*);

using HybridFn = void (*)(const reference::DepthwiseParams&, const Shape&, const float*,
                          const Shape&, const int8_t*, const float*, const float*, const Shape&,
                          float*, const reference::HybridConvScratch&);

struct OpData {
  reference::DepthwiseParams params;
  // The implementation chosen in prepare; an optimized one can be swapped in here.
  KernelFn kernel = nullptr;
  // Hybrid (INT8 filter) state: one scale per output channel and quantization scratch.
  HybridFn hybrid_kernel = nullptr;
  std::vector<float> channel_scales;
  NodeScratch scratch;     // hybrid input quantization, or a depth multiplier's repeated input
  HybridDepthwise hybrid;  // the hybrid kernel on the quantized depthwise kernels, if chosen
  // Quantized (int8 / uint8 / int16x8) state and kernel choice.
  bool quantized = false;
  QuantizedWeighted quant;
  // Float32 state: the optimized kernel when prepare chose it.
  FloatWeighted fast;
  // INT4 filters (int8 input only, as in TFLite), unpacked once at prepare.
  Int4Weights int4;
};

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context, std::max(3, kHybridDepthwiseScratchCount)) != kTfLiteOk) {
    return nullptr;
  }
  return data.release();
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// `reference_only` pins the reference kernel (Register_DEPTHWISE_CONV_2D_REF).
TfLiteStatus PrepareImpl(TfLiteContext* context, TfLiteNode* node, bool reference_only) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteDepthwiseConvParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  WeightedOpTensors t;
  TF_LITE_ENSURE_OK(context,
                    PrepareWeightedOpTensors(context, node, kOp, "filter", &t, &data->int4));
  const TfLiteTensor* input = t.input;
  const TfLiteTensor* filter = t.weights;
  const TfLiteTensor* bias = t.bias;
  TfLiteTensor* output = t.output;
  const bool quantized = t.quantized;
  const bool hybrid = t.hybrid;
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "input", input, 4));
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "filter", filter, 4));

  const int batches = input->dims->data[0];
  const int in_h = input->dims->data[1];
  const int in_w = input->dims->data[2];
  const int in_ch = input->dims->data[3];
  const int filter_h = filter->dims->data[1];
  const int filter_w = filter->dims->data[2];
  const int out_ch = filter->dims->data[3];

  OCTET_OP_ENSURE(context, filter->dims->data[0] == 1, kOp, "filter dimension 0 must be 1, got %d",
                  filter->dims->data[0]);
  OCTET_OP_ENSURE(context, in_ch > 0, kOp, "input channels must be > 0, got %d", in_ch);
  OCTET_OP_ENSURE(context, out_ch > 0 && out_ch % in_ch == 0, kOp,
                  "filter channels (%d) must be a positive multiple of input channels (%d)", out_ch,
                  in_ch);
  const int multiplier = out_ch / in_ch;
  // The option is redundant with the shapes; 0 (left unset by some converters) is derived.
  OCTET_OP_ENSURE(context, params->depth_multiplier == 0 || params->depth_multiplier == multiplier,
                  kOp, "depth_multiplier %d does not match filter channels %d / input channels %d",
                  params->depth_multiplier, out_ch, in_ch);
  TF_LITE_ENSURE_OK(context,
                    CheckWeightedOpBias(context, kOp, bias, quantized, out_ch, "output channels"));

  AxisWindow wh, ww;
  TF_LITE_ENSURE_OK(context,
                    ComputeAxisWindow(context, kOp, "height", params->padding, in_h, filter_h,
                                      params->stride_height, params->dilation_height_factor, &wh));
  TF_LITE_ENSURE_OK(context,
                    ComputeAxisWindow(context, kOp, "width", params->padding, in_w, filter_w,
                                      params->stride_width, params->dilation_width_factor, &ww));

  reference::DepthwiseParams& p = data->params;
  // The geometry every kernel family (quantized, float) is chosen from.
  WeightedGeometry g = ConvLikeGeometry(WeightedOp::kDepthwise, *input->dims, out_ch, filter_h,
                                        filter_w, wh, ww, *params);
  g.depth_multiplier = multiplier;
  data->quantized = quantized;
  if (quantized) {
    TF_LITE_ENSURE_OK(context,
                      PrepareQuantizedWeighted(context, node, kOp, g, t, params->activation,
                                               reference_only, &data->scratch, &data->quant));
  } else {
    TF_LITE_ENSURE_OK(
        context, ActivationRange<float>(context, kOp, params->activation, &p.act_min, &p.act_max));
  }
  p.stride_height = params->stride_height;
  p.stride_width = params->stride_width;
  p.dilation_height = params->dilation_height_factor;
  p.dilation_width = params->dilation_width_factor;
  p.pad_height = wh.pad;
  p.pad_width = ww.pad;
  p.depth_multiplier = multiplier;
  data->kernel = nullptr;
  data->hybrid_kernel = nullptr;
  if (hybrid) {
    float scale = 1.f;
    TF_LITE_ENSURE_OK(context, ReadHybridWeightScales(context, kOp, filter, 3, out_ch, &scale,
                                                      &data->channel_scales));
    // TFLite's hybrid depthwise kernel is per-channel only; one scale applies to all.
    if (data->channel_scales.empty()) data->channel_scales.assign(out_ch, scale);
    TF_LITE_ENSURE_OK(
        context, PrepareHybridDepthwise(context, node, g, t, data->channel_scales.data(), p.act_min,
                                        p.act_max, reference_only, &data->scratch, &data->hybrid));
    if (!data->hybrid.optimized) {
      TF_LITE_ENSURE_OK(context, PrepareHybridScratch(context, node, &data->scratch,
                                                      tflite::NumElements(input), batches));
    }
    data->hybrid_kernel = &reference::HybridDepthwiseConv;
  } else if (!quantized) {
    data->kernel = &reference::DepthwiseConv;
    TF_LITE_ENSURE_OK(context, PrepareFloatWeighted(context, node, g, t, p.act_min, p.act_max,
                                                    reference_only, &data->fast));
  }

  return ResizeOutput(context, output, {batches, wh.out_size, ww.out_size, out_ch});
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareImpl(context, node, false);
}
TfLiteStatus PrepareReference(TfLiteContext* context, TfLiteNode* node) {
  return PrepareImpl(context, node, true);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  WeightedOpTensors t;
  TF_LITE_ENSURE_OK(context,
                    GetWeightedOpTensorsWithData(context, node, kOp, "filter", &t, &data->int4));
  const TfLiteTensor* input = t.input;
  const TfLiteTensor* filter = t.weights;
  const TfLiteTensor* bias = t.bias;
  TfLiteTensor* output = t.output;
  if (data->quantized) {
    EvalQuantizedWeighted(context, node, data->quant, t);
    return kTfLiteOk;
  }
  if (data->hybrid_kernel) {
    if (EvalHybridDepthwise(context, data->hybrid, data->scratch, t)) return kTfLiteOk;
    data->hybrid_kernel(data->params, Shape::Of(input), input->data.f, Shape::Of(filter),
                        filter->data.int8, data->channel_scales.data(),
                        bias ? bias->data.f : nullptr, Shape::Of(output), output->data.f,
                        HybridScratchView(context, data->scratch));
    return kTfLiteOk;
  }
  if (EvalFloatWeighted(context, data->fast, t)) return kTfLiteOk;
  data->kernel(data->params, Shape::Of(input), input->data.f, Shape::Of(filter), filter->data.f,
               bias ? bias->data.f : nullptr, Shape::Of(output), output->data.f);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::depthwise_conv_2d

namespace tflite::ops::builtin {

TfLiteRegistration* Register_DEPTHWISE_CONV_2D() {
  namespace op = octet::ops::nn::depthwise_conv_2d;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

TfLiteRegistration* Register_DEPTHWISE_CONV_2D_REF() {
  namespace op = octet::ops::nn::depthwise_conv_2d;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareReference, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
