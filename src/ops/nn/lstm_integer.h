// Integer (int8 or int16 activations, int8 weights, int16 cell state) UNIDIRECTIONAL_
// SEQUENCE_LSTM, as TFLite Micro runs it. The float kernel dispatches here when its input
// is int8 or int16; the integer state lives in an LstmIntegerDataPtr owned by that
// kernel's op data.
#pragma once

#include <memory>

#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn_integer {

struct LstmIntegerData;
struct LstmIntegerDataDeleter {
  void operator()(LstmIntegerData* data) const;
};
using LstmIntegerDataPtr = std::unique_ptr<LstmIntegerData, LstmIntegerDataDeleter>;

// Validates the node (20 or 24 inputs, standard LSTM only, types, shapes, quantization)
// and computes the requantization constants into *data (allocated when null). Resizes the
// output like the input with the last dimension set to the state size.
// `reference_only` (Register_X_REF) keeps the reference loops on every kernel path.
TfLiteStatus LstmIntegerPrepare(TfLiteContext* context, TfLiteNode* node, LstmIntegerDataPtr* data,
                                bool reference_only = false);

// Runs the sequence; output and cell states persist in their variable tensors.
TfLiteStatus LstmIntegerEval(TfLiteContext* context, TfLiteNode* node, const LstmIntegerData* data);

// A stand-alone registration of the integer kernel (tests; the builtin LSTM dispatches).
TfLiteRegistration* RegisterLstmInteger();

}  // namespace octet::ops::nn_integer
