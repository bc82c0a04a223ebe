// Validation shared by the float and hybrid LSTM ops (LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM,
// BIDIRECTIONAL_SEQUENCE_LSTM): the weights, biases, optional pieces and states of one LSTM
// cell, wherever the op keeps them (an LstmInputMap).
#pragma once

#include "kernels/reference/lstm.h"
#include "ops/nn/lstm_inputs.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

struct LstmCellSpec {
  const char* op;           // for messages
  const char* prefix = "";  // before tensor names ("fw_", "bw_")
  LstmInputMap map = kLstmIdentityMap;
};

// What CheckLstmCell found.
struct LstmCellShape {
  int n_cell = 0;
  int n_output = 0;
  bool hybrid = false;  // int8 weight matrices and peephole weights, float activations
  bool cifg = false;
};

// The node input of tensor k, or nullptr when the op has none or it is absent.
const TfLiteTensor* LstmTensor(TfLiteContext* context, const TfLiteNode* node,
                               const LstmCellSpec& spec, int k);

// Checks one cell for an input of n_input features and n_batch rows: types (float weights,
// or int8 for a hybrid cell as input_to_output_weights says; float biases, coefficients and
// states), exact shapes, the all-or-none groups (CIFG, peephole, projection, layer norm) and
// that both states are variable tensors of n_batch rows.
TfLiteStatus CheckLstmCell(TfLiteContext* context, const TfLiteNode* node, const LstmCellSpec& spec,
                           int n_input, int n_batch, LstmCellShape* shape);

// The op's fused activation as the reference kernel's (cell gate and cell output).
TfLiteStatus ToLstmActivation(TfLiteContext* context, const char* op, TfLiteFusedActivation act,
                              reference::LstmActivation* out);

// A clip option must be >= 0 (0: no clipping).
TfLiteStatus CheckLstmClips(TfLiteContext* context, const char* op, float cell_clip,
                            float proj_clip);

}  // namespace octet::ops::nn
