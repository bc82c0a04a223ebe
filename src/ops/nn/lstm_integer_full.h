// Full-integer LSTM (int8 activations and weights, int16 cell state: TFLite's "8x8_16") as
// TFLite's lstm.cc / unidirectional_sequence_lstm.cc run it (lstm_eval's EvalInteger8x8_16),
// with every variant the schema allows: CIFG, peephole, projection (+ bias), layer norm,
// cell and projection clipping. The scales come from the node's five intermediate tensors
// (four gate pre-activations, used with layer norm; the hidden state). Used by the LSTM op
// (one time step, [batch, input]) and by UNIDIRECTIONAL_SEQUENCE_LSTM for the variants
// TFLite Micro's integer kernel (lstm_integer.*) does not run.
#pragma once

#include <memory>

#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn_integer_full {

struct LstmIntegerFullData;
struct LstmIntegerFullDataDeleter {
  void operator()(LstmIntegerFullData* data) const;
};
using LstmIntegerFullDataPtr = std::unique_ptr<LstmIntegerFullData, LstmIntegerFullDataDeleter>;

struct LstmIntegerFullConfig {
  const char* op = "LSTM";  // for messages
  bool sequence = false;    // input [time, batch, n] or [batch, time, n]; else [batch, n]
  bool time_major = true;
  float cell_clip = 0.f;
  float proj_clip = 0.f;
};

// Validates the node (inputs, intermediates, types, shapes, quantization, constant weights),
// derives the requantization constants and zero-point-folded biases into *data (allocated
// when null) and resizes the output.
TfLiteStatus LstmIntegerFullPrepare(TfLiteContext* context, TfLiteNode* node,
                                    const LstmIntegerFullConfig& config,
                                    LstmIntegerFullDataPtr* data);

// Runs every time step; the states persist in their variable tensors.
TfLiteStatus LstmIntegerFullEval(TfLiteContext* context, TfLiteNode* node,
                                 const LstmIntegerFullData& data);

}  // namespace octet::ops::nn_integer_full
