// AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D, float32, NHWC, SAME/VALID padding, fused
// activation. They share validation and differ only in the reduction.
#include "kernels/reference/pooling.h"

#include <memory>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/pool/fpool.h"
#include "kernels/optimized/pool/qpool.h"
#include "kernels/reference/integer_pooling.h"
#include "kernels/shape.h"
#include "octet/kernel_info.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/nn_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::pooling {
namespace {

using reference::PoolKind;

constexpr int kInput = 0;
constexpr int kOutput = 0;

template <PoolKind kKind>
constexpr const char* OpName() {
  switch (kKind) {
    case PoolKind::kAverage:
      return "AVERAGE_POOL_2D";
    case PoolKind::kMax:
      return "MAX_POOL_2D";
    case PoolKind::kL2:
      return "L2_POOL_2D";
  }
  return "";
}

using KernelFn = bool (*)(PoolKind, const reference::PoolParams&, const Shape&, const float*,
                          const Shape&, float*);

struct OpData {
  reference::PoolParams params;
  KernelFn kernel = nullptr;
  // Quantized (int8 / uint8 / int16) state: the clamp in the output's integer domain.
  bool quantized = false;
  bool quantized_fast = false;  // the channel-vectorized integer loop (same bits)
  int32_t act_min = 0;
  int32_t act_max = 0;
};

void* Init(TfLiteContext*, const char*, size_t) { return std::make_unique<OpData>().release(); }

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// kReferenceOnly: Register_X_POOL_2D_REF (BuiltinRefOpResolver) keeps the reference loops.
template <PoolKind kKind, bool kReferenceOnly>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = OpName<kKind>();
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLitePoolParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, kOp, 1, 1, 1));

  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kInput, &input));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kOutput, &output));
  const bool quantized = kKind != PoolKind::kL2 && IsQuantizedType(input->type);
  if (quantized) {
    OCTET_OP_ENSURE(context, output->type == input->type, kOp,
                    "output type %s must match input type %s", TfLiteTypeGetName(output->type),
                    TfLiteTypeGetName(input->type));
    TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "input", input));
    TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "output", output));
    TF_LITE_ENSURE_OK(context,
                      quant::CheckSameParams(context, kOp, "input", input, "output", output));
  } else {
    TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "input", input));
    TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "output", output));
  }
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "input", input, 4));

  AxisWindow wh, ww;
  TF_LITE_ENSURE_OK(context,
                    ComputeAxisWindow(context, kOp, "height", params->padding, input->dims->data[1],
                                      params->filter_height, params->stride_height, 1, &wh));
  TF_LITE_ENSURE_OK(context,
                    ComputeAxisWindow(context, kOp, "width", params->padding, input->dims->data[2],
                                      params->filter_width, params->stride_width, 1, &ww));

  reference::PoolParams& p = data->params;
  data->quantized = quantized;
  if (quantized) {
    TF_LITE_ENSURE_OK(context,
                      tflite::CalculateActivationRangeQuantized(context, params->activation, output,
                                                                &data->act_min, &data->act_max));
  } else {
    TF_LITE_ENSURE_OK(
        context, ActivationRange<float>(context, kOp, params->activation, &p.act_min, &p.act_max));
  }
  p.stride_height = params->stride_height;
  p.stride_width = params->stride_width;
  p.filter_height = params->filter_height;
  p.filter_width = params->filter_width;
  p.pad_height = wh.pad;
  p.pad_width = ww.pad;
  // The channel-vectorized loop gives the reference's bits; OCTET_ISA=reference keeps the
  // reference loop itself.
  const bool optimized = !kReferenceOnly && cpu::ActiveIsa() != cpu::Isa::kReference;
  const bool fast = !quantized && optimized;
  data->kernel = fast ? &optimized::FloatPool : &reference::Pool;
  data->quantized_fast = quantized && optimized;
  SetNodeKernelName(context, node, fast ? "fpool" : data->quantized_fast ? "qpool" : "reference");
  return ResizeOutput(context, output,
                      {input->dims->data[0], wh.out_size, ww.out_size, input->dims->data[3]});
}

template <typename T>
bool RunQuantized(PoolKind kind, const OpData* data, const TfLiteTensor* input,
                  TfLiteTensor* output) {
  const auto run =
      data->quantized_fast ? &optimized::QuantizedPool<T> : &reference::QuantizedPool<T>;
  return run(kind, data->params, data->act_min, data->act_max, Shape::Of(input),
             tflite::GetTensorData<T>(input), Shape::Of(output), tflite::GetTensorData<T>(output));
}

template <PoolKind kKind>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = OpName<kKind>();
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output", output));
  if (data->quantized) {
    bool ok = false;
    switch (input->type) {
      case kTfLiteInt8:
        ok = RunQuantized<int8_t>(kKind, data, input, output);
        break;
      case kTfLiteUInt8:
        ok = RunQuantized<uint8_t>(kKind, data, input, output);
        break;
      default:
        ok = RunQuantized<int16_t>(kKind, data, input, output);
        break;
    }
    OCTET_OP_ENSURE(context, ok, kOp, "a pooling window has no cell inside the input");
    return kTfLiteOk;
  }
  OCTET_OP_ENSURE(context,
                  data->kernel(kKind, data->params, Shape::Of(input), input->data.f,
                               Shape::Of(output), output->data.f),
                  kOp, "a pooling window has no cell inside the input");
  return kTfLiteOk;
}

template <PoolKind kKind, bool kReferenceOnly = false>
TfLiteRegistration* Registration() {
  static TfLiteRegistration r =
      MakeRegistration(Init, Free, Prepare<kKind, kReferenceOnly>, Eval<kKind>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::nn::pooling

namespace tflite::ops::builtin {

TfLiteRegistration* Register_AVERAGE_POOL_2D() {
  return octet::ops::nn::pooling::Registration<octet::reference::PoolKind::kAverage>();
}

TfLiteRegistration* Register_MAX_POOL_2D() {
  return octet::ops::nn::pooling::Registration<octet::reference::PoolKind::kMax>();
}

TfLiteRegistration* Register_L2_POOL_2D() {
  return octet::ops::nn::pooling::Registration<octet::reference::PoolKind::kL2>();
}

TfLiteRegistration* Register_AVERAGE_POOL_REF() {
  return octet::ops::nn::pooling::Registration<octet::reference::PoolKind::kAverage, true>();
}

TfLiteRegistration* Register_MAX_POOL_REF() {
  return octet::ops::nn::pooling::Registration<octet::reference::PoolKind::kMax, true>();
}

}  // namespace tflite::ops::builtin
