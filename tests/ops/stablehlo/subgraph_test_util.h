// Loading multi-subgraph models built in code (STABLEHLO_COMPOSITE / STABLEHLO_CASE tests)
// with the StableHLO builtins registered and every reported error captured.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ops/stablehlo/stablehlo_ops.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "util/capture_reporter.h"

namespace octet::stablehlo_test {

using CaptureReporter = ::octet::testing::CaptureReporter;

struct LoadedModel {
  CaptureReporter reporter;
  std::vector<uint8_t> bytes;
  std::unique_ptr<tflite::FlatBufferModel> model;
  tflite::MutableOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;

  explicit LoadedModel(std::vector<uint8_t> b) : bytes(std::move(b)) {
    ops::AddStablehloBuiltins(&resolver);
    model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                     bytes.size(), &reporter);
    if (model) tflite::InterpreterBuilder(*model, resolver)(&interpreter);
  }

  template <typename T>
  void SetInput(int i, const std::vector<T>& v) {
    std::memcpy(interpreter->typed_input_tensor<T>(i), v.data(), v.size() * sizeof(T));
  }
  template <typename T>
  std::vector<T> Output(int i) {
    const TfLiteTensor* t = interpreter->output_tensor(i);
    const T* p = reinterpret_cast<const T*>(t->data.raw);
    return std::vector<T>(p, p + t->bytes / sizeof(T));
  }
  std::vector<int> OutputShape(int i) {
    const TfLiteTensor* t = interpreter->output_tensor(i);
    return std::vector<int>(t->dims->data, t->dims->data + t->dims->size);
  }
};

}  // namespace octet::stablehlo_test
