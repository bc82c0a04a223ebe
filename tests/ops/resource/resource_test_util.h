// A model built in code, loaded with the builtin resolver and an error reporter that keeps
// the text (for the resource ops' whole-model tests).
#pragma once

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/capture_reporter.h"

namespace octet::resource_test {

struct LoadedModel {
  explicit LoadedModel(std::vector<uint8_t> model_bytes) : bytes(std::move(model_bytes)) {
    model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                     bytes.size(), &reporter);
    if (model) tflite::InterpreterBuilder(*model, resolver)(&interpreter);
  }
  ::octet::testing::CaptureReporter reporter;
  std::vector<uint8_t> bytes;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::Interpreter> interpreter;
};

}  // namespace octet::resource_test
