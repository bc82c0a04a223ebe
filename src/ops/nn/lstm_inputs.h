// The names of UNIDIRECTIONAL_SEQUENCE_LSTM's 24 inputs (TFLite's order), for the messages
// of the float, integer and hybrid preparations alike, and where other LSTM ops (LSTM,
// BIDIRECTIONAL_SEQUENCE_LSTM) keep the same tensors.
#pragma once

#include <array>

namespace octet::ops::nn {

constexpr int kLstmInputCount = 24;

inline constexpr const char* kLstmInputNames[kLstmInputCount] = {
    "input",
    "input_to_input_weights",
    "input_to_forget_weights",
    "input_to_cell_weights",
    "input_to_output_weights",
    "recurrent_to_input_weights",
    "recurrent_to_forget_weights",
    "recurrent_to_cell_weights",
    "recurrent_to_output_weights",
    "cell_to_input_weights",
    "cell_to_forget_weights",
    "cell_to_output_weights",
    "input_gate_bias",
    "forget_gate_bias",
    "cell_gate_bias",
    "output_gate_bias",
    "projection_weights",
    "projection_bias",
    "output_state",
    "cell_state",
    "input_layer_norm_coefficients",
    "forget_layer_norm_coefficients",
    "cell_layer_norm_coefficients",
    "output_layer_norm_coefficients",
};

// Tensor k of the layout above, by name (the integer preparations index the node with these;
// `using namespace nn::lstm_tensor` brings in just the names).
namespace lstm_tensor {
enum LstmInputIndex {
  kInput = 0,
  kInputToInput = 1,
  kInputToForget = 2,
  kInputToCell = 3,
  kInputToOutput = 4,
  kRecurrentToInput = 5,
  kRecurrentToForget = 6,
  kRecurrentToCell = 7,
  kRecurrentToOutput = 8,
  kCellToInput = 9,
  kCellToForget = 10,
  kCellToOutput = 11,
  kInputGateBias = 12,
  kForgetGateBias = 13,
  kCellGateBias = 14,
  kOutputGateBias = 15,
  kProjectionWeights = 16,
  kProjectionBias = 17,
  kOutputState = 18,
  kCellState = 19,
  kInputLayerNorm = 20,
  kForgetLayerNorm = 21,
  kCellLayerNorm = 22,
  kOutputLayerNorm = 23,
};
}  // namespace lstm_tensor

// Where a node keeps one LSTM cell's tensors: map[k] is the node input holding tensor k of
// the layout above, or -1 when the op has no such input (the bidirectional op has no layer
// norm and keeps each direction's weights and states at its own indices).
using LstmInputMap = std::array<int, kLstmInputCount>;
inline constexpr LstmInputMap kLstmIdentityMap = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                                  12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23};

}  // namespace octet::ops::nn
