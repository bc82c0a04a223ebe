// The native half of octet.Interpreter: owns the model, resolver, delegates and
// tflite::Interpreter, and turns Octet's statuses and reported messages into Python
// exceptions (ValueError for bad arguments, RuntimeError for failed operations, as
// tflite_runtime raises them).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "error_capture.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model_builder.h"
#include "tensorflow/lite/mutable_op_resolver.h"

namespace octet_python {

namespace py = pybind11;

// Resolver ids, the numbering tflite_runtime's interpreter.py uses.
enum ResolverId { kResolverBuiltin = 1, kResolverBuiltinRef = 2, kResolverBuiltinNoDelegates = 3 };

// An Octet delegate the Python module can create (today: XNNPACK).
class NativeDelegate {
 public:
  // Throws ValueError when Octet was built without XNNPACK or it does not start on this CPU.
  static std::unique_ptr<NativeDelegate> CreateXnnpack(int num_threads);
  ~NativeDelegate();
  NativeDelegate(const NativeDelegate&) = delete;
  NativeDelegate& operator=(const NativeDelegate&) = delete;
  TfLiteDelegate* get() const { return delegate_; }

 private:
  explicit NativeDelegate(TfLiteDelegate* delegate) : delegate_(delegate) {}
  TfLiteDelegate* delegate_;
};

class NativeInterpreter {
 public:
  // Throw ValueError with Octet's messages when the model cannot be loaded or built.
  static std::unique_ptr<NativeInterpreter> FromFile(const std::string& path, int resolver_id,
                                                     int num_threads);
  static std::unique_ptr<NativeInterpreter> FromBuffer(py::buffer data, int resolver_id,
                                                       int num_threads);
  ~NativeInterpreter();
  NativeInterpreter(const NativeInterpreter&) = delete;
  NativeInterpreter& operator=(const NativeInterpreter&) = delete;

  // subgraph -1: the interpreter as a whole (its primary subgraph).
  void AllocateTensors(int subgraph);
  // Runs with the GIL released.
  void Invoke(int subgraph);
  void ResizeInputTensor(int tensor_index, const std::vector<int>& dims, bool strict, int subgraph);
  void ResetVariableTensors();
  void SetNumThreads(int num_threads);
  // The interpreter's memory limit (Interpreter::SetMaxMemoryBytes) and what it holds.
  void SetMaxMemoryBytes(size_t bytes);
  size_t MaxMemoryBytes() const { return interpreter_->max_memory_bytes(); }
  size_t MemoryUsedBytes() const { return interpreter_->memory_used_bytes(); }
  // Keeps `delegate` (a NativeDelegate) alive for as long as the interpreter.
  void ModifyGraphWithDelegate(py::object delegate);

  py::array_t<int32_t> InputIndices() const;
  py::array_t<int32_t> OutputIndices() const;
  int NumSubgraphs() const;
  int NumTensors(int subgraph) const;
  py::dict TensorDetails(int tensor_index, int subgraph) const;
  void SetTensor(int tensor_index, py::handle value, int subgraph);
  py::object GetTensor(int tensor_index, int subgraph) const;
  // A NumPy array on the tensor's memory; while one is alive live_views() counts it.
  static py::object TensorView(py::object self, int tensor_index, int subgraph);
  int live_views() const { return live_views_; }

  // {key: {'inputs': {name: tensor}, 'outputs': {name: tensor}}}
  py::dict SignatureDefs() const;
  // The subgraph a signature runs (ValueError for an unknown key).
  int SignatureSubgraphIndex(const std::string& key) const;

  int NumNodes() const;
  py::array_t<int32_t> NodeInputs(int node_index) const;
  py::array_t<int32_t> NodeOutputs(int node_index) const;
  std::string NodeName(int node_index) const;
  // Octet's name for the implementation a node runs (e.g. "qgemm_avx2_...", "reference").
  std::string NodeKernel(int node_index) const;

 private:
  NativeInterpreter() = default;
  // Builds interpreter_ from model_; throws ValueError with the reported text on failure.
  void Build(int resolver_id, int num_threads);
  [[noreturn]] void ThrowRuntimeError(const char* operation);
  void EnsureIdle() const;
  tflite::Subgraph* Subgraph(int subgraph) const;
  TfLiteTensor* Tensor(int tensor_index, int subgraph) const;
  const std::pair<TfLiteNode, TfLiteRegistration>& Node(int node_index) const;

  CapturingErrorReporter reporter_;
  std::vector<char> model_bytes_;  // the buffer a model_content model is built on
  std::unique_ptr<tflite::FlatBufferModel> model_;
  std::unique_ptr<tflite::MutableOpResolver> resolver_;
  std::vector<py::object> delegates_;  // released after interpreter_ (see the destructor)
  std::unique_ptr<tflite::Interpreter> interpreter_;
  int live_views_ = 0;
  bool busy_ = false;  // true while invoke() runs without the GIL
};

// The base object of the arrays tensor() hands out: counts itself in live_views and keeps the
// interpreter alive, so its memory stays valid while the array exists.
class TensorViewGuard {
 public:
  TensorViewGuard(py::object owner, int* counter) : owner_(std::move(owner)), counter_(counter) {
    ++*counter_;
  }
  ~TensorViewGuard() { --*counter_; }
  TensorViewGuard(const TensorViewGuard&) = delete;
  TensorViewGuard& operator=(const TensorViewGuard&) = delete;

 private:
  py::object owner_;
  int* counter_;
};

}  // namespace octet_python
