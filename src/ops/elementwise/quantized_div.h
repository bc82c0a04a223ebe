// Quantized DIV (uint8, TFLite's DIV version 2): prepare derives the parameters of
// reference/integer_div.h, eval runs them with broadcasting.
#pragma once

#include <cstdint>

#include "kernels/reference/integer_div.h"
#include "kernels/shape.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::elementwise {

// Validates the three tensors' quantization and derives the rescale and activation bounds.
TfLiteStatus PrepareQuantizedDiv(TfLiteContext *context, TfLiteFusedActivation activation,
                                 const TfLiteTensor *input1, const TfLiteTensor *input2,
                                 const TfLiteTensor *output, reference::integer::DivParams *params);

// Fails, naming the element, when a divisor equals its zero point (a real zero).
TfLiteStatus EvalQuantizedDiv(TfLiteContext *context, const reference::integer::DivParams &params,
                              const Shape &shape1, const uint8_t *input1, const Shape &shape2,
                              const uint8_t *input2, const Shape &out_shape, uint8_t *output);

}  // namespace octet::ops::elementwise
