// Hybrid ("dynamic range") UNIDIRECTIONAL_SEQUENCE_LSTM: float input, states and output,
// int8 weight matrices and peephole weights (reference/lstm_hybrid.h). The float kernel
// validates the node's shapes and types and dispatches here when input_to_output_weights is
// int8; the hybrid state lives in an LstmHybridDataPtr owned by that kernel's op data.
#pragma once

#include <memory>

#include "kernels/reference/lstm.h"
#include "kernels/reference/lstm_hybrid.h"
#include "ops/nn/lstm_inputs.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn_hybrid {

struct LstmHybridData;
struct LstmHybridDataDeleter {
  void operator()(LstmHybridData* data) const;
};
using LstmHybridDataPtr = std::unique_ptr<LstmHybridData, LstmHybridDataDeleter>;

// Temporaries the hybrid kernel uses; the op reserves at least this many in init.
constexpr int kLstmHybridScratchCount = 3;

// What the op's prepare found.
struct LstmHybridConfig {
  reference::LstmParams params;  // sizes, activation, clips
  bool time_major = true;
  int max_time = 0;
  int n_batch = 0;
  bool asymmetric = false;                          // the op's asymmetric_quantize_inputs
  const char* op = "UNIDIRECTIONAL_SEQUENCE_LSTM";  // for messages
  const char* prefix = "";                          // before tensor names ("fw_", "bw_")
  nn::LstmInputMap map = nn::kLstmIdentityMap;      // where the node keeps the cell's tensors
  // BIDIRECTIONAL_SEQUENCE_LSTM's aux input weights: the node inputs of the input, forget,
  // cell and output gates' [n_cell, n_aux_input] int8 matrices (-1: none; the input gate's
  // is absent under CIFG). Used when n_aux_input > 0 and the forget gate's is given.
  int aux_weights[4] = {-1, -1, -1, -1};
  int n_aux_input = 0;
};

// Called from the op's prepare once shapes and types are checked (int8 weight matrices and
// peephole weights, float biases, layer-norm coefficients and states; aux weights int8 of
// their shape): checks that the int8 weights (aux weights too) are constant with one finite
// positive scale and zero point 0, computes their row
// sums once, packs them for the active kernel path and sizes `scratch` (unless null: the
// caller then sizes its own scratch with LstmHybridScratchNeeds).
TfLiteStatus LstmHybridPrepare(TfLiteContext* context, TfLiteNode* node,
                               const LstmHybridConfig& config, NodeScratch* scratch,
                               LstmHybridDataPtr* data);

// The scratch (floats, int32s, int8s) one LstmHybridRun needs.
reference::LstmHybridScratchSize LstmHybridScratchNeeds(const LstmHybridData& data);

// Runs the sequence; output and cell states persist in their variable tensors (the node's
// input at config.map[0], output 0).
TfLiteStatus LstmHybridEval(TfLiteContext* context, TfLiteNode* node, const LstmHybridData& data,
                            const NodeScratch& scratch);

// Runs the sequence on explicit buffers: input and output laid out as the config says
// (output rows n_output apart), states updated in place, scratch at least
// LstmHybridScratchNeeds; `aux_input` laid out as the input, with aux weights only.
struct LstmHybridBuffers {
  const float* input;
  float* output_state;
  float* cell_state;
  float* output;
  float* floats;
  int32_t* int32s;
  int8_t* int8s;
  const float* aux_input = nullptr;
};
TfLiteStatus LstmHybridRun(TfLiteContext* context, TfLiteNode* node, const LstmHybridData& data,
                           const LstmHybridBuffers& buffers);

}  // namespace octet::ops::nn_hybrid
