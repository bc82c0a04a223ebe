// Registrations of the resource builtins (src/ops/resource/) over the interpreter's
// octet::Resources: variables (VAR_HANDLE, ASSIGN_VARIABLE, READ_VARIABLE) and lookup tables
// (HASHTABLE, HASHTABLE_IMPORT, HASHTABLE_FIND, HASHTABLE_SIZE).
#pragma once

#include "tensorflow/lite/c/common.h"

namespace tflite::ops::builtin {

TfLiteRegistration* Register_VAR_HANDLE();
TfLiteRegistration* Register_ASSIGN_VARIABLE();
TfLiteRegistration* Register_READ_VARIABLE();
TfLiteRegistration* Register_HASHTABLE();
TfLiteRegistration* Register_HASHTABLE_IMPORT();
TfLiteRegistration* Register_HASHTABLE_FIND();
TfLiteRegistration* Register_HASHTABLE_SIZE();

}  // namespace tflite::ops::builtin
