// L2_NORMALIZATION (float32, int8, uint8) and LOCAL_RESPONSE_NORMALIZATION (float32), over
// the innermost axis. Quantized L2_NORMALIZATION has fixed output params (seed 000):
// scale 1/128 with zero point 0 (int8) or 128 (uint8).
#include "kernels/reference/normalization.h"

#include <memory>

#include "kernels/reference/integer_normalization.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::normalization {
namespace {

constexpr int kInput = 0;
constexpr int kOutput = 0;
constexpr char kL2Op[] = "L2_NORMALIZATION";
constexpr char kLrnOp[] = "LOCAL_RESPONSE_NORMALIZATION";

struct OpData {
  reference::LrnParams lrn;
  int64_t outer = 0;
  int depth = 0;
  int32_t input_zero_point = 0;  // quantized L2_NORMALIZATION
};

void* Init(TfLiteContext*, const char*, size_t) { return std::make_unique<OpData>().release(); }

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus PrepareRows(TfLiteContext* context, TfLiteNode* node, const char* op, int min_rank,
                         int max_rank, OpData* data, bool allow_quantized = false) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, op, kInput, &input));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, op, kOutput, &output));
  if (allow_quantized && (input->type == kTfLiteInt8 || input->type == kTfLiteUInt8)) {
    OCTET_OP_ENSURE(context, output->type == input->type, op,
                    "output type %s must match the input type %s", TfLiteTypeGetName(output->type),
                    TfLiteTypeGetName(input->type));
    TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, op, "input", input));
    TF_LITE_ENSURE_OK(context, quant::CheckFixedOutputParams(context, op, output, 1.f / 128,
                                                             input->type == kTfLiteInt8 ? 0 : 128));
    data->input_zero_point = input->params.zero_point;
  } else {
    TF_LITE_ENSURE_OK(context, RequireFloat(context, op, "input", input));
    TF_LITE_ENSURE_OK(context, RequireFloat(context, op, "output", output));
  }
  TF_LITE_ENSURE_OK(context, RequireValidDims(context, op, "input", input, min_rank));
  const int rank = input->dims->size;
  OCTET_OP_ENSURE(context, rank <= max_rank, op, "input must have at most %d dimensions, got %d",
                  max_rank, rank);
  data->depth = input->dims->data[rank - 1];
  data->outer = data->depth == 0 ? 0 : tflite::NumElements(input) / data->depth;
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

TfLiteStatus PrepareL2(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteL2NormParams*>(node->builtin_data);
  // Options are optional here: only a fused activation could be set, and it must be none.
  if (params != nullptr) {
    OCTET_OP_ENSURE(context, params->activation == kTfLiteActNone, kL2Op,
                    "fused activation %d is not supported (only NONE)",
                    static_cast<int>(params->activation));
  }
  return PrepareRows(context, node, kL2Op, 1, 8, static_cast<OpData*>(node->user_data),
                     /*allow_quantized=*/true);
}

TfLiteStatus PrepareLrn(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteLocalResponseNormParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kLrnOp, params));
  OCTET_OP_ENSURE(context, params->radius >= 0, kLrnOp, "radius must be >= 0, got %d",
                  params->radius);
  data->lrn.radius = params->radius;
  data->lrn.bias = params->bias;
  data->lrn.alpha = params->alpha;
  data->lrn.beta = params->beta;
  return PrepareRows(context, node, kLrnOp, 4, 4, data);
}

template <bool kLrn>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const char* op = kLrn ? kLrnOp : kL2Op;
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  TF_LITE_ENSURE_OK(context, RequireData(context, op, "input", input));
  TF_LITE_ENSURE_OK(context, RequireData(context, op, "output", output));
  if (kLrn) {
    reference::LocalResponseNormalization(data->lrn, data->outer, data->depth, input->data.f,
                                          output->data.f);
  } else if (input->type == kTfLiteInt8) {
    reference::L2NormalizationInt8(data->input_zero_point, data->outer, data->depth,
                                   input->data.int8, output->data.int8);
  } else if (input->type == kTfLiteUInt8) {
    reference::L2NormalizationUInt8(data->input_zero_point, data->outer, data->depth,
                                    input->data.uint8, output->data.uint8);
  } else {
    reference::L2Normalization(data->outer, data->depth, input->data.f, output->data.f);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::normalization

namespace tflite::ops::builtin {

TfLiteRegistration* Register_L2_NORMALIZATION() {
  namespace op = octet::ops::nn::normalization;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareL2, op::Eval<false>);
  return &r;
}

TfLiteRegistration* Register_LOCAL_RESPONSE_NORMALIZATION() {
  namespace op = octet::ops::nn::normalization;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareLrn, op::Eval<true>);
  return &r;
}

}  // namespace tflite::ops::builtin
