// The int8 integer LSTM (TFLite Micro's standard cell, lstm_integer.h) with its eight
// fully-connected products on the quantized GEMM micro-kernels. The four gates' input and
// recurrent weights are stacked and packed once in prepare (raw int32 mode), the packer
// folding each FC's input offset times its weight-row sums and the gate bias into the packed
// bias modulo 2^32 (the reference's int32 wrap-around), so every gate pre-activation, and so
// every output, is the reference's bit for bit. Per step: one GEMM of the step's input rows,
// one of its output-state rows; the rest of the step (requantization, saturating adds,
// sigmoid/tanh tables, cell update) and the sequence loop are the reference's code.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/reference/lstm_integer.h"
#include "ops/nn/hybrid_recurrent_gemm.h"
#include "ops/nn/packing_cache.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn_integer {

struct LstmIntegerFast {
  bool ready = false;  // false: the reference loops
  const char* kernel_name = "reference";
  // [4 * state, input] and [4 * state, state]; sums with bias and input offset folded in.
  nn::RecurrentGemm input_gemm, recurrent_gemm;
  mutable std::vector<int32_t> dots;  // eval scratch: the step's input then recurrent sums
  nn::PackingCache packing;
};

// Packs the int8 cell's weights when the kernel path is not the reference, weights and biases
// are constant and `reference_only` is false. Sets fast->ready.
TfLiteStatus PrepareLstmIntegerFast(TfLiteContext* context,
                                    const reference::lstm_integer::Params& p,
                                    const reference::lstm_integer::Sizes& s,
                                    const reference::lstm_integer::Weights<int32_t>& w,
                                    bool weights_constant, bool reference_only,
                                    LstmIntegerFast* fast);

// The whole sequence (as reference::lstm_integer::Sequence<int8_t, int32_t>).
void RunLstmIntegerFast(TfLiteContext* context, const LstmIntegerFast& fast,
                        const reference::lstm_integer::Params& p,
                        const reference::lstm_integer::Sizes& s,
                        const reference::lstm_integer::Weights<int32_t>& w, const int8_t* input,
                        int8_t* hidden, int16_t* cell, int8_t* output,
                        const reference::lstm_integer::Buffers& buf);

}  // namespace octet::ops::nn_integer
