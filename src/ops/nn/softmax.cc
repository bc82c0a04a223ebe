// SOFTMAX (with beta) and LOG_SOFTMAX over the innermost axis: float32, and the quantized
// kernels of TFLite Micro / TFLite's reference (SOFTMAX int8→int8/int16, uint8, int16→int16
// LUT path; LOG_SOFTMAX int8/uint8 with fixed output params 16/256 and zero point T's max).
#include "kernels/reference/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/lut/softmax_table.h"
#include "kernels/reference/integer_softmax.h"
#include "octet/kernel_info.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_util.h"
#include "quant/fixed_point.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::softmax {
namespace {

constexpr int kInput = 0;
constexpr int kOutput = 0;

struct OpData {
  float beta = 1.f;
  int64_t outer = 0;
  int depth = 0;
  // Quantized state (SOFTMAX only).
  bool quantized = false;
  reference::QuantizedSoftmaxParams qparams;
  float output_scale = 0.f;
  float table[256] = {};  // uint8: exp lookup table
  reference::QuantizedLogSoftmaxParams log_params;
  std::unique_ptr<reference::Int16SoftmaxParams> int16;  // SOFTMAX int16 → int16 LUTs
  // SOFTMAX int8 → int8/int16 off the reference path: the exps of all 256 differences.
  std::unique_ptr<optimized::SoftmaxExpTable> exp_table;
  // float SOFTMAX off the reference path: the exps on the path's vector kernel.
  const optimized::FUnaryKernel* funary = nullptr;
};

void* Init(TfLiteContext*, const char*, size_t) { return std::make_unique<OpData>().release(); }

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// Shared checks: one float (or, when allowed, quantized) input of rank >= 1, output of the
// same shape.
TfLiteStatus PrepareRows(TfLiteContext* context, TfLiteNode* node, const char* op, OpData* data,
                         bool allow_quantized = false) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, op, kInput, &input));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, op, kOutput, &output));
  data->quantized = allow_quantized && input->type != kTfLiteFloat32;
  if (!data->quantized) {
    TF_LITE_ENSURE_OK(context, RequireFloat(context, op, "input", input));
    TF_LITE_ENSURE_OK(context, RequireFloat(context, op, "output", output));
  }
  TF_LITE_ENSURE_OK(context, RequireValidDims(context, op, "input", input, 1));
  const int rank = input->dims->size;
  data->depth = input->dims->data[rank - 1];
  data->outer = data->depth == 0 ? 0 : tflite::NumElements(input) / data->depth;
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

// The int16 output of an int8 SOFTMAX has fixed params (1/65536, −32768), outside the
// "int16 zero point is 0" activation rule.
TfLiteStatus CheckInt16ProbabilityOutput(TfLiteContext* context, const char* op,
                                         const TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, quant::CheckAffineParams(context, op, "output", output));
  const float want = 1.f / 65536;
  OCTET_OP_ENSURE(context,
                  quant::AffineOf(output)->scale->size == 1 &&
                      std::fabs(output->params.scale - want) <= want * 1e-3f &&
                      output->params.zero_point == -32768,
                  op,
                  "INT16 output '%s' of an INT8 input must have scale %g and zero_point -32768 "
                  "(spec), has scale %g and zero_point %d",
                  output->name ? output->name : "", want, output->params.scale,
                  output->params.zero_point);
  return kTfLiteOk;
}

// `reference_only`: Register_SOFTMAX_REF (BuiltinRefOpResolver) keeps the reference kernel.
TfLiteStatus PrepareQuantizedSoftmax(TfLiteContext* context, TfLiteNode* node, OpData* data,
                                     bool reference_only) {
  constexpr char kOp[] = "SOFTMAX";
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  const TfLiteType in = input->type;
  const TfLiteType out = output->type;
  OCTET_OP_ENSURE(context,
                  (in == kTfLiteInt8 && (out == kTfLiteInt8 || out == kTfLiteInt16)) ||
                      (in == kTfLiteUInt8 && out == kTfLiteUInt8) ||
                      (in == kTfLiteInt16 && out == kTfLiteInt16),
                  kOp, "input %s with output %s is not supported", TfLiteTypeGetName(in),
                  TfLiteTypeGetName(out));
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "input", input));
  if (in == kTfLiteInt16) {
    // TFLite Micro: output 1/32768, zero point 0; differences rescaled so that
    // [-65535, 0] stands for [-10, 0], the exp and 1/(1+x) tables built once.
    TF_LITE_ENSURE_OK(context, quant::CheckFixedOutputParams(context, kOp, output, 1.f / 32768, 0));
    if (!data->int16) data->int16 = std::make_unique<reference::Int16SoftmaxParams>();
    const double real = static_cast<double>(input->params.scale) * static_cast<double>(data->beta) /
                        (10.0 / 65535.0);
    TF_LITE_ENSURE_OK(context,
                      quant::QuantizeMultiplierChecked(
                          context, kOp, "input", input, "input_scale * beta / (10 / 65535)", real,
                          &data->int16->input_multiplier, &data->int16->input_left_shift));
    reference::PopulateInt16SoftmaxLuts(data->int16.get());
    return kTfLiteOk;
  }
  if (out == kTfLiteInt16) {
    TF_LITE_ENSURE_OK(context, CheckInt16ProbabilityOutput(context, kOp, output));
  } else {
    TF_LITE_ENSURE_OK(context, quant::CheckFixedOutputParams(context, kOp, output, 1.f / 256,
                                                             out == kTfLiteInt8 ? -128 : 0));
  }
  data->output_scale = output->params.scale;
  if (in == kTfLiteUInt8) {
    // Legacy uint8: TFLite's builtin kernel uses a float exp table.
    reference::PopulateSoftmaxTable(input->params.scale, data->beta, data->table);
    return kTfLiteOk;
  }
  // PreprocessSoftmaxScaling with 5 integer bits for the scaled difference (Q5.26).
  constexpr int kScaledDiffIntegerBits = 5;
  const double real =
      std::min<double>(static_cast<double>(data->beta) * static_cast<double>(input->params.scale) *
                           static_cast<double>(1 << (31 - kScaledDiffIntegerBits)),
                       static_cast<double>((1ll << 31) - 1));
  int shift = 0;
  // The kernel shifts left only (MultiplyByQuantizedMultiplierGreaterThanOne); real is capped
  // below 2^31, so the shift is at most 31, which ShiftLeftWrapping allows.
  TF_LITE_ENSURE_OK(context, quant::QuantizeMultiplierChecked(
                                 context, kOp, "input", input, "beta * input_scale * 2^26", real,
                                 &data->qparams.input_multiplier, &shift, {0, 31}));
  data->qparams.input_left_shift = shift;
  data->qparams.diff_min = -quant::fixed_point::CalculateInputRadius(kScaledDiffIntegerBits, shift);
  data->exp_table.reset();
  if (!reference_only && cpu::ActiveIsa() != cpu::Isa::kReference) {
    data->exp_table = std::make_unique<optimized::SoftmaxExpTable>();
    optimized::FillSoftmaxExpTable(data->qparams, data->exp_table.get());
    SetNodeKernelName(context, node, "exp_table");
  }
  return kTfLiteOk;
}

template <bool kReferenceOnly>
TfLiteStatus PrepareSoftmax(TfLiteContext* context, TfLiteNode* node) {
  constexpr char kOp[] = "SOFTMAX";
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteSoftmaxParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  data->beta = params->beta;
  TF_LITE_ENSURE_OK(context, PrepareRows(context, node, kOp, data, /*allow_quantized=*/true));
  data->funary = nullptr;
  if (!data->quantized) {
    if (!kReferenceOnly) data->funary = optimized::FUnaryKernelFor(cpu::ActiveIsa());
    if (data->funary != nullptr) SetNodeKernelName(context, node, data->funary->name);
    return kTfLiteOk;
  }
  return PrepareQuantizedSoftmax(context, node, data, kReferenceOnly);
}

// TFLite's LOG_SOFTMAX int8 (TFLite Micro) / uint8: output params fixed at 16/256 with
// zero point 127 / 255; beta 1. PreprocessLogSoftmaxScalingExp: the Q5.26 input multiplier
// as for SOFTMAX, and its inverse as a multiplier < 1 for the underflow bound.
TfLiteStatus PrepareQuantizedLogSoftmax(TfLiteContext* context, TfLiteNode* node, OpData* data) {
  constexpr char kOp[] = "LOG_SOFTMAX";
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  const TfLiteType in = input->type;
  OCTET_OP_ENSURE(context, in == kTfLiteInt8 || in == kTfLiteUInt8, kOp,
                  "input type %s is not supported (FLOAT32, INT8, UINT8)", TfLiteTypeGetName(in));
  OCTET_OP_ENSURE(context, output->type == in, kOp, "output type %s must match the input type %s",
                  TfLiteTypeGetName(output->type), TfLiteTypeGetName(in));
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, quant::CheckFixedOutputParams(context, kOp, output, 16.f / 256,
                                                           in == kTfLiteInt8 ? 127 : 255));
  constexpr int kScaledDiffIntegerBits = 5;
  reference::QuantizedLogSoftmaxParams& p = data->log_params;
  const double real = std::min<double>(static_cast<double>(input->params.scale) *
                                           static_cast<double>(1 << (31 - kScaledDiffIntegerBits)),
                                       static_cast<double>((1ll << 31) - 1));
  int left_shift = 0;
  quant::QuantizeMultiplierGreaterThanOne(real, &p.input_multiplier, &left_shift);
  OCTET_OP_ENSURE(context, left_shift >= 1 && left_shift <= 30, kOp,
                  "input scale %g is out of the supported range", input->params.scale);
  p.input_left_shift = left_shift;
  const double reverse = std::ldexp(1.0, 31 - left_shift) / static_cast<double>(p.input_multiplier);
  int reverse_left_shift = 0;
  quant::QuantizeMultiplierSmallerThanOneExp(reverse, &p.reverse_scaling_divisor,
                                             &reverse_left_shift);
  OCTET_OP_ENSURE(context, reverse_left_shift <= 0 && reverse_left_shift >= -31, kOp,
                  "input scale %g is out of the supported range", input->params.scale);
  p.reverse_scaling_right_shift = -reverse_left_shift;
  p.diff_min = -quant::fixed_point::CalculateInputRadius(kScaledDiffIntegerBits, left_shift);
  return kTfLiteOk;
}

TfLiteStatus PrepareLogSoftmax(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context,
                    PrepareRows(context, node, "LOG_SOFTMAX", data, /*allow_quantized=*/true));
  if (!data->quantized) return kTfLiteOk;
  return PrepareQuantizedLogSoftmax(context, node, data);
}

template <bool kLog>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const char* op = kLog ? "LOG_SOFTMAX" : "SOFTMAX";
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  TF_LITE_ENSURE_OK(context, RequireData(context, op, "input", input));
  TF_LITE_ENSURE_OK(context, RequireData(context, op, "output", output));
  if (kLog && data->quantized) {
    if (input->type == kTfLiteInt8) {
      reference::QuantizedLogSoftmax(data->log_params, data->outer, data->depth, input->data.int8,
                                     output->data.int8);
    } else {
      reference::QuantizedLogSoftmax(data->log_params, data->outer, data->depth, input->data.uint8,
                                     output->data.uint8);
    }
    return kTfLiteOk;
  }
  if (!kLog && data->quantized) {
    if (input->type == kTfLiteInt16) {
      reference::SoftmaxInt16(*data->int16, data->outer, data->depth, input->data.i16,
                              output->data.i16);
    } else if (input->type == kTfLiteUInt8) {
      reference::TableSoftmaxUint8(data->table, data->output_scale, data->outer, data->depth,
                                   input->data.uint8, output->data.uint8);
    } else if (data->exp_table && output->type == kTfLiteInt16) {
      optimized::TableSoftmaxInt8(*data->exp_table, data->outer, data->depth, input->data.int8,
                                  output->data.i16);
    } else if (data->exp_table) {
      optimized::TableSoftmaxInt8(*data->exp_table, data->outer, data->depth, input->data.int8,
                                  output->data.int8);
    } else if (output->type == kTfLiteInt16) {
      reference::QuantizedSoftmax(data->qparams, data->outer, data->depth, input->data.int8,
                                  output->data.i16);
    } else {
      reference::QuantizedSoftmax(data->qparams, data->outer, data->depth, input->data.int8,
                                  output->data.int8);
    }
    return kTfLiteOk;
  }
  if (kLog) {
    reference::LogSoftmax(data->outer, data->depth, input->data.f, output->data.f);
  } else if (data->funary != nullptr) {
    // The reference's softmax with each row's exps on the path's vector kernel.
    const optimized::FUnaryFn exp = data->funary->exp;
    reference::SoftmaxWith([exp](float* v, int n) { exp(v, v, static_cast<size_t>(n)); },
                           data->beta, data->outer, data->depth, input->data.f, output->data.f);
  } else {
    reference::Softmax(data->beta, data->outer, data->depth, input->data.f, output->data.f);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::softmax

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SOFTMAX() {
  namespace op = octet::ops::nn::softmax;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareSoftmax<false>, op::Eval<false>);
  return &r;
}

TfLiteRegistration* Register_SOFTMAX_REF() {
  namespace op = octet::ops::nn::softmax;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareSoftmax<true>, op::Eval<false>);
  return &r;
}

TfLiteRegistration* Register_LOG_SOFTMAX() {
  namespace op = octet::ops::nn::softmax;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareLogSoftmax, op::Eval<true>);
  return &r;
}

}  // namespace tflite::ops::builtin
