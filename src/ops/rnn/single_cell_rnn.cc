// RNN and UNIDIRECTIONAL_SEQUENCE_RNN: one basic RNN cell, h = act(W x + R h + bias), with
// the same inputs in the same places: 0 the input, 1 input weights [units, input_size], 2
// recurrent weights [units, units], 3 bias [units], 4 the hidden state [batch, units] as a
// variable tensor carried from one invoke to the next. RNN takes one step on a [batch,
// input_size] input; the sequence op runs the cell over [max_time, batch, input_size]
// (time_major) or [batch, max_time, input_size] and outputs every step in the same layout
// with num_units last. Float32, or hybrid (int8/uint8 weights, float input;
// asymmetric_quantize_inputs picks TFLite's asymmetric input quantization).
#include <algorithm>
#include <memory>

#include "ops/rnn/rnn_cell.h"

namespace octet::ops::rnn {
namespace {

constexpr char kRnn[] = "RNN";
constexpr char kSequenceRnn[] = "UNIDIRECTIONAL_SEQUENCE_RNN";

struct OpData {
  RnnScratch scratch;
  reference::FusedActivation activation = reference::FusedActivation::kNone;
  bool hybrid = false;
  int units = 0;
};

// The two ops' options, read the same way.
struct Options {
  TfLiteFusedActivation activation = kTfLiteActNone;
  bool asymmetric_quantize_inputs = false;
  bool time_major = false;  // the sequence op only
};

template <bool kSequence>
const void* OptionsOf(const TfLiteNode* node, Options* out) {
  if constexpr (kSequence) {
    const auto* p = static_cast<const TfLiteSequenceRNNParams*>(node->builtin_data);
    if (p != nullptr) *out = {p->activation, p->asymmetric_quantize_inputs, p->time_major};
    return p;
  } else {
    const auto* p = static_cast<const TfLiteRNNParams*>(node->builtin_data);
    if (p != nullptr) *out = {p->activation, p->asymmetric_quantize_inputs, false};
    return p;
  }
}

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

template <bool kSequence>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = kSequence ? kSequenceRnn : kRnn;
  auto* data = static_cast<OpData*>(node->user_data);
  Options options;
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, OptionsOf<kSequence>(node, &options)));
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 5, 5, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, input->type == kTfLiteFloat32, kOp, "input must be float32, got %s",
                  TfLiteTypeGetName(input->type));
  if constexpr (kSequence) {
    OCTET_OP_ENSURE(context, input->dims->size == 3, kOp,
                    "input must be 3-D ([max_time, batch, input_size] when time_major, else "
                    "[batch, max_time, input_size]), got rank %d",
                    input->dims->size);
  } else {
    OCTET_OP_ENSURE(context, input->dims->size == 2, kOp,
                    "input must be 2-D [batch, input_size], got rank %d", input->dims->size);
  }
  OCTET_OP_ENSURE(context, output->type == kTfLiteFloat32, kOp, "output must be float32, got %s",
                  TfLiteTypeGetName(output->type));
  TF_LITE_ENSURE_STATUS(ToActivation(context, kOp, options.activation, &data->activation));
  const int batch = input->dims->data[options.time_major ? 1 : 0];
  const int input_size = input->dims->data[input->dims->size - 1];
  TF_LITE_ENSURE_STATUS(CheckCell(context, kOp, Tensors(context, node), input_size, 0, batch,
                                  &data->hybrid, &data->units));
  if (data->hybrid) {
    TF_LITE_ENSURE_STATUS(data->scratch.PrepareHybrid(
        context, node, batch, std::max(input_size, data->units), data->units, 2 * data->units));
  } else {
    TF_LITE_ENSURE_STATUS(data->scratch.PrepareFloat(context, node));
  }
  if constexpr (kSequence) {
    return ResizeOutput(context, output, {input->dims->data[0], input->dims->data[1], data->units});
  } else {
    return ResizeOutput(context, output, {batch, data->units});
  }
}

template <bool kSequence>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = kSequence ? kSequenceRnn : kRnn;
  const auto* data = static_cast<const OpData*>(node->user_data);
  Options params;
  OptionsOf<kSequence>(node, &params);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* state = tflite::GetVariableInput(context, node, 4);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  OCTET_OP_ENSURE(context, state != nullptr, kOp, "hidden_state is not a variable tensor");
  TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(ops::RequireData(context, kOp, "output", output));
  const int input_size = input->dims->data[input->dims->size - 1];
  StepOptions options;
  options.activation = data->activation;
  options.asymmetric = data->hybrid && params.asymmetric_quantize_inputs;
  int32_t* row_sums = nullptr;
  if (data->hybrid) {
    options.scratch = data->scratch.Get(context);
    row_sums = data->scratch.RowSums(context);
  }
  Cell cell;
  TF_LITE_ENSURE_STATUS(BindCell(context, kOp, Tensors(context, node), state, data->hybrid,
                                 input_size, 0, data->units, options.asymmetric, row_sums, &cell));
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  if constexpr (kSequence) {
    SequenceLayout layout;
    layout.time_major = params.time_major;
    layout.max_time = input->dims->data[layout.time_major ? 0 : 1];
    layout.batch = input->dims->data[layout.time_major ? 1 : 0];
    RunSequence(cell, options, layout, input->data.f, nullptr, output->data.f, data->units);
  } else {
    Step(cell, options, input->data.f, nullptr, input->dims->data[0], cell.state, output->data.f,
         data->units);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::rnn

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RNN() {
  namespace op = octet::ops::rnn;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare<false>, op::Eval<false>);
  return &r;
}

TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_RNN() {
  namespace op = octet::ops::rnn;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare<true>, op::Eval<true>);
  return &r;
}

}  // namespace tflite::ops::builtin
