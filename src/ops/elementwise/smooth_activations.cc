// GELU (float32; int8/uint8 through a lookup table, exact or tanh-approximate), ELU
// (float32; int8 through a lookup table) and RELU_0_TO_1 (float32; int8/uint8 rescaled to
// the output and clamped to its quantized [0, 1]), as TFLite's builtin kernels compute them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/reference/activations.h"
#include "kernels/reference/extra_elementwise.h"
#include "kernels/reference/integer_elementwise.h"
#include "kernels/reference/lut.h"
#include "kernels/reference/saturate.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"

namespace octet::ops::elementwise {
namespace {

constexpr char kGelu[] = "GELU";
constexpr char kElu[] = "ELU";
constexpr char kRelu0To1[] = "RELU_0_TO_1";

struct ActData;
using ActFn = void (*)(const ActData &, const TfLiteTensor *, TfLiteTensor *);

struct ActData {
  ActFn fn = nullptr;
  reference::Lut8 lut{};                         // GELU, ELU quantized
  reference::integer::RequantizeParams requant;  // RELU_0_TO_1 quantized
};

template <float (*F)(float)>
void MapFloat(const ActData &, const TfLiteTensor *in, TfLiteTensor *out) {
  reference::MapElements(tflite::GetTensorData<float>(in), tflite::NumElements(in),
                         tflite::GetTensorData<float>(out), F);
}

template <typename T>
void MapLut(const ActData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  reference::ApplyLut8(d.lut, tflite::GetTensorData<T>(in), tflite::NumElements(in),
                       tflite::GetTensorData<T>(out));
}

template <typename T>
void MapRequantize(const ActData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  reference::MapElements(tflite::GetTensorData<T>(in), tflite::NumElements(in),
                         tflite::GetTensorData<T>(out),
                         [&d](T x) { return reference::integer::Requantize<T, T>(x, d.requant); });
}

// One input and one output of its type; 8-bit tensors must carry valid quantization.
TfLiteStatus PrepareIo(TfLiteContext *context, TfLiteNode *node, const char *op,
                       const TfLiteTensor **input, TfLiteTensor **output) {
  TF_LITE_ENSURE_STATUS(GetIo(context, node, op, 1, input, output));
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, op, *output, (*input)->type));
  if ((*input)->type == kTfLiteInt8 || (*input)->type == kTfLiteUInt8) {
    TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "input", *input));
    TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "output", *output));
  }
  return kTfLiteOk;
}

template <typename T, typename F>
void FillLut(ActData *d, const TfLiteTensor *input, const TfLiteTensor *output, F f) {
  d->lut = reference::PopulateLut8<T>(input->params.scale, input->params.zero_point,
                                      output->params.scale, output->params.zero_point, f);
  d->fn = MapLut<T>;
}

TfLiteStatus GeluPrepare(TfLiteContext *context, TfLiteNode *node) {
  auto *d = static_cast<ActData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(PrepareIo(context, node, kGelu, &input, &output));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kGelu, node->builtin_data));
  const bool approximate = static_cast<const TfLiteGeluParams *>(node->builtin_data)->approximate;
  float (*f)(float) = approximate ? reference::GeluApproximate : reference::Gelu;
  switch (input->type) {
    case kTfLiteFloat32:
      d->fn = approximate ? MapFloat<reference::GeluApproximate> : MapFloat<reference::Gelu>;
      break;
    case kTfLiteInt8:
      FillLut<int8_t>(d, input, output, f);
      break;
    case kTfLiteUInt8:
      FillLut<uint8_t>(d, input, output, f);
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported (float32, int8, uint8)",
                         kGelu, TypeName(input->type));
      return kTfLiteError;
  }
  return ResizeOutput(context, output, Shape::Of(input));
}

TfLiteStatus EluPrepare(TfLiteContext *context, TfLiteNode *node) {
  auto *d = static_cast<ActData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(PrepareIo(context, node, kElu, &input, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      d->fn = MapFloat<reference::Elu>;
      break;
    case kTfLiteInt8:
      FillLut<int8_t>(d, input, output, reference::Elu);
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported (float32, int8)", kElu,
                         TypeName(input->type));
      return kTfLiteError;
  }
  return ResizeOutput(context, output, Shape::Of(input));
}

// The quantized clamp of TFLite's QuantizedReluX(0, 1): rescale to the output, then clamp to
// the output's quantized 0 and 1 (within the type's range).
template <typename T>
TfLiteStatus PrepareRelu0To1Quantized(TfLiteContext *context, const TfLiteTensor *input,
                                      const TfLiteTensor *output, ActData *d) {
  auto &p = d->requant;
  const float si = input->params.scale, so = output->params.scale;
  TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
      context, kRelu0To1, "output", output, "input_scale / output_scale",
      static_cast<double>(si) / static_cast<double>(so), &p.multiplier, &p.shift));
  p.input_zero_point = input->params.zero_point;
  p.output_zero_point = output->params.zero_point;
  const int32_t qmin = std::numeric_limits<T>::min(), qmax = std::numeric_limits<T>::max();
  p.act_min = std::max(qmin, p.output_zero_point);
  // Saturating: round(1 / so) exceeds int32 for a tiny output scale.
  p.act_max = reference::SaturatingTruncate(
      static_cast<double>(std::round(1.0f / so)) + p.output_zero_point, qmin, qmax);
  d->fn = MapRequantize<T>;
  return kTfLiteOk;
}

TfLiteStatus Relu0To1Prepare(TfLiteContext *context, TfLiteNode *node) {
  auto *d = static_cast<ActData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(PrepareIo(context, node, kRelu0To1, &input, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      d->fn = MapFloat<reference::Relu0To1>;
      break;
    case kTfLiteInt8:
      TF_LITE_ENSURE_STATUS(PrepareRelu0To1Quantized<int8_t>(context, input, output, d));
      break;
    case kTfLiteUInt8:
      TF_LITE_ENSURE_STATUS(PrepareRelu0To1Quantized<uint8_t>(context, input, output, d));
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported (float32, int8, uint8)",
                         kRelu0To1, TypeName(input->type));
      return kTfLiteError;
  }
  return ResizeOutput(context, output, Shape::Of(input));
}

template <const char *kOp>
TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  const auto &d = *static_cast<const ActData *>(node->user_data);
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  d.fn(d, input, output);
  return kTfLiteOk;
}

template <const char *kOp, TfLiteStatus (*Prepare)(TfLiteContext *, TfLiteNode *)>
TfLiteRegistration *ActRegistration() {
  static TfLiteRegistration r =
      MakeRegistration(InitData<ActData>, FreeData<ActData>, Prepare, Eval<kOp>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

namespace ew = octet::ops::elementwise;

TfLiteRegistration *Register_GELU() { return ew::ActRegistration<ew::kGelu, ew::GeluPrepare>(); }
TfLiteRegistration *Register_ELU() { return ew::ActRegistration<ew::kElu, ew::EluPrepare>(); }
TfLiteRegistration *Register_RELU_0_TO_1() {
  return ew::ActRegistration<ew::kRelu0To1, ew::Relu0To1Prepare>();
}

}  // namespace tflite::ops::builtin
