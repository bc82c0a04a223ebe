// Registrations of the resource-variable builtins (src/ops/resource/): VAR_HANDLE,
// ASSIGN_VARIABLE, READ_VARIABLE over the interpreter's octet::ResourceVariables.
#pragma once

#include "tensorflow/lite/c/common.h"

namespace tflite::ops::builtin {

TfLiteRegistration* Register_VAR_HANDLE();
TfLiteRegistration* Register_ASSIGN_VARIABLE();
TfLiteRegistration* Register_READ_VARIABLE();

}  // namespace tflite::ops::builtin
