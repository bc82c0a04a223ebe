// Registers the index / selection builtins with TFLite's version ranges (TensorFlow
// 2.16's BuiltinOpResolver).
#include "ops/index/index_ops.h"
#include "ops/op_groups.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddIndexBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_TOPK_V2, Register_TOPK_V2(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_WHERE, Register_WHERE(), 1, 2);
  resolver->AddBuiltin(tflite::BuiltinOperator_SCATTER_ND, Register_SCATTER_ND(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_SEGMENT_SUM, Register_SEGMENT_SUM(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM,
                       Register_UNSORTED_SEGMENT_SUM(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_UNSORTED_SEGMENT_PROD,
                       Register_UNSORTED_SEGMENT_PROD(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_UNSORTED_SEGMENT_MAX,
                       Register_UNSORTED_SEGMENT_MAX(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_UNSORTED_SEGMENT_MIN,
                       Register_UNSORTED_SEGMENT_MIN(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_UNIQUE, Register_UNIQUE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_BUCKETIZE, Register_BUCKETIZE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_SPARSE_TO_DENSE, Register_SPARSE_TO_DENSE(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_DYNAMIC_UPDATE_SLICE,
                       Register_DYNAMIC_UPDATE_SLICE(), 1, 2);
  resolver->AddBuiltin(tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V4,
                       Register_NON_MAX_SUPPRESSION_V4(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V5,
                       Register_NON_MAX_SUPPRESSION_V5(), 1, 1);
}

}  // namespace octet::ops
