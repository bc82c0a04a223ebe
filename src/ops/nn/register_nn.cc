// Adds the NN kernels to a resolver, each with the version range TFLite's builtin resolver
// registers. Kernels reject in prepare the input types they do not handle.
#include "ops/nn/nn_ops.h"
#include "ops/op_groups.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

const std::vector<NnBuiltin>& NnBuiltins() {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X family
  static const std::vector<NnBuiltin> kBuiltins = {
      {tflite::BuiltinOperator_CONV_2D, Register_CONV_2D, 8},
      {tflite::BuiltinOperator_DEPTHWISE_CONV_2D, Register_DEPTHWISE_CONV_2D, 7},
      {tflite::BuiltinOperator_FULLY_CONNECTED, Register_FULLY_CONNECTED, 13},
      {tflite::BuiltinOperator_AVERAGE_POOL_2D, Register_AVERAGE_POOL_2D, 3},
      {tflite::BuiltinOperator_MAX_POOL_2D, Register_MAX_POOL_2D, 3},
      {tflite::BuiltinOperator_L2_POOL_2D, Register_L2_POOL_2D, 1},
      {tflite::BuiltinOperator_SOFTMAX, Register_SOFTMAX, 3},
      {tflite::BuiltinOperator_LOG_SOFTMAX, Register_LOG_SOFTMAX, 2},
      {tflite::BuiltinOperator_L2_NORMALIZATION, Register_L2_NORMALIZATION, 2},
      {tflite::BuiltinOperator_LOCAL_RESPONSE_NORMALIZATION, Register_LOCAL_RESPONSE_NORMALIZATION,
       1},
      {tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, Register_UNIDIRECTIONAL_SEQUENCE_LSTM,
       4},
      {tflite::BuiltinOperator_LSTM, Register_LSTM, 4},
      {tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM, Register_BIDIRECTIONAL_SEQUENCE_LSTM,
       3},
      {tflite::BuiltinOperator_BATCH_MATMUL, Register_BATCH_MATMUL, 4},
      {tflite::BuiltinOperator_RESIZE_BILINEAR, Register_RESIZE_BILINEAR, 4},
      {tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR, Register_RESIZE_NEAREST_NEIGHBOR, 4},
      {tflite::BuiltinOperator_TRANSPOSE_CONV, Register_TRANSPOSE_CONV, 5},
      {tflite::BuiltinOperator_SVDF, Register_SVDF, 4},
  };
  return kBuiltins;
}

void AddNnBuiltins(tflite::MutableOpResolver* resolver) {
  for (const NnBuiltin& b : NnBuiltins()) {
    resolver->AddBuiltin(b.op, b.registration(), 1, b.max_version);
  }
}

void AddNnReferenceBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X_REF family
  const NnBuiltin pinned[] = {
      {tflite::BuiltinOperator_CONV_2D, Register_CONV_2D_REF, 8},
      {tflite::BuiltinOperator_DEPTHWISE_CONV_2D, Register_DEPTHWISE_CONV_2D_REF, 7},
      {tflite::BuiltinOperator_FULLY_CONNECTED, Register_FULLY_CONNECTED_REF, 13},
      {tflite::BuiltinOperator_BATCH_MATMUL, Register_BATCH_MATMUL_REF, 4},
      {tflite::BuiltinOperator_SOFTMAX, Register_SOFTMAX_REF, 3},
      {tflite::BuiltinOperator_AVERAGE_POOL_2D, Register_AVERAGE_POOL_REF, 3},
      {tflite::BuiltinOperator_MAX_POOL_2D, Register_MAX_POOL_REF, 3},
      {tflite::BuiltinOperator_RESIZE_BILINEAR, Register_RESIZE_BILINEAR_REF, 4},
      {tflite::BuiltinOperator_TRANSPOSE_CONV, Register_TRANSPOSE_CONV_REF, 5},
      {tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
       Register_UNIDIRECTIONAL_SEQUENCE_LSTM_REF, 4},
      {tflite::BuiltinOperator_LSTM, Register_LSTM_REF, 4},
      {tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM,
       Register_BIDIRECTIONAL_SEQUENCE_LSTM_REF, 3},
  };
  for (const NnBuiltin& b : pinned) resolver->AddBuiltin(b.op, b.registration(), 1, b.max_version);
}

}  // namespace octet::ops
