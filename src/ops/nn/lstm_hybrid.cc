// Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM glue (see lstm_hybrid.h). The int32 products run on
// the quantized GEMM micro-kernels of the active kernel path when it has one: the gates'
// input weights stacked into one packed matrix (all time steps' input rows in one GEMM), the
// recurrent weights into another (one GEMM per step), the projection into a third (and a
// bidirectional node's aux input weights into a fourth, all steps' aux rows in one GEMM). The
// float side is the reference kernel's own code, so the result is bit-identical to it.
#include "ops/nn/lstm_hybrid.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/reference/lstm_hybrid.h"
#include "octet/kernel_info.h"
#include "ops/nn/hybrid_recurrent_gemm.h"
#include "ops/nn/lstm_inputs.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/nn_util.h"
#include "ops/op_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn_hybrid {

namespace {

// Input indices as in TFLite's lstm_shared.h.
enum {
  kInput = 0,
  kInputToInput = 1,      // the four input weight matrices: 1 + gate
  kRecurrentToInput = 5,  // the four recurrent weight matrices: 5 + gate
  kCellToInput = 9,       // peephole: 9 (input), 10 (forget), 11 (output)
  kInputGateBias = 12,    // biases: 12 + gate
  kProjectionWeights = 16,
  kProjectionBias = 17,
  kOutputState = 18,
  kCellState = 19,
  kInputLayerNorm = 20,  // layer norm: 20 + gate
  kNumInputs = 24,
};
constexpr int kOutput = 0;

// The int8 tensors of a hybrid LSTM (weight matrices and peephole weights).
constexpr int kInt8Inputs[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16};

// The peephole input of gate g (the cell gate has none).
int PeepholeIndex(int g) {
  switch (g) {
    case reference::kLstmInputGate:
      return 9;
    case reference::kLstmForgetGate:
      return 10;
    case reference::kLstmOutputGate:
      return 11;
    default:
      return -1;
  }
}

constexpr const char* kGateNames[4] = {"input", "forget", "cell", "output"};

// Tensor k of the cell (lstm_inputs.h layout), wherever the op keeps it.
const TfLiteTensor* Optional(TfLiteContext* context, const TfLiteNode* node,
                             const nn::LstmInputMap& map, int k) {
  const int index = map[k];
  return index >= 0 && index < tflite::NumInputs(node)
             ? tflite::GetOptionalInputTensor(context, node, index)
             : nullptr;
}

// Aux weights of gate g (BIDIRECTIONAL_SEQUENCE_LSTM), or nullptr.
const TfLiteTensor* AuxWeights(TfLiteContext* context, const TfLiteNode* node,
                               const LstmHybridConfig& config, int g) {
  const int index = config.aux_weights[g];
  return index >= 0 && index < tflite::NumInputs(node)
             ? tflite::GetOptionalInputTensor(context, node, index)
             : nullptr;
}

}  // namespace

struct LstmHybridData {
  LstmHybridConfig config;
  int gate_count = 4;             // 3 under CIFG
  float scales[kNumInputs] = {};  // the scale of each int8 input
  // Row sums (asymmetric inputs): input weights of gate g at [g * n_cell], recurrent weights
  // at [(4 + g) * n_cell], projection weights at [8 * n_cell].
  const int32_t* row_sums = nullptr;
  const void* sums_of[kNumInputs] = {};  // the weights row_sums were computed from
  // The products on the quantized GEMM (when `optimized`).
  bool optimized = false;
  const void* packed_kernel = nullptr;
  const void* packed_of[kNumInputs] = {};
  nn::RecurrentGemm input_gemm, recurrent_gemm, projection_gemm;
  // The aux input (BIDIRECTIONAL_SEQUENCE_LSTM with aux weights): per gate its weights' scale,
  // row sums at [g * n_cell], and the weights the sums / packing were made from.
  bool aux = false;
  float aux_scales[4] = {};
  const int32_t* aux_row_sums = nullptr;
  const void* aux_sums_of[4] = {};
  const void* aux_packed_of[4] = {};
  nn::RecurrentGemm aux_gemm;
};

void LstmHybridDataDeleter::operator()(LstmHybridData* data) const { delete data; }

namespace {

// The products of LstmHybridPlainDots, on the packed weights.
struct PackedDots {
  TfLiteContext* context;
  const LstmHybridData* data;
  void Input(const int8_t* q, int rows, int32_t* dots) const {
    nn::RunRecurrentGemm(context, data->input_gemm, q, rows, dots);
  }
  void Recurrent(const int8_t* q, int rows, int32_t* dots) const {
    nn::RunRecurrentGemm(context, data->recurrent_gemm, q, rows, dots);
  }
  void Projection(const int8_t* q, int rows, int32_t* dots) const {
    nn::RunRecurrentGemm(context, data->projection_gemm, q, rows, dots);
  }
  void Aux(const int8_t* q, int rows, int32_t* dots) const {
    nn::RunRecurrentGemm(context, data->aux_gemm, q, rows, dots);
  }
};

bool SameWeights(const void* const* keys, const TfLiteTensor* const* t) {
  for (int index : kInt8Inputs) {
    if (keys[index] != (t[index] ? t[index]->data.raw : nullptr)) return false;
  }
  return true;
}

TfLiteStatus ComputeRowSums(TfLiteContext* context, const TfLiteTensor* const* t,
                            const reference::LstmParams& p, LstmHybridData* d) {
  const char* kOp = d->config.op;
  const int64_t count = int64_t{8} * p.n_cell + p.n_output;
  auto* sums = static_cast<int32_t*>(
      context->AllocatePersistentBuffer(context, static_cast<size_t>(count) * sizeof(int32_t)));
  OCTET_OP_ENSURE(context, sums != nullptr, kOp, "out of memory for the hybrid row sums");
  std::memset(sums, 0, static_cast<size_t>(count) * sizeof(int32_t));
  for (int g = 0; g < 4; ++g) {
    if (const TfLiteTensor* w = t[kInputToInput + g]) {
      reference::HybridRowSums(w->data.int8, p.n_cell, p.n_input, sums + int64_t{g} * p.n_cell);
    }
    if (const TfLiteTensor* w = t[kRecurrentToInput + g]) {
      reference::HybridRowSums(w->data.int8, p.n_cell, p.n_output,
                               sums + int64_t{4 + g} * p.n_cell);
    }
  }
  if (const TfLiteTensor* w = t[kProjectionWeights]) {
    reference::HybridRowSums(w->data.int8, p.n_output, p.n_cell, sums + int64_t{8} * p.n_cell);
  }
  d->row_sums = sums;
  for (int index : kInt8Inputs) d->sums_of[index] = t[index] ? t[index]->data.raw : nullptr;
  return kTfLiteOk;
}

bool SameAux(const void* const* keys, const TfLiteTensor* const* aux) {
  for (int g = 0; g < 4; ++g) {
    if (keys[g] != (aux[g] ? aux[g]->data.raw : nullptr)) return false;
  }
  return true;
}

// Row sums of the aux weights (gate g at [g * n_cell]), for asymmetric aux rows.
TfLiteStatus ComputeAuxRowSums(TfLiteContext* context, const TfLiteTensor* const* aux,
                               LstmHybridData* d) {
  const int n_cell = d->config.params.n_cell;
  const size_t count = size_t{4} * static_cast<size_t>(n_cell);
  auto* sums = static_cast<int32_t*>(
      context->AllocatePersistentBuffer(context, (count > 0 ? count : 1) * sizeof(int32_t)));
  OCTET_OP_ENSURE(context, sums != nullptr, d->config.op,
                  "out of memory for the hybrid aux row sums");
  std::memset(sums, 0, count * sizeof(int32_t));
  for (int g = 0; g < 4; ++g) {
    if (aux[g] != nullptr) {
      reference::HybridRowSums(aux[g]->data.int8, n_cell, d->config.n_aux_input,
                               sums + int64_t{g} * n_cell);
    }
  }
  d->aux_row_sums = sums;
  for (int g = 0; g < 4; ++g) d->aux_sums_of[g] = aux[g] ? aux[g]->data.raw : nullptr;
  return kTfLiteOk;
}

// Packs the stacked gate weights (input and recurrent) and the projection for `kernel`.
bool Pack(TfLiteContext* context, const optimized::QGemmKernel& kernel,
          const TfLiteTensor* const* t, const TfLiteTensor* const* aux,
          const reference::LstmParams& p, LstmHybridData* d) {
  const int8_t* input_parts[4];
  const int8_t* recurrent_parts[4];
  int count = 0;
  for (int g = 0; g < 4; ++g) {
    if (t[kInputToInput + g] == nullptr) continue;  // the input gate under CIFG
    input_parts[count] = t[kInputToInput + g]->data.int8;
    recurrent_parts[count] = t[kRecurrentToInput + g]->data.int8;
    ++count;
  }
  if (!nn::PackRecurrentGemm(context, kernel, input_parts, count, p.n_cell, p.n_input,
                             &d->input_gemm) ||
      !nn::PackRecurrentGemm(context, kernel, recurrent_parts, count, p.n_cell, p.n_output,
                             &d->recurrent_gemm)) {
    return false;
  }
  if (const TfLiteTensor* w = t[kProjectionWeights]) {
    const int8_t* parts[] = {w->data.int8};
    if (!nn::PackRecurrentGemm(context, kernel, parts, 1, p.n_output, p.n_cell,
                               &d->projection_gemm)) {
      return false;
    }
  }
  if (d->aux) {
    const int8_t* aux_parts[4];
    int aux_count = 0;
    for (int g = 0; g < 4; ++g) {
      if (aux[g] != nullptr) aux_parts[aux_count++] = aux[g]->data.int8;
    }
    if (!nn::PackRecurrentGemm(context, kernel, aux_parts, aux_count, p.n_cell,
                               d->config.n_aux_input, &d->aux_gemm)) {
      return false;
    }
  }
  for (int index : kInt8Inputs) d->packed_of[index] = t[index] ? t[index]->data.raw : nullptr;
  for (int g = 0; g < 4; ++g) d->aux_packed_of[g] = aux[g] ? aux[g]->data.raw : nullptr;
  return true;
}

// One int8 weight tensor of the cell: constant, one finite positive scale, zero point 0.
TfLiteStatus ReadWeightScale(TfLiteContext* context, const char* op, const TfLiteTensor* t,
                             const char* name, float* out) {
  OCTET_OP_ENSURE(context, nn::IsConstantOrAbsent(t), op,
                  "%s must be constant in a hybrid LSTM (int8 weights, float activations)", name);
  float scale = 0.f;
  std::vector<float> per_channel;
  TF_LITE_ENSURE_OK(context, nn::ReadHybridWeightScales(context, op, t, 0, t->dims->data[0], &scale,
                                                        &per_channel));
  OCTET_OP_ENSURE(context, per_channel.empty(), op,
                  "%s has %d different scales; a hybrid LSTM takes one scale per tensor", name,
                  static_cast<int>(per_channel.size()));
  OCTET_OP_ENSURE(context, scale > 0.f && std::isfinite(scale), op,
                  "%s scale must be finite and > 0, got %g", name, static_cast<double>(scale));
  *out = scale;
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus LstmHybridPrepare(TfLiteContext* context, TfLiteNode* node,
                               const LstmHybridConfig& config, NodeScratch* scratch,
                               LstmHybridDataPtr* data) {
  if (!*data) data->reset(new LstmHybridData);
  LstmHybridData& d = **data;
  d.config = config;
  const reference::LstmParams& p = config.params;

  const char* kOp = config.op;
  const TfLiteTensor* t[kNumInputs] = {};
  for (int index : kInt8Inputs) t[index] = Optional(context, node, config.map, index);
  for (int index : kInt8Inputs) {
    if (t[index] == nullptr) continue;
    const std::string name = std::string(config.prefix) + nn::kLstmInputNames[index];
    TF_LITE_ENSURE_OK(context,
                      ReadWeightScale(context, kOp, t[index], name.c_str(), &d.scales[index]));
  }
  d.gate_count = t[kInputToInput] ? 4 : 3;
  if (!SameWeights(d.sums_of, t)) TF_LITE_ENSURE_OK(context, ComputeRowSums(context, t, p, &d));

  // Aux weights: the op checked their presence, types and shapes.
  const TfLiteTensor* aux[4] = {};
  d.aux = config.n_aux_input > 0 && AuxWeights(context, node, config, 1) != nullptr;
  if (d.aux) {
    for (int g = 0; g < 4; ++g) {
      aux[g] = AuxWeights(context, node, config, g);
      if (aux[g] == nullptr) continue;
      const std::string name =
          std::string(config.prefix) + "aux_input_to_" + kGateNames[g] + "_weights";
      TF_LITE_ENSURE_OK(context,
                        ReadWeightScale(context, kOp, aux[g], name.c_str(), &d.aux_scales[g]));
    }
    if (!SameAux(d.aux_sums_of, aux))
      TF_LITE_ENSURE_OK(context, ComputeAuxRowSums(context, aux, &d));
  }

  // The products on the active path's quantized GEMM, packed once per weights and kernel.
  const optimized::QGemmKernel* kernel = nn::RecurrentGemmKernel();
  d.optimized = false;
  if (kernel != nullptr) {
    if (d.packed_kernel != kernel || !SameWeights(d.packed_of, t) ||
        !SameAux(d.aux_packed_of, aux)) {
      d.packed_kernel = Pack(context, *kernel, t, aux, p, &d) ? kernel : nullptr;
    }
    d.optimized = d.packed_kernel == kernel;
  }
  SetNodeKernelName(context, node, d.optimized ? kernel->name : "reference");
  if (scratch == nullptr) return kTfLiteOk;
  const reference::LstmHybridScratchSize size = LstmHybridScratchNeeds(d);
  return scratch->Prepare(
      context, node,
      {{kTfLiteFloat32, size.floats}, {kTfLiteInt32, size.int32s}, {kTfLiteInt8, size.int8s}});
}

reference::LstmHybridScratchSize LstmHybridScratchNeeds(const LstmHybridData& d) {
  const LstmHybridConfig& c = d.config;
  const int64_t rows = int64_t{c.max_time} * c.n_batch;
  const int64_t step_rows = c.time_major ? c.n_batch : 1;
  return reference::LstmHybridScratchSizes(c.params, d.gate_count, rows, step_rows,
                                           d.aux ? c.n_aux_input : 0);
}

TfLiteStatus LstmHybridEval(TfLiteContext* context, TfLiteNode* node, const LstmHybridData& d,
                            const NodeScratch& scratch) {
  const char* kOp = d.config.op;
  const nn::LstmInputMap& map = d.config.map;
  const TfLiteTensor* input = Optional(context, node, map, kInput);
  TfLiteTensor* output_state = tflite::GetVariableInput(context, node, map[kOutputState]);
  TfLiteTensor* cell_state = tflite::GetVariableInput(context, node, map[kCellState]);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  OCTET_OP_ENSURE(context, output_state != nullptr && cell_state != nullptr, kOp,
                  "state tensors are not variable");
  OCTET_OP_ENSURE(context, input != nullptr && output != nullptr, kOp,
                  "input or output is missing");
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output_state", output_state));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "cell_state", cell_state));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output", output));
  return LstmHybridRun(context, node, d,
                       {input->data.f, output_state->data.f, cell_state->data.f, output->data.f,
                        scratch.Data<float>(context, 0), scratch.Data<int32_t>(context, 1),
                        scratch.Data<int8_t>(context, 2)});
}

TfLiteStatus LstmHybridRun(TfLiteContext* context, TfLiteNode* node, const LstmHybridData& d,
                           const LstmHybridBuffers& b) {
  const char* kOp = d.config.op;
  const reference::LstmParams& p = d.config.params;
  const TfLiteTensor* t[kNumInputs] = {};
  for (int i = 1; i < kNumInputs; ++i) {
    if (i == kOutputState || i == kCellState) continue;
    t[i] = Optional(context, node, d.config.map, i);
    if (t[i] != nullptr)
      TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "an input tensor", t[i]));
  }

  reference::LstmHybridWeights w;
  auto int8_of = [&](int index) { return t[index] ? t[index]->data.int8 : nullptr; };
  auto float_of = [&](int index) { return t[index] ? t[index]->data.f : nullptr; };
  for (int g = 0; g < 4; ++g) {
    reference::LstmHybridGate& gate = w.gates[g];
    gate.input_weights = int8_of(kInputToInput + g);
    gate.input_scale = d.scales[kInputToInput + g];
    gate.input_row_sums = d.row_sums + int64_t{g} * p.n_cell;
    gate.recurrent_weights = int8_of(kRecurrentToInput + g);
    gate.recurrent_scale = d.scales[kRecurrentToInput + g];
    gate.recurrent_row_sums = d.row_sums + int64_t{4 + g} * p.n_cell;
    const int peephole = PeepholeIndex(g);
    if (peephole >= 0) {
      gate.peephole = int8_of(peephole);
      gate.peephole_scale = d.scales[peephole];
    }
    gate.layer_norm = float_of(kInputLayerNorm + g);
    gate.bias = float_of(kInputGateBias + g);
  }
  w.projection_weights = int8_of(kProjectionWeights);
  w.projection_scale = d.scales[kProjectionWeights];
  w.projection_row_sums = d.row_sums + int64_t{8} * p.n_cell;
  w.projection_bias = float_of(kProjectionBias);

  const LstmHybridConfig& c = d.config;
  if (d.aux) {
    OCTET_OP_ENSURE(context, b.aux_input != nullptr, kOp, "the aux input has no data");
    for (int g = 0; g < 4; ++g) {
      const TfLiteTensor* a = AuxWeights(context, node, c, g);
      if (a == nullptr) continue;
      TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "aux input weights", a));
      w.gates[g].aux_weights = a->data.int8;
      w.gates[g].aux_scale = d.aux_scales[g];
      w.gates[g].aux_row_sums = d.aux_row_sums + int64_t{g} * p.n_cell;
    }
    w.n_aux_input = c.n_aux_input;
  }
  const reference::LstmHybridScratch s = reference::LstmHybridCarveScratch(
      p, w.gate_count(), int64_t{c.max_time} * c.n_batch, c.time_major ? c.n_batch : 1, b.floats,
      b.int32s, b.int8s, w.n_aux_input);
  if (d.optimized) {
    const PackedDots dots{context, &d};
    reference::LstmHybridSequence(w, p, c.asymmetric, c.time_major, c.max_time, c.n_batch, b.input,
                                  b.output_state, b.cell_state, b.output, s, dots, b.aux_input);
  } else {
    const reference::LstmHybridPlainDots dots{&w, &p};
    reference::LstmHybridSequence(w, p, c.asymmetric, c.time_major, c.max_time, c.n_batch, b.input,
                                  b.output_state, b.cell_state, b.output, s, dots, b.aux_input);
  }
  return kTfLiteOk;
}

}  // namespace octet::ops::nn_hybrid
