// BIDIRECTIONAL_SEQUENCE_LSTM: a forward and a backward LSTM cell over one sequence (48
// inputs: each direction's 17 weights and biases, both directions' variable output and cell
// states, an optional aux input and each direction's optional aux input weights), float32 or
// hybrid (int8 weights, float activations), time-major or batch-major. With merge_outputs one
// output holds [forward | backward] per row, else each direction has its own output. As in
// TFLite: an aux input without aux weights is the backward cell's input; with aux weights it
// feeds both cells through them (int8 aux weights in a hybrid node, the aux input quantized
// per row like the input). No layer norm (the op has no coefficients).
#include <algorithm>
#include <memory>
#include <vector>

#include "kernels/reference/lstm.h"
#include "octet/kernel_info.h"
#include "ops/nn/lstm_checks.h"
#include "ops/nn/lstm_float_fast.h"
#include "ops/nn/lstm_hybrid.h"
#include "ops/nn/lstm_step.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_util.h"
#include "ops/op_util.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::bidi_lstm {
namespace {

constexpr char kOp[] = "BIDIRECTIONAL_SEQUENCE_LSTM";
constexpr int kNumInputs = 48;
constexpr int kInput = 0;
constexpr int kAuxInput = 39;
constexpr int kFwAuxWeights = 40;  // input, forget, cell, output gate: 40..43
constexpr int kBwAuxWeights = 44;  // 44..47
constexpr int kFwOutput = 0;
constexpr int kBwOutput = 1;

// Each direction's tensors in the 24-input layout: weights and biases at 1..17 (forward) or
// 18..34 (backward), states at 35/36 and 37/38, no layer norm.
constexpr LstmInputMap kFwMap = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                 12, 13, 14, 15, 16, 17, 35, 36, -1, -1, -1, -1};
constexpr LstmInputMap kBwMap = {0,  18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                                 29, 30, 31, 32, 33, 34, 37, 38, -1, -1, -1, -1};

struct Direction {
  LstmCellSpec spec;
  reference::LstmParams params;
  LstmAuxWeights aux;  // pointers filled at eval
  nn_hybrid::LstmHybridDataPtr hybrid;
  LstmFloatFast fast;  // float weights on the GEMM micro-kernels (no aux weights)
};

struct OpData {
  Direction dir[2];  // forward, backward
  bool time_major = true;
  int max_time = 0;
  int n_batch = 0;
  bool merge = false;
  bool hybrid = false;
  bool use_aux_weights = false;  // the aux input feeds both cells through aux weights
  bool bw_reads_aux = false;     // the aux input is the backward cell's input
  int n_aux_input = 0;
  int bw_input_width = 0;   // the backward cell's input features (input's or aux_input's)
  int64_t lstm_floats = 0;  // scratch floats of the kernel itself (before the copies below)
  NodeScratch scratch;
  bool reference_only = false;  // Register_BIDIRECTIONAL_SEQUENCE_LSTM_REF
};

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  data->dir[0].spec = LstmCellSpec{kOp, "fw_", kFwMap};
  data->dir[1].spec = LstmCellSpec{kOp, "bw_", kBwMap};
  if (data->scratch.Reserve(context, nn_hybrid::kLstmHybridScratchCount) != kTfLiteOk) {
    return nullptr;
  }
  return data.release();
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

const TfLiteTensor* Optional(TfLiteContext* context, const TfLiteNode* node, int index) {
  return tflite::GetOptionalInputTensor(context, node, index);
}

// The aux weights of one direction: all present or all absent (the input gate's absent
// under CIFG), [n_cell, n_aux_input] of the cell's weight type (float32, or int8 in a hybrid
// node).
TfLiteStatus CheckAuxWeights(TfLiteContext* context, const TfLiteNode* node, int first,
                             const char* prefix, bool cifg, bool hybrid, int n_cell,
                             int n_aux_input) {
  const TfLiteType type = hybrid ? kTfLiteInt8 : kTfLiteFloat32;
  static const char* const kGates[4] = {"input", "forget", "cell", "output"};
  for (int g = 0; g < 4; ++g) {
    const TfLiteTensor* t = Optional(context, node, first + g);
    if (g == 0 && cifg) {
      OCTET_OP_ENSURE(context, t == nullptr, kOp,
                      "%saux_input_to_input_weights must be absent in a CIFG cell", prefix);
      continue;
    }
    OCTET_OP_ENSURE(context, t != nullptr, kOp,
                    "%saux_input_to_%s_weights (input %d) is required with aux weights", prefix,
                    kGates[g], first + g);
    OCTET_OP_ENSURE(context, t->type == type, kOp,
                    "%saux_input_to_%s_weights must be %s like the cell's weights, got %s", prefix,
                    kGates[g], TfLiteTypeGetName(type), TfLiteTypeGetName(t->type));
    OCTET_OP_ENSURE(context,
                    tflite::NumDimensions(t) == 2 && t->dims->data[0] == n_cell &&
                        t->dims->data[1] == n_aux_input,
                    kOp, "%saux_input_to_%s_weights must have shape [%d, %d]", prefix, kGates[g],
                    n_cell, n_aux_input);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params =
      static_cast<const TfLiteBidirectionalSequenceLSTMParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  OCTET_OP_ENSURE(context, tflite::NumInputs(node) == kNumInputs, kOp, "expected 48 inputs, got %d",
                  tflite::NumInputs(node));
  const int n_outputs = params->merge_outputs ? 1 : 2;
  OCTET_OP_ENSURE(context, tflite::NumOutputs(node) == n_outputs, kOp,
                  "expected %d output(s) with merge_outputs %s, got %d", n_outputs,
                  params->merge_outputs ? "on" : "off", tflite::NumOutputs(node));
  TF_LITE_ENSURE_OK(context, CheckLstmClips(context, kOp, params->cell_clip, params->proj_clip));
  reference::LstmActivation activation;
  TF_LITE_ENSURE_OK(context, ToLstmActivation(context, kOp, params->activation, &activation));

  const TfLiteTensor* input = Optional(context, node, kInput);
  OCTET_OP_ENSURE(context, input != nullptr, kOp, "input (input 0) is required");
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "input", input, 3));
  const bool time_major = params->time_major;
  const int max_time = input->dims->data[time_major ? 0 : 1];
  const int n_batch = input->dims->data[time_major ? 1 : 0];
  const int n_input = input->dims->data[2];

  // The aux input: with aux weights it feeds both cells; without, it replaces the backward
  // cell's input (a stack of bidirectional layers without cross links).
  const TfLiteTensor* aux_input = Optional(context, node, kAuxInput);
  bool any_aux_weights = false;
  for (int i = kFwAuxWeights; i < kNumInputs; ++i) {
    any_aux_weights = any_aux_weights || Optional(context, node, i) != nullptr;
  }
  if (aux_input != nullptr) {
    TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "aux_input", aux_input));
    TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "aux_input", aux_input, 3));
    OCTET_OP_ENSURE(context,
                    aux_input->dims->data[0] == input->dims->data[0] &&
                        aux_input->dims->data[1] == input->dims->data[1],
                    kOp, "aux_input's time and batch dimensions must match the input's");
  } else {
    OCTET_OP_ENSURE(context, !any_aux_weights, kOp, "aux input weights need aux_input (input 39)");
  }
  data->use_aux_weights = any_aux_weights;
  data->bw_reads_aux = aux_input != nullptr && !any_aux_weights;
  data->n_aux_input = aux_input ? aux_input->dims->data[2] : 0;

  LstmCellShape shape[2];
  for (int d = 0; d < 2; ++d) {
    const int cell_input = d == 1 && data->bw_reads_aux ? data->n_aux_input : n_input;
    TF_LITE_ENSURE_OK(
        context, CheckLstmCell(context, node, data->dir[d].spec, cell_input, n_batch, &shape[d]));
    reference::LstmParams& p = data->dir[d].params;
    p.n_input = cell_input;
    p.n_cell = shape[d].n_cell;
    p.n_output = shape[d].n_output;
    p.activation = activation;
    p.cell_clip = params->cell_clip;
    p.proj_clip = params->proj_clip;
  }
  OCTET_OP_ENSURE(context, shape[0].hybrid == shape[1].hybrid, kOp,
                  "forward and backward weights must have the same type (float, or int8 for a "
                  "hybrid LSTM)");
  const bool hybrid = shape[0].hybrid;
  if (any_aux_weights) {
    TF_LITE_ENSURE_OK(context, CheckAuxWeights(context, node, kFwAuxWeights, "fw_", shape[0].cifg,
                                               hybrid, shape[0].n_cell, data->n_aux_input));
    TF_LITE_ENSURE_OK(context, CheckAuxWeights(context, node, kBwAuxWeights, "bw_", shape[1].cifg,
                                               hybrid, shape[1].n_cell, data->n_aux_input));
  }

  data->time_major = time_major;
  data->max_time = max_time;
  data->n_batch = n_batch;
  data->merge = params->merge_outputs;
  data->hybrid = hybrid;
  const int n_fw_output = shape[0].n_output;
  const int n_bw_output = shape[1].n_output;
  TfLiteTensor* fw_output;
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kFwOutput, &fw_output));
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "fw_output", fw_output));
  const int d0 = time_major ? max_time : n_batch;
  const int d1 = time_major ? n_batch : max_time;
  TF_LITE_ENSURE_OK(context, ResizeOutput(context, fw_output,
                                          {d0, d1, n_fw_output + (data->merge ? n_bw_output : 0)}));
  if (!data->merge) {
    TfLiteTensor* bw_output;
    TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kBwOutput, &bw_output));
    TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "bw_output", bw_output));
    TF_LITE_ENSURE_OK(context, ResizeOutput(context, bw_output, {d0, d1, n_bw_output}));
  }

  const int64_t rows = int64_t{max_time} * n_batch;
  if (!hybrid) {
    for (Direction& dir : data->dir) dir.hybrid.reset();
    LstmSequenceLayout l;
    l.time_major = time_major;
    l.n_batch = n_batch;
    int64_t floats = std::max(LstmFloatSequenceScratch(data->dir[0].params, l, any_aux_weights),
                              LstmFloatSequenceScratch(data->dir[1].params, l, any_aux_weights));
    // Without aux weights each cell may run on the GEMM micro-kernels (the aux products stay
    // on the reference's per-row path).
    const LstmFloatFastShape fast_shape = time_major ? LstmFloatFastShape{1, max_time, n_batch}
                                                     : LstmFloatFastShape{n_batch, max_time, 1};
    bool all_fast = !any_aux_weights;
    for (Direction& dir : data->dir) {
      dir.fast.ready = false;
      if (any_aux_weights) continue;
      TF_LITE_ENSURE_OK(context, PrepareLstmFloatFast(context, node, dir.spec, dir.params,
                                                      fast_shape, data->reference_only, &dir.fast));
      if (dir.fast.ready) floats = std::max(floats, LstmFloatFastScratch(dir.fast));
      all_fast = all_fast && dir.fast.ready;
    }
    SetNodeKernelName(context, node, all_fast ? data->dir[0].fast.kernel->name : "reference");
    data->lstm_floats = floats;
    return data->scratch.Prepare(context, node, {{kTfLiteFloat32, floats}});
  }

  // Hybrid: the sequence kernel runs forward over contiguous rows, so the backward cell
  // reads a time-reversed copy of its input (and of the aux input with aux weights), and
  // outputs that are reversed or merged are written to a temporary first.
  reference::LstmHybridScratchSize need{0, 0, 0};
  for (int d = 0; d < 2; ++d) {
    nn_hybrid::LstmHybridConfig config;
    config.params = data->dir[d].params;
    config.time_major = time_major;
    config.max_time = max_time;
    config.n_batch = n_batch;
    config.asymmetric = params->asymmetric_quantize_inputs;
    config.op = kOp;
    config.prefix = d == 0 ? "fw_" : "bw_";
    config.map = data->dir[d].spec.map;
    if (any_aux_weights) {
      for (int g = 0; g < 4; ++g)
        config.aux_weights[g] = (d == 0 ? kFwAuxWeights : kBwAuxWeights) + g;
      config.n_aux_input = data->n_aux_input;
    }
    TF_LITE_ENSURE_OK(context, nn_hybrid::LstmHybridPrepare(context, node, config, nullptr,
                                                            &data->dir[d].hybrid));
    const reference::LstmHybridScratchSize s =
        nn_hybrid::LstmHybridScratchNeeds(*data->dir[d].hybrid);
    need.floats = std::max(need.floats, s.floats);
    need.int32s = std::max(need.int32s, s.int32s);
    need.int8s = std::max(need.int8s, s.int8s);
  }
  data->lstm_floats = need.floats;
  const int bw_input_width = data->bw_reads_aux ? data->n_aux_input : n_input;
  data->bw_input_width = bw_input_width;
  const int aux_width = any_aux_weights ? data->n_aux_input : 0;
  const int64_t copies = rows * (bw_input_width + aux_width + std::max(n_fw_output, n_bw_output));
  return data->scratch.Prepare(context, node,
                               {{kTfLiteFloat32, need.floats + copies},
                                {kTfLiteInt32, need.int32s},
                                {kTfLiteInt8, need.int8s}});
}

TfLiteStatus PrepareReference(TfLiteContext* context, TfLiteNode* node) {
  static_cast<OpData*>(node->user_data)->reference_only = true;
  return Prepare(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor* aux_input = Optional(context, node, kAuxInput);
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "input", input));
  if (aux_input) TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "aux_input", aux_input));
  TfLiteTensor* fw_output = tflite::GetOutput(context, node, kFwOutput);
  TfLiteTensor* bw_output = data->merge ? fw_output : tflite::GetOutput(context, node, kBwOutput);
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "fw_output", fw_output));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "bw_output", bw_output));
  const int width_fw = data->dir[0].params.n_output;
  const int width = data->merge ? width_fw + data->dir[1].params.n_output : width_fw;

  float* floats = data->scratch.Data<float>(context, 0);
  for (int d = 0; d < 2; ++d) {
    Direction& dir = data->dir[d];
    TfLiteTensor* h = tflite::GetVariableInput(context, node, dir.spec.map[18]);
    TfLiteTensor* c = tflite::GetVariableInput(context, node, dir.spec.map[19]);
    OCTET_OP_ENSURE(context, h != nullptr && c != nullptr, kOp, "state tensors are not variable");
    TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output_state", h));
    TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "cell_state", c));
    const float* x = d == 1 && data->bw_reads_aux ? aux_input->data.f : input->data.f;
    float* out = d == 0 ? fw_output->data.f : bw_output->data.f;
    const int out_width = d == 0 || data->merge ? width : dir.params.n_output;
    const int out_offset = d == 1 && data->merge ? width_fw : 0;

    if (!data->hybrid) {
      reference::LstmWeights w;
      TF_LITE_ENSURE_OK(context, GatherLstmFloatWeights(context, node, dir.spec, &w));
      LstmAuxWeights aux;
      if (data->use_aux_weights) {
        const int first = d == 0 ? kFwAuxWeights : kBwAuxWeights;
        for (int g = 0; g < 4; ++g) {
          const TfLiteTensor* t = Optional(context, node, first + g);
          if (t == nullptr) continue;
          TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "aux input weights", t));
          aux.gate[g] = t->data.f;
        }
        aux.n_aux_input = data->n_aux_input;
      }
      if (dir.fast.ready) {
        RunLstmFloatFast(context, dir.fast, w, /*forward=*/d == 0, x, h->data.f, c->data.f, out,
                         out_width, out_offset, floats);
        continue;
      }
      LstmSequenceLayout l;
      l.time_major = data->time_major;
      l.max_time = data->max_time;
      l.n_batch = data->n_batch;
      l.forward = d == 0;
      l.output_width = out_width;
      l.output_offset = out_offset;
      LstmFloatSequence(w, aux, dir.params, l, x, aux.present() ? aux_input->data.f : nullptr,
                        h->data.f, c->data.f, out, floats);
      continue;
    }

    // Hybrid: reverse the backward cell's inputs in time, run, then place the rows.
    const int n_in = dir.params.n_input;
    const int n_out = dir.params.n_output;
    const int n_aux = data->use_aux_weights ? data->n_aux_input : 0;
    const int64_t rows = int64_t{data->max_time} * data->n_batch;
    float* reversed_input = floats + data->lstm_floats;
    float* reversed_aux = reversed_input + rows * data->bw_input_width;
    float* temp_output = reversed_aux + rows * n_aux;
    const float* aux = n_aux > 0 ? aux_input->data.f : nullptr;
    const bool reverse = d == 1;
    if (reverse) {
      CopyLstmSequence(x, n_in, reversed_input, n_in, 0, data->max_time, data->n_batch,
                       data->time_major, true);
      x = reversed_input;
      if (aux != nullptr) {
        CopyLstmSequence(aux, n_aux, reversed_aux, n_aux, 0, data->max_time, data->n_batch,
                         data->time_major, true);
        aux = reversed_aux;
      }
    }
    const bool direct = !reverse && out_width == n_out;
    TF_LITE_ENSURE_OK(context,
                      nn_hybrid::LstmHybridRun(context, node, *dir.hybrid,
                                               {x, h->data.f, c->data.f, direct ? out : temp_output,
                                                floats, data->scratch.Data<int32_t>(context, 1),
                                                data->scratch.Data<int8_t>(context, 2), aux}));
    if (!direct) {
      CopyLstmSequence(temp_output, n_out, out, out_width, out_offset, data->max_time,
                       data->n_batch, data->time_major, reverse);
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::bidi_lstm

namespace tflite::ops::builtin {

TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_LSTM() {
  namespace op = octet::ops::nn::bidi_lstm;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_LSTM_REF() {
  namespace op = octet::ops::nn::bidi_lstm;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareReference, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
