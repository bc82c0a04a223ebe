#include "tensorflow/lite/interpreter.h"

#include <cstdlib>

#include "core/alloc_guard.h"
#include "core/owned_quantization.h"
#include "core/resources.h"
#include "kernels/threads/cpu_backend_context.h"
#include "memory/memory_budget.h"

namespace tflite {
namespace {

TfLiteQuantization FromLegacy(TfLiteQuantizationParams p) {
  octet::OwnedQuantization q;
  if (p.scale == 0.f && p.zero_point == 0) return q.Release();
  auto* affine = static_cast<TfLiteAffineQuantization*>(
      octet::OrThrow(std::calloc(1, sizeof(TfLiteAffineQuantization))));
  q.value.type = kTfLiteAffineQuantization;
  q.value.params = affine;
  affine->scale = octet::OrThrow(TfLiteFloatArrayCreate(1));
  affine->scale->data[0] = p.scale;
  affine->zero_point = octet::OrThrow(TfLiteIntArrayCreate(1));
  affine->zero_point->data[0] = p.zero_point;
  affine->quantized_dimension = 0;
  return q.Release();
}

}  // namespace

Interpreter::Interpreter(ErrorReporter* error_reporter)
    : error_reporter_(error_reporter ? error_reporter : DefaultErrorReporter()),
      memory_budget_(std::make_unique<octet::MemoryBudget>()),
      resources_(std::make_unique<octet::Resources>(memory_budget_.get())),
      own_cpu_backend_context_(std::make_unique<octet::CpuBackendContext>()) {
  external_contexts_[kTfLiteCpuBackendContext] = own_cpu_backend_context_.get();
  AddSubgraphs(1);
}

Interpreter::~Interpreter() {
  // Kernels (and delegate kernels) are freed with their subgraphs, before the delegates'
  // buffer handles would be released by their owners.
  signature_runners_.clear();
  subgraphs_.clear();
}

void Interpreter::AddSubgraphs(int subgraphs_to_add, int* first_new_subgraph_index) {
  if (first_new_subgraph_index) *first_new_subgraph_index = static_cast<int>(subgraphs_.size());
  for (int i = 0; i < subgraphs_to_add; ++i) {
    const int index = static_cast<int>(subgraphs_.size());
    subgraphs_.push_back(std::make_unique<Subgraph>(error_reporter_, &subgraphs_, index));
    Subgraph& added = *subgraphs_.back();
    added.SetMemoryBudget(memory_budget_.get());
    added.SetResources(resources_.get());
    added.SetNumThreads(num_threads_);
    added.SetProfiler(profiler_);
    added.SetCancellationFunction(cancellation_data_, check_cancelled_func_);
    if (cancellation_enabled_) added.SetCancellationFlag(&cancel_requested_);
    added.context()->allow_fp32_relax_to_fp16 =
        subgraphs_.front()->context()->allow_fp32_relax_to_fp16;
    for (int type = 0; type < kTfLiteMaxExternalContexts; ++type) {
      added.SetExternalContext(static_cast<TfLiteExternalContextType>(type),
                               external_contexts_[type]);
    }
  }
}

void Interpreter::SetMaxMemoryBytes(size_t bytes) { memory_budget_->set_limit(bytes); }
size_t Interpreter::max_memory_bytes() const { return memory_budget_->limit(); }
size_t Interpreter::memory_used_bytes() const { return memory_budget_->used(); }
size_t Interpreter::memory_peak_bytes() const { return memory_budget_->peak(); }

void Interpreter::SetProfiler(Profiler* profiler) {
  profiler_ = profiler;
  for (auto& s : subgraphs_) s->SetProfiler(profiler);
}

void Interpreter::SetProfiler(std::unique_ptr<Profiler> profiler) {
  SetProfiler(profiler.get());
  owned_profiler_ = std::move(profiler);
}

void Interpreter::SetExternalContext(TfLiteExternalContextType type, TfLiteExternalContext* ctx) {
  if (type < 0 || type >= kTfLiteMaxExternalContexts) return;
  if (type == kTfLiteCpuBackendContext && ctx == nullptr) ctx = own_cpu_backend_context_.get();
  external_contexts_[type] = ctx;
  for (auto& s : subgraphs_) s->SetExternalContext(type, ctx);
}

Subgraph* Interpreter::subgraph(int index) {
  if (index < 0 || static_cast<size_t>(index) >= subgraphs_.size()) return nullptr;
  return subgraphs_[index].get();
}

const Subgraph* Interpreter::subgraph(int index) const {
  if (index < 0 || static_cast<size_t>(index) >= subgraphs_.size()) return nullptr;
  return subgraphs_[index].get();
}

void Interpreter::SetAllowFp16PrecisionForFp32(bool allow) {
  for (auto& s : subgraphs_) s->context()->allow_fp32_relax_to_fp16 = allow;
}

void Interpreter::SetCancellationFunction(void* data, bool (*check_cancelled_func)(void*)) {
  cancellation_data_ = data;
  check_cancelled_func_ = check_cancelled_func;
  for (auto& s : subgraphs_) s->SetCancellationFunction(data, check_cancelled_func);
}

TfLiteStatus Interpreter::EnableCancellation() {
  cancellation_enabled_ = true;
  for (auto& s : subgraphs_) s->SetCancellationFlag(&cancel_requested_);
  return kTfLiteOk;
}

TfLiteStatus Interpreter::Cancel() {
  if (!cancellation_enabled_) {
    error_reporter_->Report("Cancel: cancellation is not enabled (call EnableCancellation)");
    return kTfLiteError;
  }
  cancel_requested_.store(true);
  return kTfLiteOk;
}

TfLiteStatus Interpreter::SetInputs(std::vector<int> inputs) {
  return octet::GuardStatus(error_reporter_, "SetInputs",
                            [&] { return primary_subgraph().SetInputs(std::move(inputs)); });
}
TfLiteStatus Interpreter::SetOutputs(std::vector<int> outputs) {
  return octet::GuardStatus(error_reporter_, "SetOutputs",
                            [&] { return primary_subgraph().SetOutputs(std::move(outputs)); });
}
TfLiteStatus Interpreter::SetVariables(std::vector<int> variables) {
  return octet::GuardStatus(error_reporter_, "SetVariables",
                            [&] { return primary_subgraph().SetVariables(std::move(variables)); });
}
TfLiteStatus Interpreter::AddTensors(int tensors_to_add, int* first_new_tensor_index) {
  return octet::GuardStatus(error_reporter_, "AddTensors", [&] {
    return primary_subgraph().AddTensors(tensors_to_add, first_new_tensor_index);
  });
}
TfLiteStatus Interpreter::AddNodeWithParameters(const std::vector<int>& inputs,
                                                const std::vector<int>& outputs,
                                                const char* init_data, size_t init_data_size,
                                                void* builtin_data,
                                                const TfLiteRegistration* registration,
                                                int* node_index) {
  return octet::GuardStatus(error_reporter_, "AddNodeWithParameters", [&] {
    return primary_subgraph().AddNodeWithParameters(inputs, outputs, {}, init_data, init_data_size,
                                                    builtin_data, registration, node_index);
  });
}
TfLiteStatus Interpreter::SetTensorParametersReadOnly(int tensor_index, TfLiteType type,
                                                      const char* name,
                                                      const std::vector<int>& dims,
                                                      TfLiteQuantization quantization,
                                                      const char* buffer, size_t bytes,
                                                      const Allocation* allocation) {
  return octet::GuardStatus(error_reporter_, "SetTensorParametersReadOnly", [&] {
    return primary_subgraph().SetTensorParametersReadOnly(tensor_index, type, name, dims,
                                                          quantization, buffer, bytes, allocation);
  });
}
TfLiteStatus Interpreter::SetTensorParametersReadOnly(int tensor_index, TfLiteType type,
                                                      const char* name,
                                                      const std::vector<int>& dims,
                                                      TfLiteQuantizationParams quantization,
                                                      const char* buffer, size_t bytes,
                                                      const Allocation* allocation) {
  return octet::GuardStatus(error_reporter_, "SetTensorParametersReadOnly", [&] {
    return SetTensorParametersReadOnly(tensor_index, type, name, dims, FromLegacy(quantization),
                                       buffer, bytes, allocation);
  });
}
TfLiteStatus Interpreter::SetTensorParametersReadWrite(int tensor_index, TfLiteType type,
                                                       const char* name,
                                                       const std::vector<int>& dims,
                                                       TfLiteQuantization quantization,
                                                       bool is_variable) {
  return octet::GuardStatus(error_reporter_, "SetTensorParametersReadWrite", [&] {
    return primary_subgraph().SetTensorParametersReadWrite(tensor_index, type, name, dims,
                                                           quantization, is_variable);
  });
}
TfLiteStatus Interpreter::SetTensorParametersReadWrite(int tensor_index, TfLiteType type,
                                                       const char* name,
                                                       const std::vector<int>& dims,
                                                       TfLiteQuantizationParams quantization,
                                                       bool is_variable) {
  return octet::GuardStatus(error_reporter_, "SetTensorParametersReadWrite", [&] {
    return SetTensorParametersReadWrite(tensor_index, type, name, dims, FromLegacy(quantization),
                                        is_variable);
  });
}

TfLiteStatus Interpreter::AllocateTensors() { return primary_subgraph().AllocateTensors(); }
TfLiteStatus Interpreter::Invoke() {
  // A Cancel() that came before this Invoke does not stop it.
  cancel_requested_.store(false);
  return primary_subgraph().Invoke();
}
TfLiteStatus Interpreter::ResizeInputTensor(int tensor_index, const std::vector<int>& dims) {
  return primary_subgraph().ResizeInputTensor(tensor_index, dims);
}
TfLiteStatus Interpreter::ResizeInputTensorStrict(int tensor_index, const std::vector<int>& dims) {
  // Only dimensions the model marks unknown (-1 in its shape signature) may change.
  const TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) return ResizeInputTensor(tensor_index, dims);
  if (t->dims_signature != nullptr) {
    if (t->dims_signature->size != static_cast<int>(dims.size())) {
      error_reporter_->Report("ResizeInputTensorStrict: rank %zu, the model says %d", dims.size(),
                              t->dims_signature->size);
      return kTfLiteError;
    }
    for (size_t i = 0; i < dims.size(); ++i) {
      const int sig = t->dims_signature->data[i];
      if (sig != -1 && sig != dims[i]) {
        error_reporter_->Report("ResizeInputTensorStrict: dimension %zu is fixed at %d", i, sig);
        return kTfLiteError;
      }
    }
  } else if (!TfLiteIntArrayEqualsArray(t->dims, static_cast<int>(dims.size()), dims.data())) {
    error_reporter_->Report("ResizeInputTensorStrict: tensor %d has a fixed shape", tensor_index);
    return kTfLiteError;
  }
  return ResizeInputTensor(tensor_index, dims);
}
TfLiteStatus Interpreter::ResetVariableTensors() {
  for (auto& sub : subgraphs_) TF_LITE_ENSURE_STATUS(sub->ResetVariableTensors());
  return kTfLiteOk;
}
TfLiteStatus Interpreter::ModifyGraphWithDelegate(TfLiteDelegate* delegate) {
  const TfLiteStatus status = primary_subgraph().ModifyGraphWithDelegate(delegate);
  if (status == kTfLiteOk) delegates_applied_.push_back(delegate);
  return status;
}
TfLiteStatus Interpreter::SetNumThreads(int num_threads) {
  return octet::GuardStatus(error_reporter_, "SetNumThreads", [&] {
    if (num_threads < -1 || num_threads == 0) {
      error_reporter_->Report("SetNumThreads: %d is not a thread count (use -1 or >= 1)",
                              num_threads);
      return kTfLiteError;
    }
    num_threads_ = num_threads;
    for (auto& s : subgraphs_) s->SetNumThreads(num_threads);
    own_cpu_backend_context_->SetMaxNumThreads(num_threads);
    return kTfLiteOk;
  });
}

const char* Interpreter::GetInputName(int index) const {
  return primary_subgraph().tensor(inputs().at(index))->name;
}
const char* Interpreter::GetOutputName(int index) const {
  return primary_subgraph().tensor(outputs().at(index))->name;
}

std::vector<const std::string*> Interpreter::signature_keys() const {
  std::vector<const std::string*> keys;
  for (const auto& def : signature_defs_) keys.push_back(&def.key);
  return keys;
}

SignatureRunner* Interpreter::GetSignatureRunner(const char* signature_key) {
  const SignatureDef* def = FindSignature(signature_key, /*first_if_null=*/true);
  if (def == nullptr) return nullptr;
  auto it = signature_runners_.find(def->key);
  if (it != signature_runners_.end()) return it->second.get();
  Subgraph* s = subgraph(def->subgraph_index);
  if (s == nullptr) return nullptr;
  auto runner = std::make_unique<SignatureRunner>(def->key, s, &def->inputs, &def->outputs);
  SignatureRunner* raw = runner.get();
  signature_runners_[def->key] = std::move(runner);
  return raw;
}

const Interpreter::SignatureDef* Interpreter::FindSignature(const char* signature_key,
                                                            bool first_if_null) const {
  for (const auto& d : signature_defs_) {
    if (signature_key == nullptr ? first_if_null : d.key == signature_key) return &d;
  }
  return nullptr;
}

const std::map<std::string, uint32_t>& Interpreter::signature_inputs(
    const char* signature_key) const {
  static const std::map<std::string, uint32_t> kEmpty;
  const SignatureDef* def = FindSignature(signature_key, /*first_if_null=*/false);
  return def ? def->inputs : kEmpty;
}

int Interpreter::GetSubgraphIndexFromSignature(const char* signature_key) const {
  const SignatureDef* def = FindSignature(signature_key, /*first_if_null=*/false);
  return def ? def->subgraph_index : -1;
}

TfLiteTensor* Interpreter::input_tensor_by_signature(const char* signature_input_name,
                                                     const char* signature_key) {
  const SignatureDef* def = FindSignature(signature_key, /*first_if_null=*/false);
  if (def == nullptr || signature_input_name == nullptr) return nullptr;
  const auto it = def->inputs.find(signature_input_name);
  Subgraph* s = subgraph(def->subgraph_index);
  if (it == def->inputs.end() || s == nullptr) return nullptr;
  return s->tensor(static_cast<int>(it->second));
}

const TfLiteTensor* Interpreter::output_tensor_by_signature(const char* signature_output_name,
                                                            const char* signature_key) const {
  const SignatureDef* def = FindSignature(signature_key, /*first_if_null=*/false);
  if (def == nullptr || signature_output_name == nullptr) return nullptr;
  const auto it = def->outputs.find(signature_output_name);
  const Subgraph* s = subgraph(def->subgraph_index);
  if (it == def->outputs.end() || s == nullptr) return nullptr;
  return s->tensor(static_cast<int>(it->second));
}

const std::map<std::string, uint32_t>& Interpreter::signature_outputs(
    const char* signature_key) const {
  static const std::map<std::string, uint32_t> kEmpty;
  const SignatureDef* def = FindSignature(signature_key, /*first_if_null=*/false);
  return def ? def->outputs : kEmpty;
}

}  // namespace tflite
