// Registrations of the index / selection builtins (src/ops/index/).
#pragma once

#include "tensorflow/lite/c/common.h"

namespace tflite::ops::builtin {

TfLiteRegistration* Register_TOPK_V2();
TfLiteRegistration* Register_WHERE();
TfLiteRegistration* Register_SCATTER_ND();
TfLiteRegistration* Register_SEGMENT_SUM();
TfLiteRegistration* Register_UNSORTED_SEGMENT_SUM();
TfLiteRegistration* Register_UNSORTED_SEGMENT_PROD();
TfLiteRegistration* Register_UNSORTED_SEGMENT_MAX();
TfLiteRegistration* Register_UNSORTED_SEGMENT_MIN();
TfLiteRegistration* Register_UNIQUE();
TfLiteRegistration* Register_BUCKETIZE();
TfLiteRegistration* Register_SPARSE_TO_DENSE();
TfLiteRegistration* Register_DYNAMIC_UPDATE_SLICE();
TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V4();
TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V5();

}  // namespace tflite::ops::builtin
