// UNIDIRECTIONAL_SEQUENCE_LSTM, float32 (weights and activations), and hybrid (float
// activations, int8 weight matrices and peephole weights: lstm_hybrid.*). Supports the
// optional TFLite variants: CIFG (no input gate), peephole, projection (+ bias), layer norm (24
// inputs), cell/projection clipping, time-major or batch-major input. Inputs 18 and 19 are
// the output and cell states: variable tensors that carry over from one invoke to the next.
// Integer (int8/int16 input) nodes run lstm_integer.*.
#include <memory>
#include <vector>

#include "kernels/reference/lstm.h"
#include "octet/kernel_info.h"
#include "ops/nn/lstm_checks.h"
#include "ops/nn/lstm_float_fast.h"
#include "ops/nn/lstm_hybrid.h"
#include "ops/nn/lstm_inputs.h"
#include "ops/nn/lstm_integer.h"
#include "ops/nn/lstm_step.h"
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

struct OpData {
  reference::LstmParams params;
  bool time_major = true;
  int max_time = 0;
  int n_batch = 0;
  NodeScratch scratch;                     // the float or hybrid kernel's buffers
  nn_integer::LstmIntegerDataPtr integer;  // set when the input is int8/int16
  nn_hybrid::LstmHybridDataPtr hybrid;     // set when the weights are int8 (float input)
  LstmFloatFast fast;                      // float weights on the GEMM micro-kernels
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

TfLiteStatus PrepareImpl(TfLiteContext* context, TfLiteNode* node, bool reference_only) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params =
      static_cast<const TfLiteUnidirectionalSequenceLSTMParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  const int n_inputs = tflite::NumInputs(node);
  OCTET_OP_ENSURE(context, n_inputs == 20 || n_inputs == 24, kOp,
                  "expected 20 or 24 inputs, got %d", n_inputs);
  const TfLiteTensor* input0 = Optional(context, node, kInput);
  if (input0 && (input0->type == kTfLiteInt8 || input0->type == kTfLiteInt16)) {
    return nn_integer::LstmIntegerPrepare(context, node, &data->integer, reference_only);
  }
  data->integer.reset();
  OCTET_OP_ENSURE(context, tflite::NumOutputs(node) == 1, kOp, "expected 1 output, got %d",
                  tflite::NumOutputs(node));
  TF_LITE_ENSURE_OK(context, CheckLstmClips(context, kOp, params->cell_clip, params->proj_clip));
  OCTET_OP_ENSURE(context, !params->diagonal_recurrent_tensors, kOp,
                  "diagonal recurrent weights are not supported");
  reference::LstmParams& p = data->params;
  TF_LITE_ENSURE_OK(context, ToLstmActivation(context, kOp, params->activation, &p.activation));

  const TfLiteTensor* input = Optional(context, node, kInput);
  TfLiteTensor* output;
  OCTET_OP_ENSURE(context, input != nullptr, kOp, "input (input 0) is required");
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kOutput, &output));
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "output", output));
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "input", input, 3));
  data->time_major = params->time_major;
  data->max_time = input->dims->data[params->time_major ? 0 : 1];
  data->n_batch = input->dims->data[params->time_major ? 1 : 0];
  const int n_batch = data->n_batch;
  const int n_input = input->dims->data[2];

  LstmCellShape shape;
  TF_LITE_ENSURE_OK(context,
                    CheckLstmCell(context, node, LstmCellSpec{kOp}, n_input, n_batch, &shape));
  const int n_cell = shape.n_cell;
  const int n_output = shape.n_output;
  const bool hybrid = shape.hybrid;

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
  // Time-major: one sequence whose steps are all batch rows; batch-major: a sequence per row.
  const LstmFloatFastShape fast_shape = data->time_major
                                            ? LstmFloatFastShape{1, data->max_time, n_batch}
                                            : LstmFloatFastShape{n_batch, data->max_time, 1};
  TF_LITE_ENSURE_OK(context, PrepareLstmFloatFast(context, node, LstmCellSpec{kOp}, p, fast_shape,
                                                  reference_only, &data->fast));
  SetNodeKernelName(context, node, data->fast.ready ? data->fast.kernel->name : "reference");
  // Batch-major input is processed one sequence (batch row) at a time.
  const int64_t floats = data->fast.ready
                             ? LstmFloatFastScratch(data->fast)
                             : reference::LstmScratchSize(p, data->time_major ? n_batch : 1);
  TF_LITE_ENSURE_OK(context, data->scratch.Prepare(context, node, {{kTfLiteFloat32, floats}}));
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
  if (data->integer) return nn_integer::LstmIntegerEval(context, node, data->integer.get());
  if (data->hybrid) return nn_hybrid::LstmHybridEval(context, node, *data->hybrid, data->scratch);
  const TfLiteTensor* input = Optional(context, node, kInput);
  TfLiteTensor* output_state = tflite::GetVariableInput(context, node, kOutputState);
  TfLiteTensor* cell_state = tflite::GetVariableInput(context, node, kCellState);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  OCTET_OP_ENSURE(context, output_state != nullptr && cell_state != nullptr, kOp,
                  "state tensors are not variable");
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output_state", output_state));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "cell_state", cell_state));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output", output));
  reference::LstmWeights w;
  TF_LITE_ENSURE_OK(context, GatherLstmFloatWeights(context, node, LstmCellSpec{kOp}, &w));

  if (data->fast.ready) {
    RunLstmFloatFast(context, data->fast, w, /*forward=*/true, input->data.f, output_state->data.f,
                     cell_state->data.f, output->data.f, data->params.n_output, 0,
                     data->scratch.Data<float>(context, 0));
    return kTfLiteOk;
  }
  reference::UnidirectionalSequenceLstm(w, data->params, data->time_major, data->max_time,
                                        data->n_batch, input->data.f, output_state->data.f,
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

TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM_REF() {
  namespace op = octet::ops::nn::lstm;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareReference, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
