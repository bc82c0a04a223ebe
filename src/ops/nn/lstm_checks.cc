// Shared LSTM cell validation (see lstm_checks.h).
#include "ops/nn/lstm_checks.h"

#include <string>
#include <vector>

#include "ops/nn/lstm_inputs.h"
#include "ops/nn/nn_util.h"
#include "ops/op_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn {

namespace {

using namespace lstm_tensor;  // NOLINT: the 24 input names

// Checks cell tensors against one spec; `what` names them in messages.
class Checker {
 public:
  Checker(TfLiteContext* context, const TfLiteNode* node, const LstmCellSpec& spec)
      : context_(context), node_(node), spec_(spec) {}

  std::string Name(int k) const { return std::string(spec_.prefix) + kLstmInputNames[k]; }
  const TfLiteTensor* Get(int k) const { return LstmTensor(context_, node_, spec_, k); }

  TfLiteStatus Required(int k, const TfLiteTensor** t) const {
    *t = Get(k);
    OCTET_OP_ENSURE(context_, *t != nullptr, spec_.op, "%s (input %d) is required", Name(k).c_str(),
                    spec_.map[k]);
    return kTfLiteOk;
  }

  // A present tensor must have type `want` and exactly `dims`. Weight matrices and peephole
  // weights (`weight`) have the type of input_to_output_weights.
  TfLiteStatus Check(const TfLiteTensor* t, int k, const std::vector<int>& dims,
                     TfLiteType want = kTfLiteFloat32, bool weight = false) const {
    OCTET_OP_ENSURE(
        context_, t->type == want, spec_.op, "%s must be %s%s, got %s", Name(k).c_str(),
        TfLiteTypeGetName(want),
        weight ? " like input_to_output_weights (float, or int8 for a hybrid LSTM)" : "",
        TfLiteTypeGetName(t->type));
    bool match = tflite::NumDimensions(t) == static_cast<int>(dims.size());
    for (size_t i = 0; match && i < dims.size(); ++i) match = t->dims->data[i] == dims[i];
    if (!match) {
      std::string want_dims = "[";
      for (size_t i = 0; i < dims.size(); ++i) {
        want_dims += (i ? ", " : "") + std::to_string(dims[i]);
      }
      want_dims += "]";
      TF_LITE_KERNEL_LOG(context_, "%s: %s must have shape %s, got %s", spec_.op, Name(k).c_str(),
                         want_dims.c_str(), DimsString(t).c_str());
      return kTfLiteError;
    }
    return kTfLiteOk;
  }

 private:
  TfLiteContext* context_;
  const TfLiteNode* node_;
  const LstmCellSpec& spec_;
};

}  // namespace

const TfLiteTensor* LstmTensor(TfLiteContext* context, const TfLiteNode* node,
                               const LstmCellSpec& spec, int k) {
  const int index = spec.map[k];
  if (index < 0 || index >= tflite::NumInputs(node)) return nullptr;
  return tflite::GetOptionalInputTensor(context, node, index);
}

TfLiteStatus CheckLstmCell(TfLiteContext* context, const TfLiteNode* node, const LstmCellSpec& spec,
                           int n_input, int n_batch, LstmCellShape* shape) {
  const char* op = spec.op;
  const Checker c(context, node, spec);

  // Sizes come from the output-gate weights; every other tensor is checked against them.
  const TfLiteTensor* t;
  TF_LITE_ENSURE_OK(context, c.Required(kInputToOutput, &t));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(t) == 2, op, "%s must be 2-D, got %s",
                  c.Name(kInputToOutput).c_str(), DimsString(t).c_str());
  const int n_cell = t->dims->data[0];
  // Float weights, or int8 weights with float activations (hybrid, as TFLite decides it from
  // input_to_output_weights).
  const TfLiteType wt = t->type;
  OCTET_OP_ENSURE(context, wt == kTfLiteFloat32 || wt == kTfLiteInt8, op,
                  "%s type %s is not supported (FLOAT32, or INT8 for a hybrid LSTM)",
                  c.Name(kInputToOutput).c_str(), TfLiteTypeGetName(wt));
  TF_LITE_ENSURE_OK(context, c.Required(kRecurrentToOutput, &t));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(t) == 2, op, "%s must be 2-D, got %s",
                  c.Name(kRecurrentToOutput).c_str(), DimsString(t).c_str());
  const int n_output = t->dims->data[1];
  OCTET_OP_ENSURE(context, n_cell > 0 && n_output > 0, op,
                  "cell and output sizes must be > 0, got %d and %d", n_cell, n_output);

  for (int k : {kInputToForget, kInputToCell, kInputToOutput}) {
    TF_LITE_ENSURE_OK(context, c.Required(k, &t));
    TF_LITE_ENSURE_OK(context, c.Check(t, k, {n_cell, n_input}, wt, true));
  }
  for (int k : {kRecurrentToForget, kRecurrentToCell, kRecurrentToOutput}) {
    TF_LITE_ENSURE_OK(context, c.Required(k, &t));
    TF_LITE_ENSURE_OK(context, c.Check(t, k, {n_cell, n_output}, wt, true));
  }
  for (int k : {kForgetGateBias, kCellGateBias, kOutputGateBias}) {
    TF_LITE_ENSURE_OK(context, c.Required(k, &t));
    TF_LITE_ENSURE_OK(context, c.Check(t, k, {n_cell}));
  }

  // CIFG: the input gate's weights and bias are all present or all absent.
  const TfLiteTensor* i2i = c.Get(kInputToInput);
  const TfLiteTensor* r2i = c.Get(kRecurrentToInput);
  const TfLiteTensor* ib = c.Get(kInputGateBias);
  const bool cifg = i2i == nullptr;
  OCTET_OP_ENSURE(context, (r2i == nullptr) == cifg && (ib == nullptr) == cifg, op,
                  "%sinput_to_input_weights, %srecurrent_to_input_weights and %sinput_gate_bias "
                  "must be all present or all absent (CIFG)",
                  spec.prefix, spec.prefix, spec.prefix);
  if (!cifg) {
    TF_LITE_ENSURE_OK(context, c.Check(i2i, kInputToInput, {n_cell, n_input}, wt, true));
    TF_LITE_ENSURE_OK(context, c.Check(r2i, kRecurrentToInput, {n_cell, n_output}, wt, true));
    TF_LITE_ENSURE_OK(context, c.Check(ib, kInputGateBias, {n_cell}));
  }

  // Peephole weights: all or none (the input one is absent under CIFG).
  const TfLiteTensor* c2i = c.Get(kCellToInput);
  const TfLiteTensor* c2f = c.Get(kCellToForget);
  const TfLiteTensor* c2o = c.Get(kCellToOutput);
  const bool peephole = c2f != nullptr;
  OCTET_OP_ENSURE(context, (c2o != nullptr) == peephole && (c2i != nullptr) == (peephole && !cifg),
                  op, "peephole weights (%scell_to_*_weights) must be all present or all absent",
                  spec.prefix);
  for (int k : {kCellToInput, kCellToForget, kCellToOutput}) {
    if (const TfLiteTensor* w = c.Get(k)) {
      TF_LITE_ENSURE_OK(context, c.Check(w, k, {n_cell}, wt, true));
    }
  }

  const TfLiteTensor* proj_w = c.Get(kProjectionWeights);
  const TfLiteTensor* proj_b = c.Get(kProjectionBias);
  OCTET_OP_ENSURE(context, proj_w != nullptr || proj_b == nullptr, op, "%s needs %s",
                  c.Name(kProjectionBias).c_str(), c.Name(kProjectionWeights).c_str());
  if (proj_w) {
    TF_LITE_ENSURE_OK(context, c.Check(proj_w, kProjectionWeights, {n_output, n_cell}, wt, true));
  } else {
    OCTET_OP_ENSURE(context, n_output == n_cell, op,
                    "without projection the output size (%d) must equal the cell size (%d)",
                    n_output, n_cell);
  }
  if (proj_b) TF_LITE_ENSURE_OK(context, c.Check(proj_b, kProjectionBias, {n_output}));

  // Layer norm: forget/cell/output coefficients together, input ones unless CIFG.
  const TfLiteTensor* ln_i = c.Get(kInputLayerNorm);
  const TfLiteTensor* ln_f = c.Get(kForgetLayerNorm);
  const TfLiteTensor* ln_c = c.Get(kCellLayerNorm);
  const TfLiteTensor* ln_o = c.Get(kOutputLayerNorm);
  const bool layer_norm = ln_f != nullptr;
  OCTET_OP_ENSURE(context,
                  (ln_c != nullptr) == layer_norm && (ln_o != nullptr) == layer_norm &&
                      (ln_i != nullptr) == (layer_norm && !cifg),
                  op, "layer norm coefficients must be all present or all absent");
  if (layer_norm) {
    if (ln_i) TF_LITE_ENSURE_OK(context, c.Check(ln_i, kInputLayerNorm, {n_cell}));
    TF_LITE_ENSURE_OK(context, c.Check(ln_f, kForgetLayerNorm, {n_cell}));
    TF_LITE_ENSURE_OK(context, c.Check(ln_c, kCellLayerNorm, {n_cell}));
    TF_LITE_ENSURE_OK(context, c.Check(ln_o, kOutputLayerNorm, {n_cell}));
  }

  // The states persist across invokes, so they must be variable tensors.
  const TfLiteTensor* output_state;
  const TfLiteTensor* cell_state;
  TF_LITE_ENSURE_OK(context, c.Required(kOutputState, &output_state));
  TF_LITE_ENSURE_OK(context, c.Required(kCellState, &cell_state));
  OCTET_OP_ENSURE(context, output_state->is_variable, op, "%s (input %d) must be a variable tensor",
                  c.Name(kOutputState).c_str(), spec.map[kOutputState]);
  OCTET_OP_ENSURE(context, cell_state->is_variable, op, "%s (input %d) must be a variable tensor",
                  c.Name(kCellState).c_str(), spec.map[kCellState]);
  TF_LITE_ENSURE_OK(context, RequireFloat(context, op, "output_state", output_state));
  TF_LITE_ENSURE_OK(context, RequireFloat(context, op, "cell_state", cell_state));
  OCTET_OP_ENSURE(context, tflite::NumElements(output_state) == int64_t{n_batch} * n_output, op,
                  "%s has %lld elements, expected batch %d x output %d",
                  c.Name(kOutputState).c_str(),
                  static_cast<long long>(tflite::NumElements(output_state)), n_batch, n_output);
  OCTET_OP_ENSURE(context, tflite::NumElements(cell_state) == int64_t{n_batch} * n_cell, op,
                  "%s has %lld elements, expected batch %d x cell %d", c.Name(kCellState).c_str(),
                  static_cast<long long>(tflite::NumElements(cell_state)), n_batch, n_cell);

  shape->n_cell = n_cell;
  shape->n_output = n_output;
  shape->hybrid = wt == kTfLiteInt8;
  shape->cifg = cifg;
  return kTfLiteOk;
}

TfLiteStatus ToLstmActivation(TfLiteContext* context, const char* op, TfLiteFusedActivation act,
                              reference::LstmActivation* out) {
  using A = reference::LstmActivation;
  switch (act) {
    case kTfLiteActNone:
      *out = A::kNone;
      return kTfLiteOk;
    case kTfLiteActRelu:
      *out = A::kRelu;
      return kTfLiteOk;
    case kTfLiteActReluN1To1:
      *out = A::kReluN1To1;
      return kTfLiteOk;
    case kTfLiteActRelu6:
      *out = A::kRelu6;
      return kTfLiteOk;
    case kTfLiteActTanh:
      *out = A::kTanh;
      return kTfLiteOk;
    case kTfLiteActSigmoid:
      *out = A::kSigmoid;
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: activation %d is not supported", op, static_cast<int>(act));
      return kTfLiteError;
  }
}

TfLiteStatus CheckLstmClips(TfLiteContext* context, const char* op, float cell_clip,
                            float proj_clip) {
  OCTET_OP_ENSURE(context, cell_clip >= 0.f, op, "cell_clip must be >= 0, got %g",
                  static_cast<double>(cell_clip));
  OCTET_OP_ENSURE(context, proj_clip >= 0.f, op, "proj_clip must be >= 0, got %g",
                  static_cast<double>(proj_clip));
  return kTfLiteOk;
}

}  // namespace octet::ops::nn
