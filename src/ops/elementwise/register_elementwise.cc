// Registers the elementwise kernels for the op versions TFLite's builtin
// resolver accepts; versions that mean types these kernels do not handle are
// rejected in prepare by name.
#include "ops/elementwise/elementwise_ops.h"
#include "ops/op_groups.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddElementwiseBuiltins(tflite::MutableOpResolver *resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X family
  struct Entry {
    tflite::BuiltinOperator op;
    TfLiteRegistration *(*registration)();
    int max_version;
  };
  static const Entry kEntries[] = {
      {tflite::BuiltinOperator_ADD, Register_ADD, 5},
      {tflite::BuiltinOperator_SUB, Register_SUB, 5},
      {tflite::BuiltinOperator_MUL, Register_MUL, 7},
      {tflite::BuiltinOperator_DIV, Register_DIV, 2},
      {tflite::BuiltinOperator_POW, Register_POW, 1},
      {tflite::BuiltinOperator_SQUARED_DIFFERENCE, Register_SQUARED_DIFFERENCE, 2},
      {tflite::BuiltinOperator_FLOOR_DIV, Register_FLOOR_DIV, 3},
      {tflite::BuiltinOperator_FLOOR_MOD, Register_FLOOR_MOD, 2},
      {tflite::BuiltinOperator_MAXIMUM, Register_MAXIMUM, 4},
      {tflite::BuiltinOperator_MINIMUM, Register_MINIMUM, 4},
      {tflite::BuiltinOperator_LOGISTIC, Register_LOGISTIC, 3},
      {tflite::BuiltinOperator_TANH, Register_TANH, 3},
      {tflite::BuiltinOperator_RELU, Register_RELU, 3},
      {tflite::BuiltinOperator_RELU6, Register_RELU6, 3},
      {tflite::BuiltinOperator_RELU_N1_TO_1, Register_RELU_N1_TO_1, 1},
      {tflite::BuiltinOperator_LEAKY_RELU, Register_LEAKY_RELU, 2},
      {tflite::BuiltinOperator_HARD_SWISH, Register_HARD_SWISH, 1},
      {tflite::BuiltinOperator_PRELU, Register_PRELU, 1},
      {tflite::BuiltinOperator_SIN, Register_SIN, 1},
      {tflite::BuiltinOperator_COS, Register_COS, 1},
      {tflite::BuiltinOperator_ABS, Register_ABS, 5},
      {tflite::BuiltinOperator_EXP, Register_EXP, 2},
      {tflite::BuiltinOperator_LOG, Register_LOG, 2},
      {tflite::BuiltinOperator_SQRT, Register_SQRT, 1},
      {tflite::BuiltinOperator_RSQRT, Register_RSQRT, 3},
      {tflite::BuiltinOperator_NEG, Register_NEG, 1},
      {tflite::BuiltinOperator_SQUARE, Register_SQUARE, 1},
      {tflite::BuiltinOperator_FLOOR, Register_FLOOR, 1},
      {tflite::BuiltinOperator_CEIL, Register_CEIL, 1},
      {tflite::BuiltinOperator_ROUND, Register_ROUND, 1},
      {tflite::BuiltinOperator_LESS, Register_LESS, 3},
      {tflite::BuiltinOperator_LESS_EQUAL, Register_LESS_EQUAL, 2},
      {tflite::BuiltinOperator_GREATER, Register_GREATER, 2},
      {tflite::BuiltinOperator_GREATER_EQUAL, Register_GREATER_EQUAL, 3},
      {tflite::BuiltinOperator_EQUAL, Register_EQUAL, 4},
      {tflite::BuiltinOperator_NOT_EQUAL, Register_NOT_EQUAL, 3},
      {tflite::BuiltinOperator_LOGICAL_AND, Register_LOGICAL_AND, 1},
      {tflite::BuiltinOperator_LOGICAL_OR, Register_LOGICAL_OR, 1},
      {tflite::BuiltinOperator_LOGICAL_NOT, Register_LOGICAL_NOT, 1},
      {tflite::BuiltinOperator_SELECT_V2, Register_SELECT_V2, 2},
      {tflite::BuiltinOperator_CAST, Register_CAST, 7},
      {tflite::BuiltinOperator_ZEROS_LIKE, Register_ZEROS_LIKE, 1},
      {tflite::BuiltinOperator_FILL, Register_FILL, 4},
      {tflite::BuiltinOperator_QUANTIZE, Register_QUANTIZE, 3},
      {tflite::BuiltinOperator_DEQUANTIZE, Register_DEQUANTIZE, 6},
      {tflite::BuiltinOperator_GELU, Register_GELU, 2},
      {tflite::BuiltinOperator_ELU, Register_ELU, 1},
      {tflite::BuiltinOperator_RELU_0_TO_1, Register_RELU_0_TO_1, 1},
      {tflite::BuiltinOperator_SIGN, Register_SIGN, 2},
      {tflite::BuiltinOperator_ATAN2, Register_ATAN2, 1},
      {tflite::BuiltinOperator_ADD_N, Register_ADD_N, 1},
      {tflite::BuiltinOperator_BITWISE_XOR, Register_BITWISE_XOR, 1},
      {tflite::BuiltinOperator_RIGHT_SHIFT, Register_RIGHT_SHIFT, 1},
      {tflite::BuiltinOperator_SELECT, Register_SELECT, 4},
  };
  for (const Entry &e : kEntries) resolver->AddBuiltin(e.op, e.registration(), 1, e.max_version);
}

void AddElementwiseReferenceBuiltins(tflite::MutableOpResolver *resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X_REF family
  resolver->AddBuiltin(tflite::BuiltinOperator_ADD, Register_ADD_REF(), 1, 5);
  resolver->AddBuiltin(tflite::BuiltinOperator_SUB, Register_SUB_REF(), 1, 5);
  resolver->AddBuiltin(tflite::BuiltinOperator_MUL, Register_MUL_REF(), 1, 7);
  resolver->AddBuiltin(tflite::BuiltinOperator_LOGISTIC, Register_LOGISTIC_REF(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_TANH, Register_TANH_REF(), 1, 3);
}

}  // namespace octet::ops
