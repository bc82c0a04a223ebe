// Full-integer LSTM as TFLite runs it (see lstm_integer_full.h). Prepare follows TFLite's
// PopulateQuantizedLstmParams8x8_16: the gate FCs requantize to the intermediate scales
// (2^-12 without layer norm), with the same float/double arithmetic for the effective
// scales; the input and output-state zero points are folded into per-row biases.
#include "ops/nn/lstm_integer_full.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/reference/lstm_integer_full.h"
#include "ops/nn/lstm_inputs.h"
#include "ops/nn/lstm_integer_checker.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn_integer_full {

namespace ref = reference::lstm_integer_full;

struct LstmIntegerFullData {
  ref::Params params;
  bool time_major = true;
  int max_time = 1;
  int n_batch = 0;
  std::vector<int32_t> input_bias[4], recurrent_bias[4], projection_bias;
  mutable std::vector<int16_t> gates;  // four gate buffers, back to back (eval scratch)
  mutable std::vector<int8_t> hidden;
};

void LstmIntegerFullDataDeleter::operator()(LstmIntegerFullData* data) const { delete data; }

namespace {

using namespace nn::lstm_tensor;  // NOLINT: the 24 input names
constexpr const auto& kNames = nn::kLstmInputNames;
constexpr const char* kGateNames[4] = {"input", "forget", "cell", "output"};

// Node inputs of gate g: input weights, recurrent weights, peephole, bias, layer norm.
int InputWeights(int g) { return kInputToInput + g; }
int RecurrentWeights(int g) { return kRecurrentToInput + g; }
int Peephole(int g) { return g == ref::kCellGate ? -1 : kCellToInput + (g == 3 ? 2 : g); }
int Bias(int g) { return kInputGateBias + g; }
int LayerNorm(int g) { return kInputLayerNorm + g; }

using Checker = nn::LstmIntegerChecker;

// TFLite's CheckedLog2: the scale must be 2^k within 1e-3 in the exponent.
bool CheckedLog2(float x, int* log2_result) {
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(x_log2);
  *log2_result = static_cast<int>(rounded);
  return std::fabs(x_log2 - rounded) < 1e-3f;
}

}  // namespace

namespace {

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node, const LstmIntegerFullConfig& config,
                     LstmIntegerFullData& data) {
  const Checker check{context, config.op};
  ref::Params& p = data.params;
  p = ref::Params{};

  const int n_inputs = node->inputs->size;
  if (n_inputs != 20 && n_inputs != 24) {
    return check.Fail("expected 20 or 24 inputs, got %d", n_inputs);
  }
  if (node->outputs->size != 1) return check.Fail("expected 1 output, got %d", node->outputs->size);
  const TfLiteTensor* t[24] = {};
  for (int i = 0; i < n_inputs; ++i) t[i] = tflite::GetOptionalInputTensor(context, node, i);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (output == nullptr) return check.Fail("output is missing");

  // Which variant: the groups must be all present or all absent.
  p.cifg = t[kInputToInput] == nullptr;
  for (int i : {kRecurrentToInput, kInputGateBias}) {
    if ((t[i] == nullptr) != p.cifg) {
      return check.Fail("%s must be %s with%s input_to_input_weights (CIFG is all or none)",
                        kNames[i], p.cifg ? "absent" : "present", p.cifg ? "out" : "");
    }
  }
  p.peephole = t[kCellToOutput] != nullptr;
  if ((t[kCellToForget] != nullptr) != p.peephole ||
      (t[kCellToInput] != nullptr) != (p.peephole && !p.cifg)) {
    return check.Fail(
        "peephole weights must be all present (cell_to_input_weights only without CIFG) or all "
        "absent");
  }
  p.projection = t[kProjectionWeights] != nullptr;
  if (t[kProjectionBias] && !p.projection) {
    return check.Fail("projection_bias needs projection_weights");
  }
  p.layer_norm = t[kForgetLayerNorm] != nullptr;
  for (int g = 0; g < 4 && n_inputs == 24; ++g) {
    const bool want = p.layer_norm && !(g == ref::kInputGate && p.cifg);
    if ((t[LayerNorm(g)] != nullptr) != want) {
      return check.Fail(
          "layer norm coefficients must be all present (input_layer_norm_coefficients only "
          "without CIFG) or all absent; %s is %s",
          kNames[LayerNorm(g)], want ? "missing" : "unexpected");
    }
  }
  for (int i : std::initializer_list<int>{kInput, kInputToForget, kInputToCell, kInputToOutput,
                                          kRecurrentToForget, kRecurrentToCell, kRecurrentToOutput,
                                          kForgetGateBias, kCellGateBias, kOutputGateBias,
                                          kOutputState, kCellState}) {
    if (t[i] == nullptr) return check.Fail("%s (input %d) is required", kNames[i], i);
  }

  const int n_intermediates = node->intermediates ? node->intermediates->size : 0;
  if (n_intermediates == 12) {
    return check.Fail(
        "the 8x8_8 integer LSTM (12 intermediate tensors, int8 gate matmuls) runs only in the "
        "LSTM op, as in TFLite; this op takes the 8x8_16 form (5 intermediate tensors)");
  }
  if (n_intermediates != 5) {
    return check.Fail(
        "the integer LSTM needs the converter's 5 intermediate tensors (gate and hidden "
        "scales), got %d",
        n_intermediates);
  }

  // Sizes.
  const TfLiteTensor* input = t[kInput];
  TF_LITE_ENSURE_OK(context, check.Type("input", input, kTfLiteInt8));
  TF_LITE_ENSURE_OK(context, check.Type("output", output, kTfLiteInt8));
  const int rank = config.sequence ? 3 : 2;
  if (input->dims->size != rank) {
    return check.Fail("input must be %d-D, got %d-D", rank, input->dims->size);
  }
  data.time_major = !config.sequence || config.time_major;
  data.max_time = config.sequence ? input->dims->data[data.time_major ? 0 : 1] : 1;
  data.n_batch = input->dims->data[config.sequence && !data.time_major ? 0 : rank - 2];
  p.n_input = input->dims->data[rank - 1];
  const TfLiteTensor* w_out = t[kInputToOutput];
  const TfLiteTensor* r_out = t[kRecurrentToOutput];
  if (w_out->dims->size != 2 || r_out->dims->size != 2) {
    return check.Fail("input_to_output_weights and recurrent_to_output_weights must be 2-D");
  }
  p.n_cell = w_out->dims->data[0];
  p.n_output = r_out->dims->data[1];
  if (p.n_cell <= 0 || p.n_output <= 0 || p.n_input <= 0) {
    return check.Fail("cell, output and input sizes must be > 0, got %d, %d and %d", p.n_cell,
                      p.n_output, p.n_input);
  }
  if (data.n_batch < 0 || data.max_time < 0) return check.Fail("negative input dimension");
  const int64_t rows = int64_t{data.time_major ? data.n_batch : 1};
  if (rows * p.n_cell > std::numeric_limits<int32_t>::max() / 4 ||
      int64_t{data.n_batch} * std::max(p.n_cell, p.n_output) >
          std::numeric_limits<int32_t>::max()) {
    return check.Fail("batch x cell size is too large");
  }
  if (!p.projection && p.n_output != p.n_cell) {
    return check.Fail("without projection the output size (%d) must equal the cell size (%d)",
                      p.n_output, p.n_cell);
  }
  // TFLite runs the peephole products over n_output values; more than n_cell reads past them.
  if (p.peephole && p.n_output > p.n_cell) {
    return check.Fail("peephole with projection needs output size (%d) <= cell size (%d)",
                      p.n_output, p.n_cell);
  }
  for (int g = 0; g < 4; ++g) {
    if (g == ref::kInputGate && p.cifg) continue;
    const int iw = InputWeights(g), rw = RecurrentWeights(g), b = Bias(g);
    TF_LITE_ENSURE_OK(context, check.Shape(iw, t[iw], {p.n_cell, p.n_input}));
    TF_LITE_ENSURE_OK(context, check.Shape(rw, t[rw], {p.n_cell, p.n_output}));
    TF_LITE_ENSURE_OK(context, check.Shape(b, t[b], {p.n_cell}));
    TF_LITE_ENSURE_OK(context, check.Type(kNames[iw], t[iw], kTfLiteInt8));
    TF_LITE_ENSURE_OK(context, check.Type(kNames[rw], t[rw], kTfLiteInt8));
    TF_LITE_ENSURE_OK(context, check.Type(kNames[b], t[b], kTfLiteInt32));
    if (p.peephole && Peephole(g) >= 0) {
      TF_LITE_ENSURE_OK(context, check.Shape(Peephole(g), t[Peephole(g)], {p.n_cell}));
      TF_LITE_ENSURE_OK(context, check.Type(kNames[Peephole(g)], t[Peephole(g)], kTfLiteInt16));
    }
    if (p.layer_norm) {
      TF_LITE_ENSURE_OK(context, check.Shape(LayerNorm(g), t[LayerNorm(g)], {p.n_cell}));
      TF_LITE_ENSURE_OK(context, check.Type(kNames[LayerNorm(g)], t[LayerNorm(g)], kTfLiteInt16));
    }
  }
  if (p.projection) {
    TF_LITE_ENSURE_OK(
        context, check.Shape(kProjectionWeights, t[kProjectionWeights], {p.n_output, p.n_cell}));
    TF_LITE_ENSURE_OK(context,
                      check.Type(kNames[kProjectionWeights], t[kProjectionWeights], kTfLiteInt8));
    if (t[kProjectionBias]) {
      TF_LITE_ENSURE_OK(context, check.Shape(kProjectionBias, t[kProjectionBias], {p.n_output}));
      TF_LITE_ENSURE_OK(context,
                        check.Type(kNames[kProjectionBias], t[kProjectionBias], kTfLiteInt32));
    }
  }
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
        "output_state must have batch %d x output %d and cell_state batch %d x "
        "cell %d elements",
        data.n_batch, p.n_output, data.n_batch, p.n_cell);
  }
  if (!(config.cell_clip >= 0.f) || !(config.proj_clip >= 0.f)) {
    return check.Fail("cell_clip and proj_clip must be >= 0");
  }

  // Scales and zero points.
  float in_scale, os_scale, out_scale, cell_scale;
  int32_t in_zp, os_zp, out_zp;
  TF_LITE_ENSURE_OK(context, check.Scale("input", input, &in_scale, &in_zp, -128, 127));
  TF_LITE_ENSURE_OK(context, check.Scale("output_state", hidden, &os_scale, &os_zp, -128, 127));
  TF_LITE_ENSURE_OK(context, check.Scale("output", output, &out_scale, &out_zp, -128, 127));
  TF_LITE_ENSURE_OK(context, check.Scale("cell_state", cell, &cell_scale));
  if (!CheckedLog2(cell_scale, &p.cell_scale_power) || p.cell_scale_power < -15 ||
      p.cell_scale_power > -9) {
    return check.Fail("cell_state scale %g must be a power of two in [2^-15, 2^-9]",
                      static_cast<double>(cell_scale));
  }
  p.output_state_zp = os_zp;
  float inter_scale[5];
  int32_t hidden_zp = 0;
  const TfLiteTensor* hidden_inter = nullptr;
  for (int i = 0; i < 5; ++i) {
    inter_scale[i] = static_cast<float>(std::pow(2.0, -12));  // Q3.12 without layer norm
    if (i < 4 && !p.layer_norm) continue;
    const TfLiteTensor* it = tflite::GetIntermediates(context, node, i);
    if (it == nullptr) return check.Fail("intermediate tensor %d is missing", i);
    const std::string role = "intermediate " + std::to_string(i);
    int32_t zp = 0;
    TF_LITE_ENSURE_OK(context, check.Scale(role.c_str(), it, &inter_scale[i], &zp,
                                           i == 4 ? -128 : -32768, i == 4 ? 127 : 32767));
    if (i == 4) {
      hidden_zp = zp;
      hidden_inter = it;
    }
  }
  p.hidden_zp = hidden_zp;

  for (int g = 0; g < 4; ++g) {
    if (g == ref::kInputGate && p.cifg) continue;
    ref::GateParams& gp = p.gate[g];
    const int iw = InputWeights(g), rw = RecurrentWeights(g);
    float w_scale, r_scale;
    TF_LITE_ENSURE_OK(context, check.Scale(kNames[iw], t[iw], &w_scale));
    TF_LITE_ENSURE_OK(context, check.Scale(kNames[rw], t[rw], &r_scale));
    const float eff_in = w_scale * in_scale / inter_scale[g];
    const float eff_rec = r_scale * os_scale / inter_scale[g];
    TF_LITE_ENSURE_OK(context, check.Multiplier(kNames[iw], t[iw], "input x weight / gate scale",
                                                eff_in, &gp.input_fc));
    TF_LITE_ENSURE_OK(
        context, check.Multiplier(kNames[rw], t[rw], "output_state x weight / gate scale", eff_rec,
                                  &gp.recurrent_fc));
    if (p.peephole && Peephole(g) >= 0) {
      const int pi = Peephole(g);
      float c_scale;
      TF_LITE_ENSURE_OK(context, check.Scale(kNames[pi], t[pi], &c_scale));
      const float eff = static_cast<float>(std::pow(2.0, p.cell_scale_power) *
                                           static_cast<double>(c_scale) / inter_scale[g]);
      TF_LITE_ENSURE_OK(context, check.Multiplier(kNames[pi], t[pi], "cell x weight / gate scale",
                                                  eff, &gp.peephole));
    }
    if (p.layer_norm) {
      const int li = LayerNorm(g);
      float ln_scale;
      TF_LITE_ENSURE_OK(context, check.Scale(kNames[li], t[li], &ln_scale));
      TF_LITE_ENSURE_OK(context, check.Multiplier(kNames[li], t[li], "coefficient scale", ln_scale,
                                                  &gp.layer_norm));
      // The layer norm applies it with 12 more bits of left shift; the guard is an int32.
      if (gp.layer_norm.shift + 12 > 30 || 10000.f * ln_scale >= 2147483648.f) {
        return check.Fail("%s scale %g is too large", kNames[li], static_cast<double>(ln_scale));
      }
      gp.variance_guard = std::max(1, static_cast<int32_t>(10000 * ln_scale));
    }
  }
  const double hidden_real = std::pow(2.0, -15) / inter_scale[4] * std::pow(2.0, -15);
  TF_LITE_ENSURE_OK(context,
                    check.Multiplier("intermediate 4", hidden_inter, "2^-30 / hidden scale",
                                     static_cast<float>(hidden_real), &p.hidden));
  if (p.projection) {
    float proj_scale;
    TF_LITE_ENSURE_OK(context,
                      check.Scale(kNames[kProjectionWeights], t[kProjectionWeights], &proj_scale));
    const float eff = proj_scale * inter_scale[4] / os_scale;
    TF_LITE_ENSURE_OK(
        context, check.Multiplier(kNames[kProjectionWeights], t[kProjectionWeights],
                                  "hidden x weight / output_state scale", eff, &p.projection_fc));
  }
  // Quantized clips as TFLite computes them (in float, truncated); the projection clip uses
  // the output's scale and ignores the zero point.
  p.cell_clip = config.cell_clip > 0.f
                    ? static_cast<int16_t>(
                          std::min(std::max(config.cell_clip / cell_scale, -32768.0f), 32767.0f))
                    : 0;
  p.proj_clip =
      config.proj_clip > 0.f
          ? static_cast<int8_t>(std::min(std::max(config.proj_clip / out_scale, -128.0f), 127.0f))
          : 0;

  // Zero points folded into per-row biases now: the weights, biases and projection must be
  // constant (the peephole and layer norm tensors are read at eval).
  for (int i = kInputToInput; i <= kProjectionBias; ++i) {
    const bool read_at_eval = i >= kCellToInput && i <= kCellToOutput;
    if (t[i] && !read_at_eval && (!tflite::IsConstantTensor(t[i]) || t[i]->data.raw == nullptr)) {
      return check.Fail("%s must be a constant tensor", kNames[i]);
    }
  }
  for (int g = 0; g < 4; ++g) {
    data.input_bias[g].clear();
    data.recurrent_bias[g].clear();
    if (g == ref::kInputGate && p.cifg) continue;
    data.input_bias[g].resize(p.n_cell);
    data.recurrent_bias[g].resize(p.n_cell);
    ref::FoldZeroPoint(t[InputWeights(g)]->data.int8, p.n_cell, p.n_input, -in_zp,
                       p.layer_norm ? nullptr : t[Bias(g)]->data.i32, data.input_bias[g].data());
    ref::FoldZeroPoint(t[RecurrentWeights(g)]->data.int8, p.n_cell, p.n_output, -os_zp, nullptr,
                       data.recurrent_bias[g].data());
  }
  data.projection_bias.clear();
  if (p.projection) {
    // TFLite adds the hidden zero point (the one the hidden product subtracted).
    data.projection_bias.resize(p.n_output);
    ref::FoldZeroPoint(t[kProjectionWeights]->data.int8, p.n_output, p.n_cell, hidden_zp,
                       t[kProjectionBias] ? t[kProjectionBias]->data.i32 : nullptr,
                       data.projection_bias.data());
  }
  data.gates.assign(static_cast<size_t>(4 * rows * p.n_cell), 0);
  data.hidden.assign(static_cast<size_t>(rows * p.n_cell), 0);

  TfLiteIntArray* out_dims = TfLiteIntArrayCopy(input->dims);
  if (out_dims == nullptr) return check.Fail("out of memory");
  out_dims->data[rank - 1] = p.n_output;
  return context->ResizeTensor(context, output, out_dims);
}

}  // namespace

TfLiteStatus LstmIntegerFullPrepare(TfLiteContext* context, TfLiteNode* node,
                                    const LstmIntegerFullConfig& config,
                                    LstmIntegerFullDataPtr* data) {
  if (!*data) data->reset(new LstmIntegerFullData);
  const TfLiteStatus status = Prepare(context, node, config, **data);
  if (status != kTfLiteOk) data->reset();  // nothing half-prepared is left to run
  return status;
}

TfLiteStatus LstmIntegerFullEval(TfLiteContext* context, TfLiteNode* node,
                                 const LstmIntegerFullData& data) {
  const ref::Params& p = data.params;
  const TfLiteTensor* t[24] = {};
  for (int i = 0; i < node->inputs->size && i < 24; ++i) {
    if (i == kOutputState || i == kCellState) continue;
    t[i] = tflite::GetOptionalInputTensor(context, node, i);
    if (t[i] && t[i]->bytes > 0 && t[i]->data.raw == nullptr) {
      TF_LITE_KERNEL_LOG(context, "integer LSTM: %s has no data", kNames[i]);
      return kTfLiteError;
    }
  }
  TfLiteTensor* hidden = tflite::GetVariableInput(context, node, kOutputState);
  TfLiteTensor* cell = tflite::GetVariableInput(context, node, kCellState);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (!hidden || !cell || !output || !t[kInput] || (hidden->bytes > 0 && !hidden->data.raw) ||
      (cell->bytes > 0 && !cell->data.raw) || (output->bytes > 0 && !output->data.raw)) {
    TF_LITE_KERNEL_LOG(context, "integer LSTM: a state, input or output has no data");
    return kTfLiteError;
  }
  if (data.n_batch == 0 || data.max_time == 0) return kTfLiteOk;

  ref::Weights w;
  for (int g = 0; g < 4; ++g) {
    if (g == ref::kInputGate && p.cifg) continue;
    w.input_to[g] = t[InputWeights(g)]->data.int8;
    w.recurrent_to[g] = t[RecurrentWeights(g)]->data.int8;
    w.bias[g] = t[Bias(g)]->data.i32;
    w.input_bias[g] = data.input_bias[g].data();
    w.recurrent_bias[g] = data.recurrent_bias[g].data();
    if (p.peephole && Peephole(g) >= 0) w.cell_to[g] = t[Peephole(g)]->data.i16;
    if (p.layer_norm) w.layer_norm[g] = t[LayerNorm(g)]->data.i16;
  }
  if (p.projection) {
    w.projection = t[kProjectionWeights]->data.int8;
    w.projection_bias = data.projection_bias.data();
  }
  const size_t n = data.hidden.size();
  int16_t* g0 = data.gates.data();
  const ref::Scratch s{{g0, g0 + n, g0 + 2 * n, g0 + 3 * n}, data.hidden.data()};
  const int8_t* in = t[kInput]->data.int8;
  int8_t* state = hidden->data.int8;
  int8_t* out = output->data.int8;
  const size_t n_in = static_cast<size_t>(p.n_input), n_out = static_cast<size_t>(p.n_output);
  if (data.time_major) {
    const size_t step = static_cast<size_t>(data.n_batch);
    for (int time = 0; time < data.max_time; ++time) {
      ref::Step(p, w, data.n_batch, in + time * step * n_in, state, cell->data.i16,
                out + time * step * n_out, s);
    }
  } else {
    for (int b = 0; b < data.n_batch; ++b) {
      for (int time = 0; time < data.max_time; ++time) {
        const size_t row = static_cast<size_t>(b) * data.max_time + time;
        ref::Step(p, w, 1, in + row * n_in, state + b * n_out,
                  cell->data.i16 + static_cast<size_t>(b) * p.n_cell, out + row * n_out, s);
      }
    }
  }
  return kTfLiteOk;
}

}  // namespace octet::ops::nn_integer_full
