// Registrations of the NN builtin kernels (float32), in TFLite's naming.
#pragma once

#include <vector>

#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace tflite::ops::builtin {

TfLiteRegistration* Register_CONV_2D();
TfLiteRegistration* Register_DEPTHWISE_CONV_2D();
TfLiteRegistration* Register_FULLY_CONNECTED();
// The same kernels pinned to the reference implementation (no optimized variant).
TfLiteRegistration* Register_CONV_2D_REF();
TfLiteRegistration* Register_DEPTHWISE_CONV_2D_REF();
TfLiteRegistration* Register_FULLY_CONNECTED_REF();
TfLiteRegistration* Register_BATCH_MATMUL_REF();
TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM_REF();
TfLiteRegistration* Register_LSTM_REF();
TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_LSTM_REF();
TfLiteRegistration* Register_AVERAGE_POOL_2D();
TfLiteRegistration* Register_MAX_POOL_2D();
TfLiteRegistration* Register_L2_POOL_2D();
TfLiteRegistration* Register_SOFTMAX();
TfLiteRegistration* Register_SOFTMAX_REF();  // the reference kernel pinned
TfLiteRegistration* Register_AVERAGE_POOL_REF();
TfLiteRegistration* Register_MAX_POOL_REF();
TfLiteRegistration* Register_RESIZE_BILINEAR_REF();
TfLiteRegistration* Register_TRANSPOSE_CONV_REF();
TfLiteRegistration* Register_LOG_SOFTMAX();
TfLiteRegistration* Register_L2_NORMALIZATION();
TfLiteRegistration* Register_LOCAL_RESPONSE_NORMALIZATION();
TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_LSTM();
TfLiteRegistration* Register_LSTM();
TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_LSTM();
TfLiteRegistration* Register_BATCH_MATMUL();
TfLiteRegistration* Register_RESIZE_BILINEAR();
TfLiteRegistration* Register_RESIZE_NEAREST_NEIGHBOR();
TfLiteRegistration* Register_TRANSPOSE_CONV();
TfLiteRegistration* Register_SVDF();

}  // namespace tflite::ops::builtin

namespace octet::ops {

// One NN builtin: TFLite's op code, its registration and the highest TFLite version
// registered (versions start at 1). AddNnBuiltins registers exactly these.
struct NnBuiltin {
  tflite::BuiltinOperator op;
  TfLiteRegistration* (*registration)();
  int max_version;
};
const std::vector<NnBuiltin>& NnBuiltins();

}  // namespace octet::ops
