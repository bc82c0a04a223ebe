// Shared prepare/eval for one-input, same-shape elementwise kernels: prepare
// picks a typed kernel function by input type, eval maps it over the elements.
#pragma once

#include <cstdint>

#include "kernels/optimized/funary/funary.h"
#include "kernels/optimized/lut/byte_table.h"
#include "kernels/reference/activations.h"
#include "kernels/reference/integer_elementwise.h"
#include "ops/elementwise/op_util.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::elementwise {

struct UnaryData;
using UnaryFn = void (*)(const UnaryData &, const TfLiteTensor *, TfLiteTensor *);

struct UnaryData {
  UnaryFn fn = nullptr;
  float alpha = 0.0f;  // LEAKY_RELU's slope
  // Quantized kernels' parameters (the one the chosen fn reads).
  reference::integer::RequantizeParams requant;
  reference::integer::Sigmoid8Params sigmoid8;
  reference::integer::Sigmoid16Params sigmoid16;
  reference::integer::LeakyReluParams leaky;
  reference::integer::HardSwishParams hard_swish;
  optimized::ByteTable table;                       // 8-bit activations off the reference path
  const optimized::FUnaryKernel *funary = nullptr;  // float LOGISTIC/TANH off the reference path
};

// Applies the scalar function F to every element.
template <typename T, T (*F)(T)>
void ApplyScalar(const UnaryData &, const TfLiteTensor *in, TfLiteTensor *out) {
  reference::MapElements(tflite::GetTensorData<T>(in), tflite::NumElements(in),
                         tflite::GetTensorData<T>(out), F);
}

// Validates one input and one output of the same type and shape; chooses the
// kernel for the input's type (nullptr = type not supported).
TfLiteStatus PrepareUnaryImpl(TfLiteContext *context, TfLiteNode *node, const char *op, UnaryFn f32,
                              UnaryFn i32, UnaryFn i64);
TfLiteStatus EvalUnaryImpl(TfLiteContext *context, TfLiteNode *node, const char *op);

template <const char *kName, UnaryFn kF32, UnaryFn kI32, UnaryFn kI64>
TfLiteStatus PrepareUnary(TfLiteContext *context, TfLiteNode *node) {
  return PrepareUnaryImpl(context, node, kName, kF32, kI32, kI64);
}
template <const char *kName>
TfLiteStatus EvalUnary(TfLiteContext *context, TfLiteNode *node) {
  return EvalUnaryImpl(context, node, kName);
}

template <const char *kName, UnaryFn kF32, UnaryFn kI32 = nullptr, UnaryFn kI64 = nullptr>
TfLiteRegistration *UnaryRegistration() {
  static TfLiteRegistration r =
      MakeRegistration(InitData<UnaryData>, FreeData<UnaryData>,
                       PrepareUnary<kName, kF32, kI32, kI64>, EvalUnary<kName>);
  return &r;
}

}  // namespace octet::ops::elementwise
