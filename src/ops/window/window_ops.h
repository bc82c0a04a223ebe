// Registrations of the window builtins (src/ops/window/): DILATE and the deprecated
// REDUCE_WINDOW (builtin 205, ReduceWindowOptions).
#pragma once

#include "tensorflow/lite/c/common.h"

namespace tflite {
class MutableOpResolver;
}  // namespace tflite

namespace tflite::ops::builtin {

TfLiteRegistration* Register_DILATE();
TfLiteRegistration* Register_REDUCE_WINDOW();

}  // namespace tflite::ops::builtin

namespace octet::ops {

// Adds the builtins above with TFLite's version ranges.
void AddWindowBuiltins(tflite::MutableOpResolver* resolver);

}  // namespace octet::ops
