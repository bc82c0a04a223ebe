// LSTM (the non-sequence builtin, LSTMOptions). kernel_type FULL: one time step of the
// UNIDIRECTIONAL_SEQUENCE_LSTM cell over a [batch, n_input] input, float32 or hybrid (int8
// weight matrices and peephole weights, float activations), with the same optional pieces
// (CIFG, peephole, projection, layer norm with 24 inputs, clipping); inputs 18 and 19 are the
// variable output and cell states. A full-integer node (int8 input and weights, int16 cell
// state, the converter's 5 intermediate tensors) runs TFLite's integer LSTM
// (lstm_integer_full.*), every variant included; one with 12 intermediate tensors runs
// TFLite's 8x8_8 form (lstm_integer_8x8_8.*). kernel_type BASIC: lstm_basic_cell.*.
#include "kernels/reference/lstm.h"

#include <memory>
#include <vector>

#include "octet/kernel_info.h"
#include "ops/nn/lstm_basic_cell.h"
#include "ops/nn/lstm_checks.h"
#include "ops/nn/lstm_float_fast.h"
#include "ops/nn/lstm_hybrid.h"
#include "ops/nn/lstm_integer_8x8_8.h"
#include "ops/nn/lstm_integer_full.h"
#include "ops/nn/lstm_step.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_util.h"
#include "ops/op_util.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::lstm_full {
namespace {

constexpr char kOp[] = "LSTM";
constexpr int kInput = 0;
constexpr int kOutputState = 18;
constexpr int kCellState = 19;
constexpr int kOutput = 0;

struct OpData {
  bool basic = false;
  BasicLstmData basic_data;
  reference::LstmParams params;
  int n_batch = 0;
  NodeScratch scratch;                              // the float or hybrid kernel's buffers
  nn_hybrid::LstmHybridDataPtr hybrid;              // set when the weights are int8 (float input)
  nn_integer_full::LstmIntegerFullDataPtr integer;  // set when the input is int8 (8x8_16)
  nn_integer_8x8_8::LstmInteger8x8_8DataPtr integer_8x8_8;  // int8 input, 12 intermediates
  LstmFloatFast fast;           // float weights on the GEMM micro-kernels
  bool reference_only = false;  // Register_LSTM_REF: the reference loops on every path
};

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context, nn_hybrid::kLstmHybridScratchCount) != kTfLiteOk) {
    return nullptr;
  }
  return data.release();
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

TfLiteStatus PrepareFull(TfLiteContext* context, TfLiteNode* node, const TfLiteLSTMParams& params,
                         OpData* data) {
  const int n_inputs = tflite::NumInputs(node);
  OCTET_OP_ENSURE(context, n_inputs == 20 || n_inputs == 24, kOp,
                  "expected 20 or 24 inputs, got %d", n_inputs);
  OCTET_OP_ENSURE(context, tflite::NumOutputs(node) == 1, kOp, "expected 1 output, got %d",
                  tflite::NumOutputs(node));
  const TfLiteTensor* input = tflite::GetOptionalInputTensor(context, node, kInput);
  OCTET_OP_ENSURE(context, input != nullptr, kOp, "input (input 0) is required");
  if (input->type == kTfLiteInt8 && node->intermediates && node->intermediates->size == 12) {
    data->hybrid.reset();
    data->integer.reset();
    nn_integer_8x8_8::LstmInteger8x8_8Config config;
    config.op = kOp;
    config.cell_clip = params.cell_clip;
    config.proj_clip = params.proj_clip;
    return nn_integer_8x8_8::LstmInteger8x8_8Prepare(context, node, config, &data->integer_8x8_8);
  }
  data->integer_8x8_8.reset();
  if (input->type == kTfLiteInt8) {
    data->hybrid.reset();
    nn_integer_full::LstmIntegerFullConfig config;
    config.op = kOp;
    config.cell_clip = params.cell_clip;
    config.proj_clip = params.proj_clip;
    return nn_integer_full::LstmIntegerFullPrepare(context, node, config, &data->integer);
  }
  data->integer.reset();
  OCTET_OP_ENSURE(context, input->type == kTfLiteFloat32, kOp,
                  "input must be FLOAT32 (float or hybrid LSTM) or INT8 (integer LSTM), got %s",
                  TfLiteTypeGetName(input->type));
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kOutput, &output));
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "output", output));
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "input", input, 2));
  TF_LITE_ENSURE_OK(context, CheckLstmClips(context, kOp, params.cell_clip, params.proj_clip));
  reference::LstmParams& p = data->params;
  TF_LITE_ENSURE_OK(context, ToLstmActivation(context, kOp, params.activation, &p.activation));
  const int n_batch = input->dims->data[0];
  const int n_input = input->dims->data[1];

  LstmCellShape shape;
  TF_LITE_ENSURE_OK(context,
                    CheckLstmCell(context, node, LstmCellSpec{kOp}, n_input, n_batch, &shape));
  p.n_input = n_input;
  p.n_cell = shape.n_cell;
  p.n_output = shape.n_output;
  p.cell_clip = params.cell_clip;
  p.proj_clip = params.proj_clip;
  data->n_batch = n_batch;
  if (shape.hybrid) {
    // One time-major step of the sequence kernel.
    nn_hybrid::LstmHybridConfig config;
    config.params = p;
    config.time_major = true;
    config.max_time = 1;
    config.n_batch = n_batch;
    config.asymmetric = params.asymmetric_quantize_inputs;
    config.op = kOp;
    TF_LITE_ENSURE_OK(context, nn_hybrid::LstmHybridPrepare(context, node, config, &data->scratch,
                                                            &data->hybrid));
  } else {
    data->hybrid.reset();
    // One time-major step of n_batch rows.
    TF_LITE_ENSURE_OK(context, PrepareLstmFloatFast(context, node, LstmCellSpec{kOp}, p,
                                                    LstmFloatFastShape{1, 1, n_batch},
                                                    data->reference_only, &data->fast));
    SetNodeKernelName(context, node, data->fast.ready ? data->fast.kernel->name : "reference");
    const int64_t floats = data->fast.ready ? LstmFloatFastScratch(data->fast)
                                            : reference::LstmScratchSize(p, n_batch);
    TF_LITE_ENSURE_OK(context, data->scratch.Prepare(context, node, {{kTfLiteFloat32, floats}}));
  }
  return ResizeOutput(context, output, {n_batch, shape.n_output});
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteLSTMParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  switch (params->kernel_type) {
    case kTfLiteLSTMFullKernel:
      data->basic = false;
      return PrepareFull(context, node, *params, data);
    case kTfLiteLSTMBasicKernel:
      data->basic = true;
      data->hybrid.reset();
      data->integer.reset();
      data->integer_8x8_8.reset();
      return BasicLstmPrepare(context, node, &data->basic_data);
    default:
      TF_LITE_KERNEL_LOG(context, "%s: kernel_type %d is not supported", kOp,
                         static_cast<int>(params->kernel_type));
      return kTfLiteError;
  }
}

TfLiteStatus PrepareReference(TfLiteContext* context, TfLiteNode* node) {
  static_cast<OpData*>(node->user_data)->reference_only = true;
  return Prepare(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  if (data->basic) return BasicLstmEval(context, node, data->basic_data);
  if (data->integer) return nn_integer_full::LstmIntegerFullEval(context, node, *data->integer);
  if (data->integer_8x8_8) {
    return nn_integer_8x8_8::LstmInteger8x8_8Eval(context, node, *data->integer_8x8_8);
  }
  if (data->hybrid) return nn_hybrid::LstmHybridEval(context, node, *data->hybrid, data->scratch);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
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
  const reference::LstmParams& p = data->params;
  if (data->fast.ready) {
    RunLstmFloatFast(context, data->fast, w, /*forward=*/true, input->data.f, output_state->data.f,
                     cell_state->data.f, output->data.f, p.n_output, 0,
                     data->scratch.Data<float>(context, 0));
    return kTfLiteOk;
  }
  reference::LstmStep(w, p, data->n_batch, input->data.f, output_state->data.f, cell_state->data.f,
                      output->data.f, p.n_output, data->scratch.Data<float>(context, 0));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::lstm_full

namespace tflite::ops::builtin {

TfLiteRegistration* Register_LSTM() {
  namespace op = octet::ops::nn::lstm_full;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

TfLiteRegistration* Register_LSTM_REF() {
  namespace op = octet::ops::nn::lstm_full;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareReference, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
