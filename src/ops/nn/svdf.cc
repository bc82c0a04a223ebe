// SVDF: float32; hybrid (float input, state and output, int8 weights_feature and
// weights_time, as TFLite's EvalHybridSVDF); and full integer as TFLite Micro runs it (int8
// input/feature weights/ output, int16 or int8 state and time weights, int32 bias). Input 4
// is the activation state, a variable tensor that carries the last memory_size
// feature outputs from one invoke to the next.
#include "kernels/reference/svdf.h"

#include <cmath>
#include <cstdarg>
#include <memory>
#include <string>
#include <vector>

#include "core/alloc_guard.h"
#include "kernels/reference/svdf_hybrid.h"
#include "octet/kernel_info.h"
#include "ops/nn/hybrid_recurrent_gemm.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/nn_util.h"
#include "ops/op_util.h"
#include "ops/scratch.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn_svdf {
namespace {

constexpr char kOp[] = "SVDF";
constexpr int kInput = 0;
constexpr int kWeightsFeature = 1;
constexpr int kWeightsTime = 2;
constexpr int kBias = 3;  // optional
constexpr int kState = 4;
constexpr int kOutput = 0;

enum class Kind { kFloat, kHybrid, kInteger16, kInteger8 };

// The hybrid kernel's constants, computed once per set of weights (persistent memory).
struct HybridData {
  bool asymmetric = false;
  float feature_scale = 1.f;
  const float *weights_time = nullptr;  // dequantized [num_filters, memory_size]
  const int32_t *row_sums = nullptr;    // Σ of each weights_feature row
  bool optimized = false;               // feature products on the quantized GEMM
  nn::RecurrentGemm matmul;
  // What the constants above were computed from (a re-prepare keeps them).
  const void *feature_data = nullptr;
  const void *time_data = nullptr;
  const void *packed_kernel = nullptr;
};

struct OpData {
  Kind kind = Kind::kFloat;
  reference::SvdfShape shape;
  reference::FusedActivation activation = reference::FusedActivation::kNone;
  reference::SvdfIntegerParams qparams;
  HybridData hybrid;
  // float: one buffer; integer: the time stage and the unit sums; hybrid: the five buffers
  // of reference::SvdfHybridScratch.
  ops::NodeScratch scratch;
};

// Reports "SVDF: <message>" and returns kTfLiteError.
TfLiteStatus Fail(TfLiteContext *context, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  const TfLiteStatus status = OpFailV(context, kOp, fmt, args);
  va_end(args);
  return status;
}

TfLiteStatus RequireRank2(TfLiteContext *context, const char *what, const TfLiteTensor *t) {
  if (t->dims == nullptr || t->dims->size != 2) {
    return Fail(context, "%s must be 2-D, got %s", what, DimsString(t).c_str());
  }
  if (t->dims->data[0] < 0 || t->dims->data[1] < 0) {
    return Fail(context, "%s has a negative dimension: %s", what, DimsString(t).c_str());
  }
  return kTfLiteOk;
}

TfLiteStatus RequireType(TfLiteContext *context, const char *what, const TfLiteTensor *t,
                         TfLiteType type) {
  if (t->type != type) {
    return Fail(context, "%s must be %s, got %s", what, TfLiteTypeGetName(type),
                TfLiteTypeGetName(t->type));
  }
  return kTfLiteOk;
}

// SVDF takes every fused activation of the recurrent kernels except SIGN_BIT.
TfLiteStatus ToActivation(TfLiteContext *context, TfLiteFusedActivation act,
                          reference::FusedActivation *out) {
  if (act == kTfLiteActSignBit || !ToFusedActivation(act, out)) {
    return Fail(context, "fused activation %d is not supported", static_cast<int>(act));
  }
  return kTfLiteOk;
}

void *Init(TfLiteContext *context, const char *, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context, 5) != kTfLiteOk) return nullptr;
  return data.release();
}

void Free(TfLiteContext *, void *buffer) { delete static_cast<OpData *>(buffer); }

// Integer-path checks and requantization constants.
TfLiteStatus PrepareInteger(TfLiteContext *context, TfLiteNode *node, OpData *data,
                            const TfLiteTensor *input, const TfLiteTensor *weights_feature,
                            const TfLiteTensor *weights_time, const TfLiteTensor *bias,
                            const TfLiteTensor *state, const TfLiteTensor *output) {
  TF_LITE_ENSURE_OK(context, RequireType(context, "weights_feature", weights_feature, kTfLiteInt8));
  if (state->type != kTfLiteInt16 && state->type != kTfLiteInt8) {
    return Fail(context, "activation_state must be int16 or int8 for int8 input, got %s",
                TfLiteTypeGetName(state->type));
  }
  if (weights_time->type != state->type) {
    return Fail(context, "weights_time (%s) must have the activation_state type (%s)",
                TfLiteTypeGetName(weights_time->type), TfLiteTypeGetName(state->type));
  }
  TF_LITE_ENSURE_OK(context, RequireType(context, "output", output, kTfLiteInt8));
  if (bias) TF_LITE_ENSURE_OK(context, RequireType(context, "bias", bias, kTfLiteInt32));

  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "activation_state", state));
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "output", output));
  TF_LITE_ENSURE_OK(context, quant::CheckWeights(context, kOp, weights_feature, 0, 1));
  TF_LITE_ENSURE_OK(context, quant::CheckWeights(context, kOp, weights_time, 0, 1));

  // As TFLite computes them: products and quotient of the float scales, then
  // widened.
  const float input_scale = input->params.scale;
  const float feature_scale = weights_feature->params.scale;
  const float state_scale = state->params.scale;
  const float time_scale = weights_time->params.scale;
  const float output_scale = output->params.scale;
  if (bias) {
    TF_LITE_ENSURE_OK(context, quant::CheckAffineParams(context, kOp, "bias", bias));
    const double want = static_cast<double>(state_scale * time_scale);
    if (std::abs(static_cast<double>(bias->params.scale) - want) >= 1e-5) {
      return Fail(context,
                  "bias scale %g must equal activation_state scale x "
                  "weights_time scale (%g)",
                  static_cast<double>(bias->params.scale), want);
    }
    if (bias->params.zero_point != 0) {
      return Fail(context, "bias zero point must be 0, got %d", bias->params.zero_point);
    }
  }
  const double scale_1 = static_cast<double>(input_scale * feature_scale / state_scale);
  const double scale_2 = static_cast<double>(state_scale * time_scale / output_scale);
  reference::SvdfIntegerParams &p = data->qparams;
  TF_LITE_ENSURE_OK(
      context, quant::QuantizeMultiplierChecked(context, kOp, "activation_state", state,
                                                "input_scale * weights_feature_scale / state_scale",
                                                scale_1, &p.scale_1_multiplier, &p.scale_1_shift));
  TF_LITE_ENSURE_OK(
      context, quant::QuantizeMultiplierChecked(context, kOp, "output", output,
                                                "state_scale * weights_time_scale / output_scale",
                                                scale_2, &p.scale_2_multiplier, &p.scale_2_shift));
  p.input_zero_point = input->params.zero_point;
  p.state_zero_point = state->params.zero_point;
  p.output_zero_point = output->params.zero_point;
  data->kind = state->type == kTfLiteInt16 ? Kind::kInteger16 : Kind::kInteger8;
  const reference::SvdfShape &s = data->shape;
  const int64_t filter_sums = int64_t{s.batch} * s.num_filters;
  const int64_t unit_sums = int64_t{s.batch} * s.num_units();
  return data->scratch.Prepare(context, node,
                               {{kTfLiteInt32, filter_sums}, {kTfLiteInt32, unit_sums}});
}

// The scale of int8 weights of a hybrid SVDF: symmetric, one finite positive scale (TFLite
// reads the tensor's single scale).
TfLiteStatus ReadHybridScale(TfLiteContext *context, const char *what, const TfLiteTensor *t,
                             int channels, float *scale) {
  std::vector<float> per_channel;
  TF_LITE_ENSURE_OK(context,
                    nn::ReadHybridWeightScales(context, kOp, t, 0, channels, scale, &per_channel));
  if (!per_channel.empty()) {
    return Fail(context, "%s has %d different scales; hybrid SVDF takes one scale per tensor", what,
                static_cast<int>(per_channel.size()));
  }
  if (!(*scale > 0.f) || !std::isfinite(*scale)) {
    return Fail(context, "%s scale must be finite and > 0, got %g", what,
                static_cast<double>(*scale));
  }
  return kTfLiteOk;
}

// Hybrid-path checks (float input with int8 weights_feature), the constants computed once per
// set of weights, the kernel choice and the scratch.
TfLiteStatus PrepareHybrid(TfLiteContext *context, TfLiteNode *node, const TfLiteSVDFParams *params,
                           OpData *data, const TfLiteTensor *weights_feature,
                           const TfLiteTensor *weights_time, const TfLiteTensor *bias,
                           const TfLiteTensor *state, const TfLiteTensor *output) {
  if (weights_time->type != kTfLiteInt8) {
    return Fail(context, "hybrid SVDF needs int8 weights_time like weights_feature, got %s",
                TfLiteTypeGetName(weights_time->type));
  }
  TF_LITE_ENSURE_OK(context, RequireType(context, "activation_state", state, kTfLiteFloat32));
  TF_LITE_ENSURE_OK(context, RequireType(context, "output", output, kTfLiteFloat32));
  if (bias) TF_LITE_ENSURE_OK(context, RequireType(context, "bias", bias, kTfLiteFloat32));
  if (!nn::IsConstantOrAbsent(weights_feature) || !nn::IsConstantOrAbsent(weights_time)) {
    return Fail(context, "hybrid SVDF needs constant weights_feature and weights_time");
  }
  const reference::SvdfShape &shape = data->shape;
  HybridData &h = data->hybrid;
  float time_scale = 1.f;
  TF_LITE_ENSURE_OK(context, ReadHybridScale(context, "weights_feature", weights_feature,
                                             shape.num_filters, &h.feature_scale));
  TF_LITE_ENSURE_OK(context, ReadHybridScale(context, "weights_time", weights_time,
                                             shape.num_filters, &time_scale));
  h.asymmetric = params->asymmetric_quantize_inputs;

  // Constants: the dequantized time weights and the feature row sums.
  const int64_t time_count = int64_t{shape.num_filters} * shape.memory_size;
  if (h.feature_data != weights_feature->data.raw || h.time_data != weights_time->data.raw) {
    auto *buffer = static_cast<uint8_t *>(context->AllocatePersistentBuffer(
        context, static_cast<size_t>(time_count) * sizeof(float) +
                     static_cast<size_t>(shape.num_filters) * sizeof(int32_t)));
    if (buffer == nullptr) return Fail(context, "out of memory for the hybrid constants");
    auto *time = reinterpret_cast<float *>(buffer);
    auto *sums = reinterpret_cast<int32_t *>(buffer + time_count * sizeof(float));
    reference::DequantizeSvdfWeightsTime(weights_time->data.int8, time_count, time_scale, time);
    reference::HybridRowSums(weights_feature->data.int8, shape.num_filters, shape.input_size, sums);
    h.weights_time = time;
    h.row_sums = sums;
    h.feature_data = weights_feature->data.raw;
    h.time_data = weights_time->data.raw;
    h.packed_kernel = nullptr;
  }

  // The feature products on the active path's quantized GEMM, packed once.
  const optimized::QGemmKernel *kernel = nn::RecurrentGemmKernel();
  h.optimized = false;
  if (kernel != nullptr) {
    if (h.packed_kernel != kernel) {
      const int8_t *parts[] = {weights_feature->data.int8};
      h.packed_kernel = nn::PackRecurrentGemm(context, *kernel, parts, 1, shape.num_filters,
                                              shape.input_size, &h.matmul)
                            ? kernel
                            : nullptr;
    }
    h.optimized = h.packed_kernel == kernel;
  }
  SetNodeKernelName(context, node, h.optimized ? kernel->name : "reference");

  data->kind = Kind::kHybrid;
  const int64_t filters = int64_t{shape.batch} * shape.num_filters;
  return data->scratch.Prepare(context, node,
                               {{kTfLiteInt8, int64_t{shape.batch} * shape.input_size},
                                {kTfLiteFloat32, shape.batch},
                                {kTfLiteInt32, shape.batch},
                                {kTfLiteInt32, filters},
                                {kTfLiteFloat32, filters}});
}

TfLiteStatus Prepare(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<OpData *>(node->user_data);
  const auto *params = static_cast<const TfLiteSVDFParams *>(node->builtin_data);
  if (params == nullptr) return Fail(context, "missing builtin options");
  if (node->inputs->size != 5)
    return Fail(context, "expected 5 inputs, got %d", node->inputs->size);
  if (node->outputs->size != 1) {
    return Fail(context, "expected 1 output, got %d", node->outputs->size);
  }

  const TfLiteTensor *input = tflite::GetOptionalInputTensor(context, node, kInput);
  const TfLiteTensor *weights_feature =
      tflite::GetOptionalInputTensor(context, node, kWeightsFeature);
  const TfLiteTensor *weights_time = tflite::GetOptionalInputTensor(context, node, kWeightsTime);
  const TfLiteTensor *bias = tflite::GetOptionalInputTensor(context, node, kBias);
  const TfLiteTensor *state = tflite::GetOptionalInputTensor(context, node, kState);
  TfLiteTensor *output = tflite::GetOutput(context, node, kOutput);
  if (!input) return Fail(context, "input (input 0) is required");
  if (!weights_feature) return Fail(context, "weights_feature (input 1) is required");
  if (!weights_time) return Fail(context, "weights_time (input 2) is required");
  if (!state) return Fail(context, "activation_state (input 4) is required");
  if (!output) return Fail(context, "output is missing");

  TF_LITE_ENSURE_OK(context, RequireRank2(context, "input", input));
  TF_LITE_ENSURE_OK(context, RequireRank2(context, "weights_feature", weights_feature));
  TF_LITE_ENSURE_OK(context, RequireRank2(context, "weights_time", weights_time));
  TF_LITE_ENSURE_OK(context, RequireRank2(context, "activation_state", state));

  reference::SvdfShape &s = data->shape;
  s.batch = input->dims->data[0];
  s.input_size = input->dims->data[1];
  s.num_filters = weights_feature->dims->data[0];
  s.rank = params->rank;
  s.memory_size = weights_time->dims->data[1];
  if (s.rank <= 0) return Fail(context, "rank must be > 0, got %d", s.rank);
  if (s.num_filters % s.rank != 0) {
    return Fail(context, "rank %d must divide the number of filters %d", s.rank, s.num_filters);
  }
  if (weights_feature->dims->data[1] != s.input_size) {
    return Fail(context, "weights_feature %s must have input size %d columns",
                DimsString(weights_feature).c_str(), s.input_size);
  }
  if (weights_time->dims->data[0] != s.num_filters) {
    return Fail(context, "weights_time %s must have %d rows (one per filter)",
                DimsString(weights_time).c_str(), s.num_filters);
  }
  if (s.memory_size < 1) return Fail(context, "memory size must be >= 1, got %d", s.memory_size);
  if (bias) {
    if (bias->dims == nullptr || bias->dims->size != 1 || bias->dims->data[0] != s.num_units()) {
      return Fail(context, "bias must have shape [%d] (num_filters / rank), got %s", s.num_units(),
                  DimsString(bias).c_str());
    }
  }
  if (state->dims->data[0] != s.batch ||
      int64_t{state->dims->data[1]} != int64_t{s.memory_size} * s.num_filters) {
    return Fail(context,
                "activation_state must have shape [%d, %lld] (batch, memory x "
                "filters), got %s",
                s.batch, static_cast<long long>(int64_t{s.memory_size} * s.num_filters),
                DimsString(state).c_str());
  }
  if (!state->is_variable)
    return Fail(context, "activation_state (input 4) must be a variable tensor");
  TF_LITE_ENSURE_OK(context, ToActivation(context, params->activation, &data->activation));

  if (input->type == kTfLiteFloat32 && weights_feature->type == kTfLiteInt8) {
    TF_LITE_ENSURE_OK(context, PrepareHybrid(context, node, params, data, weights_feature,
                                             weights_time, bias, state, output));
  } else if (input->type == kTfLiteFloat32) {
    if (weights_feature->type != kTfLiteFloat32) {
      return Fail(context,
                  "weights_feature must be float32, or int8 for a hybrid SVDF, with float input; "
                  "got %s",
                  TfLiteTypeGetName(weights_feature->type));
    }
    TF_LITE_ENSURE_OK(context, RequireType(context, "weights_time", weights_time, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context, RequireType(context, "activation_state", state, kTfLiteFloat32));
    TF_LITE_ENSURE_OK(context, RequireType(context, "output", output, kTfLiteFloat32));
    if (bias) TF_LITE_ENSURE_OK(context, RequireType(context, "bias", bias, kTfLiteFloat32));
    data->kind = Kind::kFloat;
    const int64_t filter_sums = int64_t{s.batch} * s.num_filters;
    TF_LITE_ENSURE_OK(context,
                      data->scratch.Prepare(context, node, {{kTfLiteFloat32, filter_sums}}));
  } else if (input->type == kTfLiteInt8) {
    TF_LITE_ENSURE_OK(context, PrepareInteger(context, node, data, input, weights_feature,
                                              weights_time, bias, state, output));
  } else {
    return Fail(context, "input type %s is not supported (float32 or int8)",
                TfLiteTypeGetName(input->type));
  }

  TfLiteIntArray *out_dims = octet::OrThrow(TfLiteIntArrayCreate(2));
  out_dims->data[0] = s.batch;
  out_dims->data[1] = s.num_units();
  return context->ResizeTensor(context, output, out_dims);
}

TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<OpData *>(node->user_data);
  const TfLiteTensor *input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor *weights_feature = tflite::GetInput(context, node, kWeightsFeature);
  const TfLiteTensor *weights_time = tflite::GetInput(context, node, kWeightsTime);
  const TfLiteTensor *bias = tflite::GetOptionalInputTensor(context, node, kBias);
  TfLiteTensor *state = tflite::GetVariableInput(context, node, kState);
  TfLiteTensor *output = tflite::GetOutput(context, node, kOutput);
  if (!state) return Fail(context, "activation_state is not a variable tensor");
  const reference::SvdfShape &s = data->shape;
  if (s.batch == 0 || s.num_filters == 0) return kTfLiteOk;
  for (const TfLiteTensor *t :
       {input, weights_feature, weights_time, bias, static_cast<const TfLiteTensor *>(state),
        static_cast<const TfLiteTensor *>(output)}) {
    if (t && t->bytes > 0 && t->data.raw == nullptr) {
      return Fail(context, "tensor '%s' has no data", t->name ? t->name : "?");
    }
  }

  switch (data->kind) {
    case Kind::kFloat:
      reference::SvdfFloat(s, input->data.f, weights_feature->data.f, weights_time->data.f,
                           bias ? bias->data.f : nullptr, data->activation, state->data.f,
                           data->scratch.Data<float>(context, 0), output->data.f);
      return kTfLiteOk;
    case Kind::kHybrid: {
      const HybridData &h = data->hybrid;
      const reference::SvdfHybridScratch scratch{
          data->scratch.Data<int8_t>(context, 0), data->scratch.Data<float>(context, 1),
          data->scratch.Data<int32_t>(context, 2), data->scratch.Data<int32_t>(context, 3),
          data->scratch.Data<float>(context, 4)};
      const float *bias_data = bias ? bias->data.f : nullptr;
      if (h.optimized) {
        auto dots = [&](const int8_t *q, int rows, int32_t *out) {
          nn::RunRecurrentGemm(context, h.matmul, q, rows, out);
        };
        reference::SvdfHybrid(s, h.asymmetric, input->data.f, dots, h.feature_scale, h.row_sums,
                              h.weights_time, bias_data, data->activation, state->data.f, scratch,
                              output->data.f);
      } else {
        const reference::SvdfHybridPlainDots dots{weights_feature->data.int8, s.num_filters,
                                                  s.input_size};
        reference::SvdfHybrid(s, h.asymmetric, input->data.f, dots, h.feature_scale, h.row_sums,
                              h.weights_time, bias_data, data->activation, state->data.f, scratch,
                              output->data.f);
      }
      return kTfLiteOk;
    }
    case Kind::kInteger16:
      reference::SvdfInteger<int16_t>(
          s, data->qparams, input->data.int8, weights_feature->data.int8, weights_time->data.i16,
          bias ? bias->data.i32 : nullptr, state->data.i16, data->scratch.Data<int32_t>(context, 0),
          data->scratch.Data<int32_t>(context, 1), output->data.int8);
      return kTfLiteOk;
    case Kind::kInteger8:
      reference::SvdfInteger<int8_t>(s, data->qparams, input->data.int8, weights_feature->data.int8,
                                     weights_time->data.int8, bias ? bias->data.i32 : nullptr,
                                     state->data.int8, data->scratch.Data<int32_t>(context, 0),
                                     data->scratch.Data<int32_t>(context, 1), output->data.int8);
      return kTfLiteOk;
  }
  return kTfLiteError;
}

}  // namespace
}  // namespace octet::ops::nn_svdf

namespace tflite::ops::builtin {

TfLiteRegistration *Register_SVDF() {
  namespace op = octet::ops::nn_svdf;
  static TfLiteRegistration r = [] {
    TfLiteRegistration reg{};
    reg.init = op::Init;
    reg.free = op::Free;
    reg.prepare = op::Prepare;
    reg.invoke = op::Eval;
    return reg;
  }();
  return &r;
}

}  // namespace tflite::ops::builtin
