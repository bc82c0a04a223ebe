// Registers the 3-D convolution builtins with TFLite's version ranges (TensorFlow 2.16's
// BuiltinOpResolver: both ops have version 1 only).
#include "ops/nn3d/nn3d_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddNn3dBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_CONV_3D, Register_CONV_3D(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_CONV_3D_TRANSPOSE, Register_CONV_3D_TRANSPOSE(), 1,
                       1);
}

}  // namespace octet::ops
