// The 8x8_8 integer LSTM (see lstm_integer_8x8_8.h). Prepare follows TFLite's lstm.cc
// Prepare, CheckInputTensorDimensions and PopulateQuantizedLstmParams8x8_8: the same float
// arithmetic for the effective scales, and the same (unusual) choice of constants for the
// output gate's recurrent half, which TFLite reads past intermediate_scale_a[8] into
// intermediate_scale_b: the multiplier is the shift of the forget gate's recurrent ratio.
#include "ops/nn/lstm_integer_8x8_8.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/reference/lstm_integer_8x8_8.h"
#include "ops/nn/lstm_inputs.h"
#include "ops/nn/lstm_integer_checker.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn_integer_8x8_8 {

namespace ref = reference::lstm_integer_8x8_8;

struct LstmInteger8x8_8Data {
  ref::Params params;
  int n_batch = 0;
  mutable std::vector<int8_t> fc;      // the two int8 matmul results (eval scratch)
  mutable std::vector<int16_t> gates;  // three gate buffers, back to back
};

void LstmInteger8x8_8DataDeleter::operator()(LstmInteger8x8_8Data* data) const { delete data; }

namespace {

using namespace nn::lstm_tensor;  // NOLINT: the 24 input names
constexpr const auto& kNames = nn::kLstmInputNames;

// Node inputs of the gates TFLite's step computes (forget, cell, output).
constexpr int kInputWeights[3] = {kInputToForget, kInputToCell, kInputToOutput};
constexpr int kRecurrentWeights[3] = {kRecurrentToForget, kRecurrentToCell, kRecurrentToOutput};
constexpr int kBiases[3] = {kForgetGateBias, kCellGateBias, kOutputGateBias};
constexpr int kLayerNorms[3] = {kForgetLayerNorm, kCellLayerNorm, kOutputLayerNorm};
// Their intermediates: the gate sum, input x weights, output_state x weights.
constexpr int kSumIntermediate[3] = {3, 6, 9};
constexpr int kInputIntermediate[3] = {4, 7, 10};
constexpr int kRecurrentIntermediate[3] = {5, 8, 11};

using Checker = nn::LstmIntegerChecker;

// Present or absent as TFLite's CheckInputTensorDimensions wants them, with the shapes and
// (integer) types it checks; 8x8_8 also needs layer norm and the projection with its bias.
TfLiteStatus CheckTensors(const Checker& check, const TfLiteTensor* const* t, int n_inputs,
                          int n_cell, int n_input, int n_output) {
  const bool cifg = t[kInputToInput] == nullptr;
  for (int i : {kRecurrentToInput, kInputGateBias}) {
    if ((t[i] == nullptr) != cifg) {
      return check.Fail("%s must be %s with%s input_to_input_weights (CIFG is all or none)",
                        kNames[i], cifg ? "absent" : "present", cifg ? "out" : "");
    }
  }
  const bool peephole = t[kCellToOutput] != nullptr;
  if ((t[kCellToForget] != nullptr) != peephole ||
      (t[kCellToInput] != nullptr) != (peephole && !cifg)) {
    return check.Fail(
        "peephole weights must be all present (cell_to_input_weights only without CIFG) or all "
        "absent");
  }
  if (n_inputs != 24 || t[kForgetLayerNorm] == nullptr) {
    return check.Fail(
        "the 8x8_8 integer LSTM (12 intermediate tensors) needs layer norm coefficients: "
        "TFLite's kernel always applies them");
  }
  for (int i = kInputLayerNorm; i <= kOutputLayerNorm; ++i) {
    const bool want = !(i == kInputLayerNorm && cifg);
    if ((t[i] != nullptr) != want) {
      return check.Fail("%s must be %s", kNames[i], want ? "present" : "absent with CIFG");
    }
  }
  if (t[kProjectionWeights] == nullptr || t[kProjectionBias] == nullptr) {
    return check.Fail(
        "the 8x8_8 integer LSTM (12 intermediate tensors) needs projection_weights and "
        "projection_bias: TFLite's kernel always applies them");
  }
  for (int i = kInputToInput; i <= kOutputLayerNorm; ++i) {
    if (t[i] == nullptr || i == kOutputState || i == kCellState) continue;
    TfLiteType type = kTfLiteInt8;
    if (i >= kCellToInput && i <= kCellToOutput) {
      type = kTfLiteInt16;
      TF_LITE_ENSURE_OK(check.context, check.Shape(i, t[i], {n_cell}));
    } else if (i >= kInputGateBias && i <= kOutputGateBias) {
      type = kTfLiteInt32;
      TF_LITE_ENSURE_OK(check.context, check.Shape(i, t[i], {n_cell}));
    } else if (i >= kInputLayerNorm) {
      type = kTfLiteInt16;
      TF_LITE_ENSURE_OK(check.context, check.Shape(i, t[i], {n_cell}));
    } else if (i == kProjectionWeights) {
      TF_LITE_ENSURE_OK(check.context, check.Shape(i, t[i], {n_output, n_cell}));
    } else if (i == kProjectionBias) {
      type = kTfLiteInt32;
      TF_LITE_ENSURE_OK(check.context, check.Shape(i, t[i], {n_output}));
    } else {
      const int cols = i <= kInputToOutput ? n_input : n_output;
      TF_LITE_ENSURE_OK(check.context, check.Shape(i, t[i], {n_cell, cols}));
    }
    TF_LITE_ENSURE_OK(check.context, check.Type(kNames[i], t[i], type));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const LstmInteger8x8_8Config& config,
                     LstmInteger8x8_8Data& data) {
  const Checker check{context, config.op};
  ref::Params& p = data.params;
  p = ref::Params{};

  const int n_inputs = node->inputs->size;
  if (n_inputs != 20 && n_inputs != 24) {
    return check.Fail("expected 20 or 24 inputs, got %d", n_inputs);
  }
  if (node->outputs->size != 1) return check.Fail("expected 1 output, got %d", node->outputs->size);
  const int n_intermediates = node->intermediates ? node->intermediates->size : 0;
  if (n_intermediates != 12) {
    return check.Fail("the 8x8_8 integer LSTM needs 12 intermediate tensors, got %d",
                      n_intermediates);
  }
  const TfLiteTensor* t[24] = {};
  for (int i = 0; i < n_inputs; ++i) t[i] = tflite::GetOptionalInputTensor(context, node, i);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (output == nullptr) return check.Fail("output is missing");
  for (int i : {kInput, kInputToForget, kInputToCell, kInputToOutput, kRecurrentToForget,
                kRecurrentToCell, kRecurrentToOutput, kForgetGateBias, kCellGateBias,
                kOutputGateBias, kOutputState, kCellState}) {
    if (t[i] == nullptr) return check.Fail("%s is missing", kNames[i]);
  }

  // Sizes.
  const TfLiteTensor* input = t[kInput];
  TF_LITE_ENSURE_OK(context, check.Type("input", input, kTfLiteInt8));
  TF_LITE_ENSURE_OK(context, check.Type("output", output, kTfLiteInt8));
  if (input->dims->size != 2) return check.Fail("input must be 2-D, got %d-D", input->dims->size);
  data.n_batch = input->dims->data[0];
  p.n_input = input->dims->data[1];
  const TfLiteTensor* w_out = t[kInputToOutput];
  const TfLiteTensor* r_out = t[kRecurrentToOutput];
  if (w_out->dims->size != 2 || r_out->dims->size != 2) {
    return check.Fail("input_to_output_weights and recurrent_to_output_weights must be 2-D");
  }
  p.n_cell = w_out->dims->data[0];
  p.n_output = r_out->dims->data[1];
  if (p.n_cell <= 0 || p.n_output <= 0 || p.n_input <= 0 || data.n_batch < 0) {
    return check.Fail("batch must be >= 0 and cell, output and input sizes > 0, got %d, %d, %d, %d",
                      data.n_batch, p.n_cell, p.n_output, p.n_input);
  }
  // The projection's int64 accumulator must stay within the 2^47 its requantization takes.
  if (p.n_cell > (1 << 20) || int64_t{data.n_batch} * std::max(p.n_cell, p.n_output) >
                                  std::numeric_limits<int32_t>::max() / 3) {
    return check.Fail("batch x cell size is too large");
  }
  TF_LITE_ENSURE_OK(context, CheckTensors(check, t, n_inputs, p.n_cell, p.n_input, p.n_output));
  const TfLiteTensor* hidden = t[kOutputState];
  const TfLiteTensor* cell = t[kCellState];
  TF_LITE_ENSURE_OK(context, check.Type("output_state", hidden, kTfLiteInt8));
  TF_LITE_ENSURE_OK(context, check.Type("cell_state", cell, kTfLiteInt16));
  if (!hidden->is_variable || !cell->is_variable) {
    return check.Fail("output_state and cell_state must be variable tensors");
  }
  if (tflite::NumElements(hidden) != int64_t{data.n_batch} * p.n_output ||
      tflite::NumElements(cell) != int64_t{data.n_batch} * p.n_cell) {
    return check.Fail(
        "output_state must have batch %d x output %d and cell_state batch %d x cell %d elements",
        data.n_batch, p.n_output, data.n_batch, p.n_cell);
  }
  if (!(config.cell_clip >= 0.f) || !(config.proj_clip >= 0.f)) {
    return check.Fail("cell_clip and proj_clip must be >= 0");
  }

  // Scales and zero points.
  float in_scale, os_scale, out_scale, cell_scale;
  TF_LITE_ENSURE_OK(context, check.Scale("input", input, &in_scale, &p.input_zp, -128, 127));
  TF_LITE_ENSURE_OK(context,
                    check.Scale("output_state", hidden, &os_scale, &p.output_state_zp, -128, 127));
  int32_t out_zp;
  TF_LITE_ENSURE_OK(context, check.Scale("output", output, &out_scale, &out_zp, -128, 127));
  TF_LITE_ENSURE_OK(context, check.Scale("cell_state", cell, &cell_scale));
  if (cell_scale != 1.0 / 32768) {
    return check.Fail("cell_state scale must be 2^-15 in the 8x8_8 form, got %g",
                      static_cast<double>(cell_scale));
  }
  float inter_scale[12];
  int32_t inter_zp[12];
  for (int i = 0; i < 12; ++i) {
    const TfLiteTensor* it = tflite::GetIntermediates(context, node, i);
    if (it == nullptr) return check.Fail("intermediate tensor %d is missing", i);
    const std::string role = "intermediate " + std::to_string(i);
    TF_LITE_ENSURE_OK(context,
                      check.Scale(role.c_str(), it, &inter_scale[i], &inter_zp[i], -128, 127));
  }

  // Per gate, as PopulateQuantizedLstmParams8x8_8 derives them (float arithmetic).
  ref::Multiplier recurrent_ratio[3];
  for (int g = 0; g < 3; ++g) {
    ref::GateParams& gp = p.gate[g];
    const int iw = kInputWeights[g], rw = kRecurrentWeights[g], ln = kLayerNorms[g];
    const int in_i = kInputIntermediate[g], rec_i = kRecurrentIntermediate[g];
    const int sum_i = kSumIntermediate[g];
    const TfLiteTensor* in_t = tflite::GetIntermediates(context, node, in_i);
    const TfLiteTensor* rec_t = tflite::GetIntermediates(context, node, rec_i);
    float w_scale, r_scale, ln_scale;
    TF_LITE_ENSURE_OK(context, check.Scale(kNames[iw], t[iw], &w_scale));
    TF_LITE_ENSURE_OK(context, check.Scale(kNames[rw], t[rw], &r_scale));
    TF_LITE_ENSURE_OK(context, check.Scale(kNames[ln], t[ln], &ln_scale));
    const float eff_in = w_scale * in_scale / inter_scale[in_i];
    const float eff_rec = r_scale * os_scale / inter_scale[rec_i];
    const float in_ratio = inter_scale[in_i] / inter_scale[sum_i];
    const float rec_ratio = inter_scale[rec_i] / inter_scale[sum_i];
    TF_LITE_ENSURE_OK(context, check.Multiplier(kNames[iw], t[iw], "input x weight / intermediate",
                                                eff_in, &gp.input_fc));
    TF_LITE_ENSURE_OK(context,
                      check.Multiplier(kNames[rw], t[rw], "output_state x weight / intermediate",
                                       eff_rec, &gp.recurrent_fc));
    TF_LITE_ENSURE_OK(context, check.Multiplier("intermediate", in_t, "intermediate / gate sum",
                                                in_ratio, &gp.input_to_sum));
    TF_LITE_ENSURE_OK(context, check.Multiplier("intermediate", rec_t, "intermediate / gate sum",
                                                rec_ratio, &recurrent_ratio[g]));
    TF_LITE_ENSURE_OK(context, check.Multiplier(kNames[ln], t[ln], "coefficient scale", ln_scale,
                                                &gp.layer_norm));
    gp.input_fc_zp = static_cast<int8_t>(inter_zp[in_i]);
    gp.recurrent_fc_zp = static_cast<int8_t>(inter_zp[rec_i]);
    gp.recurrent_to_sum = recurrent_ratio[g];
  }
  // TFLite's step passes intermediate_scale_a[11] (past the array: intermediate_scale_b[3],
  // the forget ratio's shift) and intermediate_zp[7] for the output gate's recurrent half.
  ref::GateParams& og = p.gate[ref::kOutputGate];
  og.recurrent_to_sum.multiplier = recurrent_ratio[ref::kForgetGate].shift;
  og.recurrent_fc_zp = static_cast<int8_t>(inter_zp[7]);

  float proj_scale;
  TF_LITE_ENSURE_OK(context,
                    check.Scale(kNames[kProjectionWeights], t[kProjectionWeights], &proj_scale));
  const float eff_proj = static_cast<float>(static_cast<double>(proj_scale) * std::pow(2.0, -15) /
                                            static_cast<double>(os_scale));
  TF_LITE_ENSURE_OK(context, check.Multiplier(kNames[kProjectionWeights], t[kProjectionWeights],
                                              "2^-15 x weight / output_state scale", eff_proj,
                                              &p.projection, quant::kRequant64Shifts));
  // Quantized clips as TFLite computes them: the cell clip only when below 1.
  p.cell_clip = config.cell_clip > 0.f && config.cell_clip < 1.f
                    ? static_cast<int16_t>(
                          std::min(std::max(config.cell_clip / cell_scale, -32768.0f), 32767.0f))
                    : 0;
  p.proj_clip =
      config.proj_clip > 0.f
          ? static_cast<int8_t>(std::min(std::max(config.proj_clip / out_scale, -128.0f), 127.0f))
          : 0;

  const size_t n = static_cast<size_t>(data.n_batch) * p.n_cell;
  data.fc.assign(2 * n, 0);
  data.gates.assign(3 * n, 0);
  TfLiteIntArray* out_dims = TfLiteIntArrayCreate(2);
  if (out_dims == nullptr) return check.Fail("out of memory");
  out_dims->data[0] = data.n_batch;
  out_dims->data[1] = p.n_output;
  return context->ResizeTensor(context, output, out_dims);
}

}  // namespace

TfLiteStatus LstmInteger8x8_8Prepare(TfLiteContext* context, TfLiteNode* node,
                                     const LstmInteger8x8_8Config& config,
                                     LstmInteger8x8_8DataPtr* data) {
  if (!*data) data->reset(new LstmInteger8x8_8Data);
  const TfLiteStatus status = Prepare(context, node, config, **data);
  if (status != kTfLiteOk) data->reset();  // nothing half-prepared is left to run
  return status;
}

TfLiteStatus LstmInteger8x8_8Eval(TfLiteContext* context, TfLiteNode* node,
                                  const LstmInteger8x8_8Data& data) {
  const ref::Params& p = data.params;
  ref::Weights w;
  auto tensor = [&](int i) -> const TfLiteTensor* {
    const TfLiteTensor* tt = tflite::GetOptionalInputTensor(context, node, i);
    return tt && tt->data.raw ? tt : nullptr;
  };
  for (int g = 0; g < 3; ++g) {
    const TfLiteTensor* iw = tensor(kInputWeights[g]);
    const TfLiteTensor* rw = tensor(kRecurrentWeights[g]);
    const TfLiteTensor* b = tensor(kBiases[g]);
    const TfLiteTensor* ln = tensor(kLayerNorms[g]);
    if (!iw || !rw || !b || !ln) {
      TF_LITE_KERNEL_LOG(context, "integer LSTM: a weight, bias or coefficient has no data");
      return kTfLiteError;
    }
    w.input_to[g] = iw->data.int8;
    w.recurrent_to[g] = rw->data.int8;
    w.bias[g] = b->data.i32;
    w.layer_norm[g] = ln->data.i16;
  }
  const TfLiteTensor* proj = tensor(kProjectionWeights);
  const TfLiteTensor* proj_bias = tensor(kProjectionBias);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  TfLiteTensor* hidden = tflite::GetVariableInput(context, node, kOutputState);
  TfLiteTensor* cell = tflite::GetVariableInput(context, node, kCellState);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (data.n_batch == 0) return kTfLiteOk;
  if (!proj || !proj_bias || !input || !input->data.raw || !hidden || !hidden->data.raw || !cell ||
      !cell->data.raw || !output || !output->data.raw) {
    TF_LITE_KERNEL_LOG(context, "integer LSTM: a state, input, output or projection has no data");
    return kTfLiteError;
  }
  w.projection = proj->data.int8;
  w.projection_bias = proj_bias->data.i32;
  const size_t n = static_cast<size_t>(data.n_batch) * p.n_cell;
  int8_t* fc = data.fc.data();
  int16_t* g0 = data.gates.data();
  const ref::Scratch s{fc, fc + n, {g0, g0 + n, g0 + 2 * n}};
  ref::Step(p, w, data.n_batch, input->data.int8, hidden->data.int8, cell->data.i16,
            output->data.int8, s);
  return kTfLiteOk;
}

}  // namespace octet::ops::nn_integer_8x8_8
