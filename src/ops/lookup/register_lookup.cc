// Registers the lookup / hashing builtins with TFLite's version ranges.
#include "ops/lookup/lookup_ops.h"
#include "ops/op_groups.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddLookupBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_EMBEDDING_LOOKUP, Register_EMBEDDING_LOOKUP(), 1, 4);
  resolver->AddBuiltin(tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE,
                       Register_EMBEDDING_LOOKUP_SPARSE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_HASHTABLE_LOOKUP, Register_HASHTABLE_LOOKUP(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_LSH_PROJECTION, Register_LSH_PROJECTION(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_SKIP_GRAM, Register_SKIP_GRAM(), 1, 1);
}

}  // namespace octet::ops
