// Registrations of the 3-D convolution builtins (src/ops/nn3d/).
#pragma once

#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/mutable_op_resolver.h"

namespace tflite::ops::builtin {

TfLiteRegistration* Register_CONV_3D();
TfLiteRegistration* Register_CONV_3D_TRANSPOSE();

}  // namespace tflite::ops::builtin

namespace octet::ops {

// Adds CONV_3D and CONV_3D_TRANSPOSE with TFLite's version ranges.
void AddNn3dBuiltins(tflite::MutableOpResolver* resolver);

}  // namespace octet::ops
