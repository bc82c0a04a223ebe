// The builtin resolver registers the ops added for issue 9 with TFLite's version ranges
// (tensorflow/lite/core/kernels/register.cc): each version in range resolves, the next
// one does not.
#include <gtest/gtest.h>

#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet {
namespace {

TEST(Issue9Builtins, VersionRanges) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  struct Expect {
    tflite::BuiltinOperator op;
    int max;
  };
  const Expect expects[] = {
      {tflite::BuiltinOperator_GELU, 2},
      {tflite::BuiltinOperator_ELU, 1},
      {tflite::BuiltinOperator_RELU_0_TO_1, 1},
      {tflite::BuiltinOperator_SIGN, 2},
      {tflite::BuiltinOperator_ATAN2, 1},
      {tflite::BuiltinOperator_CUMSUM, 1},
      {tflite::BuiltinOperator_ADD_N, 1},
      {tflite::BuiltinOperator_REDUCE_ANY, 1},
      {tflite::BuiltinOperator_REDUCE_ALL, 1},
      {tflite::BuiltinOperator_ONE_HOT, 1},
      {tflite::BuiltinOperator_RANGE, 2},
      {tflite::BuiltinOperator_BITCAST, 1},
      {tflite::BuiltinOperator_BITWISE_XOR, 1},
      {tflite::BuiltinOperator_RIGHT_SHIFT, 1},
      {tflite::BuiltinOperator_BROADCAST_ARGS, 1},
      {tflite::BuiltinOperator_SELECT, 4},
      {tflite::BuiltinOperator_MATRIX_DIAG, 1},
      {tflite::BuiltinOperator_MATRIX_SET_DIAG, 1},
      {tflite::BuiltinOperator_REVERSE_SEQUENCE, 1},
      {tflite::BuiltinOperator_VAR_HANDLE, 1},
      {tflite::BuiltinOperator_READ_VARIABLE, 1},
      {tflite::BuiltinOperator_ASSIGN_VARIABLE, 1},
      {tflite::BuiltinOperator_HASHTABLE, 1},
      {tflite::BuiltinOperator_HASHTABLE_IMPORT, 1},
      {tflite::BuiltinOperator_HASHTABLE_FIND, 1},
      {tflite::BuiltinOperator_HASHTABLE_SIZE, 1},
      {tflite::BuiltinOperator_CONV_3D, 1},
      {tflite::BuiltinOperator_CONV_3D_TRANSPOSE, 1},
      {tflite::BuiltinOperator_RFFT2D, 1},
      {tflite::BuiltinOperator_REAL, 1},
      {tflite::BuiltinOperator_IMAG, 1},
      {tflite::BuiltinOperator_COMPLEX_ABS, 1},
      {tflite::BuiltinOperator_FAKE_QUANT, 2},
      {tflite::BuiltinOperator_LSTM, 4},
      {tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM, 3},
      {tflite::BuiltinOperator_RANDOM_UNIFORM, 1},
      {tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL, 1},
      {tflite::BuiltinOperator_MULTINOMIAL, 1},
      {tflite::BuiltinOperator_DENSIFY, 1},
      {tflite::BuiltinOperator_DILATE, 1},
      {tflite::BuiltinOperator_REDUCE_WINDOW, 1},
      {tflite::BuiltinOperator_STABLEHLO_ADD, 1},
      {tflite::BuiltinOperator_STABLEHLO_MULTIPLY, 1},
      {tflite::BuiltinOperator_STABLEHLO_MAXIMUM, 1},
      {tflite::BuiltinOperator_STABLEHLO_MINIMUM, 1},
      {tflite::BuiltinOperator_STABLEHLO_AND, 1},
      {tflite::BuiltinOperator_STABLEHLO_SHIFT_LEFT, 1},
      {tflite::BuiltinOperator_STABLEHLO_PAD, 1},
      {tflite::BuiltinOperator_STABLEHLO_COMPOSITE, 1},
      {tflite::BuiltinOperator_STABLEHLO_CASE, 1},
      {tflite::BuiltinOperator_STABLEHLO_GATHER, 1},
      {tflite::BuiltinOperator_STABLEHLO_SCATTER, 1},
      {tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW, 1},
      {tflite::BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR, 1},
  };
  for (const Expect& e : expects) {
    const char* name = tflite::EnumNameBuiltinOperator(e.op);
    for (int v = 1; v <= e.max; ++v) {
      EXPECT_NE(resolver.FindOp(e.op, v), nullptr) << name << " v" << v;
    }
    EXPECT_EQ(resolver.FindOp(e.op, e.max + 1), nullptr) << name << " v" << e.max + 1;
  }
}

}  // namespace
}  // namespace octet
