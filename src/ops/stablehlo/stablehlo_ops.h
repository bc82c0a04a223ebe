// Registrations of the simpler StableHLO builtins (src/ops/stablehlo/): the elementwise
// ADD, MULTIPLY, MAXIMUM, MINIMUM, AND and SHIFT_LEFT, PAD, and COMPOSITE and CASE, which run
// other subgraphs of the model.
#pragma once

#include "tensorflow/lite/c/common.h"

namespace tflite {
class MutableOpResolver;
}  // namespace tflite

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STABLEHLO_ADD();
TfLiteRegistration* Register_STABLEHLO_MULTIPLY();
TfLiteRegistration* Register_STABLEHLO_MAXIMUM();
TfLiteRegistration* Register_STABLEHLO_MINIMUM();
TfLiteRegistration* Register_STABLEHLO_AND();
TfLiteRegistration* Register_STABLEHLO_SHIFT_LEFT();
TfLiteRegistration* Register_STABLEHLO_PAD();
TfLiteRegistration* Register_STABLEHLO_COMPOSITE();
TfLiteRegistration* Register_STABLEHLO_CASE();
TfLiteRegistration* Register_STABLEHLO_REDUCE_WINDOW();
TfLiteRegistration* Register_STABLEHLO_RNG_BIT_GENERATOR();
TfLiteRegistration* Register_STABLEHLO_GATHER();
TfLiteRegistration* Register_STABLEHLO_SCATTER();

}  // namespace tflite::ops::builtin

namespace octet::ops {

// Adds the builtins above with TFLite's version ranges (all version 1).
void AddStablehloBuiltins(tflite::MutableOpResolver* resolver);

}  // namespace octet::ops
