// A model from bytes, built with every builtin op: the loading step the golden and model
// tests share. The model outlives the interpreter (members destroy in reverse order).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace octet::testing {

struct BuiltinInterpreter {
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::Interpreter> interpreter;  // null when loading or building failed
};

// Loads `bytes` (errors to `reporter`) and builds an interpreter with BuiltinOpResolver.
inline BuiltinInterpreter BuildWithBuiltins(const std::vector<uint8_t>& bytes,
                                            tflite::ErrorReporter* reporter) {
  BuiltinInterpreter b;
  b.model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                     bytes.size(), reporter);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  if (b.model) tflite::InterpreterBuilder(*b.model, resolver)(&b.interpreter);
  return b;
}

}  // namespace octet::testing
