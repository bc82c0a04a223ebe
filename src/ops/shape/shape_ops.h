// Registrations of the shape / data-movement / reduction builtins (src/ops/shape/).
#pragma once

#include "tensorflow/lite/c/common.h"

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RESHAPE();
TfLiteRegistration* Register_CONCATENATION();
TfLiteRegistration* Register_CONCATENATION_REF();  // the reference kernel pinned
TfLiteRegistration* Register_STRIDED_SLICE();
TfLiteRegistration* Register_SQUEEZE();
TfLiteRegistration* Register_EXPAND_DIMS();
TfLiteRegistration* Register_SHAPE();
TfLiteRegistration* Register_RANK();
TfLiteRegistration* Register_PACK();
TfLiteRegistration* Register_UNPACK();
TfLiteRegistration* Register_SPLIT();
TfLiteRegistration* Register_SPLIT_V();
TfLiteRegistration* Register_MEAN();
TfLiteRegistration* Register_SUM();
TfLiteRegistration* Register_REDUCE_MAX();
TfLiteRegistration* Register_REDUCE_MIN();
TfLiteRegistration* Register_REDUCE_PROD();
TfLiteRegistration* Register_ARG_MAX();
TfLiteRegistration* Register_ARG_MIN();
TfLiteRegistration* Register_PAD();
TfLiteRegistration* Register_PADV2();
TfLiteRegistration* Register_MIRROR_PAD();
TfLiteRegistration* Register_TRANSPOSE();
TfLiteRegistration* Register_SLICE();
TfLiteRegistration* Register_GATHER();
TfLiteRegistration* Register_GATHER_ND();
TfLiteRegistration* Register_TILE();
TfLiteRegistration* Register_SPACE_TO_DEPTH();
TfLiteRegistration* Register_DEPTH_TO_SPACE();
TfLiteRegistration* Register_SPACE_TO_BATCH_ND();
TfLiteRegistration* Register_BATCH_TO_SPACE_ND();
TfLiteRegistration* Register_BROADCAST_TO();
TfLiteRegistration* Register_REVERSE_V2();
TfLiteRegistration* Register_CUMSUM();
TfLiteRegistration* Register_REDUCE_ANY();
TfLiteRegistration* Register_REDUCE_ALL();
TfLiteRegistration* Register_ONE_HOT();
TfLiteRegistration* Register_RANGE();
TfLiteRegistration* Register_BITCAST();
TfLiteRegistration* Register_BROADCAST_ARGS();
TfLiteRegistration* Register_MATRIX_DIAG();
TfLiteRegistration* Register_MATRIX_SET_DIAG();
TfLiteRegistration* Register_REVERSE_SEQUENCE();

}  // namespace tflite::ops::builtin
