// Registrations of the elementwise builtin kernels (float32 plus the cheap
// integer cases).
#pragma once

#include "tensorflow/lite/c/common.h"

namespace tflite::ops::builtin {

// arithmetic.cc
TfLiteRegistration *Register_ADD();
TfLiteRegistration *Register_SUB();
TfLiteRegistration *Register_MUL();
TfLiteRegistration *Register_DIV();
// ADD, SUB and MUL pinned to the reference kernels (no optimized variant).
TfLiteRegistration *Register_ADD_REF();
TfLiteRegistration *Register_SUB_REF();
TfLiteRegistration *Register_MUL_REF();

// binary_math.cc
TfLiteRegistration *Register_POW();
TfLiteRegistration *Register_SQUARED_DIFFERENCE();
TfLiteRegistration *Register_FLOOR_DIV();
TfLiteRegistration *Register_FLOOR_MOD();
TfLiteRegistration *Register_MAXIMUM();
TfLiteRegistration *Register_MINIMUM();

// activations.cc
TfLiteRegistration *Register_LOGISTIC();
TfLiteRegistration *Register_TANH();
// LOGISTIC/TANH pinned to the reference arithmetic (no vector kernel, no 8-bit table).
TfLiteRegistration *Register_LOGISTIC_REF();
TfLiteRegistration *Register_TANH_REF();
TfLiteRegistration *Register_RELU();
TfLiteRegistration *Register_RELU6();
TfLiteRegistration *Register_RELU_N1_TO_1();
TfLiteRegistration *Register_LEAKY_RELU();
TfLiteRegistration *Register_HARD_SWISH();
TfLiteRegistration *Register_PRELU();

// unary.cc
TfLiteRegistration *Register_SIN();
TfLiteRegistration *Register_COS();
TfLiteRegistration *Register_ABS();
TfLiteRegistration *Register_EXP();
TfLiteRegistration *Register_LOG();
TfLiteRegistration *Register_SQRT();
TfLiteRegistration *Register_RSQRT();
TfLiteRegistration *Register_NEG();
TfLiteRegistration *Register_SQUARE();
TfLiteRegistration *Register_FLOOR();
TfLiteRegistration *Register_CEIL();
TfLiteRegistration *Register_ROUND();

// comparisons.cc
TfLiteRegistration *Register_LESS();
TfLiteRegistration *Register_LESS_EQUAL();
TfLiteRegistration *Register_GREATER();
TfLiteRegistration *Register_GREATER_EQUAL();
TfLiteRegistration *Register_EQUAL();
TfLiteRegistration *Register_NOT_EQUAL();
TfLiteRegistration *Register_LOGICAL_AND();
TfLiteRegistration *Register_LOGICAL_OR();
TfLiteRegistration *Register_LOGICAL_NOT();

// select.cc (with SELECT)
TfLiteRegistration *Register_SELECT_V2();

// cast.cc
TfLiteRegistration *Register_CAST();

// fill.cc
TfLiteRegistration *Register_FILL();
TfLiteRegistration *Register_ZEROS_LIKE();

// quantize.cc
TfLiteRegistration *Register_QUANTIZE();
TfLiteRegistration *Register_DEQUANTIZE();

// smooth_activations.cc
TfLiteRegistration *Register_GELU();
TfLiteRegistration *Register_ELU();
TfLiteRegistration *Register_RELU_0_TO_1();

// integer_math.cc
TfLiteRegistration *Register_SIGN();
TfLiteRegistration *Register_ATAN2();
TfLiteRegistration *Register_ADD_N();
TfLiteRegistration *Register_BITWISE_XOR();
TfLiteRegistration *Register_RIGHT_SHIFT();

// select.cc
TfLiteRegistration *Register_SELECT();

}  // namespace tflite::ops::builtin
