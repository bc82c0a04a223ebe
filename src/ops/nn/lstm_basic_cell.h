// The LSTM op's BASIC kernel (kernel_type kTfLiteLSTMBasicKernel): TFLite's 5-input "basic LSTM
// cell" (input, prev_activation, weights, biases, prev_state -> output, state_out,
// concat_temp, activation_temp), float32 or quantized (uint8 activations and weights, int32
// bias, int16 state with 4 integer bits, gemmlowp fixed-point gates).
#pragma once

#include <cstdint>

#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

struct BasicLstmData {
  bool quantized = false;
  int n_batch = 0;
  int input_depth = 0;
  int depth = 0;  // activation (and state) depth; the weights have 4 * depth rows
  int32_t weights_zero_point = 0;
  int32_t accum_multiplier = 0;  // 4096 * bias scale: the accumulator to Q3.12
  int accum_shift = 0;
};

TfLiteStatus BasicLstmPrepare(TfLiteContext* context, TfLiteNode* node, BasicLstmData* data);
TfLiteStatus BasicLstmEval(TfLiteContext* context, TfLiteNode* node, const BasicLstmData& data);

}  // namespace octet::ops::nn
