// Registers the shape / data-movement / reduction builtins with TFLite's version ranges.
#include "ops/op_groups.h"
#include "ops/shape/shape_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddShapeBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_RESHAPE, Register_RESHAPE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_CONCATENATION, Register_CONCATENATION(), 1, 4);
  resolver->AddBuiltin(tflite::BuiltinOperator_STRIDED_SLICE, Register_STRIDED_SLICE(), 1, 8);
  resolver->AddBuiltin(tflite::BuiltinOperator_SQUEEZE, Register_SQUEEZE(), 1, 2);
  resolver->AddBuiltin(tflite::BuiltinOperator_EXPAND_DIMS, Register_EXPAND_DIMS(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_SHAPE, Register_SHAPE(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_RANK, Register_RANK(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_PACK, Register_PACK(), 1, 4);
  resolver->AddBuiltin(tflite::BuiltinOperator_UNPACK, Register_UNPACK(), 1, 4);
  resolver->AddBuiltin(tflite::BuiltinOperator_SPLIT, Register_SPLIT(), 1, 4);
  resolver->AddBuiltin(tflite::BuiltinOperator_SPLIT_V, Register_SPLIT_V(), 1, 2);
  resolver->AddBuiltin(tflite::BuiltinOperator_MEAN, Register_MEAN(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_SUM, Register_SUM(), 1, 2);
  resolver->AddBuiltin(tflite::BuiltinOperator_REDUCE_MAX, Register_REDUCE_MAX(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_REDUCE_MIN, Register_REDUCE_MIN(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_REDUCE_PROD, Register_REDUCE_PROD(), 1, 2);
  resolver->AddBuiltin(tflite::BuiltinOperator_ARG_MAX, Register_ARG_MAX(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_ARG_MIN, Register_ARG_MIN(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_PAD, Register_PAD(), 1, 4);
  resolver->AddBuiltin(tflite::BuiltinOperator_PADV2, Register_PADV2(), 1, 4);
  resolver->AddBuiltin(tflite::BuiltinOperator_MIRROR_PAD, Register_MIRROR_PAD(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_TRANSPOSE, Register_TRANSPOSE(), 1, 6);
  resolver->AddBuiltin(tflite::BuiltinOperator_SLICE, Register_SLICE(), 1, 6);
  resolver->AddBuiltin(tflite::BuiltinOperator_GATHER, Register_GATHER(), 1, 6);
  resolver->AddBuiltin(tflite::BuiltinOperator_GATHER_ND, Register_GATHER_ND(), 1, 4);
  resolver->AddBuiltin(tflite::BuiltinOperator_TILE, Register_TILE(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_SPACE_TO_DEPTH, Register_SPACE_TO_DEPTH(), 1, 2);
  resolver->AddBuiltin(tflite::BuiltinOperator_DEPTH_TO_SPACE, Register_DEPTH_TO_SPACE(), 1, 2);
  resolver->AddBuiltin(tflite::BuiltinOperator_SPACE_TO_BATCH_ND, Register_SPACE_TO_BATCH_ND(), 1,
                       4);
  resolver->AddBuiltin(tflite::BuiltinOperator_BATCH_TO_SPACE_ND, Register_BATCH_TO_SPACE_ND(), 1,
                       4);
  // TFLite starts BROADCAST_TO at version 2 (version 1 was rolled back).
  resolver->AddBuiltin(tflite::BuiltinOperator_BROADCAST_TO, Register_BROADCAST_TO(), 2, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_REVERSE_V2, Register_REVERSE_V2(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_CUMSUM, Register_CUMSUM(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_REDUCE_ANY, Register_REDUCE_ANY(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_REDUCE_ALL, Register_REDUCE_ALL(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_ONE_HOT, Register_ONE_HOT(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_RANGE, Register_RANGE(), 1, 2);
  resolver->AddBuiltin(tflite::BuiltinOperator_BITCAST, Register_BITCAST(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_BROADCAST_ARGS, Register_BROADCAST_ARGS(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_MATRIX_DIAG, Register_MATRIX_DIAG(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_MATRIX_SET_DIAG, Register_MATRIX_SET_DIAG(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_REVERSE_SEQUENCE, Register_REVERSE_SEQUENCE(), 1, 1);
}

void AddShapeReferenceBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X_REF family
  resolver->AddBuiltin(tflite::BuiltinOperator_CONCATENATION, Register_CONCATENATION_REF(), 1, 4);
}

}  // namespace octet::ops
