// Registers the resource builtins (variables and lookup tables) with TFLite's version ranges.
#include "ops/op_groups.h"
#include "ops/resource/resource_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddResourceBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_VAR_HANDLE, Register_VAR_HANDLE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_ASSIGN_VARIABLE, Register_ASSIGN_VARIABLE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_READ_VARIABLE, Register_READ_VARIABLE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_HASHTABLE, Register_HASHTABLE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_HASHTABLE_IMPORT, Register_HASHTABLE_IMPORT(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_HASHTABLE_FIND, Register_HASHTABLE_FIND(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_HASHTABLE_SIZE, Register_HASHTABLE_SIZE(), 1, 1);
}

}  // namespace octet::ops
