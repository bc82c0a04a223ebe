// Shared pieces of the octet CLI: loading a model into an interpreter with errors
// captured as one line, and printing tensor descriptions.
#pragma once

#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace octet::cli {

// Any failure the CLI reports: printed as "error: <what>" and exit code 1.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Keeps every message reported while loading/running; joins them for the one-line error.
class CollectingReporter : public tflite::ErrorReporter {
 public:
  int Report(const char* format, va_list args) override;
  std::string Joined() const;
  void Clear() { messages_.clear(); }

 private:
  std::vector<std::string> messages_;
};

struct LoadedModel {
  std::unique_ptr<CollectingReporter> reporter = std::make_unique<CollectingReporter>();
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::ops::builtin::BuiltinOpResolver> resolver;
  std::shared_ptr<TfLiteDelegate> delegate;  // --delegate; declared first: outlives the interpreter
  std::unique_ptr<tflite::Interpreter> interpreter;
};

// --max-memory: the memory limit every interpreter LoadModel builds gets (see
// Interpreter::SetMaxMemoryBytes); by default the engine's own default.
void SetMemoryLimit(size_t bytes);
// Parses a --max-memory value ("512M", "2G", "unlimited"); "" when it is valid, else why not.
std::string CheckMemoryLimitText(const std::string& text);

// Loads, verifies and builds; throws Failure naming the problem.
LoadedModel LoadModel(const std::string& path, int num_threads);
// Throws Failure with `what` plus everything reported, unless status is ok.
void Check(TfLiteStatus status, const std::string& what, const CollectingReporter& reporter);

// Reads one .npy per path and copies it into model input 0, 1, … (fewer paths than inputs
// feed a prefix). A shape may differ only where the model's shape signature has -1: all such
// inputs are resized first and the tensors allocated once, then every input is copied. Any
// dtype, shape or size mismatch throws a Failure naming the input.
void FeedInputs(tflite::Interpreter& interp, const std::vector<std::string>& paths,
                CollectingReporter& reporter);

// Seeded random contents valid for any numeric type: floats uniform in [-float_range,
// float_range], bools 0/1, 8-bit tensors every byte value when `full_bytes` (else, like
// wider integers, bytes in [0, 63] so that every element stays a small number).
void FillRandom(TfLiteTensor* t, std::mt19937& rng, float float_range, bool full_bytes);

std::string ShapeString(const TfLiteIntArray* dims);
std::string QuantString(const TfLiteTensor& t);

}  // namespace octet::cli
