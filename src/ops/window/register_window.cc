// Registers the window builtins with TFLite's version ranges (DILATE and REDUCE_WINDOW: 1).
#include "ops/window/window_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddWindowBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_DILATE, Register_DILATE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_REDUCE_WINDOW, Register_REDUCE_WINDOW(), 1, 1);
}

}  // namespace octet::ops
