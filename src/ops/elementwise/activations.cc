// Float activations: LOGISTIC, TANH, RELU, RELU6, RELU_N1_TO_1, HARD_SWISH,
// LEAKY_RELU and PRELU (alpha broadcast against the input), float and quantized
// (int8/uint8/int16, TFLite Micro's integer arithmetic).
#include "kernels/reference/activations.h"

#include <cmath>
#include <limits>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/lut/byte_table.h"
#include "kernels/reference/broadcast.h"
#include "kernels/reference/integer_elementwise.h"
#include "kernels/reference/saturate.h"
#include "kernels/shape.h"
#include "octet/kernel_info.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "ops/elementwise/unary_kernel.h"
#include "quant/fixed_point.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/c/builtin_op_data.h"

namespace octet::ops::elementwise {
namespace {

constexpr char kLogistic[] = "LOGISTIC";
constexpr char kTanh[] = "TANH";
constexpr char kRelu[] = "RELU";
constexpr char kRelu6[] = "RELU6";
constexpr char kReluN1To1[] = "RELU_N1_TO_1";
constexpr char kHardSwish[] = "HARD_SWISH";
constexpr char kLeakyRelu[] = "LEAKY_RELU";
constexpr const char *kPrelu = "PRELU";

namespace integer = reference::integer;

// ---- Quantized activations (TFLite Micro's arithmetic).

enum class Act { kLogistic, kTanh, kRelu, kRelu6, kReluN1To1, kLeakyRelu, kHardSwish };

template <typename T, typename F>
void MapQuantized(const TfLiteTensor *in, TfLiteTensor *out, F f) {
  reference::MapElements(tflite::GetTensorData<T>(in), tflite::NumElements(in),
                         tflite::GetTensorData<T>(out), f);
}

// One quantized activation value, as TFLite Micro computes it.
template <Act kAct, typename T>
T QuantizedAct(const UnaryData &d, T x) {
  if constexpr (kAct == Act::kLogistic) {
    if constexpr (std::is_same_v<T, int16_t>) {
      return integer::Logistic16(x, d.sigmoid16);
    } else {
      return integer::Logistic8<T>(x, d.sigmoid8);
    }
  } else if constexpr (kAct == Act::kTanh) {
    if constexpr (std::is_same_v<T, int16_t>) {
      return integer::Tanh16(x, d.sigmoid16);
    } else {
      return integer::Tanh8<T>(x, d.sigmoid8);
    }
  } else if constexpr (kAct == Act::kRelu6) {
    return integer::ClampRaw<T>(x, d.requant.act_min, d.requant.act_max);
  } else if constexpr (kAct == Act::kLeakyRelu) {
    return integer::LeakyRelu<T>(x, d.leaky);
  } else if constexpr (kAct == Act::kHardSwish) {
    return integer::HardSwish<T>(x, d.hard_swish);
  } else {  // RELU, RELU_N1_TO_1: rescale to the output, then clamp
    return integer::Requantize<T, T>(x, d.requant);
  }
}

template <Act kAct, typename T>
void EvalQuantizedAct(const UnaryData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  MapQuantized<T>(in, out, [&d](T x) { return QuantizedAct<kAct, T>(d, x); });
}

// 8-bit inputs have 256 values: off the reference path, prepare tabulates QuantizedAct for
// each (exact by construction) and invoke looks the bytes up.
void EvalByteTable(const UnaryData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  optimized::ApplyByteTable(d.table, reinterpret_cast<const uint8_t *>(in->data.raw),
                            reinterpret_cast<uint8_t *>(out->data.raw),
                            static_cast<size_t>(tflite::NumElements(in)));
}

template <Act kAct, typename T>
void FillActTable(UnaryData *d) {
  optimized::FillByteTable<T, T>([d](T x) { return QuantizedAct<kAct, T>(*d, x); }, &d->table);
  d->fn = EvalByteTable;
}

// round(value / scale) + zero_point clamped to T (TFLite Micro's FloatToQuantizedType),
// saturating when a tiny scale puts the quotient beyond int32.
template <typename T>
int32_t FloatToQuantized(float value, float scale, int32_t zero_point) {
  return reference::SaturatingTruncate(static_cast<double>(std::round(value / scale)) + zero_point,
                                       std::numeric_limits<T>::min(),
                                       std::numeric_limits<T>::max());
}

// TFLite's CheckedLog2: log2(x) when x is a power of two (within 1e-3 in the exponent).
bool CheckedLog2(float x, int *log2_result) {
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(x_log2);
  *log2_result = static_cast<int>(rounded);
  return std::abs(x_log2 - rounded) < 1e-3f;
}

template <Act kAct, typename T>
TfLiteStatus PrepareQuantizedAct(TfLiteContext *context, const char *op, const TfLiteTensor *input,
                                 const TfLiteTensor *output, const void *builtin_data,
                                 UnaryData *d) {
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "input", input));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "output", output));
  constexpr bool kInt16 = std::is_same_v<T, int16_t>;
  constexpr bool kInt8 = std::is_same_v<T, int8_t>;
  const float si = input->params.scale, so = output->params.scale;
  const int32_t zi = input->params.zero_point, zo = output->params.zero_point;
  d->fn = EvalQuantizedAct<kAct, T>;
  if constexpr (kAct == Act::kLogistic || kAct == Act::kTanh) {
    constexpr bool kLogistic = kAct == Act::kLogistic;
    if constexpr (kInt16) {
      TF_LITE_ENSURE_STATUS(quant::CheckFixedOutputParams(context, op, output, 1.0f / 32768, 0));
      int log2_in = 0;
      bool pot = CheckedLog2(si, &log2_in);
      int shift = (15 - 3) + log2_in;
      pot = pot && (kLogistic ? shift == 0 : (shift == 0 || shift == 1));
      if (pot) {
        d->sigmoid16.input_multiplier = 0;
        d->sigmoid16.input_left_shift = shift;
      } else {
        // Rescale the input to 1/(3 * 4096) as the table lookup needs.
        double multiplier = static_cast<double>(si) * 4096.0 * 3.0;
        shift = 0;
        while (multiplier <= 32767.0 / 2.0 && shift <= 30) {
          ++shift;
          multiplier *= 2.0;
        }
        // Checked before the conversion: a huge scale would not fit int32 either.
        if (multiplier >= 32768.0) {
          TF_LITE_KERNEL_LOG(context, "%s: int16 input scale %g is too large", op,
                             static_cast<double>(si));
          return kTfLiteError;
        }
        d->sigmoid16.input_multiplier = static_cast<int32_t>(multiplier);
        d->sigmoid16.input_left_shift = shift;
      }
    } else {
      const float want_scale = kLogistic ? 1.0f / 256 : 1.0f / 128;
      const int32_t want_zero = kLogistic ? (kInt8 ? -128 : 0) : (kInt8 ? 0 : 128);
      TF_LITE_ENSURE_STATUS(
          quant::CheckFixedOutputParams(context, op, output, want_scale, want_zero));
      constexpr int kInputIntegerBits = 4;
      const double real =
          static_cast<double>(si) * static_cast<double>(1 << (31 - kInputIntegerBits));
      int32_t multiplier;
      int shift;
      // A negative shift would overflow the input radius (15 * 2^(27 - shift) > INT32_MAX).
      TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
          context, op, "input", input, "input_scale * 2^27", real, &multiplier, &shift, {0, 30}));
      d->sigmoid8.input_zero_point = zi;
      d->sigmoid8.input_multiplier = multiplier;
      d->sigmoid8.input_left_shift = shift;
      d->sigmoid8.input_range_radius =
          quant::fixed_point::CalculateInputRadius(kInputIntegerBits, shift, 31);
    }
  } else if constexpr (kAct == Act::kRelu6) {
    d->requant.act_min = zi;
    d->requant.act_max = FloatToQuantized<T>(6.0f, si, zi);
  } else if constexpr (kAct == Act::kRelu || kAct == Act::kReluN1To1) {
    auto &p = d->requant;
    TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
        context, op, "output", output, "input_scale / output_scale",
        static_cast<double>(si) / static_cast<double>(so), &p.multiplier, &p.shift));
    p.input_zero_point = zi;
    p.output_zero_point = zo;
    const int32_t qmin = std::numeric_limits<T>::min(), qmax = std::numeric_limits<T>::max();
    const float lo = kAct == Act::kRelu ? 0.0f : -1.0f;
    // Saturating: round(1 / so) exceeds int32 for a tiny output scale.
    p.act_min =
        reference::SaturatingTruncate(static_cast<double>(std::round(lo / so)) + zo, qmin, qmax);
    p.act_max = kAct == Act::kRelu
                    ? qmax
                    : reference::SaturatingTruncate(static_cast<double>(std::round(1.0f / so)) + zo,
                                                    qmin, qmax);
  } else if constexpr (kAct == Act::kLeakyRelu) {
    const auto *params = static_cast<const TfLiteLeakyReluParams *>(builtin_data);
    if (params == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: missing parameters (alpha)", op);
      return kTfLiteError;
    }
    auto &p = d->leaky;
    p.input_offset = zi;
    p.output_offset = zo;
    TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
        context, op, "output", output, "input_scale * alpha / output_scale",
        static_cast<double>(si * params->alpha / so), &p.multiplier_alpha, &p.shift_alpha,
        quant::kRequantShifts, /*allow_negative=*/true));
    TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
        context, op, "output", output, "input_scale / output_scale", static_cast<double>(si / so),
        &p.multiplier_identity, &p.shift_identity));
  } else if constexpr (kAct == Act::kHardSwish) {
    auto &p = d->hard_swish;
    p.input_zero_point = zi;
    p.output_zero_point = zo;
    const float hires_input_scale = (1.0f / 128.0f) * si;
    const float reluish_scale = 3.0f / 32768.0f;
    int32_t m32;
    // The output exponent is a rounding right shift only; the reluish one is also a
    // saturating int16 left shift of (exponent - 1), which int32 arithmetic holds up to 16.
    TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
        context, op, "output", output, "input_scale / 128 / output_scale",
        static_cast<double>(hires_input_scale / so), &m32, &p.output_multiplier_exponent,
        {-31, 0}));
    p.output_multiplier_fixedpoint_int16 = integer::DownScaleInt32ToInt16Multiplier(m32);
    if (p.output_multiplier_exponent > 0) {
      TF_LITE_KERNEL_LOG(context, "%s: output scale %g is too small for input scale %g", op,
                         static_cast<double>(so), static_cast<double>(si));
      return kTfLiteError;
    }
    TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
        context, op, "input", input, "input_scale / 128 / (3 / 32768)",
        static_cast<double>(hires_input_scale / reluish_scale), &m32,
        &p.reluish_multiplier_exponent, {-31, 17}));
    p.reluish_multiplier_fixedpoint_int16 = integer::DownScaleInt32ToInt16Multiplier(m32);
  }
  return kTfLiteOk;
}

// Float through the shared unary prepare; int8/uint8(/int16) through the quantized one.
// `reference_only` (Register_X_REF): no table, the reference arithmetic on every path.
template <Act kAct>
TfLiteStatus PrepareAct(TfLiteContext *context, TfLiteNode *node, const char *op, UnaryFn f32,
                        bool int16_ok, bool reference_only = false) {
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, op, 1, &input, &output));
  if (!IsQuantizedType(input->type)) {
    return PrepareUnaryImpl(context, node, op, f32, nullptr, nullptr);
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, op, output, input->type));
  auto *d = static_cast<UnaryData *>(node->user_data);
  TfLiteStatus status = kTfLiteError;
  if (input->type == kTfLiteInt8) {
    status = PrepareQuantizedAct<kAct, int8_t>(context, op, input, output, node->builtin_data, d);
  } else if (input->type == kTfLiteUInt8) {
    status = PrepareQuantizedAct<kAct, uint8_t>(context, op, input, output, node->builtin_data, d);
  } else if (int16_ok) {
    status = PrepareQuantizedAct<kAct, int16_t>(context, op, input, output, node->builtin_data, d);
  } else {
    TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", op, TypeName(input->type));
  }
  TF_LITE_ENSURE_STATUS(status);
  if (input->type != kTfLiteInt16 && !reference_only && cpu::ActiveIsa() != cpu::Isa::kReference) {
    input->type == kTfLiteInt8 ? FillActTable<kAct, int8_t>(d) : FillActTable<kAct, uint8_t>(d);
    SetNodeKernelName(context, node, "byte_table");
  }
  return ResizeOutput(context, output, Shape::Of(input));
}

// Float LOGISTIC/TANH on the path's vector kernel (within a few ulp of the reference).
template <Act kAct>
void ApplyFUnary(const UnaryData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  const optimized::FUnaryFn fn = kAct == Act::kLogistic ? d.funary->logistic : d.funary->tanh;
  fn(tflite::GetTensorData<float>(in), tflite::GetTensorData<float>(out),
     static_cast<size_t>(tflite::NumElements(in)));
}

// The float kernel off the reference path; quantized types as PrepareAct chose.
template <Act kAct>
TfLiteStatus PrepareFloatFast(TfLiteContext *c, TfLiteNode *n, const char *op, UnaryFn f32,
                              bool reference_only) {
  TF_LITE_ENSURE_STATUS(PrepareAct<kAct>(c, n, op, f32, true, reference_only));
  auto *d = static_cast<UnaryData *>(n->user_data);
  d->funary = nullptr;
  if (reference_only || tflite::GetInput(c, n, 0)->type != kTfLiteFloat32) return kTfLiteOk;
  d->funary = optimized::FUnaryKernelFor(cpu::ActiveIsa());
  if (d->funary != nullptr) {
    d->fn = ApplyFUnary<kAct>;
    SetNodeKernelName(c, n, d->funary->name);
  }
  return kTfLiteOk;
}

template <bool kReferenceOnly>
TfLiteStatus LogisticPrepare(TfLiteContext *c, TfLiteNode *n) {
  return PrepareFloatFast<Act::kLogistic>(c, n, kLogistic, ApplyScalar<float, reference::Logistic>,
                                          kReferenceOnly);
}
template <bool kReferenceOnly>
TfLiteStatus TanhPrepare(TfLiteContext *c, TfLiteNode *n) {
  return PrepareFloatFast<Act::kTanh>(c, n, kTanh, ApplyScalar<float, reference::Tanh>,
                                      kReferenceOnly);
}
TfLiteStatus ReluPrepare(TfLiteContext *c, TfLiteNode *n) {
  return PrepareAct<Act::kRelu>(c, n, kRelu, ApplyScalar<float, reference::Relu>, true);
}
TfLiteStatus Relu6Prepare(TfLiteContext *c, TfLiteNode *n) {
  return PrepareAct<Act::kRelu6>(c, n, kRelu6, ApplyScalar<float, reference::Relu6>, true);
}
TfLiteStatus ReluN1To1Prepare(TfLiteContext *c, TfLiteNode *n) {
  return PrepareAct<Act::kReluN1To1>(c, n, kReluN1To1, ApplyScalar<float, reference::ReluN1To1>,
                                     false);
}
TfLiteStatus HardSwishPrepare(TfLiteContext *c, TfLiteNode *n) {
  return PrepareAct<Act::kHardSwish>(c, n, kHardSwish, ApplyScalar<float, reference::HardSwish>,
                                     false);
}

// ---- LEAKY_RELU: unary with a slope parameter.

void LeakyReluFloat(const UnaryData &data, const TfLiteTensor *in, TfLiteTensor *out) {
  const float alpha = data.alpha;
  reference::MapElements(tflite::GetTensorData<float>(in), tflite::NumElements(in),
                         tflite::GetTensorData<float>(out),
                         [alpha](float x) { return reference::LeakyRelu(x, alpha); });
}

TfLiteStatus LeakyReluPrepare(TfLiteContext *context, TfLiteNode *node) {
  const TfLiteTensor *in = tflite::GetInput(context, node, 0);
  if (in != nullptr && IsQuantizedType(in->type)) {
    return PrepareAct<Act::kLeakyRelu>(context, node, kLeakyRelu, LeakyReluFloat, true);
  }
  TF_LITE_ENSURE_STATUS(
      PrepareUnaryImpl(context, node, kLeakyRelu, LeakyReluFloat, nullptr, nullptr));
  const auto *params = static_cast<const TfLiteLeakyReluParams *>(node->builtin_data);
  if (params == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: missing parameters (alpha)", kLeakyRelu);
    return kTfLiteError;
  }
  static_cast<UnaryData *>(node->user_data)->alpha = params->alpha;
  return kTfLiteOk;
}

// ---- PRELU: binary, alpha broadcast to the input.

struct PreluData {
  Shape input_shape, alpha_shape, out_shape;
  integer::PreluParams quantized;
  TfLiteType type = kTfLiteFloat32;
};

// Quantized PRELU (TFLite Micro's CalculatePreluParams): x >= 0 rescales by s_in / s_out,
// x < 0 by s_in * s_alpha / s_out applied to (x - z_in)(alpha - z_alpha), both in double.
TfLiteStatus PreluPrepareQuantized(TfLiteContext *context, const TfLiteTensor *input,
                                   const TfLiteTensor *alpha, const TfLiteTensor *output,
                                   integer::PreluParams *p) {
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, kPrelu, "input", input));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, kPrelu, "output", output));
  TF_LITE_ENSURE_STATUS(quant::CheckAffineParams(context, kPrelu, "alpha", alpha));
  if (quant::AffineOf(alpha)->scale->size != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: quantized alpha must have one scale (per-tensor), has %d",
                       kPrelu, quant::AffineOf(alpha)->scale->size);
    return kTfLiteError;
  }
  const double s_in = input->params.scale;
  const double s_alpha = alpha->params.scale;
  const double s_out = output->params.scale;
  TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(context, kPrelu, "output", output,
                                                         "input_scale / output_scale", s_in / s_out,
                                                         &p->multiplier_1, &p->shift_1));
  TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
      context, kPrelu, "output", output, "input_scale * alpha_scale / output_scale",
      s_in * s_alpha / s_out, &p->multiplier_2, &p->shift_2));
  p->input_offset = -input->params.zero_point;
  p->alpha_offset = -alpha->params.zero_point;
  p->output_offset = output->params.zero_point;
  return kTfLiteOk;
}

TfLiteStatus PreluPrepare(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<PreluData *>(node->user_data);
  const TfLiteTensor *in[2];
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kPrelu, 2, in, &output));
  TF_LITE_ENSURE_STATUS(CheckSameInputTypes(context, kPrelu, in, 2));
  const TfLiteType type = in[0]->type;
  if (type != kTfLiteFloat32 && !IsQuantizedType(type)) {
    TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", kPrelu, TypeName(type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kPrelu, output, type));
  data->type = type;
  if (type != kTfLiteFloat32) {
    TF_LITE_ENSURE_STATUS(PreluPrepareQuantized(context, in[0], in[1], output, &data->quantized));
  }
  data->input_shape = Shape::Of(in[0]);
  data->alpha_shape = Shape::Of(in[1]);
  TF_LITE_ENSURE_STATUS(BroadcastOutputShape(context, kPrelu, data->input_shape, data->alpha_shape,
                                             &data->out_shape));
  return ResizeOutput(context, output, data->out_shape);
}

template <typename T>
void PreluQuantized(const PreluData &data, const TfLiteTensor *input, const TfLiteTensor *alpha,
                    TfLiteTensor *output) {
  const integer::PreluParams &p = data.quantized;
  reference::BroadcastBinary(data.input_shape, tflite::GetTensorData<T>(input), data.alpha_shape,
                             tflite::GetTensorData<T>(alpha), data.out_shape,
                             tflite::GetTensorData<T>(output),
                             [&p](T x, T a) { return integer::Prelu<T>(x, a, p); });
}

TfLiteStatus PreluEval(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const PreluData *>(node->user_data);
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  const TfLiteTensor *alpha = tflite::GetInput(context, node, 1);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kPrelu, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kPrelu, "alpha", alpha));
  TF_LITE_ENSURE_STATUS(RequireData(context, kPrelu, "output", output));
  switch (data.type) {
    case kTfLiteInt8:
      PreluQuantized<int8_t>(data, input, alpha, output);
      return kTfLiteOk;
    case kTfLiteUInt8:
      PreluQuantized<uint8_t>(data, input, alpha, output);
      return kTfLiteOk;
    case kTfLiteInt16:
      PreluQuantized<int16_t>(data, input, alpha, output);
      return kTfLiteOk;
    default:
      reference::PreluBroadcast(data.input_shape, tflite::GetTensorData<float>(input),
                                data.alpha_shape, tflite::GetTensorData<float>(alpha),
                                data.out_shape, tflite::GetTensorData<float>(output));
      return kTfLiteOk;
  }
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

namespace ew = octet::ops::elementwise;
namespace ref = octet::reference;
using ew::ApplyScalar;
using ew::UnaryRegistration;

TfLiteRegistration *Register_LOGISTIC() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::UnaryData>, octet::ops::FreeData<ew::UnaryData>,
      ew::LogisticPrepare<false>, ew::EvalUnary<ew::kLogistic>);
  return &r;
}
TfLiteRegistration *Register_LOGISTIC_REF() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::UnaryData>, octet::ops::FreeData<ew::UnaryData>,
      ew::LogisticPrepare<true>, ew::EvalUnary<ew::kLogistic>);
  return &r;
}
TfLiteRegistration *Register_TANH() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::UnaryData>, octet::ops::FreeData<ew::UnaryData>,
      ew::TanhPrepare<false>, ew::EvalUnary<ew::kTanh>);
  return &r;
}
TfLiteRegistration *Register_TANH_REF() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::UnaryData>, octet::ops::FreeData<ew::UnaryData>,
      ew::TanhPrepare<true>, ew::EvalUnary<ew::kTanh>);
  return &r;
}
TfLiteRegistration *Register_RELU() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::UnaryData>, octet::ops::FreeData<ew::UnaryData>, ew::ReluPrepare,
      ew::EvalUnary<ew::kRelu>);
  return &r;
}
TfLiteRegistration *Register_RELU6() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::UnaryData>, octet::ops::FreeData<ew::UnaryData>, ew::Relu6Prepare,
      ew::EvalUnary<ew::kRelu6>);
  return &r;
}
TfLiteRegistration *Register_RELU_N1_TO_1() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::UnaryData>, octet::ops::FreeData<ew::UnaryData>,
      ew::ReluN1To1Prepare, ew::EvalUnary<ew::kReluN1To1>);
  return &r;
}
TfLiteRegistration *Register_HARD_SWISH() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::UnaryData>, octet::ops::FreeData<ew::UnaryData>,
      ew::HardSwishPrepare, ew::EvalUnary<ew::kHardSwish>);
  return &r;
}
TfLiteRegistration *Register_LEAKY_RELU() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::UnaryData>, octet::ops::FreeData<ew::UnaryData>,
      ew::LeakyReluPrepare, ew::EvalUnary<ew::kLeakyRelu>);
  return &r;
}
TfLiteRegistration *Register_PRELU() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(octet::ops::InitData<ew::PreluData>,
                                                             octet::ops::FreeData<ew::PreluData>,
                                                             ew::PreluPrepare, ew::PreluEval);
  return &r;
}

}  // namespace tflite::ops::builtin
