// Registers the random builtins with TFLite's version ranges (BuiltinOpResolver: version 1).
#include "ops/random/random_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddRandomBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_RANDOM_UNIFORM, Register_RANDOM_UNIFORM(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL,
                       Register_RANDOM_STANDARD_NORMAL(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_MULTINOMIAL, Register_MULTINOMIAL(), 1, 1);
}

}  // namespace octet::ops
