// Shared helpers for the random op tests: one-node models built with the ModelBuilder and run
// through the real loader (so RandomOptions parsing is covered), OpModel for validation, and
// float bit patterns for the TFLite goldens.
#pragma once

#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "ops/random/random_ops.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "util/capture_reporter.h"
#include "util/op_model.h"

namespace octet::random_test {

using octet::testing::OpModel;

inline std::vector<uint32_t> FloatBits(const std::vector<float>& v) {
  std::vector<uint32_t> bits(v.size());
  if (!v.empty()) std::memcpy(bits.data(), v.data(), v.size() * sizeof(float));
  return bits;
}

// A loaded model with the random builtins and a reporter that keeps the text.
struct LoadedModel {
  explicit LoadedModel(std::vector<uint8_t> model_bytes) : bytes(std::move(model_bytes)) {
    ops::AddRandomBuiltins(&resolver);
    model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                     bytes.size(), &reporter);
    if (model) tflite::InterpreterBuilder(*model, resolver)(&interpreter);
  }
  ::octet::testing::CaptureReporter reporter;
  std::vector<uint8_t> bytes;
  tflite::MutableOpResolver resolver;
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::Interpreter> interpreter;
};

inline format::BuiltOptions RandomOptions(format::ModelBuilder* b, int64_t seed, int64_t seed2) {
  return {tflite::BuiltinOptions_RandomOptions,
          tflite::CreateRandomOptions(b->fbb(), seed, seed2).Union()};
}

// RANDOM_UNIFORM / RANDOM_STANDARD_NORMAL with a constant shape: no inputs, one output.
inline std::vector<uint8_t> RandomModel(tflite::BuiltinOperator op, std::vector<int32_t> shape,
                                        int64_t seed, int64_t seed2) {
  format::ModelBuilder b;
  const int code = b.AddOperatorCode(op, 1);
  const int shp = b.AddConstTensor<int32_t>(tflite::TensorType_INT32,
                                            {static_cast<int32_t>(shape.size())}, shape, "shape");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, shape, "out");
  b.AddOperator(code, {shp}, {out}, RandomOptions(&b, seed, seed2));
  b.SetInputs({});
  b.SetOutputs({out});
  return b.Finish();
}

// MULTINOMIAL with constant logits and num_samples.
inline std::vector<uint8_t> MultinomialModel(std::vector<int32_t> logits_shape,
                                             const std::vector<float>& logits, int32_t n,
                                             int64_t seed, int64_t seed2,
                                             tflite::TensorType out_type) {
  format::ModelBuilder b;
  const int code = b.AddOperatorCode(tflite::BuiltinOperator_MULTINOMIAL, 1);
  const int lg = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, logits_shape, logits, "lg");
  const int ns = b.AddConstTensor<int32_t>(tflite::TensorType_INT32, {}, {n}, "n");
  const int out = b.AddTensor(out_type, {logits_shape[0], n}, "out");
  b.AddOperator(code, {lg, ns}, {out}, RandomOptions(&b, seed, seed2));
  b.SetInputs({});
  b.SetOutputs({out});
  return b.Finish();
}

template <typename T>
std::vector<T> Output(tflite::Interpreter* interpreter, int index = 0) {
  const TfLiteTensor* t = interpreter->tensor(interpreter->outputs()[index]);
  const T* p = reinterpret_cast<const T*>(t->data.raw);
  return std::vector<T>(p, p + t->bytes / sizeof(T));
}

// Build (prepare) must fail with `message` in the report.
inline void ExpectBuildError(OpModel& m, const std::string& message) {
  EXPECT_NE(m.Build(), kTfLiteOk) << "expected: " << message;
  EXPECT_NE(m.error().find(message), std::string::npos) << m.error();
}

inline void ExpectInvokeError(OpModel& m, const std::string& message) {
  EXPECT_NE(m.Invoke(), kTfLiteOk) << "expected: " << message;
  EXPECT_NE(m.error().find(message), std::string::npos) << m.error();
}

}  // namespace octet::random_test
