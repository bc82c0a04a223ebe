// ABS, EXP, LOG and RSQRT: float32 (and int32 ABS) plus the quantized forms TFLite's builtin
// kernels run, int8 and int16 for all four. Every int8 form is a 256-entry table filled at
// prepare with TFLite's arithmetic for that op, so eval is a lookup:
//   ABS    |q - zp_in| requantized by in_scale / out_scale (or just offset when equal)
//   EXP    quantize(exp(dequantize(q)))
//   LOG    quantize(log(dequantize(q))), x <= 0 giving the output's lowest value
//   RSQRT  fixed-point 1/sqrt(q - zp_in) times 1 / (sqrt(in_scale) * out_scale); q == zp_in
//          gives 127, q < zp_in fails at invoke as in TFLite.
// int16 ABS requantizes per element (zero points 0) or, without quantization, is plain abs.
// int16 EXP, LOG and RSQRT (zero points 0) read TFLite's 513-entry interpolated table of the
// float function (kernels/reference/lut_int16.h): EXP exp(x); LOG log(x), x <= 0 sampled as
// the real value of -32768; RSQRT 1/sqrt(x), x <= 0 sampled as that of 32767, a negative input
// failing at invoke. (Inputs just above 0 interpolate towards the first positive sample, so
// they do not read those saturated codes, as in TFLite.)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "kernels/reference/activations.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/lut.h"
#include "kernels/reference/lut_int16.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "quant/fixed_point.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"

namespace octet::ops::elementwise {
namespace {

enum class Op { kAbs, kExp, kLog, kRsqrt };

constexpr const char *Name(Op op) {
  switch (op) {
    case Op::kAbs:
      return "ABS";
    case Op::kExp:
      return "EXP";
    case Op::kLog:
      return "LOG";
    case Op::kRsqrt:
      return "RSQRT";
  }
  return "";
}

// Named float wrappers: the std:: functions are overload sets.
float Exp(float x) { return std::exp(x); }
float Log(float x) { return std::log(x); }
// |x| in int32 narrowed back, so the lowest value wraps to itself as in TFLite.
int16_t AbsWrap16(int16_t x) { return static_cast<int16_t>(std::abs(static_cast<int32_t>(x))); }

struct QUnaryData;
using QUnaryFn = TfLiteStatus (*)(TfLiteContext *, const QUnaryData &, const TfLiteTensor *,
                                  TfLiteTensor *);

struct QUnaryData {
  QUnaryFn fn = nullptr;
  reference::Lut8 lut{};     // every int8 form
  reference::Lut16 lut16{};  // int16 EXP, LOG, RSQRT
  // int16 ABS: requantize |q| when the scales differ (zero points are 0).
  bool rescale = false;
  int32_t multiplier = 0;
  int shift = 0;
  int32_t input_zero_point = 0;  // RSQRT's domain check
};

// Below the zero point the real input is negative, where RSQRT is undefined: TFLite checks
// every element before any lookup and fails the invoke.
template <typename T>
TfLiteStatus CheckRsqrtDomain(TfLiteContext *context, const QUnaryData &d, const T *x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    OCTET_OP_ENSURE(context, x[i] >= d.input_zero_point, "RSQRT",
                    "input %d at index %lld is below the input zero point %d (a negative value; "
                    "RSQRT is defined for non-negative inputs only)",
                    x[i], static_cast<long long>(i), d.input_zero_point);
  }
  return kTfLiteOk;
}

template <typename T, T (*F)(T)>
TfLiteStatus MapScalar(TfLiteContext *, const QUnaryData &, const TfLiteTensor *in,
                       TfLiteTensor *out) {
  reference::MapElements(tflite::GetTensorData<T>(in), tflite::NumElements(in),
                         tflite::GetTensorData<T>(out), F);
  return kTfLiteOk;
}

TfLiteStatus MapLut(TfLiteContext *, const QUnaryData &d, const TfLiteTensor *in,
                    TfLiteTensor *out) {
  reference::ApplyLut8(d.lut, tflite::GetTensorData<int8_t>(in), tflite::NumElements(in),
                       tflite::GetTensorData<int8_t>(out));
  return kTfLiteOk;
}

TfLiteStatus RsqrtLut(TfLiteContext *context, const QUnaryData &d, const TfLiteTensor *in,
                      TfLiteTensor *out) {
  TF_LITE_ENSURE_STATUS(
      CheckRsqrtDomain(context, d, tflite::GetTensorData<int8_t>(in), tflite::NumElements(in)));
  return MapLut(context, d, in, out);
}

TfLiteStatus MapLut16(TfLiteContext *, const QUnaryData &d, const TfLiteTensor *in,
                      TfLiteTensor *out) {
  reference::ApplyLut16(d.lut16, tflite::GetTensorData<int16_t>(in), tflite::NumElements(in),
                        tflite::GetTensorData<int16_t>(out));
  return kTfLiteOk;
}

TfLiteStatus RsqrtLut16(TfLiteContext *context, const QUnaryData &d, const TfLiteTensor *in,
                        TfLiteTensor *out) {
  TF_LITE_ENSURE_STATUS(
      CheckRsqrtDomain(context, d, tflite::GetTensorData<int16_t>(in), tflite::NumElements(in)));
  return MapLut16(context, d, in, out);
}

int16_t AbsInt16(int32_t q, const QUnaryData &d) {
  int32_t v = std::abs(q);
  if (d.rescale) v = quant::MultiplyByQuantizedMultiplier(v, d.multiplier, d.shift);
  return static_cast<int16_t>(std::min<int32_t>(v, std::numeric_limits<int16_t>::max()));
}

TfLiteStatus AbsQuantized16(TfLiteContext *, const QUnaryData &d, const TfLiteTensor *in,
                            TfLiteTensor *out) {
  reference::MapElements(tflite::GetTensorData<int16_t>(in), tflite::NumElements(in),
                         tflite::GetTensorData<int16_t>(out),
                         [&d](int16_t q) { return AbsInt16(q, d); });
  return kTfLiteOk;
}

// table[q] = f(q) for every int8 q, f giving an int32 that is clamped to int8.
template <typename F>
void FillTable(F f, reference::Lut8 *lut) {
  for (int32_t q = -128; q <= 127; ++q) {
    const int32_t v = std::min<int32_t>(std::max<int32_t>(f(q), -128), 127);
    (*lut)[reference::LutIndex(static_cast<int8_t>(q))] =
        static_cast<uint8_t>(static_cast<int8_t>(v));
  }
}

// TFLite's quantized ABS multiplier: in_scale / out_scale, divided in float.
TfLiteStatus AbsMultiplier(TfLiteContext *context, const TfLiteTensor *input,
                           const TfLiteTensor *output, int32_t *multiplier, int *shift) {
  const float ratio = input->params.scale / output->params.scale;
  return quant::QuantizeMultiplierChecked(context, "ABS", "output", output,
                                          "input_scale / output_scale", ratio, multiplier, shift);
}

TfLiteStatus PrepareAbs8(TfLiteContext *context, const TfLiteTensor *input,
                         const TfLiteTensor *output, QUnaryData *d) {
  const int32_t zi = input->params.zero_point, zo = output->params.zero_point;
  if (input->params.scale == output->params.scale) {
    FillTable([=](int32_t q) { return std::abs(q - zi) + zo; }, &d->lut);
  } else {
    int32_t m;
    int shift;
    TF_LITE_ENSURE_STATUS(AbsMultiplier(context, input, output, &m, &shift));
    FillTable(
        [=](int32_t q) {
          return quant::MultiplyByQuantizedMultiplier(std::abs(q - zi), m, shift) + zo;
        },
        &d->lut);
  }
  d->fn = MapLut;
  return kTfLiteOk;
}

TfLiteStatus PrepareAbs16(TfLiteContext *context, const TfLiteTensor *input,
                          const TfLiteTensor *output, QUnaryData *d) {
  d->rescale = input->params.scale != output->params.scale;
  if (d->rescale) {
    TF_LITE_ENSURE_STATUS(AbsMultiplier(context, input, output, &d->multiplier, &d->shift));
  }
  d->fn = AbsQuantized16;
  return kTfLiteOk;
}

TfLiteStatus PrepareExp8(const TfLiteTensor *input, const TfLiteTensor *output, QUnaryData *d) {
  d->lut = reference::PopulateLut8<int8_t>(input->params.scale, input->params.zero_point,
                                           output->params.scale, output->params.zero_point, Exp);
  d->fn = MapLut;
  return kTfLiteOk;
}

TfLiteStatus PrepareLog8(const TfLiteTensor *input, const TfLiteTensor *output, QUnaryData *d) {
  const float so = output->params.scale;
  const int32_t zo = output->params.zero_point;
  // TFLite maps x <= 0 to the real value of the output's lowest code (computed in float).
  const float lowest = static_cast<float>(-128 - zo) * so;
  d->lut = reference::PopulateLut8<int8_t>(
      input->params.scale, input->params.zero_point, so, zo,
      [lowest](float x) { return x <= 0.0f ? lowest : std::log(x); });
  d->fn = MapLut;
  return kTfLiteOk;
}

// 1/sqrt(v) in fixed point as TFLite computes it: GetInvSqrtQuantizedMultiplierExp's
// multiplier applied to 1 with 20 extra bits, then the scale multiplier with those bits
// taken back out.
constexpr int kRsqrtExtraBits = 20;

TfLiteStatus PrepareRsqrt8(TfLiteContext *context, const TfLiteTensor *input,
                           const TfLiteTensor *output, QUnaryData *d) {
  // sqrt and the product in float, the reciprocal in double, as TFLite.
  const float denominator = std::sqrt(input->params.scale) * output->params.scale;
  int32_t m;
  int shift;
  // The shift less the extra bits must stay a valid right shift (<= 31).
  TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
      context, "RSQRT", "output", output, "1 / (sqrt(input_scale) * output_scale)",
      1.0 / static_cast<double>(denominator), &m, &shift,
      quant::ShiftRange{kRsqrtExtraBits - 31, quant::kRequantShifts.max}));
  const int32_t zi = input->params.zero_point, zo = output->params.zero_point;
  FillTable(
      [=](int32_t q) -> int32_t {
        const int32_t v = q - zi;
        if (v <= 0) return 127;  // v == 0 by TFLite's rule; v < 0 is refused at invoke
        int32_t inv_m;
        int inv_s;
        quant::fixed_point::GetInvSqrtQuantizedMultiplierExp(v, /*reverse_shift=*/-1, &inv_m,
                                                             &inv_s);
        const int32_t r = quant::MultiplyByQuantizedMultiplier(1, inv_m, inv_s + kRsqrtExtraBits);
        return quant::MultiplyByQuantizedMultiplier(r, m, shift - kRsqrtExtraBits) + zo;
      },
      &d->lut);
  d->input_zero_point = zi;
  d->fn = RsqrtLut;
  return kTfLiteOk;
}

// The int16 tables: TFLite's transforms, in float. Zero points are 0 (checked by prepare).
void PrepareExp16(const TfLiteTensor *input, const TfLiteTensor *output, QUnaryData *d) {
  d->lut16 = reference::PopulateLut16(input->params.scale, input->params.zero_point,
                                      output->params.scale, output->params.zero_point, Exp);
  d->fn = MapLut16;
}

void PrepareLog16(const TfLiteTensor *input, const TfLiteTensor *output, QUnaryData *d) {
  const float so = output->params.scale;
  const int32_t zo = output->params.zero_point;
  // As int8: x <= 0 is sampled as the real value of the lowest code, computed in float.
  const float lowest = static_cast<float>(std::numeric_limits<int16_t>::min() - zo) * so;
  d->lut16 =
      reference::PopulateLut16(input->params.scale, input->params.zero_point, so, zo,
                               [lowest](float x) { return x <= 0.0f ? lowest : std::log(x); });
  d->fn = MapLut16;
}

void PrepareRsqrt16(const TfLiteTensor *input, const TfLiteTensor *output, QUnaryData *d) {
  const float so = output->params.scale;
  // x <= 0 is sampled as the real value of the highest code (the table's first samples lie
  // below 0; a negative input never reaches a lookup).
  const float highest = static_cast<float>(std::numeric_limits<int16_t>::max()) * so;
  d->lut16 = reference::PopulateLut16(
      input->params.scale, input->params.zero_point, so, output->params.zero_point,
      [highest](float x) { return x <= 0.0f ? highest : 1.0f / std::sqrt(x); });
  d->input_zero_point = input->params.zero_point;
  d->fn = RsqrtLut16;
}

bool HasQuantization(const TfLiteTensor *t) {
  return t->quantization.type != kTfLiteNoQuantization;
}

template <Op kOp>
TfLiteStatus Prepare(TfLiteContext *context, TfLiteNode *node) {
  constexpr const char *op = Name(kOp);
  auto *d = static_cast<QUnaryData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, op, 1, &input, &output));
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, op, output, input->type));
  const TfLiteType type = input->type;
  d->fn = nullptr;
  if (type == kTfLiteFloat32) {
    if constexpr (kOp == Op::kAbs) d->fn = MapScalar<float, reference::Abs<float>>;
    if constexpr (kOp == Op::kExp) d->fn = MapScalar<float, Exp>;
    if constexpr (kOp == Op::kLog) d->fn = MapScalar<float, Log>;
    if constexpr (kOp == Op::kRsqrt) d->fn = MapScalar<float, reference::Rsqrt>;
  } else if (kOp == Op::kAbs && type == kTfLiteInt32) {
    d->fn = MapScalar<int32_t, reference::Abs<int32_t>>;
  } else if (kOp == Op::kAbs && type == kTfLiteInt16 && !HasQuantization(input)) {
    // TFLite runs unquantized int16 ABS as plain abs (the lowest value wraps).
    d->fn = MapScalar<int16_t, AbsWrap16>;
  } else if (type == kTfLiteInt8 || type == kTfLiteInt16) {
    // One scale each; int16 zero points must be 0 (TFLite's rule for these ops). Unquantized
    // int16 EXP/LOG/RSQRT (which TFLite would run with no table) is refused here.
    TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "input", input));
    TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "output", output));
    const bool int8 = type == kTfLiteInt8;
    if constexpr (kOp == Op::kAbs) {
      TF_LITE_ENSURE_STATUS(int8 ? PrepareAbs8(context, input, output, d)
                                 : PrepareAbs16(context, input, output, d));
    }
    if constexpr (kOp == Op::kExp) {
      if (int8) {
        TF_LITE_ENSURE_STATUS(PrepareExp8(input, output, d));
      } else {
        PrepareExp16(input, output, d);
      }
    }
    if constexpr (kOp == Op::kLog) {
      if (int8) {
        TF_LITE_ENSURE_STATUS(PrepareLog8(input, output, d));
      } else {
        PrepareLog16(input, output, d);
      }
    }
    if constexpr (kOp == Op::kRsqrt) {
      if (int8) {
        TF_LITE_ENSURE_STATUS(PrepareRsqrt8(context, input, output, d));
      } else {
        PrepareRsqrt16(input, output, d);
      }
    }
  }
  OCTET_OP_ENSURE(context, d->fn != nullptr, op, "input type %s is not supported (%s)",
                  TypeName(type),
                  kOp == Op::kAbs ? "float32, int32, int8, int16" : "float32, int8, int16");
  return ResizeOutput(context, output, Shape::Of(input));
}

template <Op kOp>
TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  constexpr const char *op = Name(kOp);
  const auto &d = *static_cast<const QUnaryData *>(node->user_data);
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "output", output));
  return d.fn(context, d, input, output);
}

template <Op kOp>
TfLiteRegistration *Registration() {
  static TfLiteRegistration r =
      MakeRegistration(InitData<QUnaryData>, FreeData<QUnaryData>, Prepare<kOp>, Eval<kOp>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

namespace ew = octet::ops::elementwise;

TfLiteRegistration *Register_ABS() { return ew::Registration<ew::Op::kAbs>(); }
TfLiteRegistration *Register_EXP() { return ew::Registration<ew::Op::kExp>(); }
TfLiteRegistration *Register_LOG() { return ew::Registration<ew::Op::kLog>(); }
TfLiteRegistration *Register_RSQRT() { return ew::Registration<ew::Op::kRsqrt>(); }

}  // namespace tflite::ops::builtin
