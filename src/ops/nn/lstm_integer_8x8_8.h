// Full-integer LSTM with int8 gate matmul outputs (TFLite's "8x8_8": 12 intermediate tensors,
// int8 input, output state and weights, int16 cell state at scale 2^-15) as TFLite's lstm.cc
// runs it (PopulateQuantizedLstmParams8x8_8 and lstm_eval's EvalInteger8x8_8). Only the LSTM
// op reaches this form in TFLite; its step always applies layer norm and the projection and
// always runs the CIFG cell update, so a node without layer norm coefficients, projection
// weights or projection bias is refused, and the input gate and peephole tensors are checked
// but never read.
#pragma once

#include <memory>

#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn_integer_8x8_8 {

struct LstmInteger8x8_8Data;
struct LstmInteger8x8_8DataDeleter {
  void operator()(LstmInteger8x8_8Data* data) const;
};
using LstmInteger8x8_8DataPtr = std::unique_ptr<LstmInteger8x8_8Data, LstmInteger8x8_8DataDeleter>;

struct LstmInteger8x8_8Config {
  const char* op = "LSTM";  // for messages
  float cell_clip = 0.f;
  float proj_clip = 0.f;
};

// Validates the node (inputs, the 12 intermediates, types, shapes, quantization), derives the
// requantization constants into *data (allocated when null) and resizes the output to
// [batch, n_output].
TfLiteStatus LstmInteger8x8_8Prepare(TfLiteContext* context, TfLiteNode* node,
                                     const LstmInteger8x8_8Config& config,
                                     LstmInteger8x8_8DataPtr* data);

// One time step; the states persist in their variable tensors.
TfLiteStatus LstmInteger8x8_8Eval(TfLiteContext* context, TfLiteNode* node,
                                  const LstmInteger8x8_8Data& data);

}  // namespace octet::ops::nn_integer_8x8_8
