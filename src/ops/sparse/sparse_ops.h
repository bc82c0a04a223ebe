// Registrations of the sparse-tensor builtins (src/ops/sparse/): DENSIFY.
#pragma once

#include "tensorflow/lite/c/common.h"

namespace tflite {
class MutableOpResolver;
}  // namespace tflite

namespace tflite::ops::builtin {

TfLiteRegistration* Register_DENSIFY();

}  // namespace tflite::ops::builtin

namespace octet::ops {

// Adds the builtins above with TFLite's version ranges.
void AddSparseBuiltins(tflite::MutableOpResolver* resolver);

}  // namespace octet::ops
