#include "interpreter_wrapper.h"

#include <cstring>
#include <stdexcept>
#include <utility>

#include "octet/kernel_info.h"
#include "octet/xnnpack_delegate.h"
#include "tensor_convert.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/kernels/register_ref.h"

namespace octet_python {

std::unique_ptr<NativeDelegate> NativeDelegate::CreateXnnpack(int num_threads) {
  if (!OctetXnnpackAvailable()) {
    throw py::value_error(
        "the XNNPACK delegate is not available: this Octet build has no XNNPACK "
        "(libxnnpack-dev was not found when it was built) or XNNPACK does not support this CPU");
  }
  OctetXnnpackOptions options = OctetXnnpackOptionsDefault();
  options.num_threads = num_threads;
  TfLiteDelegate* delegate = OctetXnnpackDelegateCreate(&options);
  if (delegate == nullptr) throw py::value_error("the XNNPACK delegate could not be created");
  return std::unique_ptr<NativeDelegate>(new NativeDelegate(delegate));
}

NativeDelegate::~NativeDelegate() { OctetXnnpackDelegateDelete(delegate_); }

std::unique_ptr<NativeInterpreter> NativeInterpreter::FromFile(const std::string& path,
                                                               int resolver_id, int num_threads) {
  std::unique_ptr<NativeInterpreter> self(new NativeInterpreter());
  self->model_ = tflite::FlatBufferModel::BuildFromFile(path.c_str(), &self->reporter_);
  if (self->model_ == nullptr) {
    std::string message = self->reporter_.Take();
    throw py::value_error(message.empty() ? "Failed to open " + path : message);
  }
  self->Build(resolver_id, num_threads);
  return self;
}

std::unique_ptr<NativeInterpreter> NativeInterpreter::FromBuffer(py::buffer data, int resolver_id,
                                                                 int num_threads) {
  std::unique_ptr<NativeInterpreter> self(new NativeInterpreter());
  const py::buffer_info info = data.request();
  if (info.ndim > 1 || (info.ndim == 1 && info.strides[0] != info.itemsize)) {
    throw py::value_error("model_content must be a contiguous bytes-like object");
  }
  const size_t size = static_cast<size_t>(info.size * info.itemsize);
  // A copy: the model points into this buffer for its whole life, whatever the caller does
  // with its own object afterwards.
  self->model_bytes_.resize(size);
  if (size > 0) std::memcpy(self->model_bytes_.data(), info.ptr, size);
  self->model_ =
      tflite::FlatBufferModel::BuildFromBuffer(self->model_bytes_.data(), size, &self->reporter_);
  if (self->model_ == nullptr) {
    std::string message = self->reporter_.Take();
    throw py::value_error(message.empty() ? "Failed to build the model from model_content"
                                          : message);
  }
  self->Build(resolver_id, num_threads);
  return self;
}

void NativeInterpreter::Build(int resolver_id, int num_threads) {
  switch (resolver_id) {
    case kResolverBuiltin:
    case kResolverBuiltinNoDelegates:
      resolver_ = std::make_unique<tflite::ops::builtin::BuiltinOpResolver>();
      break;
    case kResolverBuiltinRef:
      resolver_ = std::make_unique<tflite::ops::builtin::BuiltinRefOpResolver>();
      break;
    default:
      throw py::value_error("Unrecognized op resolver id " + std::to_string(resolver_id));
  }
  tflite::InterpreterBuilder builder(*model_, *resolver_);
  if (builder.SetNumThreads(num_threads) != kTfLiteOk || builder(&interpreter_) != kTfLiteOk ||
      interpreter_ == nullptr) {
    interpreter_.reset();
    std::string message = reporter_.Take();
    throw py::value_error(message.empty() ? "Failed to build the interpreter" : message);
  }
  reporter_.Clear();
}

NativeInterpreter::~NativeInterpreter() {
  // The interpreter's kernels may belong to a delegate: free them before the delegates.
  interpreter_.reset();
  delegates_.clear();
}

void NativeInterpreter::ThrowRuntimeError(const char* operation) {
  std::string message = reporter_.Take();
  if (message.empty()) message = std::string(operation) + " failed";
  throw std::runtime_error(message);
}

void NativeInterpreter::EnsureIdle() const {
  if (busy_) {
    throw std::runtime_error(
        "the interpreter is running invoke() in another thread; wait for it to return");
  }
}

tflite::Subgraph* NativeInterpreter::Subgraph(int subgraph) const {
  EnsureIdle();
  const size_t count = interpreter_->subgraphs_size();
  if (subgraph < 0 || static_cast<size_t>(subgraph) >= count) {
    throw py::value_error("Invalid subgraph index " + std::to_string(subgraph) +
                          " exceeds max subgraph index " + std::to_string(count));
  }
  return interpreter_->subgraph(subgraph);
}

TfLiteTensor* NativeInterpreter::Tensor(int tensor_index, int subgraph) const {
  tflite::Subgraph* sub = Subgraph(subgraph);
  const size_t count = sub->tensors_size();
  if (tensor_index < 0 || static_cast<size_t>(tensor_index) >= count) {
    throw py::value_error("Invalid tensor index " + std::to_string(tensor_index) +
                          " exceeds max tensor index " + std::to_string(count));
  }
  return sub->tensor(tensor_index);
}

const std::pair<TfLiteNode, TfLiteRegistration>& NativeInterpreter::Node(int node_index) const {
  EnsureIdle();
  if (node_index < 0 || static_cast<size_t>(node_index) >= interpreter_->nodes_size()) {
    throw py::value_error("Invalid node index");
  }
  return *interpreter_->node_and_registration(node_index);
}

void NativeInterpreter::AllocateTensors(int subgraph) {
  tflite::Subgraph* sub = Subgraph(subgraph < 0 ? 0 : subgraph);
  reporter_.Clear();
  const TfLiteStatus status =
      subgraph < 0 ? interpreter_->AllocateTensors() : sub->AllocateTensors();
  if (status != kTfLiteOk) ThrowRuntimeError("AllocateTensors");
}

void NativeInterpreter::Invoke(int subgraph) {
  tflite::Subgraph* sub = Subgraph(subgraph < 0 ? 0 : subgraph);
  reporter_.Clear();
  busy_ = true;
  TfLiteStatus status;
  {
    py::gil_scoped_release release;
    status = subgraph < 0 ? interpreter_->Invoke() : sub->Invoke();
  }
  busy_ = false;
  if (status != kTfLiteOk) ThrowRuntimeError("Invoke");
}

void NativeInterpreter::ResizeInputTensor(int tensor_index, const std::vector<int>& dims,
                                          bool strict, int subgraph) {
  tflite::Subgraph* sub = Subgraph(subgraph < 0 ? 0 : subgraph);
  Tensor(tensor_index, subgraph < 0 ? 0 : subgraph);
  reporter_.Clear();
  TfLiteStatus status;
  if (strict) {
    if (subgraph > 0) {
      throw py::value_error("a strict resize is only available on the primary subgraph");
    }
    status = interpreter_->ResizeInputTensorStrict(tensor_index, dims);
  } else {
    status = sub->ResizeInputTensor(tensor_index, dims);
  }
  if (status != kTfLiteOk) ThrowRuntimeError("ResizeInputTensor");
}

void NativeInterpreter::ResetVariableTensors() {
  EnsureIdle();
  reporter_.Clear();
  if (interpreter_->ResetVariableTensors() != kTfLiteOk) ThrowRuntimeError("ResetVariableTensors");
}

void NativeInterpreter::SetNumThreads(int num_threads) {
  EnsureIdle();
  reporter_.Clear();
  if (interpreter_->SetNumThreads(num_threads) != kTfLiteOk) ThrowRuntimeError("SetNumThreads");
}

void NativeInterpreter::SetMaxMemoryBytes(size_t bytes) {
  EnsureIdle();
  interpreter_->SetMaxMemoryBytes(bytes);
}

void NativeInterpreter::ModifyGraphWithDelegate(py::object delegate) {
  EnsureIdle();
  auto& native = delegate.cast<NativeDelegate&>();
  reporter_.Clear();
  if (interpreter_->ModifyGraphWithDelegate(native.get()) != kTfLiteOk) {
    ThrowRuntimeError("ModifyGraphWithDelegate");
  }
  delegates_.push_back(std::move(delegate));
}

py::array_t<int32_t> NativeInterpreter::InputIndices() const {
  const std::vector<int>& inputs = Subgraph(0)->inputs();
  py::array_t<int32_t> result(static_cast<py::ssize_t>(inputs.size()));
  std::copy(inputs.begin(), inputs.end(), result.mutable_data());
  return result;
}

py::array_t<int32_t> NativeInterpreter::OutputIndices() const {
  const std::vector<int>& outputs = Subgraph(0)->outputs();
  py::array_t<int32_t> result(static_cast<py::ssize_t>(outputs.size()));
  std::copy(outputs.begin(), outputs.end(), result.mutable_data());
  return result;
}

int NativeInterpreter::NumSubgraphs() const {
  return static_cast<int>(interpreter_->subgraphs_size());
}

int NativeInterpreter::NumTensors(int subgraph) const {
  return static_cast<int>(Subgraph(subgraph)->tensors_size());
}

py::dict NativeInterpreter::TensorDetails(int tensor_index, int subgraph) const {
  return octet_python::TensorDetails(*Tensor(tensor_index, subgraph), tensor_index);
}

void NativeInterpreter::SetTensor(int tensor_index, py::handle value, int subgraph) {
  CopyNumpyToTensor(value, Tensor(tensor_index, subgraph), tensor_index);
}

py::object NativeInterpreter::GetTensor(int tensor_index, int subgraph) const {
  return CopyTensorToNumpy(*Tensor(tensor_index, subgraph));
}

py::object NativeInterpreter::TensorView(py::object self, int tensor_index, int subgraph) {
  auto& native = self.cast<NativeInterpreter&>();
  const TfLiteTensor* tensor = native.Tensor(tensor_index, subgraph);
  py::object guard = py::cast(new TensorViewGuard(self, &native.live_views_),
                              py::return_value_policy::take_ownership);
  return ViewOfTensor(*tensor, std::move(guard));
}

py::dict NativeInterpreter::SignatureDefs() const {
  EnsureIdle();
  py::dict result;
  for (const std::string* key : interpreter_->signature_keys()) {
    py::dict inputs, outputs;
    for (const auto& entry : interpreter_->signature_inputs(key->c_str())) {
      inputs[py::str(entry.first)] = entry.second;
    }
    for (const auto& entry : interpreter_->signature_outputs(key->c_str())) {
      outputs[py::str(entry.first)] = entry.second;
    }
    py::dict def;
    def["inputs"] = inputs;
    def["outputs"] = outputs;
    result[py::str(*key)] = def;
  }
  return result;
}

int NativeInterpreter::SignatureSubgraphIndex(const std::string& key) const {
  const auto* defs = model_->GetModel()->signature_defs();
  if (defs != nullptr) {
    for (const ::tflite::SignatureDef* def : *defs) {
      const std::string def_key = def->signature_key() ? def->signature_key()->str() : "";
      if (def_key == key) return static_cast<int>(def->subgraph_index());
    }
  }
  throw py::value_error("No matching signature.");
}

int NativeInterpreter::NumNodes() const { return static_cast<int>(interpreter_->nodes_size()); }

py::array_t<int32_t> NativeInterpreter::NodeInputs(int node_index) const {
  return Int32Array(Node(node_index).first.inputs);
}

py::array_t<int32_t> NativeInterpreter::NodeOutputs(int node_index) const {
  return Int32Array(Node(node_index).first.outputs);
}

std::string NativeInterpreter::NodeName(int node_index) const {
  const TfLiteRegistration& registration = Node(node_index).second;
  if (registration.builtin_code == tflite::BuiltinOperator_CUSTOM) {
    return registration.custom_name != nullptr ? registration.custom_name : "UnknownCustomOp";
  }
  const char* name = tflite::EnumNameBuiltinOperator(
      static_cast<tflite::BuiltinOperator>(registration.builtin_code));
  return name != nullptr && name[0] != '\0'
             ? name
             : "BUILTIN_" + std::to_string(registration.builtin_code);
}

std::string NativeInterpreter::NodeKernel(int node_index) const {
  Node(node_index);
  return octet::GetNodeKernelName(interpreter_->primary_subgraph(), node_index);
}

}  // namespace octet_python
