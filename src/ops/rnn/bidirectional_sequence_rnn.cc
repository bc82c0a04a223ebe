// BIDIRECTIONAL_SEQUENCE_RNN: a forward RNN cell over the sequence and a backward one from
// its end, with the input layout of UNIDIRECTIONAL_SEQUENCE_RNN (time_major or not).
// Inputs: 0 input; 1-4 forward input weights, recurrent weights, bias, hidden state; 5-8 the
// same for the backward cell; 9 optional aux input; 10-11 optional forward / backward aux
// weights (both or neither). Outputs: with merge_outputs one output whose last dimension is
// fw_units + bw_units (forward first), else a forward and a backward output.
//
// As in TFLite, the aux input plays one of two roles. With aux weights (stacking with cross
// links) both cells add aux_weights * aux_input. Without them (stacking without cross links)
// the aux input is the backward cell's input and must have the input's shape.
//
// Where TFLite's kernel is inconsistent this follows its evident intent: the backward output
// has the input's layout ([max_time, batch, bw_units] when time_major; TFLite sizes it
// [batch, max_time, bw_units] whatever the layout while writing time-major rows), aux rows
// are aux_size apart (TFLite steps time-major aux input by input_size), the backward cell
// reads the aux input in the no-cross-link case in both layouts (TFLite's batch-major loop
// reads the input), and a hybrid time-major invoke runs the sequence once (TFLite's runs it
// max_time times).
#include <algorithm>
#include <memory>

#include "ops/rnn/rnn_cell.h"

namespace octet::ops::rnn {
namespace {

constexpr char kOp[] = "BIDIRECTIONAL_SEQUENCE_RNN";
constexpr int kInput = 0, kAuxInput = 9, kFwAuxWeights = 10, kBwAuxWeights = 11;

struct OpData {
  RnnScratch scratch;
  reference::FusedActivation activation = reference::FusedActivation::kNone;
  bool hybrid = false;
  int fw_units = 0;
  int bw_units = 0;
  int aux_size = 0;  // 0 unless cross-linked aux input
};

CellTensors Tensors(TfLiteContext* context, TfLiteNode* node, bool backward) {
  const int base = backward ? 5 : 1;
  CellTensors c;
  c.weights = tflite::GetOptionalInputTensor(context, node, base);
  c.recurrent = tflite::GetOptionalInputTensor(context, node, base + 1);
  c.bias = tflite::GetOptionalInputTensor(context, node, base + 2);
  c.state = tflite::GetOptionalInputTensor(context, node, base + 3);
  c.aux_weights =
      tflite::GetOptionalInputTensor(context, node, backward ? kBwAuxWeights : kFwAuxWeights);
  if (backward) {
    c.weights_name = "bw_input_weights (input 5)";
    c.recurrent_name = "bw_recurrent_weights (input 6)";
    c.bias_name = "bw_bias (input 7)";
    c.state_name = "bw_hidden_state (input 8)";
    c.aux_weights_name = "bw_aux_input_weights (input 11)";
  } else {
    c.weights_name = "fw_input_weights (input 1)";
    c.recurrent_name = "fw_recurrent_weights (input 2)";
    c.bias_name = "fw_bias (input 3)";
    c.state_name = "fw_hidden_state (input 4)";
    c.aux_weights_name = "fw_aux_input_weights (input 10)";
  }
  return c;
}

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context) != kTfLiteOk) return nullptr;
  return data.release();
}

void Free(TfLiteContext*, void* buffer) {
  std::unique_ptr<OpData> owned(static_cast<OpData*>(buffer));
}

// The aux input's role: checked against the input and the aux weights; sets aux_size.
TfLiteStatus CheckAux(TfLiteContext* context, TfLiteNode* node, const TfLiteTensor* input,
                      OpData* data) {
  const TfLiteTensor* aux = tflite::GetOptionalInputTensor(context, node, kAuxInput);
  const TfLiteTensor* fw_aux_w = tflite::GetOptionalInputTensor(context, node, kFwAuxWeights);
  const TfLiteTensor* bw_aux_w = tflite::GetOptionalInputTensor(context, node, kBwAuxWeights);
  OCTET_OP_ENSURE(context, (fw_aux_w == nullptr) == (bw_aux_w == nullptr), kOp,
                  "fw_aux_input_weights and bw_aux_input_weights must both be given or both "
                  "be absent");
  data->aux_size = 0;
  if (aux == nullptr) {
    OCTET_OP_ENSURE(context, fw_aux_w == nullptr, kOp,
                    "aux input weights are given without an aux input (input 9)");
    return kTfLiteOk;
  }
  OCTET_OP_ENSURE(context, aux->type == kTfLiteFloat32, kOp, "aux input must be float32, got %s",
                  TfLiteTypeGetName(aux->type));
  const int* in = input->dims->data;
  const int* ax = aux->dims->data;
  if (fw_aux_w == nullptr) {
    // The backward cell's input.
    OCTET_OP_ENSURE(context, TfLiteIntArrayEqual(aux->dims, input->dims), kOp,
                    "aux input without aux weights is the backward input and must have the "
                    "input's shape [%d, %d, %d]",
                    in[0], in[1], in[2]);
    return kTfLiteOk;
  }
  OCTET_OP_ENSURE(context, aux->dims->size == 3 && ax[0] == in[0] && ax[1] == in[1], kOp,
                  "aux input must be 3-D with the input's first two dimensions [%d, %d, ...]",
                  in[0], in[1]);
  data->aux_size = ax[2];
  OCTET_OP_ENSURE(context, data->aux_size > 0, kOp,
                  "aux input with aux weights must have a non-empty last dimension");
  return kTfLiteOk;
}

TfLiteStatus ResizeLayout(TfLiteContext* context, TfLiteTensor* t, const TfLiteTensor* input,
                          int units) {
  return ResizeOutput(context, t, {input->dims->data[0], input->dims->data[1], units});
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteBidirectionalSequenceRNNParams*>(node->builtin_data);
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, params));
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 12, 12, params->merge_outputs ? 1 : 2));
  const TfLiteTensor* input;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, kInput, &input));
  OCTET_OP_ENSURE(context, input->type == kTfLiteFloat32, kOp, "input must be float32, got %s",
                  TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, input->dims->size == 3, kOp,
                  "input must be 3-D ([max_time, batch, input_size] when time_major, else "
                  "[batch, max_time, input_size]), got rank %d",
                  input->dims->size);
  TF_LITE_ENSURE_STATUS(ToActivation(context, kOp, params->activation, &data->activation));
  TF_LITE_ENSURE_STATUS(CheckAux(context, node, input, data));
  const int batch = input->dims->data[params->time_major ? 1 : 0];
  const int input_size = input->dims->data[2];
  bool fw_hybrid = false, bw_hybrid = false;
  TF_LITE_ENSURE_STATUS(CheckCell(context, kOp, Tensors(context, node, false), input_size,
                                  data->aux_size, batch, &fw_hybrid, &data->fw_units));
  TF_LITE_ENSURE_STATUS(CheckCell(context, kOp, Tensors(context, node, true), input_size,
                                  data->aux_size, batch, &bw_hybrid, &data->bw_units));
  OCTET_OP_ENSURE(context, fw_hybrid == bw_hybrid, kOp,
                  "forward and backward weights must both be float32 or both be int8/uint8");
  data->hybrid = fw_hybrid;

  for (int k = 0; k < tflite::NumOutputs(node); ++k) {
    TfLiteTensor* out;
    TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, k, &out));
    OCTET_OP_ENSURE(context, out->type == kTfLiteFloat32, kOp, "output %d must be float32, got %s",
                    k, TfLiteTypeGetName(out->type));
  }
  const int units = std::max(data->fw_units, data->bw_units);
  if (data->hybrid) {
    const int cols = std::max({input_size, data->aux_size, units});
    TF_LITE_ENSURE_STATUS(data->scratch.PrepareHybrid(
        context, node, batch, cols, units, 3 * int64_t{data->fw_units + data->bw_units}));
  } else {
    TF_LITE_ENSURE_STATUS(data->scratch.PrepareFloat(context, node));
  }
  TfLiteTensor* fw_output = tflite::GetOutput(context, node, 0);
  if (params->merge_outputs) {
    return ResizeLayout(context, fw_output, input, data->fw_units + data->bw_units);
  }
  TF_LITE_ENSURE_STATUS(ResizeLayout(context, fw_output, input, data->fw_units));
  return ResizeLayout(context, tflite::GetOutput(context, node, 1), input, data->bw_units);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteBidirectionalSequenceRNNParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor* aux = tflite::GetOptionalInputTensor(context, node, kAuxInput);
  TfLiteTensor* fw_state = tflite::GetVariableInput(context, node, 4);
  TfLiteTensor* bw_state = tflite::GetVariableInput(context, node, 8);
  OCTET_OP_ENSURE(context, fw_state != nullptr && bw_state != nullptr, kOp,
                  "the hidden states must be variable tensors");
  TfLiteTensor* fw_output = tflite::GetOutput(context, node, 0);
  TfLiteTensor* bw_output = params->merge_outputs ? nullptr : tflite::GetOutput(context, node, 1);
  TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "input", input));
  if (aux) TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "aux input", aux));
  TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "fw output", fw_output));
  if (bw_output) TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "bw output", bw_output));

  StepOptions options;
  options.activation = data->activation;
  options.asymmetric = data->hybrid && params->asymmetric_quantize_inputs;
  int32_t* row_sums = nullptr;
  if (data->hybrid) {
    options.scratch = data->scratch.Get(context);
    row_sums = data->scratch.RowSums(context);
  }
  const int input_size = input->dims->data[2];
  Cell fw, bw;
  TF_LITE_ENSURE_STATUS(BindCell(context, kOp, Tensors(context, node, false), fw_state,
                                 data->hybrid, input_size, data->aux_size, data->fw_units,
                                 options.asymmetric, row_sums, &fw));
  TF_LITE_ENSURE_STATUS(BindCell(context, kOp, Tensors(context, node, true), bw_state, data->hybrid,
                                 input_size, data->aux_size, data->bw_units, options.asymmetric,
                                 row_sums ? row_sums + 3 * int64_t{data->fw_units} : nullptr, &bw));
  SequenceLayout layout;
  layout.time_major = params->time_major;
  layout.max_time = input->dims->data[layout.time_major ? 0 : 1];
  layout.batch = input->dims->data[layout.time_major ? 1 : 0];
  if (layout.max_time == 0 || layout.batch == 0) return kTfLiteOk;

  // Cross-linked aux input feeds both cells; without aux weights it is the backward input.
  const bool cross_linked = data->aux_size > 0;
  const float* bw_input = (aux != nullptr && !cross_linked) ? aux->data.f : input->data.f;
  const float* aux_data = cross_linked ? aux->data.f : nullptr;
  const int64_t merged = int64_t{data->fw_units} + data->bw_units;
  float* fw_out = fw_output->data.f;
  float* bw_out = params->merge_outputs ? fw_output->data.f + data->fw_units : bw_output->data.f;
  const int64_t fw_stride = params->merge_outputs ? merged : data->fw_units;
  const int64_t bw_stride = params->merge_outputs ? merged : data->bw_units;
  if (data->fw_units > 0) {
    RunSequence(fw, options, layout, input->data.f, aux_data, fw_out, fw_stride);
  }
  if (data->bw_units > 0) {
    layout.backward = true;
    RunSequence(bw, options, layout, bw_input, aux_data, bw_out, bw_stride);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::rnn

namespace tflite::ops::builtin {

TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_RNN() {
  namespace op = octet::ops::rnn;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
