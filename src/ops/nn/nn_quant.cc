#include "ops/nn/nn_quant.h"

#include <cstdio>

#include "ops/nn/nn_util.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn {

namespace {

constexpr int kWeightedInput = 0;
constexpr int kWeightedWeights = 1;
constexpr int kWeightedBias = 2;
constexpr int kWeightedOutput = 0;

void SetKernelFamily(WeightedOpTensors* t) {
  t->quantized = IsQuantizedType(t->input->type);
  t->hybrid = !t->quantized && t->weights->type == kTfLiteInt8;
}

}  // namespace

TfLiteStatus PrepareHybridScratch(TfLiteContext* context, TfLiteNode* node, NodeScratch* scratch,
                                  int64_t input_elements, int batches) {
  return scratch->Prepare(
      context, node,
      {{kTfLiteInt8, input_elements}, {kTfLiteFloat32, batches}, {kTfLiteInt32, batches}});
}

reference::HybridConvScratch HybridScratchView(TfLiteContext* context, const NodeScratch& scratch) {
  return {scratch.Data<int8_t>(context, 0), scratch.Data<float>(context, 1),
          scratch.Data<int32_t>(context, 2)};
}

TfLiteStatus PrepareWeightedOpTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                                      const char* weights_name, WeightedOpTensors* t,
                                      Int4Weights* int4) {
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, op, 2, 3, 1));
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, op, kWeightedInput, &t->input));
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, op, kWeightedWeights, &t->weights));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, op, kWeightedOutput, &t->output));
  t->bias = tflite::GetOptionalInputTensor(context, node, kWeightedBias);
  if (t->weights->type == kTfLiteInt4) {
    TF_LITE_ENSURE_OK(context, PrepareInt4Weights(context, op, weights_name, t->input, t->weights,
                                                  int4, &t->weights));
  }
  SetKernelFamily(t);
  if (!t->quantized) {
    TF_LITE_ENSURE_OK(context, RequireFloat(context, op, "input", t->input));
    if (!t->hybrid) TF_LITE_ENSURE_OK(context, RequireFloat(context, op, weights_name, t->weights));
    TF_LITE_ENSURE_OK(context, RequireFloat(context, op, "output", t->output));
  }
  return kTfLiteOk;
}

TfLiteStatus CheckWeightedOpBias(TfLiteContext* context, const char* op, const TfLiteTensor* bias,
                                 bool quantized, int channels, const char* channels_name) {
  if (bias == nullptr) return kTfLiteOk;
  if (!quantized) TF_LITE_ENSURE_OK(context, RequireFloat(context, op, "bias", bias));
  TF_LITE_ENSURE_OK(context, RequireRank(context, op, "bias", bias, 1));
  OCTET_OP_ENSURE(context, bias->dims->data[0] == channels, op,
                  "bias has %d elements, expected %d (%s)", bias->dims->data[0], channels,
                  channels_name);
  return kTfLiteOk;
}

TfLiteStatus GetWeightedOpTensorsWithData(TfLiteContext* context, TfLiteNode* node, const char* op,
                                          const char* weights_name, WeightedOpTensors* t,
                                          Int4Weights* int4) {
  t->input = tflite::GetInput(context, node, kWeightedInput);
  t->weights = tflite::GetInput(context, node, kWeightedWeights);
  if (t->weights != nullptr && t->weights->type == kTfLiteInt4) {
    TF_LITE_ENSURE_OK(context, Int4WeightsView(context, op, t->weights, int4, &t->weights));
  }
  t->bias = tflite::GetOptionalInputTensor(context, node, kWeightedBias);
  t->output = tflite::GetOutput(context, node, kWeightedOutput);
  TF_LITE_ENSURE_OK(context, RequireData(context, op, "input", t->input));
  TF_LITE_ENSURE_OK(context, RequireData(context, op, weights_name, t->weights));
  if (t->bias) TF_LITE_ENSURE_OK(context, RequireData(context, op, "bias", t->bias));
  TF_LITE_ENSURE_OK(context, RequireData(context, op, "output", t->output));
  SetKernelFamily(t);
  return kTfLiteOk;
}

TfLiteStatus PrepareQuantizedWeightedOp(TfLiteContext* context, const char* op,
                                        const TfLiteTensor* input, const TfLiteTensor* weights,
                                        const TfLiteTensor* bias, TfLiteTensor* output,
                                        TfLiteFusedActivation activation, int channel_dim,
                                        int channels, QuantizedWeightsData* data) {
  const TfLiteType in_type = input->type;
  OCTET_OP_ENSURE(context, output->type == in_type, op,
                  "output type %s must match the quantized input type %s",
                  TfLiteTypeGetName(output->type), TfLiteTypeGetName(in_type));
  const TfLiteType want_weights = in_type == kTfLiteUInt8 ? kTfLiteUInt8 : kTfLiteInt8;
  OCTET_OP_ENSURE(context, weights->type == want_weights, op, "%s input needs %s weights, got %s",
                  TfLiteTypeGetName(in_type), TfLiteTypeGetName(want_weights),
                  TfLiteTypeGetName(weights->type));
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, op, "input", input));
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, op, "output", output));
  TF_LITE_ENSURE_OK(context, quant::CheckWeights(context, op, weights, channel_dim, channels));
  const TfLiteAffineQuantization* wq = quant::AffineOf(weights);
  const int n_scales = wq->scale->size;
  OCTET_OP_ENSURE(context, in_type != kTfLiteUInt8 || n_scales == 1, op,
                  "uint8 weights '%s' must be quantized per-tensor, have %d scales",
                  weights->name ? weights->name : "", n_scales);
  if (bias != nullptr) {
    const bool ok_type = in_type == kTfLiteInt16
                             ? (bias->type == kTfLiteInt64 || bias->type == kTfLiteInt32)
                             : bias->type == kTfLiteInt32;
    OCTET_OP_ENSURE(context, ok_type, op, "bias type %s does not fit %s input (needs %s)",
                    TfLiteTypeGetName(bias->type), TfLiteTypeGetName(in_type),
                    in_type == kTfLiteInt16 ? "INT64 or INT32" : "INT32");
    TF_LITE_ENSURE_OK(context, quant::CheckBias(context, op, bias, input, weights));
  }

  reference::QuantizedParams& q = data->params;
  q.input_offset = -input->params.zero_point;
  q.filter_offset = in_type == kTfLiteUInt8 ? -wq->zero_point->data[0] : 0;
  q.output_offset = output->params.zero_point;
  TF_LITE_ENSURE_OK(context, tflite::CalculateActivationRangeQuantized(context, activation, output,
                                                                       &q.act_min, &q.act_max));
  data->multipliers.assign(channels, 0);
  data->shifts.assign(channels, 0);
  const double input_scale = static_cast<double>(input->params.scale);
  const double output_scale = static_cast<double>(output->params.scale);
  for (int c = 0; c < channels; ++c) {
    const double weight_scale = static_cast<double>(wq->scale->data[n_scales == 1 ? 0 : c]);
    const double real = input_scale * weight_scale / output_scale;
    char what[64];
    std::snprintf(what, sizeof what, "input_scale * weight_scale[%d] / output_scale", c);
    // The int16 kernels requantize with the 64-bit variant.
    TF_LITE_ENSURE_OK(
        context,
        quant::QuantizeMultiplierChecked(
            context, op, "output", output, what, real, &data->multipliers[c], &data->shifts[c],
            in_type == kTfLiteInt16 ? quant::kRequant64Shifts : quant::kRequantShifts));
  }
  q.multipliers = data->multipliers.data();
  q.shifts = data->shifts.data();
  return kTfLiteOk;
}

}  // namespace octet::ops::nn
