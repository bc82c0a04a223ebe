// Registers the sparse-tensor builtins with TFLite's version ranges (DENSIFY: version 1).
#include "ops/sparse/sparse_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddSparseBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_DENSIFY, Register_DENSIFY(), 1, 1);
}

}  // namespace octet::ops
