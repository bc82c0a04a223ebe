// CONV_2D, float32: NHWC input, OHWI filter, optional bias, SAME/VALID padding, strides,
// dilations, fused activation, grouped convolution (input channels = k * filter channels).
// An INT8 filter with a FLOAT32 input runs the hybrid (dynamic-range) kernel.
#include <memory>
#include <vector>

#include "core/residual_fusion.h"
#include "kernels/reference/conv.h"
#include "kernels/reference/conv_hybrid.h"
#include "kernels/reference/integer_conv.h"
#include "kernels/shape.h"
#include "ops/nn/float_weighted.h"
#include "ops/nn/hybrid_weighted.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/nn_util.h"
#include "ops/nn/quantized_weighted.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::conv_2d {
namespace {

constexpr char kOp[] = "CONV_2D";

using KernelFn = void (*)(const reference::ConvParams&, const Shape&, const float*, const Shape&,
                          const float*, const float*, const Shape&, float*);

using HybridFn = void (*)(const reference::ConvParams&, const Shape&, const float*, const Shape&,
                          const int8_t*, float, const float*, const float*, const Shape&, float*,
                          const reference::HybridConvScratch&);

struct OpData {
  reference::ConvParams params;
  // The implementation chosen in prepare; an optimized one can be swapped in here.
  KernelFn kernel = nullptr;
  // Hybrid (INT8 filter) state: filter scales and per-invoke quantization scratch.
  HybridFn hybrid_kernel = nullptr;
  float filter_scale = 1.f;
  std::vector<float> channel_scales;  // empty: one scale for all channels
  NodeScratch scratch;  // hybrid: the quantized input (three temporaries); float: padded input
  // Quantized (int8 / uint8 / int16x8) state and kernel choice.
  bool quantized = false;
  QuantizedWeighted quant;
  // Float32 state: the optimized GEMM when prepare chose it.
  FloatWeighted fast;
  // Hybrid state on the quantized GEMM when prepare chose it.
  HybridWeighted hybrid;
  // INT4 filters (int8 input only, as in TFLite), unpacked once at prepare.
  Int4Weights int4;
};

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context, kHybridScratchCount) != kTfLiteOk) return nullptr;
  return data.release();
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// `reference_only` pins the reference kernel (Register_CONV_2D_REF).
TfLiteStatus PrepareImpl(TfLiteContext* context, TfLiteNode* node, bool reference_only) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConvParams*>(node->builtin_data);
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
  const int out_ch = filter->dims->data[0];
  const int filter_h = filter->dims->data[1];
  const int filter_w = filter->dims->data[2];
  const int filter_ch = filter->dims->data[3];

  OCTET_OP_ENSURE(context, out_ch > 0, kOp, "filter output channels must be > 0, got %d", out_ch);
  OCTET_OP_ENSURE(context, filter_ch > 0, kOp, "filter input channels must be > 0, got %d",
                  filter_ch);
  OCTET_OP_ENSURE(context, in_ch > 0 && in_ch % filter_ch == 0, kOp,
                  "input channels (%d) must be a positive multiple of filter channels (%d)", in_ch,
                  filter_ch);
  const int groups = in_ch / filter_ch;
  OCTET_OP_ENSURE(context, out_ch % groups == 0, kOp,
                  "output channels (%d) must be a multiple of the group count (%d)", out_ch,
                  groups);
  TF_LITE_ENSURE_OK(context,
                    CheckWeightedOpBias(context, kOp, bias, quantized, out_ch, "output channels"));

  AxisWindow wh, ww;
  TF_LITE_ENSURE_OK(context,
                    ComputeAxisWindow(context, kOp, "height", params->padding, in_h, filter_h,
                                      params->stride_height, params->dilation_height_factor, &wh));
  TF_LITE_ENSURE_OK(context,
                    ComputeAxisWindow(context, kOp, "width", params->padding, in_w, filter_w,
                                      params->stride_width, params->dilation_width_factor, &ww));

  reference::ConvParams& p = data->params;
  // The geometry every kernel family (quantized, hybrid, float) is chosen from.
  WeightedGeometry g = ConvLikeGeometry(WeightedOp::kConv, *input->dims, out_ch, filter_h, filter_w,
                                        wh, ww, *params);
  g.groups = groups;
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
  data->kernel = nullptr;
  data->hybrid_kernel = nullptr;
  if (hybrid) {
    TF_LITE_ENSURE_OK(context, ReadHybridWeightScales(context, kOp, filter, 0, out_ch,
                                                      &data->filter_scale, &data->channel_scales));
    const float* channel_scales =
        data->channel_scales.empty() ? nullptr : data->channel_scales.data();
    // Per-channel weights take asymmetric (zero point) input quantization, as in TFLite.
    TF_LITE_ENSURE_OK(context,
                      PrepareHybridWeighted(context, node, g, t, data->filter_scale, channel_scales,
                                            channel_scales != nullptr, p.act_min, p.act_max,
                                            reference_only, &data->scratch, &data->hybrid));
    if (!data->hybrid.optimized) {
      TF_LITE_ENSURE_OK(context, PrepareHybridScratch(context, node, &data->scratch,
                                                      tflite::NumElements(input), batches));
    }
    data->hybrid_kernel = &reference::HybridConv;
  } else if (!quantized) {
    data->kernel = &reference::Conv;
    TF_LITE_ENSURE_OK(context, PrepareFloatWeighted(context, node, g, t, p.act_min, p.act_max,
                                                    reference_only, &data->fast, &data->scratch));
    // The optimized float kernels can add a residual in their output stage: a same-shape
    // ADD reading only this output is then computed here (core/residual_fusion.h).
    if (data->fast.optimized && !data->fast.depthwise) octet::AcceptResidualFusion(context, node);
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
    if (EvalHybridWeighted(context, data->hybrid, data->scratch, t)) return kTfLiteOk;
    const reference::HybridConvScratch scratch = HybridScratchView(context, data->scratch);
    data->hybrid_kernel(data->params, Shape::Of(input), input->data.f, Shape::Of(filter),
                        filter->data.int8, data->filter_scale,
                        data->channel_scales.empty() ? nullptr : data->channel_scales.data(),
                        bias ? bias->data.f : nullptr, Shape::Of(output), output->data.f, scratch);
    return kTfLiteOk;
  }
  octet::FusedResidualAdd add;
  if (octet::ActiveResidualFusion(context, node, &add)) {
    OCTET_OP_ENSURE(context, add.residual != nullptr && add.output != nullptr, kOp,
                    "the fused ADD's tensors have no data");
    const optimized::FGemmResidual residual{add.residual, {add.act_min, add.act_max}};
    OCTET_OP_ENSURE(context, EvalFloatWeighted(context, data->fast, t, &residual, add.output), kOp,
                    "the fused ADD needs the optimized kernel");
    return kTfLiteOk;
  }
  if (EvalFloatWeighted(context, data->fast, t)) return kTfLiteOk;
  data->kernel(data->params, Shape::Of(input), input->data.f, Shape::Of(filter), filter->data.f,
               bias ? bias->data.f : nullptr, Shape::Of(output), output->data.f);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::conv_2d

namespace tflite::ops::builtin {

TfLiteRegistration* Register_CONV_2D() {
  namespace op = octet::ops::nn::conv_2d;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

TfLiteRegistration* Register_CONV_2D_REF() {
  namespace op = octet::ops::nn::conv_2d;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareReference, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
