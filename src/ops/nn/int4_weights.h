// Packed INT4 constant weights (two signed 4-bit values per byte, low nibble first), as
// TFLite accepts them: FULLY_CONNECTED with an int8, int16 or float32 (hybrid) input, CONV_2D
// and DEPTHWISE_CONV_2D with an int8 input. TFLite's kernels unpack them to int8 and run their
// int8 code; Octet does the same once, at prepare, into persistent memory, and hands the
// kernels an INT8 view of the copy, so every int8 path (reference and optimized) runs as is.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

// Element i of a packed INT4 tensor: nibble i (the low nibble of each byte first),
// sign-extended (8..15 stand for -8..-1).
inline int8_t Int4At(const uint8_t* packed, size_t i) {
  const unsigned byte = packed[i / 2];
  const unsigned nibble = (i % 2 == 0) ? (byte & 0x0Fu) : (byte >> 4);
  return static_cast<int8_t>(static_cast<int>(nibble) - ((nibble & 0x8u) ? 16 : 0));
}

// Sign-extends `count` packed nibbles of `packed` ((count + 1) / 2 bytes, the low nibble of
// each byte first) into `out`.
void UnpackInt4(const uint8_t* packed, size_t count, int8_t* out);

// Checks that the INT4 tensor `t` (named `name` in messages) is a constant with a valid shape
// whose buffer holds at least ceil(elements / 2) bytes, and sets *elements. For ops that read
// packed INT4 constants themselves (DEQUANTIZE, EMBEDDING_LOOKUP); Octet's arena holds no
// INT4 activations, so a non-constant INT4 tensor is refused.
TfLiteStatus CheckInt4Constant(TfLiteContext* context, const char* op, const char* name,
                               const TfLiteTensor* t, size_t* elements);

// One node's unpacked copy, from prepare to invoke (owned by the op's user data).
struct Int4Weights {
  // The input types whose kernels take INT4 weights in this op (int8 always).
  bool int16_input = false;
  bool float_input = false;
  const void* source = nullptr;  // the packed data `unpacked` was made from
  size_t elements = 0;
  int8_t* unpacked = nullptr;  // persistent memory
  TfLiteTensor view{};         // the weights as an INT8 tensor over `unpacked`
};

// Prepare: checks that `weights` (INT4) may be used here (the input type, a constant, its
// buffer holds ceil(elements / 2) bytes, symmetric quantization), unpacks it unless `state`
// already holds it, and sets *as_int8 to the INT8 view. A null `state` is an op that does not
// take INT4 weights: a clear error.
TfLiteStatus PrepareInt4Weights(TfLiteContext* context, const char* op, const char* weights_name,
                                const TfLiteTensor* input, const TfLiteTensor* weights,
                                Int4Weights* state, const TfLiteTensor** as_int8);

// Invoke: the INT8 view prepared for `weights`, or an error when prepare did not make one.
TfLiteStatus Int4WeightsView(TfLiteContext* context, const char* op, const TfLiteTensor* weights,
                             Int4Weights* state, const TfLiteTensor** as_int8);

}  // namespace octet::ops::nn
