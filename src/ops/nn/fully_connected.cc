// FULLY_CONNECTED, float32: weights [units, depth], optional bias [units]; the input is
// read as [flat_size / depth, depth]; keep_num_dims keeps the input's leading dimensions.
#include "kernels/reference/fully_connected.h"

#include <limits>
#include <memory>
#include <vector>

#include "kernels/reference/fully_connected_hybrid.h"
#include "kernels/reference/integer_conv.h"
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

namespace octet::ops::nn::fully_connected {
namespace {

constexpr char kOp[] = "FULLY_CONNECTED";

using KernelFn = void (*)(const reference::FullyConnectedParams&, int, int, int, const float*,
                          const float*, const float*, float*);

using HybridFn = void (*)(const reference::FullyConnectedParams&, bool, int, int, int, const float*,
                          const int8_t*, float, const float*, const float*, int8_t*, float*);

struct OpData {
  reference::FullyConnectedParams params;
  int batches = 0;
  int depth = 0;
  int units = 0;
  KernelFn kernel = nullptr;
  // Hybrid (INT8 weights) state.
  HybridFn hybrid_kernel = nullptr;
  bool asymmetric_inputs = false;
  float weights_scale = 1.f;
  std::vector<float> channel_scales;  // empty: one scale for all units
  NodeScratch scratch;                // hybrid: one quantized input row
  // Quantized (int8 / uint8 / int16x8) state and kernel choice.
  bool quantized = false;
  QuantizedWeighted quant;
  // Float32 state: the optimized GEMM when prepare chose it.
  FloatWeighted fast;
  // Hybrid state on the quantized GEMM when prepare chose it.
  HybridWeighted hybrid;
  // INT4 weights (int8, int16x8 or hybrid, as in TFLite), unpacked once at prepare.
  Int4Weights int4;
};

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  data->int4.int16_input = true;
  data->int4.float_input = true;
  if (data->scratch.Reserve(context, kHybridScratchCount) != kTfLiteOk) return nullptr;
  return data.release();
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// `reference_only` pins the reference kernel (Register_FULLY_CONNECTED_REF).
TfLiteStatus PrepareImpl(TfLiteContext* context, TfLiteNode* node, bool reference_only) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteFullyConnectedParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  WeightedOpTensors t;
  TF_LITE_ENSURE_OK(context,
                    PrepareWeightedOpTensors(context, node, kOp, "weights", &t, &data->int4));
  const TfLiteTensor* input = t.input;
  const TfLiteTensor* weights = t.weights;
  const TfLiteTensor* bias = t.bias;
  TfLiteTensor* output = t.output;
  const bool quantized = t.quantized;
  const bool hybrid = t.hybrid;
  OCTET_OP_ENSURE(context, params->weights_format == kTfLiteFullyConnectedWeightsFormatDefault, kOp,
                  "weights_format %d is not supported (only DEFAULT)",
                  static_cast<int>(params->weights_format));
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "weights", weights, 2));
  TF_LITE_ENSURE_OK(context, RequireValidDims(context, kOp, "input", input, 1));

  const int units = weights->dims->data[0];
  const int depth = weights->dims->data[1];
  OCTET_OP_ENSURE(context, units > 0, kOp, "weights must have > 0 rows (units), got %d", units);
  OCTET_OP_ENSURE(context, depth > 0, kOp, "weights must have > 0 columns (depth), got %d", depth);
  const int64_t input_size = tflite::NumElements(input);
  OCTET_OP_ENSURE(context, input_size % depth == 0, kOp,
                  "input size %lld is not a multiple of the weights depth %d",
                  static_cast<long long>(input_size), depth);
  const int64_t batches = input_size / depth;
  OCTET_OP_ENSURE(context, batches <= std::numeric_limits<int>::max(), kOp,
                  "too many input rows (%lld)", static_cast<long long>(batches));
  TF_LITE_ENSURE_OK(context, CheckWeightedOpBias(context, kOp, bias, quantized, units, "units"));

  // The geometry every kernel family (quantized, hybrid, float) is chosen from.
  WeightedGeometry g;
  g.op = WeightedOp::kFullyConnected;
  g.rows = static_cast<int>(batches);
  g.depth = depth;
  g.units = units;
  data->quantized = quantized;
  if (quantized) {
    TF_LITE_ENSURE_OK(context,
                      PrepareQuantizedWeighted(context, node, kOp, g, t, params->activation,
                                               reference_only, nullptr, &data->quant));
  } else {
    TF_LITE_ENSURE_OK(
        context, ActivationRange<float>(context, kOp, params->activation, &data->params.act_min,
                                        &data->params.act_max));
  }
  data->batches = static_cast<int>(batches);
  data->depth = depth;
  data->units = units;
  data->kernel = nullptr;
  data->hybrid_kernel = nullptr;
  if (hybrid) {
    TF_LITE_ENSURE_OK(context, ReadHybridWeightScales(context, kOp, weights, 0, units,
                                                      &data->weights_scale, &data->channel_scales));
    data->asymmetric_inputs = params->asymmetric_quantize_inputs;
    TF_LITE_ENSURE_OK(
        context,
        PrepareHybridWeighted(context, node, g, t, data->weights_scale,
                              data->channel_scales.empty() ? nullptr : data->channel_scales.data(),
                              data->asymmetric_inputs, data->params.act_min, data->params.act_max,
                              reference_only, &data->scratch, &data->hybrid));
    if (!data->hybrid.optimized) {
      TF_LITE_ENSURE_OK(context, data->scratch.Prepare(context, node, {{kTfLiteInt8, depth}}));
    }
    data->hybrid_kernel = &reference::HybridFullyConnected;
  } else if (!quantized) {
    data->kernel = &reference::FullyConnected;
    TF_LITE_ENSURE_OK(context,
                      PrepareFloatWeighted(context, node, g, t, data->params.act_min,
                                           data->params.act_max, reference_only, &data->fast));
  }

  std::vector<int> out_dims;
  if (params->keep_num_dims) {
    const int rank = input->dims->size;
    OCTET_OP_ENSURE(context, input->dims->data[rank - 1] == depth, kOp,
                    "keep_num_dims needs the input's last dimension (%d) to equal depth (%d)",
                    input->dims->data[rank - 1], depth);
    out_dims.assign(input->dims->data, input->dims->data + rank);
    out_dims.back() = units;
  } else {
    out_dims = {static_cast<int>(batches), units};
  }
  return ResizeOutput(context, output, out_dims);
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
                    GetWeightedOpTensorsWithData(context, node, kOp, "weights", &t, &data->int4));
  const TfLiteTensor* input = t.input;
  const TfLiteTensor* weights = t.weights;
  const TfLiteTensor* bias = t.bias;
  TfLiteTensor* output = t.output;
  if (data->quantized) {
    EvalQuantizedWeighted(context, node, data->quant, t);
    return kTfLiteOk;
  }
  if (data->hybrid_kernel) {
    if (EvalHybridWeighted(context, data->hybrid, data->scratch, t)) return kTfLiteOk;
    data->hybrid_kernel(data->params, data->asymmetric_inputs, data->batches, data->depth,
                        data->units, input->data.f, weights->data.int8, data->weights_scale,
                        data->channel_scales.empty() ? nullptr : data->channel_scales.data(),
                        bias ? bias->data.f : nullptr, data->scratch.Data<int8_t>(context, 0),
                        output->data.f);
    return kTfLiteOk;
  }
  if (EvalFloatWeighted(context, data->fast, t)) return kTfLiteOk;
  data->kernel(data->params, data->batches, data->depth, data->units, input->data.f,
               weights->data.f, bias ? bias->data.f : nullptr, output->data.f);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::fully_connected

namespace tflite::ops::builtin {

TfLiteRegistration* Register_FULLY_CONNECTED() {
  namespace op = octet::ops::nn::fully_connected;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

TfLiteRegistration* Register_FULLY_CONNECTED_REF() {
  namespace op = octet::ops::nn::fully_connected;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareReference, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
