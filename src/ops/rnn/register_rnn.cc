// Registers the RNN builtins with TFLite's version ranges.
#include "ops/op_groups.h"
#include "ops/rnn/rnn_cell.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddRnnBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_RNN, Register_RNN(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN,
                       Register_UNIDIRECTIONAL_SEQUENCE_RNN(), 1, 3);
  resolver->AddBuiltin(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN,
                       Register_BIDIRECTIONAL_SEQUENCE_RNN(), 1, 3);
}

}  // namespace octet::ops
