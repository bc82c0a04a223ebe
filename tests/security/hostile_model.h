// Helpers for the security tests: build a small (usually hostile) .tflite in code, then run
// it the way an application would (FlatBufferModel::BuildFromBuffer -> BuiltinOpResolver ->
// InterpreterBuilder -> AllocateTensors -> Invoke) and record where it stopped and what was
// reported. The tests assert a clean failure naming the problem; the binary runs under
// ASan + UBSan, so any out-of-bounds access, overflow or division by zero fails it outright.
#pragma once

#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "format/model_builder.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/capture_reporter.h"

namespace octet::security {

using format::ModelBuilder;
using format::QuantParams;

// Where a run stopped.
enum class Stage { kLoad, kBuild, kAllocate, kInvoke, kOk };

inline const char* StageName(Stage s) {
  switch (s) {
    case Stage::kLoad:
      return "load";
    case Stage::kBuild:
      return "build";
    case Stage::kAllocate:
      return "allocate";
    case Stage::kInvoke:
      return "invoke";
    case Stage::kOk:
      return "ok";
  }
  return "?";
}

struct Outcome {
  Stage stage = Stage::kOk;
  std::string error;                          // everything reported, one line per report
  std::vector<std::vector<uint8_t>> outputs;  // raw output bytes when stage == kOk
};

using CaptureReporter = ::octet::testing::CaptureReporter;

// Fills graph inputs after AllocateTensors (default: all bytes zero).
using Filler = std::function<void(tflite::Interpreter*)>;

inline Outcome RunModel(const std::vector<uint8_t>& bytes, const Filler& fill = nullptr) {
  Outcome out;
  CaptureReporter reporter;  // outlives everything below
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size(), &reporter);
  if (!model) {
    out.stage = Stage::kLoad;
    out.error = reporter.text;
    return out;
  }
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (tflite::InterpreterBuilder(*model, resolver)(&interpreter) != kTfLiteOk || !interpreter) {
    out.stage = Stage::kBuild;
    out.error = reporter.text;
    return out;
  }
  if (interpreter->AllocateTensors() != kTfLiteOk) {
    out.stage = Stage::kAllocate;
    out.error = reporter.text;
    return out;
  }
  for (int i : interpreter->inputs()) {
    TfLiteTensor* t = interpreter->tensor(i);
    if (t->data.raw != nullptr && t->bytes > 0) std::memset(t->data.raw, 0, t->bytes);
  }
  if (fill) fill(interpreter.get());
  if (interpreter->Invoke() != kTfLiteOk) {
    out.stage = Stage::kInvoke;
    out.error = reporter.text;
    return out;
  }
  for (int o : interpreter->outputs()) {
    const TfLiteTensor* t = interpreter->tensor(o);
    const auto* p = reinterpret_cast<const uint8_t*>(t->data.raw);
    out.outputs.emplace_back(p, p + (p ? t->bytes : 0));
  }
  out.error = reporter.text;
  return out;
}

// A one-operator model: declare inputs / constants / outputs, then Run(op, options).
class OneOp {
 public:
  ModelBuilder& b() { return b_; }
  flatbuffers::FlatBufferBuilder& fbb() { return b_.fbb(); }

  // A graph input (its data is zero-filled, or set by the Filler).
  int In(tflite::TensorType type, std::vector<int32_t> shape,
         std::optional<QuantParams> q = std::nullopt) {
    format::TensorSpec s;
    s.type = type;
    s.shape = std::move(shape);
    s.quantization = std::move(q);
    const int t = b_.AddTensor(s);
    graph_inputs_.push_back(t);
    op_inputs_.push_back(t);
    return t;
  }
  // A constant input with the given values.
  template <typename T>
  int Const(tflite::TensorType type, std::vector<int32_t> shape, const std::vector<T>& values,
            std::optional<QuantParams> q = std::nullopt) {
    format::TensorSpec s;
    s.type = type;
    s.shape = std::move(shape);
    s.quantization = std::move(q);
    s.buffer = static_cast<uint32_t>(b_.AddTypedBuffer(values));
    const int t = b_.AddTensor(s);
    op_inputs_.push_back(t);
    return t;
  }
  // An absent optional input (-1).
  void Absent() { op_inputs_.push_back(-1); }
  int Out(tflite::TensorType type, std::vector<int32_t> shape = {},
          std::optional<QuantParams> q = std::nullopt) {
    format::TensorSpec s;
    s.type = type;
    s.shape = std::move(shape);
    s.quantization = std::move(q);
    const int t = b_.AddTensor(s);
    outputs_.push_back(t);
    return t;
  }

  std::vector<uint8_t> Finish(tflite::BuiltinOperator op, format::BuiltOptions options = {},
                              int version = 1) {
    const int code = b_.AddOperatorCode(op, version);
    b_.AddOperator(code, op_inputs_, outputs_, options);
    b_.SetInputs(graph_inputs_);
    b_.SetOutputs(outputs_);
    return b_.Finish();
  }
  Outcome Run(tflite::BuiltinOperator op, format::BuiltOptions options = {},
              const Filler& fill = nullptr, int version = 1) {
    return RunModel(Finish(op, options, version), fill);
  }

 private:
  ModelBuilder b_;
  std::vector<int32_t> graph_inputs_, op_inputs_, outputs_;
};

// Builds a BuiltOptions from tflite::Create<Name>(fbb, args...).
#define OCTET_OPTS(oneop, Name, ...)                                                              \
  ::octet::format::BuiltOptions {                                                                 \
    ::tflite::BuiltinOptions_##Name, ::tflite::Create##Name((oneop).fbb(), ##__VA_ARGS__).Union() \
  }

// The run must stop before kOk and the report must contain every needle.
inline ::testing::AssertionResult Rejected(const Outcome& o,
                                           std::initializer_list<const char*> needles) {
  if (o.stage == Stage::kOk) {
    return ::testing::AssertionFailure() << "model was accepted and ran; reports:\n" << o.error;
  }
  for (const char* n : needles) {
    if (o.error.find(n) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "stopped at " << StageName(o.stage) << " but the report lacks '" << n << "':\n"
             << o.error;
    }
  }
  return ::testing::AssertionSuccess();
}

inline QuantParams PerTensor(float scale, int64_t zero_point = 0) {
  return QuantParams{{scale}, {zero_point}, 0};
}

}  // namespace octet::security
