// UNIDIRECTIONAL_SEQUENCE_RNN: the RNN cell run over a sequence. Input 0 is [max_time, batch,
// input_size] when time_major, else [batch, max_time, input_size]; the output has the same
// layout with num_units last. Inputs 1-4 as in RNN (input weights, recurrent weights, bias,
// hidden state [batch, units] as a variable tensor: the state after the last step is kept
// for the next invoke). Float32, or hybrid (int8/uint8 weights, float input).
#include <algorithm>
#include <memory>

#include "ops/rnn/rnn_cell.h"

namespace octet::ops::rnn {
namespace {

constexpr char kOp[] = "UNIDIRECTIONAL_SEQUENCE_RNN";

struct OpData {
  RnnScratch scratch;
  reference::RnnActivation activation = reference::RnnActivation::kNone;
  bool hybrid = false;
  int units = 0;
};

CellTensors Tensors(TfLiteContext* context, TfLiteNode* node) {
  CellTensors c;
  c.weights = tflite::GetOptionalInputTensor(context, node, 1);
  c.recurrent = tflite::GetOptionalInputTensor(context, node, 2);
  c.bias = tflite::GetOptionalInputTensor(context, node, 3);
  c.state = tflite::GetOptionalInputTensor(context, node, 4);
  c.weights_name = "input_weights (input 1)";
  c.recurrent_name = "recurrent_weights (input 2)";
  c.bias_name = "bias (input 3)";
  c.state_name = "hidden_state (input 4)";
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

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteSequenceRNNParams*>(node->builtin_data);
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, params));
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 5, 5, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, input->type == kTfLiteFloat32, kOp, "input must be float32, got %s",
                  TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, input->dims->size == 3, kOp,
                  "input must be 3-D ([max_time, batch, input_size] when time_major, else "
                  "[batch, max_time, input_size]), got rank %d",
                  input->dims->size);
  OCTET_OP_ENSURE(context, output->type == kTfLiteFloat32, kOp, "output must be float32, got %s",
                  TfLiteTypeGetName(output->type));
  TF_LITE_ENSURE_STATUS(ToActivation(context, kOp, params->activation, &data->activation));
  const int batch = input->dims->data[params->time_major ? 1 : 0];
  const int input_size = input->dims->data[2];
  TF_LITE_ENSURE_STATUS(CheckCell(context, kOp, Tensors(context, node), input_size, 0, batch,
                                  &data->hybrid, &data->units));
  if (data->hybrid) {
    TF_LITE_ENSURE_STATUS(data->scratch.PrepareHybrid(
        context, node, batch, std::max(input_size, data->units), data->units, 2 * data->units));
  } else {
    TF_LITE_ENSURE_STATUS(data->scratch.PrepareFloat(context, node));
  }
  return ResizeOutput(context, output, {input->dims->data[0], input->dims->data[1], data->units});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteSequenceRNNParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* state = tflite::GetVariableInput(context, node, 4);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  OCTET_OP_ENSURE(context, state != nullptr, kOp, "hidden_state is not a variable tensor");
  TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "output", output));
  SequenceLayout layout;
  layout.time_major = params->time_major;
  layout.max_time = input->dims->data[layout.time_major ? 0 : 1];
  layout.batch = input->dims->data[layout.time_major ? 1 : 0];
  StepOptions options;
  options.activation = data->activation;
  options.asymmetric = data->hybrid && params->asymmetric_quantize_inputs;
  int32_t* row_sums = nullptr;
  if (data->hybrid) {
    options.scratch = data->scratch.Get(context);
    row_sums = data->scratch.RowSums(context);
  }
  Cell cell;
  TF_LITE_ENSURE_STATUS(BindCell(context, kOp, Tensors(context, node), state, data->hybrid,
                                 input->dims->data[2], 0, data->units, options.asymmetric, row_sums,
                                 &cell));
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  RunSequence(cell, options, layout, input->data.f, nullptr, output->data.f, data->units);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::rnn

namespace tflite::ops::builtin {

TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_RNN() {
  namespace op = octet::ops::rnn;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
