// Registrations of the spectral / complex builtins (src/ops/spectral/): RFFT2D, the complex
// projections REAL, IMAG and COMPLEX_ABS, and FAKE_QUANT.
#pragma once

#include "tensorflow/lite/c/common.h"

namespace tflite {
class MutableOpResolver;
}  // namespace tflite

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RFFT2D();
TfLiteRegistration* Register_REAL();
TfLiteRegistration* Register_IMAG();
TfLiteRegistration* Register_COMPLEX_ABS();
TfLiteRegistration* Register_FAKE_QUANT();

}  // namespace tflite::ops::builtin

namespace octet::ops {

// Adds the builtins above with TFLite's version ranges.
void AddSpectralBuiltins(tflite::MutableOpResolver* resolver);

}  // namespace octet::ops
