// Integer UNIDIRECTIONAL_SEQUENCE_LSTM (see lstm_integer.h). Prepare follows TFLite
// Micro: the gate FCs requantize to Q3.12 (scale 2^-12) from input x weight scales, the
// gate products use the fixed Q0.15 gate scale, the cell state scale must be a power of
// two; the converter's intermediate tensors are not needed (TFLite Micro ignores them).
#include "ops/nn/lstm_integer.h"

#include <cmath>
#include <cstdarg>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/alloc_guard.h"
#include "kernels/reference/lstm_integer.h"
#include "octet/kernel_info.h"
#include "ops/nn/lstm_inputs.h"
#include "ops/nn/lstm_integer_fast.h"
#include "ops/nn/lstm_integer_full.h"
#include "ops/nn/nn_quant.h"
#include "ops/op_util.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn_integer {

namespace ref = reference::lstm_integer;

struct LstmIntegerData {
  ref::Params params;
  ref::Sizes sizes;
  TfLiteType activation_type = kTfLiteInt8;
  mutable std::vector<int16_t> buffers;  // four buffers, back to back (eval scratch)
  // Set for the int8 variants TFLite Micro does not run: TFLite's own integer LSTM.
  nn_integer_full::LstmIntegerFullDataPtr full;
  LstmIntegerFast fast;  // int8 activations on the quantized GEMM micro-kernels
};

void LstmIntegerDataDeleter::operator()(LstmIntegerData* data) const { delete data; }

namespace {

constexpr char kOp[] = "UNIDIRECTIONAL_SEQUENCE_LSTM";

using namespace nn::lstm_tensor;  // NOLINT: the 24 input names
constexpr const auto& kNames = nn::kLstmInputNames;

TfLiteStatus Fail(TfLiteContext* context, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  const TfLiteStatus status = OpFailV(context, kOp, fmt, args);
  va_end(args);
  return status;
}

const TfLiteTensor* Optional(TfLiteContext* context, const TfLiteNode* node, int index) {
  if (index >= node->inputs->size) return nullptr;
  return tflite::GetOptionalInputTensor(context, node, index);
}

TfLiteStatus CheckShape(TfLiteContext* context, int index, const TfLiteTensor* t,
                        std::initializer_list<int> dims) {
  bool ok = t->dims && t->dims->size == static_cast<int>(dims.size());
  int i = 0;
  for (int d : dims) {
    if (!ok) break;
    ok = t->dims->data[i++] == d;
  }
  if (!ok) {
    std::string want = "[";
    i = 0;
    for (int d : dims) want += (i++ ? ", " : "") + std::to_string(d);
    return Fail(context, "%s must have shape %s, got %s", kNames[index], (want + "]").c_str(),
                DimsString(t).c_str());
  }
  return kTfLiteOk;
}

// A weight tensor: int8, symmetric, one scale.
TfLiteStatus CheckWeightTensor(TfLiteContext* context, int index, const TfLiteTensor* t) {
  if (t->type != kTfLiteInt8) {
    return Fail(context, "%s must be int8, got %s", kNames[index], TfLiteTypeGetName(t->type));
  }
  TF_LITE_ENSURE_OK(context, quant::CheckWeights(context, kOp, t, 0, t->dims->data[0]));
  const auto* q = quant::AffineOf(t);
  if (q->scale->size != 1) {
    return Fail(context, "%s must be quantized per-tensor, has %d scales", kNames[index],
                q->scale->size);
  }
  return kTfLiteOk;
}

// The FC requantization to the gate pre-activation scale (2^-12): the multiplier is the
// float product of the two scales, widened, over the output scale (TFLite's
// GetQuantizedConvolutionMultipler); the output range is all of int16.
// `weights` is named if the multiplier is refused; `range` is that of the accumulator's
// requantization (int32 for int8 input, int64 for int16).
TfLiteStatus MakeFc(TfLiteContext* context, float input_scale, int32_t input_zero_point,
                    const TfLiteTensor* weights, quant::ShiftRange range, ref::FcParams* p) {
  constexpr float kGateInputScale = 1.0f / 4096;
  const double real = static_cast<double>(input_scale * weights->params.scale) /
                      static_cast<double>(kGateInputScale);
  TF_LITE_ENSURE_OK(context,
                    quant::QuantizeMultiplierChecked(context, kOp, "weights", weights,
                                                     "input_scale * weight_scale * 2^12", real,
                                                     &p->multiplier, &p->shift, range));
  p->input_offset = -input_zero_point;
  p->output_offset = 0;
  return kTfLiteOk;
}

TfLiteStatus MakeMul(TfLiteContext* context, const char* role, const TfLiteTensor* output,
                     float scale_a, float scale_b, float output_scale, TfLiteType output_type,
                     int32_t output_zero_point, ref::MulParams* out) {
  ref::MulParams& p = *out;
  const double real = static_cast<double>(scale_a) * static_cast<double>(scale_b) /
                      static_cast<double>(output_scale);
  TF_LITE_ENSURE_OK(context, quant::QuantizeMultiplierChecked(context, kOp, role, output,
                                                              "gate_scale * scale / output_scale",
                                                              real, &p.multiplier, &p.shift));
  p.output_offset = output_zero_point;
  if (output_type == kTfLiteInt8) {
    p.act_min = std::numeric_limits<int8_t>::min();
    p.act_max = std::numeric_limits<int8_t>::max();
  } else {
    p.act_min = std::numeric_limits<int16_t>::min();
    p.act_max = std::numeric_limits<int16_t>::max();
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus LstmIntegerPrepare(TfLiteContext* context, TfLiteNode* node,
                                LstmIntegerDataPtr* data_ptr, bool reference_only) {
  if (!*data_ptr) data_ptr->reset(new LstmIntegerData);
  LstmIntegerData* data = data_ptr->get();
  const auto* params =
      static_cast<const TfLiteUnidirectionalSequenceLSTMParams*>(node->builtin_data);
  if (params == nullptr) return Fail(context, "missing builtin options");
  const int n_inputs = node->inputs->size;
  if (n_inputs != 20 && n_inputs != 24) {
    return Fail(context, "expected 20 or 24 inputs, got %d", n_inputs);
  }
  if (node->outputs->size != 1)
    return Fail(context, "expected 1 output, got %d", node->outputs->size);

  const TfLiteTensor* t[24] = {};
  for (int i = 0; i < n_inputs; ++i) t[i] = Optional(context, node, i);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (!output) return Fail(context, "output is missing");

  // int8 CIFG, peephole, projection, layer norm (or a cell activation other than TANH or
  // SIGMOID, which TFLite ignores): TFLite's integer kernel, which runs them all.
  bool tflite_variant =
      t[kInputToInput] == nullptr || t[kRecurrentToInput] == nullptr ||
      t[kInputGateBias] == nullptr ||
      (params->activation != kTfLiteActTanh && params->activation != kTfLiteActSigmoid);
  for (int i : std::initializer_list<int>{kCellToInput, kCellToInput + 1, kCellToOutput,
                                          kProjectionWeights, kProjectionBias}) {
    tflite_variant = tflite_variant || t[i] != nullptr;
  }
  for (int i = kInputLayerNorm; i < n_inputs; ++i) {
    tflite_variant = tflite_variant || t[i] != nullptr;
  }
  if (t[kInput] && t[kInput]->type == kTfLiteInt8 && tflite_variant) {
    nn_integer_full::LstmIntegerFullConfig config;
    config.op = kOp;
    config.sequence = true;
    config.time_major = params->time_major;
    config.cell_clip = params->cell_clip;
    config.proj_clip = params->proj_clip;
    return nn_integer_full::LstmIntegerFullPrepare(context, node, config, &data->full);
  }
  data->full.reset();

  // Only the standard LSTM: these variants have no integer kernel in TFLite Micro.
  for (int i = kCellToInput; i <= kCellToOutput; ++i) {
    if (t[i]) return Fail(context, "integer LSTM does not support peephole (%s)", kNames[i]);
  }
  for (int i = kProjectionWeights; i <= kProjectionBias; ++i) {
    if (t[i]) return Fail(context, "integer LSTM does not support projection (%s)", kNames[i]);
  }
  for (int i = kInputLayerNorm; i <= kOutputLayerNorm && i < n_inputs; ++i) {
    if (t[i]) return Fail(context, "integer LSTM does not support layer norm (%s)", kNames[i]);
  }
  for (int i :
       {kInput, kInputToInput, kInputToForget, kInputToCell, kInputToOutput, kRecurrentToInput,
        kRecurrentToForget, kRecurrentToCell, kRecurrentToOutput, kInputGateBias, kForgetGateBias,
        kCellGateBias, kOutputGateBias, kOutputState, kCellState}) {
    if (!t[i]) {
      return Fail(context, "%s (input %d) is required by the integer LSTM (no CIFG)", kNames[i], i);
    }
  }

  const TfLiteTensor* input = t[kInput];
  const TfLiteTensor* hidden = t[kOutputState];
  const TfLiteTensor* cell = t[kCellState];
  if (input->type != kTfLiteInt8 && input->type != kTfLiteInt16) {
    return Fail(context, "integer LSTM input must be int8 or int16, got %s",
                TfLiteTypeGetName(input->type));
  }
  data->activation_type = input->type;
  if (hidden->type != input->type) {
    return Fail(context, "output_state must have the input type %s, got %s",
                TfLiteTypeGetName(input->type), TfLiteTypeGetName(hidden->type));
  }
  if (output->type != input->type) {
    return Fail(context, "output must have the input type %s, got %s",
                TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));
  }
  if (cell->type != kTfLiteInt16) {
    return Fail(context, "cell_state must be int16, got %s", TfLiteTypeGetName(cell->type));
  }
  if (!hidden->is_variable)
    return Fail(context, "output_state (input 18) must be a variable tensor");
  if (!cell->is_variable) return Fail(context, "cell_state (input 19) must be a variable tensor");
  if (!(params->cell_clip >= 0.f)) {  // also NaN, which the quantized clip cannot hold
    return Fail(context, "cell_clip must be >= 0, got %g", static_cast<double>(params->cell_clip));
  }
  if (params->activation != kTfLiteActTanh && params->activation != kTfLiteActSigmoid) {
    return Fail(context, "integer LSTM cell activation must be TANH or SIGMOID, got %d",
                static_cast<int>(params->activation));
  }

  // Sizes.
  if (input->dims->size != 3) {
    return Fail(context, "input must be 3-D, got %s", DimsString(input).c_str());
  }
  ref::Sizes& s = data->sizes;
  s.time_major = params->time_major;
  s.time_steps = input->dims->data[s.time_major ? 0 : 1];
  s.batch = input->dims->data[s.time_major ? 1 : 0];
  s.input_size = input->dims->data[2];
  const TfLiteTensor* w_out = t[kInputToOutput];
  if (w_out->dims->size != 2) {
    return Fail(context, "input_to_output_weights must be 2-D, got %s", DimsString(w_out).c_str());
  }
  s.state_size = w_out->dims->data[0];
  if (s.state_size <= 0) return Fail(context, "state size must be > 0, got %d", s.state_size);
  for (int i = kInputToInput; i <= kInputToOutput; ++i) {
    if (CheckShape(context, i, t[i], {s.state_size, s.input_size}) != kTfLiteOk)
      return kTfLiteError;
  }
  for (int i = kRecurrentToInput; i <= kRecurrentToOutput; ++i) {
    if (CheckShape(context, i, t[i], {s.state_size, s.state_size}) != kTfLiteOk)
      return kTfLiteError;
  }
  const TfLiteType bias_type = input->type == kTfLiteInt8 ? kTfLiteInt32 : kTfLiteInt64;
  for (int i = kInputGateBias; i <= kOutputGateBias; ++i) {
    if (CheckShape(context, i, t[i], {s.state_size}) != kTfLiteOk) return kTfLiteError;
    if (t[i]->type != bias_type) {
      return Fail(context, "%s must be %s for %s input, got %s", kNames[i],
                  TfLiteTypeGetName(bias_type), TfLiteTypeGetName(input->type),
                  TfLiteTypeGetName(t[i]->type));
    }
  }
  const int64_t state_elems = int64_t{s.batch} * s.state_size;
  if (tflite::NumElements(hidden) != state_elems) {
    return Fail(context, "output_state has %lld elements, expected batch %d x state %d",
                static_cast<long long>(tflite::NumElements(hidden)), s.batch, s.state_size);
  }
  if (tflite::NumElements(cell) != state_elems) {
    return Fail(context, "cell_state has %lld elements, expected batch %d x state %d",
                static_cast<long long>(tflite::NumElements(cell)), s.batch, s.state_size);
  }

  // Quantization.
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "output_state", hidden));
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "cell_state", cell));
  for (int i = kInputToInput; i <= kRecurrentToOutput; ++i) {
    TF_LITE_ENSURE_OK(context, CheckWeightTensor(context, i, t[i]));
  }
  const float cell_scale = cell->params.scale;
  const float log2_cell = std::log2(cell_scale);
  const float power = std::round(log2_cell);
  if (std::fabs(log2_cell - power) >= 1e-3f) {
    return Fail(context, "cell_state scale %g must be a power of two",
                static_cast<double>(cell_scale));
  }
  ref::Params& p = data->params;
  p.cell_state_scale_power = static_cast<int>(power);
  if (p.cell_state_scale_power < -31 || p.cell_state_scale_power > 0) {
    return Fail(context, "cell_state scale 2^%d is out of range", p.cell_state_scale_power);
  }
  p.cell_gate_tanh = params->activation == kTfLiteActTanh;
  p.clip_cell = params->cell_clip > 0.f;
  p.quantized_cell_clip = static_cast<int16_t>(std::min(
      std::max(static_cast<double>(params->cell_clip) / static_cast<double>(cell_scale), -32768.0),
      32767.0));

  const float in_scale = input->params.scale;
  const int32_t in_zp = input->params.zero_point;
  const float h_scale = hidden->params.scale;
  const int32_t h_zp = hidden->params.zero_point;
  ref::GateParams* gates[4] = {&p.forget, &p.input, &p.cell, &p.output};
  const int in_w[4] = {kInputToForget, kInputToInput, kInputToCell, kInputToOutput};
  const int rec_w[4] = {kRecurrentToForget, kRecurrentToInput, kRecurrentToCell,
                        kRecurrentToOutput};
  const quant::ShiftRange fc_range =
      bias_type == kTfLiteInt64 ? quant::kRequant64Shifts : quant::kRequantShifts;
  for (int g = 0; g < 4; ++g) {
    TF_LITE_ENSURE_OK(context,
                      MakeFc(context, in_scale, in_zp, t[in_w[g]], fc_range, &gates[g]->input_fc));
    TF_LITE_ENSURE_OK(
        context, MakeFc(context, h_scale, h_zp, t[rec_w[g]], fc_range, &gates[g]->recurrent_fc));
  }
  constexpr float kGateOutputScale = 1.0f / 32768;  // Q0.15
  TF_LITE_ENSURE_OK(context, MakeMul(context, "cell_state", cell, kGateOutputScale, cell_scale,
                                     cell_scale, kTfLiteInt16, 0, &p.forget_cell_mul));
  TF_LITE_ENSURE_OK(context, MakeMul(context, "cell_state", cell, kGateOutputScale,
                                     kGateOutputScale, cell_scale, kTfLiteInt16, 0, &p.input_mul));
  TF_LITE_ENSURE_OK(context, MakeMul(context, "output_state", hidden, kGateOutputScale,
                                     kGateOutputScale, h_scale, hidden->type, h_zp, &p.output_mul));

  const int rows_per_step = s.time_major ? s.batch : 1;
  data->buffers.assign(static_cast<size_t>(4) * rows_per_step * s.state_size, 0);

  data->fast.ready = false;
  if (data->activation_type == kTfLiteInt8) {
    const int kGateBias[4] = {kForgetGateBias, kInputGateBias, kCellGateBias, kOutputGateBias};
    bool constant = true;
    ref::Weights<int32_t> w;
    for (int g = 0; g < 4; ++g) {
      for (int i : {in_w[g], rec_w[g], kGateBias[g]}) {
        constant = constant && t[i] != nullptr && t[i]->data.raw != nullptr &&
                   nn::IsConstantOrAbsent(t[i]);
      }
      if (!constant) break;
      w.input_to[g] = t[in_w[g]]->data.int8;
      w.recurrent_to[g] = t[rec_w[g]]->data.int8;
      w.bias[g] = t[kGateBias[g]]->data.i32;
    }
    TF_LITE_ENSURE_OK(context, PrepareLstmIntegerFast(context, data->params, data->sizes, w,
                                                      constant, reference_only, &data->fast));
  }
  SetNodeKernelName(context, node, data->fast.kernel_name);

  TfLiteIntArray* out_dims = octet::OrThrow(TfLiteIntArrayCopy(input->dims));
  out_dims->data[2] = s.state_size;
  return context->ResizeTensor(context, output, out_dims);
}

namespace {

template <typename ActT, typename BiasT>
TfLiteStatus Run(TfLiteContext* context, TfLiteNode* node, const LstmIntegerData& data) {
  const TfLiteTensor* t[24] = {};
  for (int i = 0; i < node->inputs->size && i < 24; ++i) {
    if (i == kOutputState || i == kCellState) continue;
    t[i] = Optional(context, node, i);
    if (t[i] && t[i]->bytes > 0 && t[i]->data.raw == nullptr) {
      return Fail(context, "%s has no data", kNames[i]);
    }
  }
  TfLiteTensor* hidden = tflite::GetVariableInput(context, node, kOutputState);
  TfLiteTensor* cell = tflite::GetVariableInput(context, node, kCellState);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (!hidden || !cell) return Fail(context, "state tensors are not variable");
  for (const TfLiteTensor* x :
       {static_cast<const TfLiteTensor*>(hidden), static_cast<const TfLiteTensor*>(cell),
        static_cast<const TfLiteTensor*>(output)}) {
    if (x->bytes > 0 && x->data.raw == nullptr)
      return Fail(context, "a state or output has no data");
  }
  const ref::Sizes& s = data.sizes;
  if (s.batch == 0 || s.time_steps == 0) return kTfLiteOk;

  ref::Weights<BiasT> w;
  const int in_w[4] = {kInputToForget, kInputToInput, kInputToCell, kInputToOutput};
  const int rec_w[4] = {kRecurrentToForget, kRecurrentToInput, kRecurrentToCell,
                        kRecurrentToOutput};
  const int bias[4] = {kForgetGateBias, kInputGateBias, kCellGateBias, kOutputGateBias};
  for (int g = 0; g < 4; ++g) {
    w.input_to[g] = t[in_w[g]]->data.int8;
    w.recurrent_to[g] = t[rec_w[g]]->data.int8;
    w.bias[g] = reinterpret_cast<const BiasT*>(t[bias[g]]->data.raw);
  }
  int16_t* base = data.buffers.data();
  const size_t n = data.buffers.size() / 4;
  const ref::Buffers buf{base, base + n, base + 2 * n, base + 3 * n};
  if constexpr (std::is_same_v<ActT, int8_t>) {
    if (data.fast.ready) {
      RunLstmIntegerFast(context, data.fast, data.params, s, w, t[kInput]->data.int8,
                         hidden->data.int8, cell->data.i16, output->data.int8, buf);
      return kTfLiteOk;
    }
  }
  ref::Sequence<ActT, BiasT>(data.params, s, w, reinterpret_cast<const ActT*>(t[kInput]->data.raw),
                             reinterpret_cast<ActT*>(hidden->data.raw), cell->data.i16,
                             reinterpret_cast<ActT*>(output->data.raw), buf);
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus LstmIntegerEval(TfLiteContext* context, TfLiteNode* node,
                             const LstmIntegerData* data) {
  if (data == nullptr) return Fail(context, "integer LSTM was not prepared");
  if (data->full) return nn_integer_full::LstmIntegerFullEval(context, node, *data->full);
  if (data->activation_type == kTfLiteInt8) return Run<int8_t, int32_t>(context, node, *data);
  return Run<int16_t, int64_t>(context, node, *data);
}

namespace {

void* Init(TfLiteContext*, const char*, size_t) { return new LstmIntegerDataPtr(); }
void Free(TfLiteContext*, void* buffer) { delete static_cast<LstmIntegerDataPtr*>(buffer); }
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return LstmIntegerPrepare(context, node, static_cast<LstmIntegerDataPtr*>(node->user_data));
}
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return LstmIntegerEval(context, node, static_cast<LstmIntegerDataPtr*>(node->user_data)->get());
}

}  // namespace

TfLiteRegistration* RegisterLstmInteger() {
  static TfLiteRegistration r = [] {
    TfLiteRegistration reg{};
    reg.init = Init;
    reg.free = Free;
    reg.prepare = Prepare;
    reg.invoke = Eval;
    return reg;
  }();
  return &r;
}

}  // namespace octet::ops::nn_integer
