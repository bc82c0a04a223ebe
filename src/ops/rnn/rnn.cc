// RNN: one step of the basic RNN cell, output = hidden_state = act(W x + R h + bias) for the
// [batch, input_size] input (input 0). Inputs 1-3: input weights [units, input_size],
// recurrent weights [units, units], bias [units]; input 4: the hidden state [batch, units],
// a variable tensor carried from one invoke to the next. Float32, or hybrid (int8/uint8
// weights, float input; asymmetric_quantize_inputs picks TFLite's asymmetric input
// quantization).
#include <algorithm>
#include <memory>

#include "ops/rnn/rnn_cell.h"

namespace octet::ops::rnn {
namespace {

constexpr char kOp[] = "RNN";

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
  const auto* params = static_cast<const TfLiteRNNParams*>(node->builtin_data);
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, params));
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 5, 5, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, input->type == kTfLiteFloat32, kOp, "input must be float32, got %s",
                  TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, input->dims->size == 2, kOp,
                  "input must be 2-D [batch, input_size], got rank %d", input->dims->size);
  OCTET_OP_ENSURE(context, output->type == kTfLiteFloat32, kOp, "output must be float32, got %s",
                  TfLiteTypeGetName(output->type));
  TF_LITE_ENSURE_STATUS(ToActivation(context, kOp, params->activation, &data->activation));
  const int batch = input->dims->data[0];
  const int input_size = input->dims->data[1];
  TF_LITE_ENSURE_STATUS(CheckCell(context, kOp, Tensors(context, node), input_size, 0, batch,
                                  &data->hybrid, &data->units));
  if (data->hybrid) {
    TF_LITE_ENSURE_STATUS(data->scratch.PrepareHybrid(
        context, node, batch, std::max(input_size, data->units), data->units, 2 * data->units));
  } else {
    TF_LITE_ENSURE_STATUS(data->scratch.PrepareFloat(context, node));
  }
  return ResizeOutput(context, output, {batch, data->units});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteRNNParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* state = tflite::GetVariableInput(context, node, 4);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  OCTET_OP_ENSURE(context, state != nullptr, kOp, "hidden_state is not a variable tensor");
  TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "output", output));
  const int batch = input->dims->data[0];
  const int input_size = input->dims->data[1];
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
                                 input_size, 0, data->units, options.asymmetric, row_sums, &cell));
  if (batch == 0 || data->units == 0) return kTfLiteOk;
  Step(cell, options, input->data.f, nullptr, batch, cell.state, output->data.f, data->units);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::rnn

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RNN() {
  namespace op = octet::ops::rnn;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
