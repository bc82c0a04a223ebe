// Registers the spectral / complex builtins with TFLite's version ranges (TensorFlow 2.16's
// BuiltinOpResolver: FAKE_QUANT 1..2, the others version 1 only).
#include "ops/spectral/spectral_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::ops {

void AddSpectralBuiltins(tflite::MutableOpResolver* resolver) {
  using namespace tflite::ops::builtin;  // NOLINT: the Register_X functions
  resolver->AddBuiltin(tflite::BuiltinOperator_RFFT2D, Register_RFFT2D(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_REAL, Register_REAL(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_IMAG, Register_IMAG(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_COMPLEX_ABS, Register_COMPLEX_ABS(), 1, 1);
  resolver->AddBuiltin(tflite::BuiltinOperator_FAKE_QUANT, Register_FAKE_QUANT(), 1, 2);
}

}  // namespace octet::ops
