// Turns a FlatBufferModel into an Interpreter: resolves kernels, creates tensors (constant
// ones pointing into the model), parses each operator's options into its params struct.
#pragma once

#include <memory>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/op_resolver.h"

namespace tflite {

class InterpreterBuilder {
 public:
  InterpreterBuilder(const FlatBufferModel& model, const OpResolver& op_resolver);
  InterpreterBuilder(const ::tflite::Model* model, const OpResolver& op_resolver,
                     ErrorReporter* error_reporter = DefaultErrorReporter(),
                     const Allocation* allocation = nullptr);
  ~InterpreterBuilder();
  InterpreterBuilder(const InterpreterBuilder&) = delete;
  InterpreterBuilder& operator=(const InterpreterBuilder&) = delete;

  TfLiteStatus operator()(std::unique_ptr<Interpreter>* interpreter);
  TfLiteStatus operator()(std::unique_ptr<Interpreter>* interpreter, int num_threads);
  TfLiteStatus SetNumThreads(int num_threads);
  // Octet: the memory limit the built interpreter starts with (so that the delegates applied
  // while building are held to it too); see Interpreter::SetMaxMemoryBytes.
  void SetMaxMemoryBytes(size_t bytes) {
    max_memory_bytes_ = bytes;
    max_memory_set_ = true;
  }
  // Applied, in order, right after the graph is built.
  void AddDelegate(TfLiteDelegate* delegate) { delegates_.push_back(delegate); }

 private:
  TfLiteStatus Build(std::unique_ptr<Interpreter>* interpreter);  // operator()'s body
  TfLiteStatus BuildRegistrations();
  TfLiteStatus ParseTensors(const ::tflite::SubGraph* subgraph, Subgraph* target);
  TfLiteStatus ParseNodes(const ::tflite::SubGraph* subgraph, Subgraph* target);
  void Report(const char* format, ...);

  const ::tflite::Model* model_;
  const OpResolver& op_resolver_;
  ErrorReporter* error_reporter_;
  const Allocation* allocation_;
  int num_threads_ = 1;
  size_t max_memory_bytes_ = 0;
  bool max_memory_set_ = false;
  std::vector<TfLiteDelegate*> delegates_;
  std::vector<const TfLiteRegistration*> registrations_;
  std::vector<std::unique_ptr<TfLiteRegistration>> unresolved_;
};

}  // namespace tflite
