// UNIDIRECTIONAL_SEQUENCE_LSTM, float32 (weights and activations), and hybrid (float
// activations, int8 weight matrices and peephole weights: lstm_hybrid.*). Supports the
// optional TFLite variants: CIFG (no input gate), peephole, projection (+ bias), layer norm (24
// inputs), cell/projection clipping, time-major or batch-major input. Inputs 18 and 19 are
// the output and cell states: variable tensors that carry over from one invoke to the next.
// Integer (int8/int16 input) nodes run lstm_integer.*.
#include <memory>
#include <string>
#include <vector>

#include "kernels/reference/lstm.h"
#include "ops/nn/lstm_hybrid.h"
#include "ops/nn/lstm_inputs.h"
#include "ops/nn/lstm_integer.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_util.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::lstm {
namespace {

constexpr char kOp[] = "UNIDIRECTIONAL_SEQUENCE_LSTM";

// Input indices, as in TFLite's lstm_shared.h.
enum Index {
  kInput = 0,
  kInputToInputWeights = 1,  // optional (CIFG when absent)
  kInputToForgetWeights = 2,
  kInputToCellWeights = 3,
  kInputToOutputWeights = 4,
  kRecurrentToInputWeights = 5,  // optional
  kRecurrentToForgetWeights = 6,
  kRecurrentToCellWeights = 7,
  kRecurrentToOutputWeights = 8,
  kCellToInputWeights = 9,  // peephole, optional
  kCellToForgetWeights = 10,
  kCellToOutputWeights = 11,
  kInputGateBias = 12,  // optional
  kForgetGateBias = 13,
  kCellGateBias = 14,
  kOutputGateBias = 15,
  kProjectionWeights = 16,  // optional
  kProjectionBias = 17,     // optional
  kOutputState = 18,        // variable
  kCellState = 19,          // variable
  kInputLayerNorm = 20,     // optional (24-input form only)
  kForgetLayerNorm = 21,
  kCellLayerNorm = 22,
  kOutputLayerNorm = 23,
  kNumInputs = 24,
};
constexpr int kOutput = 0;

constexpr const auto& kNames = nn::kLstmInputNames;

struct OpData {
  reference::LstmParams params;
  bool time_major = true;
  int max_time = 0;
  int n_batch = 0;
  NodeScratch scratch;                     // the float or hybrid kernel's buffers
  nn_integer::LstmIntegerDataPtr integer;  // set when the input is int8/int16
  nn_hybrid::LstmHybridDataPtr hybrid;     // set when the weights are int8 (float input)
};

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context, nn_hybrid::kLstmHybridScratchCount) != kTfLiteOk) {
    return nullptr;
  }
  return data.release();
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

const TfLiteTensor* Optional(TfLiteContext* context, const TfLiteNode* node, int index) {
  return tflite::GetOptionalInputTensor(context, node, index);
}

std::string DimsString(const TfLiteTensor* t) {
  std::string s = "[";
  for (int i = 0; i < tflite::NumDimensions(t); ++i) {
    if (i) s += ", ";
    s += std::to_string(t->dims->data[i]);
  }
  return s + "]";
}

// A present tensor must have type `want` and exactly the expected shape. Weight matrices and
// peephole weights (`weight`) have the type of input_to_output_weights: float32, or int8 in a
// hybrid LSTM; everything else is float32.
TfLiteStatus CheckTensor(TfLiteContext* context, const TfLiteTensor* t, int index,
                         const std::vector<int>& dims, TfLiteType want = kTfLiteFloat32,
                         bool weight = false) {
  const char* name = kNames[index];
  OCTET_OP_ENSURE(context, t->type == want, kOp, "%s must be %s%s, got %s", name,
                  TfLiteTypeGetName(want),
                  weight ? " like input_to_output_weights (float, or int8 for a hybrid LSTM)" : "",
                  TfLiteTypeGetName(t->type));
  bool match = tflite::NumDimensions(t) == static_cast<int>(dims.size());
  for (size_t i = 0; match && i < dims.size(); ++i) match = t->dims->data[i] == dims[i];
  if (!match) {
    std::string want = "[";
    for (size_t i = 0; i < dims.size(); ++i) want += (i ? ", " : "") + std::to_string(dims[i]);
    want += "]";
    TF_LITE_KERNEL_LOG(context, "%s: %s must have shape %s, got %s", kOp, name, want.c_str(),
                       DimsString(t).c_str());
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Required(TfLiteContext* context, const TfLiteNode* node, int index,
                      const TfLiteTensor** t) {
  *t = Optional(context, node, index);
  OCTET_OP_ENSURE(context, *t != nullptr, kOp, "%s (input %d) is required", kNames[index], index);
  return kTfLiteOk;
}

TfLiteStatus ToActivation(TfLiteContext* context, TfLiteFusedActivation act,
                          reference::LstmActivation* out) {
  switch (act) {
    case kTfLiteActNone:
      *out = reference::LstmActivation::kNone;
      return kTfLiteOk;
    case kTfLiteActRelu:
      *out = reference::LstmActivation::kRelu;
      return kTfLiteOk;
    case kTfLiteActReluN1To1:
      *out = reference::LstmActivation::kReluN1To1;
      return kTfLiteOk;
    case kTfLiteActRelu6:
      *out = reference::LstmActivation::kRelu6;
      return kTfLiteOk;
    case kTfLiteActTanh:
      *out = reference::LstmActivation::kTanh;
      return kTfLiteOk;
    case kTfLiteActSigmoid:
      *out = reference::LstmActivation::kSigmoid;
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: activation %d is not supported", kOp, static_cast<int>(act));
      return kTfLiteError;
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params =
      static_cast<const TfLiteUnidirectionalSequenceLSTMParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  const int n_inputs = tflite::NumInputs(node);
  OCTET_OP_ENSURE(context, n_inputs == 20 || n_inputs == 24, kOp,
                  "expected 20 or 24 inputs, got %d", n_inputs);
  const TfLiteTensor* input0 = Optional(context, node, kInput);
  if (input0 && (input0->type == kTfLiteInt8 || input0->type == kTfLiteInt16)) {
    return nn_integer::LstmIntegerPrepare(context, node, &data->integer);
  }
  data->integer.reset();
  OCTET_OP_ENSURE(context, tflite::NumOutputs(node) == 1, kOp, "expected 1 output, got %d",
                  tflite::NumOutputs(node));
  OCTET_OP_ENSURE(context, params->cell_clip >= 0.f, kOp, "cell_clip must be >= 0, got %g",
                  static_cast<double>(params->cell_clip));
  OCTET_OP_ENSURE(context, params->proj_clip >= 0.f, kOp, "proj_clip must be >= 0, got %g",
                  static_cast<double>(params->proj_clip));
  OCTET_OP_ENSURE(context, !params->diagonal_recurrent_tensors, kOp,
                  "diagonal recurrent weights are not supported");
  reference::LstmParams& p = data->params;
  TF_LITE_ENSURE_OK(context, ToActivation(context, params->activation, &p.activation));

  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, Required(context, node, kInput, &input));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kOutput, &output));
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "output", output));
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "input", input, 3));
  data->time_major = params->time_major;
  data->max_time = input->dims->data[params->time_major ? 0 : 1];
  data->n_batch = input->dims->data[params->time_major ? 1 : 0];
  const int n_batch = data->n_batch;
  const int n_input = input->dims->data[2];

  // Sizes come from the output-gate weights; every other tensor is checked against them.
  const TfLiteTensor* t;
  TF_LITE_ENSURE_OK(context, Required(context, node, kInputToOutputWeights, &t));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(t) == 2, kOp,
                  "input_to_output_weights must be 2-D, got %s", DimsString(t).c_str());
  const int n_cell = t->dims->data[0];
  TF_LITE_ENSURE_OK(context, Required(context, node, kRecurrentToOutputWeights, &t));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(t) == 2, kOp,
                  "recurrent_to_output_weights must be 2-D, got %s", DimsString(t).c_str());
  const int n_output = t->dims->data[1];
  OCTET_OP_ENSURE(context, n_cell > 0 && n_output > 0, kOp,
                  "cell and output sizes must be > 0, got %d and %d", n_cell, n_output);

  // Float weights, or int8 weights with float activations (hybrid, as TFLite decides it from
  // input_to_output_weights).
  const TfLiteType i2o_type = Optional(context, node, kInputToOutputWeights)->type;
  OCTET_OP_ENSURE(context, i2o_type == kTfLiteFloat32 || i2o_type == kTfLiteInt8, kOp,
                  "input_to_output_weights type %s is not supported (FLOAT32, or INT8 for a "
                  "hybrid LSTM)",
                  TfLiteTypeGetName(i2o_type));
  const bool hybrid = i2o_type == kTfLiteInt8;
  const TfLiteType wt = i2o_type;

  for (int index : {kInputToForgetWeights, kInputToCellWeights, kInputToOutputWeights}) {
    TF_LITE_ENSURE_OK(context, Required(context, node, index, &t));
    TF_LITE_ENSURE_OK(context, CheckTensor(context, t, index, {n_cell, n_input}, wt, true));
  }
  for (int index :
       {kRecurrentToForgetWeights, kRecurrentToCellWeights, kRecurrentToOutputWeights}) {
    TF_LITE_ENSURE_OK(context, Required(context, node, index, &t));
    TF_LITE_ENSURE_OK(context, CheckTensor(context, t, index, {n_cell, n_output}, wt, true));
  }
  for (int index : {kForgetGateBias, kCellGateBias, kOutputGateBias}) {
    TF_LITE_ENSURE_OK(context, Required(context, node, index, &t));
    TF_LITE_ENSURE_OK(context, CheckTensor(context, t, index, {n_cell}));
  }

  // CIFG: the input gate's weights and bias are all present or all absent.
  const TfLiteTensor* i2i = Optional(context, node, kInputToInputWeights);
  const TfLiteTensor* r2i = Optional(context, node, kRecurrentToInputWeights);
  const TfLiteTensor* ib = Optional(context, node, kInputGateBias);
  const bool cifg = i2i == nullptr;
  OCTET_OP_ENSURE(context, (r2i == nullptr) == cifg && (ib == nullptr) == cifg, kOp,
                  "input_to_input_weights, recurrent_to_input_weights and input_gate_bias "
                  "must be all present or all absent (CIFG)");
  if (!cifg) {
    TF_LITE_ENSURE_OK(context,
                      CheckTensor(context, i2i, kInputToInputWeights, {n_cell, n_input}, wt, true));
    TF_LITE_ENSURE_OK(
        context, CheckTensor(context, r2i, kRecurrentToInputWeights, {n_cell, n_output}, wt, true));
    TF_LITE_ENSURE_OK(context, CheckTensor(context, ib, kInputGateBias, {n_cell}));
  }

  // Peephole weights: all or none (the input one is absent under CIFG).
  const TfLiteTensor* c2i = Optional(context, node, kCellToInputWeights);
  const TfLiteTensor* c2f = Optional(context, node, kCellToForgetWeights);
  const TfLiteTensor* c2o = Optional(context, node, kCellToOutputWeights);
  const bool peephole = c2f != nullptr;
  OCTET_OP_ENSURE(context, (c2o != nullptr) == peephole && (c2i != nullptr) == (peephole && !cifg),
                  kOp, "peephole weights (cell_to_*_weights) must be all present or all absent");
  for (int index : {kCellToInputWeights, kCellToForgetWeights, kCellToOutputWeights}) {
    const TfLiteTensor* w = Optional(context, node, index);
    if (w != nullptr) {
      TF_LITE_ENSURE_OK(context, CheckTensor(context, w, index, {n_cell}, wt, true));
    }
  }

  const TfLiteTensor* proj_w = Optional(context, node, kProjectionWeights);
  const TfLiteTensor* proj_b = Optional(context, node, kProjectionBias);
  OCTET_OP_ENSURE(context, proj_w != nullptr || proj_b == nullptr, kOp,
                  "projection_bias needs projection_weights");
  if (proj_w) {
    TF_LITE_ENSURE_OK(
        context, CheckTensor(context, proj_w, kProjectionWeights, {n_output, n_cell}, wt, true));
  } else {
    OCTET_OP_ENSURE(context, n_output == n_cell, kOp,
                    "without projection the output size (%d) must equal the cell size (%d)",
                    n_output, n_cell);
  }
  if (proj_b) {
    TF_LITE_ENSURE_OK(context, CheckTensor(context, proj_b, kProjectionBias, {n_output}));
  }

  // Layer norm: forget/cell/output coefficients together, input ones unless CIFG.
  const TfLiteTensor* ln_i = Optional(context, node, kInputLayerNorm);
  const TfLiteTensor* ln_f = Optional(context, node, kForgetLayerNorm);
  const TfLiteTensor* ln_c = Optional(context, node, kCellLayerNorm);
  const TfLiteTensor* ln_o = Optional(context, node, kOutputLayerNorm);
  const bool layer_norm = ln_f != nullptr;
  OCTET_OP_ENSURE(context,
                  (ln_c != nullptr) == layer_norm && (ln_o != nullptr) == layer_norm &&
                      (ln_i != nullptr) == (layer_norm && !cifg),
                  kOp, "layer norm coefficients must be all present or all absent");
  if (layer_norm) {
    if (ln_i) TF_LITE_ENSURE_OK(context, CheckTensor(context, ln_i, kInputLayerNorm, {n_cell}));
    TF_LITE_ENSURE_OK(context, CheckTensor(context, ln_f, kForgetLayerNorm, {n_cell}));
    TF_LITE_ENSURE_OK(context, CheckTensor(context, ln_c, kCellLayerNorm, {n_cell}));
    TF_LITE_ENSURE_OK(context, CheckTensor(context, ln_o, kOutputLayerNorm, {n_cell}));
  }

  // The states persist across invokes, so they must be variable tensors.
  const TfLiteTensor* output_state;
  const TfLiteTensor* cell_state;
  TF_LITE_ENSURE_OK(context, Required(context, node, kOutputState, &output_state));
  TF_LITE_ENSURE_OK(context, Required(context, node, kCellState, &cell_state));
  OCTET_OP_ENSURE(context, output_state->is_variable, kOp,
                  "output_state (input 18) must be a variable tensor");
  OCTET_OP_ENSURE(context, cell_state->is_variable, kOp,
                  "cell_state (input 19) must be a variable tensor");
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "output_state", output_state));
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "cell_state", cell_state));
  OCTET_OP_ENSURE(context, tflite::NumElements(output_state) == int64_t{n_batch} * n_output, kOp,
                  "output_state has %lld elements, expected batch %d x output %d",
                  static_cast<long long>(tflite::NumElements(output_state)), n_batch, n_output);
  OCTET_OP_ENSURE(context, tflite::NumElements(cell_state) == int64_t{n_batch} * n_cell, kOp,
                  "cell_state has %lld elements, expected batch %d x cell %d",
                  static_cast<long long>(tflite::NumElements(cell_state)), n_batch, n_cell);

  p.n_input = n_input;
  p.n_cell = n_cell;
  p.n_output = n_output;
  p.cell_clip = params->cell_clip;
  p.proj_clip = params->proj_clip;
  std::vector<int> out_dims(input->dims->data, input->dims->data + 3);
  out_dims[2] = n_output;
  if (hybrid) {
    nn_hybrid::LstmHybridConfig config;
    config.params = p;
    config.time_major = data->time_major;
    config.max_time = data->max_time;
    config.n_batch = n_batch;
    config.asymmetric = params->asymmetric_quantize_inputs;
    TF_LITE_ENSURE_OK(context, nn_hybrid::LstmHybridPrepare(context, node, config, &data->scratch,
                                                            &data->hybrid));
    return ResizeOutput(context, output, out_dims);
  }
  data->hybrid.reset();
  // Batch-major input is processed one sequence (batch row) at a time.
  TF_LITE_ENSURE_OK(context, data->scratch.Prepare(
                                 context, node,
                                 {{kTfLiteFloat32, static_cast<int64_t>(reference::LstmScratchSize(
                                                       p, data->time_major ? n_batch : 1))}}));
  return ResizeOutput(context, output, out_dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  if (data->integer) return nn_integer::LstmIntegerEval(context, node, data->integer.get());
  if (data->hybrid) return nn_hybrid::LstmHybridEval(context, node, *data->hybrid, data->scratch);
  const int n_inputs = tflite::NumInputs(node);
  const float* in[kNumInputs] = {};
  for (int i = 0; i < n_inputs && i < kNumInputs; ++i) {
    if (i == kOutputState || i == kCellState) continue;
    const TfLiteTensor* t = Optional(context, node, i);
    if (t == nullptr) continue;
    TF_LITE_ENSURE_OK(context, RequireData(context, kOp, kNames[i], t));
    in[i] = t->data.f;
  }
  TfLiteTensor* output_state = tflite::GetVariableInput(context, node, kOutputState);
  TfLiteTensor* cell_state = tflite::GetVariableInput(context, node, kCellState);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  OCTET_OP_ENSURE(context, output_state != nullptr && cell_state != nullptr, kOp,
                  "state tensors are not variable");
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output_state", output_state));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "cell_state", cell_state));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output", output));

  reference::LstmWeights w;
  w.input_gate = {in[kInputToInputWeights], in[kRecurrentToInputWeights], in[kCellToInputWeights],
                  in[kInputLayerNorm], in[kInputGateBias]};
  w.forget_gate = {in[kInputToForgetWeights], in[kRecurrentToForgetWeights],
                   in[kCellToForgetWeights], in[kForgetLayerNorm], in[kForgetGateBias]};
  w.cell_gate = {in[kInputToCellWeights], in[kRecurrentToCellWeights], nullptr, in[kCellLayerNorm],
                 in[kCellGateBias]};
  w.output_gate = {in[kInputToOutputWeights], in[kRecurrentToOutputWeights],
                   in[kCellToOutputWeights], in[kOutputLayerNorm], in[kOutputGateBias]};
  w.projection_weights = in[kProjectionWeights];
  w.projection_bias = in[kProjectionBias];

  reference::UnidirectionalSequenceLstm(w, data->params, data->time_major, data->max_time,
                                        data->n_batch, in[kInput], output_state->data.f,
                                        cell_state->data.f, output->data.f,
                                        data->scratch.Data<float>(context, 0));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::lstm

namespace tflite::ops::builtin {

TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM() {
  namespace op = octet::ops::nn::lstm;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
