// Registers the StableHLO builtins of this folder; TFLite's register.cc gives each one
// version 1 (the AddBuiltin default).
#include <utility>

#include "ops/stablehlo/stablehlo_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddStablehloBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  using tflite::BuiltinOperator;
  const std::pair<BuiltinOperator, TfLiteRegistration*> ops[] = {
      {tflite::BuiltinOperator_STABLEHLO_ADD, Register_STABLEHLO_ADD()},
      {tflite::BuiltinOperator_STABLEHLO_MULTIPLY, Register_STABLEHLO_MULTIPLY()},
      {tflite::BuiltinOperator_STABLEHLO_MAXIMUM, Register_STABLEHLO_MAXIMUM()},
      {tflite::BuiltinOperator_STABLEHLO_MINIMUM, Register_STABLEHLO_MINIMUM()},
      {tflite::BuiltinOperator_STABLEHLO_AND, Register_STABLEHLO_AND()},
      {tflite::BuiltinOperator_STABLEHLO_SHIFT_LEFT, Register_STABLEHLO_SHIFT_LEFT()},
      {tflite::BuiltinOperator_STABLEHLO_PAD, Register_STABLEHLO_PAD()},
      {tflite::BuiltinOperator_STABLEHLO_COMPOSITE, Register_STABLEHLO_COMPOSITE()},
      {tflite::BuiltinOperator_STABLEHLO_CASE, Register_STABLEHLO_CASE()},
      {tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW, Register_STABLEHLO_REDUCE_WINDOW()},
      {tflite::BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR, Register_STABLEHLO_RNG_BIT_GENERATOR()},
      {tflite::BuiltinOperator_STABLEHLO_GATHER, Register_STABLEHLO_GATHER()},
      {tflite::BuiltinOperator_STABLEHLO_SCATTER, Register_STABLEHLO_SCATTER()},
  };
  for (const auto& [op, registration] : ops) resolver->AddBuiltin(op, registration, 1, 1);
}

}  // namespace octet::ops
