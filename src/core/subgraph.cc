#include "tensorflow/lite/core/subgraph.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "core/alloc_guard.h"
#include "core/graph_info.h"
#include "core/owned_quantization.h"
#include "core/residual_fusion.h"
#include "delegates/partition.h"
#include "format/parse_options.h"
#include "memory/arena_planner.h"
#include "memory/memory_budget.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/util.h"

namespace tflite {

// Per-tensor storage the C struct cannot own by itself.
struct Subgraph::TensorExtra {
  std::unique_ptr<std::string> name = std::make_unique<std::string>();
  TfLiteIntArray* dims_signature = nullptr;
  TfLiteEvalTensor eval{};
  bool made_dynamic_by_runtime = false;  // planned tensor moved to the heap at invoke
  size_t heap_charged = 0;               // heap bytes held against the memory budget
};

namespace {

Subgraph* Self(const TfLiteContext* context) { return static_cast<Subgraph*>(context->impl_); }

// GCC cannot turn a variadic lambda into a function pointer, so this one is a function.
void ContextReportError(TfLiteContext* ctx, const char* format, ...) {
  va_list args;
  va_start(args, format);
  Self(ctx)->error_reporter()->Report(format, args);
  va_end(args);
}

// A node's op name with static lifetime, as profile events need it.
const char* ProfilingTag(const TfLiteRegistration& reg) {
  if (reg.custom_name != nullptr) return reg.custom_name;
  return octet::format::BuiltinOperatorName(reg.builtin_code);
}

// Sets a flag for the lifetime of a scope (re-entrancy guards).
struct FlagScope {
  bool& flag;
  explicit FlagScope(bool& f) : flag(f) { flag = true; }
  ~FlagScope() { flag = false; }
};

void InitTensor(TfLiteTensor* t) {
  std::memset(t, 0, sizeof(*t));
  t->buffer_handle = kTfLiteNullBufferHandle;
  t->allocation_type = kTfLiteMemNone;
}

}  // namespace

Subgraph::Subgraph(ErrorReporter* error_reporter, std::vector<std::unique_ptr<Subgraph>>* subgraphs,
                   int subgraph_index)
    : error_reporter_(error_reporter ? error_reporter : DefaultErrorReporter()),
      subgraphs_(subgraphs),
      subgraph_index_(subgraph_index),
      planner_(std::make_unique<octet::ArenaPlanner>()) {
  SetupContextCallbacks();
}

Subgraph::~Subgraph() {
  for (auto& [node, registration] : nodes_and_registration_) ResetNode(node, registration);
  for (size_t i = 0; i < tensors_.size(); ++i) FreeTensorStorage(static_cast<int>(i));
  for (TfLiteDelegateParams* p : delegate_params_) {
    TfLiteIntArrayFree(p->nodes_to_replace);
    TfLiteIntArrayFree(p->input_tensors);
    TfLiteIntArrayFree(p->output_tensors);
    std::free(p);
  }
  TfLiteIntArrayFree(plan_cache_);
  FreePreviewParams();
  if (memory_budget_ != nullptr) memory_budget_->Release(persistent_charged_);
}

void Subgraph::ResetNode(TfLiteNode& node, const TfLiteRegistration& registration) {
  if (registration.free != nullptr && node.user_data != nullptr) {
    registration.free(&context_, node.user_data);
  }
  node.user_data = nullptr;
  TfLiteIntArrayFree(node.inputs);
  TfLiteIntArrayFree(node.outputs);
  TfLiteIntArrayFree(node.intermediates);
  TfLiteIntArrayFree(node.temporaries);
  node.inputs = node.outputs = node.intermediates = node.temporaries = nullptr;
  // Delegate nodes get their params from delegate_params_, freed separately.
  if (node.delegate == nullptr) std::free(node.builtin_data);
  node.builtin_data = nullptr;
}

void Subgraph::ReleaseHeapCharge(int index) {
  if (memory_budget_ != nullptr) memory_budget_->Release(tensor_extras_[index].heap_charged);
  tensor_extras_[index].heap_charged = 0;
}

void Subgraph::FreeTensorStorage(int index) {
  TfLiteTensor& t = tensors_[index];
  if (t.allocation_type == kTfLiteDynamic) std::free(t.data.raw);
  t.data.raw = nullptr;
  ReleaseHeapCharge(index);
  TfLiteIntArrayFree(t.dims);
  t.dims = nullptr;
  TfLiteQuantizationFree(&t.quantization);
  TfLiteSparsityFree(t.sparsity);
  t.sparsity = nullptr;
  TfLiteIntArrayFree(tensor_extras_[index].dims_signature);
  tensor_extras_[index].dims_signature = nullptr;
  t.dims_signature = nullptr;
}

void Subgraph::ReportError(const char* format, ...) {
  va_list args;
  va_start(args, format);
  error_reporter_->Report(format, args);
  va_end(args);
}

// --- context callbacks -------------------------------------------------------

void Subgraph::SetupContextCallbacks() {
  context_.impl_ = this;
  context_.recommended_num_threads = 1;
  context_.GetExecutionPlan = [](TfLiteContext* ctx, TfLiteIntArray** plan) -> TfLiteStatus {
    Subgraph* self = Self(ctx);
    TfLiteIntArrayFree(self->plan_cache_);
    self->plan_cache_ = ConvertVectorToTfLiteIntArray(self->execution_plan_);
    *plan = self->plan_cache_;
    return kTfLiteOk;
  };
  context_.ResizeTensor = [](TfLiteContext* ctx, TfLiteTensor* tensor,
                             TfLiteIntArray* new_size) -> TfLiteStatus {
    return Self(ctx)->ResizeTensor(tensor, new_size);
  };
  context_.ResizeTensorExplicit = [](TfLiteContext* ctx, TfLiteTensor* tensor, int dims,
                                     const int* shape) -> TfLiteStatus {
    if (dims < 0 || (dims > 0 && shape == nullptr)) return kTfLiteError;
    return Self(ctx)->ResizeTensor(tensor, ConvertArrayToTfLiteIntArray(dims, shape));
  };
  context_.ReportError = &ContextReportError;
  context_.AddTensors = [](TfLiteContext* ctx, int n, int* first) -> TfLiteStatus {
    return Self(ctx)->AddTensors(n, first);
  };
  context_.GetNodeAndRegistration = [](TfLiteContext* ctx, int node_index, TfLiteNode** node,
                                       TfLiteRegistration** registration) -> TfLiteStatus {
    auto* nr = Self(ctx)->node_and_registration(node_index);
    if (nr == nullptr) {
      Self(ctx)->ReportError("GetNodeAndRegistration: no node %d", node_index);
      return kTfLiteError;
    }
    *node = &nr->first;
    *registration = &nr->second;
    return kTfLiteOk;
  };
  context_.ReplaceNodeSubsetsWithDelegateKernels =
      [](TfLiteContext* ctx, TfLiteRegistration registration, const TfLiteIntArray* nodes,
         TfLiteDelegate* delegate) -> TfLiteStatus {
    return Self(ctx)->ReplaceNodeSubsetsWithDelegateKernels(registration, nodes, delegate);
  };
  context_.GetExternalContext = [](TfLiteContext* ctx,
                                   TfLiteExternalContextType type) -> TfLiteExternalContext* {
    return Self(ctx)->GetExternalContext(type);
  };
  context_.SetExternalContext = [](TfLiteContext* ctx, TfLiteExternalContextType type,
                                   TfLiteExternalContext* external) {
    Self(ctx)->SetExternalContext(type, external);
  };
  context_.AllocatePersistentBuffer = [](TfLiteContext* ctx, size_t bytes) -> void* {
    // Cache-line aligned: packed weights are read in 64-byte vectors, and a vector that
    // straddles two lines costs a second load on every use.
    constexpr size_t kAlign = 64;
    Subgraph* self = Self(ctx);
    if (bytes > std::numeric_limits<size_t>::max() - kAlign) return nullptr;
    if (self->memory_budget_ != nullptr) {
      if (!self->memory_budget_->TryCharge(bytes + kAlign)) {
        self->ReportError(
            "a kernel's persistent buffer of %s does not fit the memory limit of "
            "%s (%s left)",
            octet::FormatByteSize(bytes).c_str(),
            octet::FormatByteSize(self->memory_budget_->limit()).c_str(),
            octet::FormatByteSize(self->memory_budget_->available()).c_str());
        return nullptr;
      }
      self->persistent_charged_ += bytes + kAlign;
    }
    self->persistent_buffers_.emplace_back(bytes + kAlign);
    self->kernel_persistent_bytes_ += bytes;
    char* p = self->persistent_buffers_.back().data();
    return p + (kAlign - reinterpret_cast<uintptr_t>(p) % kAlign) % kAlign;
  };
  context_.AllocateBufferForEval = [](TfLiteContext* ctx, size_t bytes,
                                      void** ptr) -> TfLiteStatus {
    *ptr = ctx->AllocatePersistentBuffer(ctx, bytes);
    return *ptr ? kTfLiteOk : kTfLiteError;
  };
  context_.RequestScratchBufferInArena = [](TfLiteContext* ctx, size_t bytes,
                                            int* index) -> TfLiteStatus {
    return Self(ctx)->RequestScratchBuffer(bytes, index);
  };
  context_.GetScratchBuffer = [](TfLiteContext* ctx, int index) -> void* {
    return Self(ctx)->ScratchBuffer(index);
  };
  context_.PreviewDelegatePartitioning = [](TfLiteContext* ctx, const TfLiteIntArray* nodes,
                                            TfLiteDelegateParams** params,
                                            int* count) -> TfLiteStatus {
    return Self(ctx)->PreviewDelegatePartitioning(nodes, params, count);
  };
  context_.GetTensor = [](const TfLiteContext* ctx, int index) -> TfLiteTensor* {
    return Self(ctx)->tensor(index);
  };
  context_.GetEvalTensor = [](const TfLiteContext* ctx, int index) -> TfLiteEvalTensor* {
    Subgraph* self = Self(ctx);
    TfLiteTensor* t = self->tensor(index);
    if (t == nullptr) return nullptr;
    TfLiteEvalTensor& e = self->tensor_extras_[index].eval;
    e.data = t->data;
    e.dims = t->dims;
    e.type = t->type;
    return &e;
  };
  context_.GetModelMetadata = [](const TfLiteContext*, const char*, const char**,
                                 size_t*) -> TfLiteStatus { return kTfLiteError; };
}

void Subgraph::SetExternalContext(TfLiteExternalContextType type, TfLiteExternalContext* ctx) {
  if (type >= 0 && type < kTfLiteMaxExternalContexts) external_contexts_[type] = ctx;
}

TfLiteExternalContext* Subgraph::GetExternalContext(TfLiteExternalContextType type) const {
  return type >= 0 && type < kTfLiteMaxExternalContexts ? external_contexts_[type] : nullptr;
}

void Subgraph::SetProfiler(Profiler* profiler) {
  profiler_ = profiler;
  context_.profiler = profiler;
}

void Subgraph::SetNodeKernelName(const TfLiteNode* node, const char* name) {
  const int i = NodeIndexOf(node);
  if (i < 0) return;
  if (node_kernel_names_.size() <= static_cast<size_t>(i)) {
    node_kernel_names_.resize(nodes_and_registration_.size());
  }
  node_kernel_names_[i] = name;
}

void Subgraph::SetCancellationFunction(void* data, bool (*check_cancelled_func)(void*)) {
  cancellation_data_ = data;
  check_cancelled_func_ = check_cancelled_func;
}

void Subgraph::SetMemoryBudget(octet::MemoryBudget* budget) {
  // Memory taken before would never be given back to the right budget.
  if (memory_budget_ != nullptr || !planner_->SetBudget(budget)) {
    ReportError("SetMemoryBudget: the subgraph already has a budget or planned arenas");
    return;
  }
  memory_budget_ = budget;
}

// Charges a heap tensor's new size (replacing what it held) before it is allocated.
TfLiteStatus Subgraph::ChargeHeapTensor(const TfLiteTensor& tensor, size_t bytes) {
  if (memory_budget_ == nullptr) return kTfLiteOk;
  if (&tensor < tensors_.data() || &tensor >= tensors_.data() + tensors_.size()) {
    return kTfLiteOk;  // not one of ours: nothing to account it to
  }
  size_t& held = tensor_extras_[&tensor - tensors_.data()].heap_charged;
  if (!memory_budget_->TryRecharge(held, bytes)) {
    ReportError("tensor '%s' needs %s on the heap, but the memory limit of %s leaves %s",
                tensor.name ? tensor.name : "", octet::FormatByteSize(bytes).c_str(),
                octet::FormatByteSize(memory_budget_->limit()).c_str(),
                octet::FormatByteSize(memory_budget_->available() + held).c_str());
    return kTfLiteError;
  }
  held = bytes;
  return kTfLiteOk;
}

void Subgraph::SetCancellationFlag(const std::atomic<bool>* cancel_requested) {
  cancel_requested_ = cancel_requested;
}

bool Subgraph::IsCancelled() const {
  if (cancel_requested_ != nullptr && cancel_requested_->load(std::memory_order_relaxed)) {
    return true;
  }
  return check_cancelled_func_ != nullptr && check_cancelled_func_(cancellation_data_);
}

int Subgraph::NodeIndexOf(const TfLiteNode* node) const {
  // A node is the first member of its entry, so its address is the entry's.
  const auto address = reinterpret_cast<uintptr_t>(node);
  const auto base = reinterpret_cast<uintptr_t>(nodes_and_registration_.data());
  constexpr size_t kEntry = sizeof(nodes_and_registration_[0]);
  if (address < base || address >= base + nodes_and_registration_.size() * kEntry ||
      (address - base) % kEntry != 0) {
    return -1;
  }
  return static_cast<int>((address - base) / kEntry);
}

const char* Subgraph::NodeKernelName(int node_index) const {
  if (node_index < 0 || static_cast<size_t>(node_index) >= node_kernel_names_.size()) {
    return nullptr;
  }
  return node_kernel_names_[node_index];
}

// --- building ----------------------------------------------------------------

TfLiteStatus Subgraph::AddTensors(int tensors_to_add, int* first_new_tensor_index) {
  if (tensors_to_add < 0) {
    ReportError("AddTensors: negative count %d", tensors_to_add);
    return kTfLiteError;
  }
  const size_t base = tensors_.size();
  if (first_new_tensor_index) *first_new_tensor_index = static_cast<int>(base);
  // Kernels often add temporaries in prepare while holding tensor pointers; spare capacity
  // keeps those pointers valid in the common case.
  if (tensors_.capacity() < base + tensors_to_add) tensors_.reserve(base + tensors_to_add + 32);
  // Both lists grow or neither does: the extras may throw (and then change nothing), the
  // tensors cannot any more once reserved.
  tensor_extras_.resize(base + tensors_to_add);
  tensors_.resize(base + tensors_to_add);
  for (size_t i = base; i < tensors_.size(); ++i) InitTensor(&tensors_[i]);
  context_.tensors = tensors_.data();
  context_.tensors_size = tensors_.size();
  return kTfLiteOk;
}

TfLiteStatus Subgraph::CheckTensorIndex(const char* label, int index) {
  if (index < 0 || static_cast<size_t>(index) >= tensors_.size()) {
    ReportError("%s refers to tensor %d, but the graph has %zu tensors", label, index,
                tensors_.size());
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::CheckTensorIndices(const char* label, const std::vector<int>& indices,
                                          bool allow_optional) {
  for (int i : indices) {
    if (allow_optional && i == kTfLiteOptionalTensor) continue;
    if (i < 0 || static_cast<size_t>(i) >= tensors_.size()) {
      ReportError("%s refers to tensor %d, but the graph has %zu tensors", label, i,
                  tensors_.size());
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetInputs(std::vector<int> inputs) {
  TF_LITE_ENSURE_STATUS(CheckTensorIndices("graph inputs", inputs, false));
  inputs_ = std::move(inputs);
  needs_allocation_ = true;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetOutputs(std::vector<int> outputs) {
  TF_LITE_ENSURE_STATUS(CheckTensorIndices("graph outputs", outputs, false));
  outputs_ = std::move(outputs);
  needs_allocation_ = true;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetVariables(std::vector<int> variables) {
  TF_LITE_ENSURE_STATUS(CheckTensorIndices("graph variables", variables, false));
  variables_ = std::move(variables);
  needs_allocation_ = true;
  return kTfLiteOk;
}

TfLiteTensor& Subgraph::ResetTensor(int tensor_index, TfLiteType type, const char* name,
                                    const std::vector<int>& dims,
                                    octet::OwnedQuantization* quantization) {
  FreeTensorStorage(tensor_index);
  TfLiteTensor& t = tensors_[tensor_index];
  t.type = type;
  // The tensor owns these before anything below can fail.
  t.sparsity = quantization->ReleaseSparsity();
  t.quantization = quantization->Release();
  t.name = "";
  *tensor_extras_[tensor_index].name = name ? name : "";
  t.name = tensor_extras_[tensor_index].name->c_str();
  t.dims = ConvertVectorToTfLiteIntArray(dims);
  const TfLiteQuantization& q_in = t.quantization;
  // The legacy per-tensor view is the first scale and zero point.
  t.params = TfLiteQuantizationParams{0.f, 0};
  if (q_in.type == kTfLiteAffineQuantization && q_in.params) {
    auto* q = static_cast<TfLiteAffineQuantization*>(q_in.params);
    if (q->scale && q->scale->size > 0) t.params.scale = q->scale->data[0];
    if (q->zero_point && q->zero_point->size > 0) t.params.zero_point = q->zero_point->data[0];
  }
  return t;
}

TfLiteStatus Subgraph::SetTensorParametersReadOnly(int tensor_index, TfLiteType type,
                                                   const char* name, const std::vector<int>& dims,
                                                   TfLiteQuantization quantization,
                                                   const char* buffer, size_t bytes,
                                                   const Allocation* allocation,
                                                   TfLiteSparsity* sparsity) {
  octet::OwnedQuantization owned(quantization, sparsity);  // ours from here, whatever happens
  if (CheckTensorIndex("SetTensorParametersReadOnly", tensor_index) != kTfLiteOk) {
    return kTfLiteError;
  }
  size_t required = 0;
  if (type != kTfLiteString && sparsity == nullptr) {
    // INT4 constants are packed two values to a byte; the verifier also lets through one byte
    // per value, of which the kernels read (as TFLite's do) the packed first half.
    const bool int4 = type == kTfLiteInt4;
    const TfLiteStatus sized =
        BytesRequired(int4 ? kTfLiteInt8 : type, dims.data(), dims.size(), &required, &context_);
    bool fits = sized == kTfLiteOk && bytes == required;
    if (int4 && sized == kTfLiteOk) {
      required = (required + 1) / 2;  // the size a message names
      fits = fits || bytes == required;
    }
    if (!fits) {
      ReportError("constant tensor %d ('%s'): buffer has %zu bytes, shape and type need %zu",
                  tensor_index, name ? name : "", bytes, required);
      return kTfLiteError;
    }
  }
  TfLiteTensor& t = ResetTensor(tensor_index, type, name, dims, &owned);
  t.data.raw_const = buffer;
  t.bytes = bytes;
  t.allocation_type = kTfLiteMmapRo;
  t.allocation = allocation;
  t.is_variable = false;
  needs_allocation_ = true;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::SetTensorParametersReadWrite(int tensor_index, TfLiteType type,
                                                    const char* name, const std::vector<int>& dims,
                                                    TfLiteQuantization quantization,
                                                    bool is_variable,
                                                    const std::vector<int>& dims_signature) {
  octet::OwnedQuantization owned(quantization);  // ours from here, whatever happens
  if (CheckTensorIndex("SetTensorParametersReadWrite", tensor_index) != kTfLiteOk) {
    return kTfLiteError;
  }
  size_t required = 0;
  if (type != kTfLiteString && type != kTfLiteResource && type != kTfLiteVariant &&
      BytesRequired(type, dims.data(), dims.size(), &required, &context_) != kTfLiteOk) {
    return kTfLiteError;
  }
  TfLiteTensor& t = ResetTensor(tensor_index, type, name, dims, &owned);
  t.bytes = required;
  t.is_variable = is_variable;
  t.allocation_type = is_variable ? kTfLiteArenaRwPersistent : kTfLiteArenaRw;
  // Strings and resources have no fixed size: they live on the heap.
  if (type == kTfLiteString || type == kTfLiteResource || type == kTfLiteVariant) {
    t.allocation_type = kTfLiteDynamic;
  }
  t.data.raw = nullptr;
  if (!dims_signature.empty()) {
    tensor_extras_[tensor_index].dims_signature = ConvertVectorToTfLiteIntArray(dims_signature);
    t.dims_signature = tensor_extras_[tensor_index].dims_signature;
  }
  needs_allocation_ = true;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::AddNodeWithParameters(
    const std::vector<int>& inputs, const std::vector<int>& outputs,
    const std::vector<int>& intermediates, const char* init_data, size_t init_data_size,
    void* builtin_data, const TfLiteRegistration* registration, int* node_index) {
  std::unique_ptr<void, decltype(&std::free)> data_owner(builtin_data, &std::free);
  if (registration == nullptr) {
    ReportError("AddNodeWithParameters: null registration");
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckTensorIndices("node inputs", inputs, true));
  TF_LITE_ENSURE_STATUS(CheckTensorIndices("node outputs", outputs, false));
  TF_LITE_ENSURE_STATUS(CheckTensorIndices("node intermediates", intermediates, false));
  const int new_index = static_cast<int>(nodes_and_registration_.size());
  if (node_index) *node_index = new_index;
  nodes_and_registration_.emplace_back();
  auto& [node, reg] = nodes_and_registration_.back();
  std::memset(&node, 0, sizeof(node));
  node.inputs = ConvertVectorToTfLiteIntArray(inputs);
  node.outputs = ConvertVectorToTfLiteIntArray(outputs);
  node.intermediates = ConvertVectorToTfLiteIntArray(intermediates);
  node.temporaries = TfLiteIntArrayCreate(0);
  reg = *registration;
  const bool is_custom = registration->builtin_code == kTfLiteBuiltinCustom;
  if (is_custom) {
    node.custom_initial_data = init_data;
    node.custom_initial_data_size = static_cast<int>(init_data_size);
  }
  node.builtin_data = data_owner.release();
  if (reg.init != nullptr) {
    if (init_data != nullptr) {
      node.user_data = reg.init(&context_, init_data, init_data_size);
    } else {
      node.user_data = reg.init(&context_, static_cast<const char*>(node.builtin_data), 0);
    }
  }
  execution_plan_.push_back(new_index);
  needs_allocation_ = true;
  return kTfLiteOk;
}

// --- shapes and allocation -----------------------------------------------------

TfLiteStatus Subgraph::ResizeTensor(TfLiteTensor* tensor, TfLiteIntArray* new_size) {
  std::unique_ptr<TfLiteIntArray, decltype(&TfLiteIntArrayFree)> owner(new_size,
                                                                       &TfLiteIntArrayFree);
  if (tensor == nullptr || new_size == nullptr) {
    ReportError("ResizeTensor: null tensor or shape");
    return kTfLiteError;
  }
  if (tensor->allocation_type == kTfLiteMmapRo || tensor->allocation_type == kTfLitePersistentRo) {
    if (TfLiteIntArrayEqual(tensor->dims, new_size)) return kTfLiteOk;
    ReportError("cannot resize constant tensor '%s'", tensor->name ? tensor->name : "");
    return kTfLiteError;
  }
  size_t bytes = 0;
  if (tensor->type == kTfLiteResource) {
    // A resource tensor holds int32 resource ids (VAR_HANDLE's output), as in TFLite.
    TF_LITE_ENSURE_STATUS(
        BytesRequired(kTfLiteInt32, new_size->data, new_size->size, &bytes, &context_));
  } else if (tensor->type != kTfLiteString && tensor->type != kTfLiteVariant) {
    TF_LITE_ENSURE_STATUS(
        BytesRequired(tensor->type, new_size->data, new_size->size, &bytes, &context_));
  }
  TfLiteIntArrayFree(tensor->dims);
  tensor->dims = owner.release();
  if (in_invoke_ && tensor->allocation_type == kTfLiteArenaRw) {
    // A shape known only now cannot use the plan made in AllocateTensors: move to the heap.
    tensor->allocation_type = kTfLiteDynamic;
    tensor->data.raw = nullptr;
    tensor_extras_[tensor - tensors_.data()].made_dynamic_by_runtime = true;
  }
  if (tensor->allocation_type == kTfLiteDynamic) {
    if (bytes != tensor->bytes || tensor->data.raw == nullptr) {
      TF_LITE_ENSURE_STATUS(ChargeHeapTensor(*tensor, bytes + 64));
      // Same read slack as the arena: vectorized kernels may read a little past the end.
      void* p = std::realloc(tensor->data.raw, bytes + 64);
      if (p == nullptr) {
        ReportError("out of memory resizing tensor '%s' to %zu bytes",
                    tensor->name ? tensor->name : "", bytes);
        return kTfLiteError;
      }
      tensor->data.raw = static_cast<char*>(p);
    }
    tensor->bytes = bytes;
    return kTfLiteOk;
  }
  if (bytes != tensor->bytes) needs_allocation_ = true;
  tensor->bytes = bytes;
  return kTfLiteOk;
}

TfLiteStatus Subgraph::ResizeInputTensor(int tensor_index, const std::vector<int>& dims) {
  return octet::GuardStatus(error_reporter_, "ResizeInputTensor",
                            [&] { return ResizeInputTensorImpl(tensor_index, dims); });
}

TfLiteStatus Subgraph::ResizeInputTensorImpl(int tensor_index, const std::vector<int>& dims) {
  TfLiteTensor* t = tensor(tensor_index);
  if (t == nullptr) {
    ReportError("ResizeInputTensor: no tensor %d", tensor_index);
    return kTfLiteError;
  }
  if (std::find(inputs_.begin(), inputs_.end(), tensor_index) == inputs_.end() && !t->is_variable) {
    ReportError("ResizeInputTensor: tensor %d is not a graph input", tensor_index);
    return kTfLiteError;
  }
  for (int d : dims) {
    if (d < 0) {
      ReportError("ResizeInputTensor: negative dimension %d", d);
      return kTfLiteError;
    }
  }
  if (TfLiteIntArrayEqualsArray(t->dims, static_cast<int>(dims.size()), dims.data())) {
    return kTfLiteOk;
  }
  needs_allocation_ = true;
  // Not in invoke, so an arena tensor just records its new size for the next plan.
  return ResizeTensor(t, ConvertVectorToTfLiteIntArray(dims));
}

std::string Subgraph::OpName(int node_index) const {
  const auto* nr = node_and_registration(node_index);
  return nr ? GetOpNameByRegistration(nr->second) : "?";
}

// TFLite Micro's scratch API: the k-th request of a node's prepare is a temporary of that node
// (kept across prepares, resized each time), so the planner places it like any temporary.
TfLiteStatus Subgraph::RequestScratchBuffer(size_t bytes, int* index) {
  if (preparing_node_ < 0) {
    ReportError("RequestScratchBufferInArena: only a kernel's prepare may request scratch");
    return kTfLiteError;
  }
  if (bytes > static_cast<size_t>(std::numeric_limits<int>::max())) {
    ReportError("RequestScratchBufferInArena: %zu bytes is too large", bytes);
    return kTfLiteError;
  }
  std::vector<int>& owned = scratch_tensors_[preparing_node_];
  const size_t ordinal = scratch_requests_++;
  if (ordinal == owned.size()) {
    int tensor;
    TF_LITE_ENSURE_STATUS(AddTensors(1, &tensor));
    owned.push_back(tensor);
  }
  const int tensor = owned[ordinal];
  TfLiteTensor& t = tensors_[tensor];
  t.type = kTfLiteUInt8;
  t.allocation_type = kTfLiteArenaRw;
  TfLiteIntArray* dims = TfLiteIntArrayCreate(1);
  dims->data[0] = static_cast<int>(bytes);
  TF_LITE_ENSURE_STATUS(ResizeTensor(&t, dims));
  TfLiteNode& node = nodes_and_registration_[preparing_node_].first;
  std::vector<int> temporaries;
  if (node.temporaries) {
    temporaries.assign(node.temporaries->data, node.temporaries->data + node.temporaries->size);
  }
  if (std::find(temporaries.begin(), temporaries.end(), tensor) == temporaries.end()) {
    temporaries.push_back(tensor);
    TfLiteIntArrayFree(node.temporaries);
    node.temporaries = ConvertVectorToTfLiteIntArray(temporaries);
  }
  *index = tensor;
  return kTfLiteOk;
}

void* Subgraph::ScratchBuffer(int index) {
  for (const auto& [node, tensors] : scratch_tensors_) {
    if (std::find(tensors.begin(), tensors.end(), index) != tensors.end()) {
      return tensors_[index].data.raw;
    }
  }
  return nullptr;
}

TfLiteStatus Subgraph::PrepareNode(size_t plan_index) {
  const int node_index = execution_plan_[plan_index];
  auto& [node, reg] = nodes_and_registration_[node_index];
  if (IsUnresolvedCustomOp(reg)) {
    ReportError("node %d: %s", node_index, UnresolvedOpMessage(reg.custom_name).c_str());
    return kTfLiteUnresolvedOps;
  }
  if (reg.prepare == nullptr) return kTfLiteOk;
  preparing_node_ = node_index;
  scratch_requests_ = 0;
  const TfLiteStatus prepared = reg.prepare(&context_, &node);
  preparing_node_ = -1;
  if (prepared != kTfLiteOk) {
    ReportError("node %d (%s) failed to prepare", node_index, OpName(node_index).c_str());
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::InvokeNode(size_t plan_index) {
  const int node_index = execution_plan_[plan_index];
  auto& [node, reg] = nodes_and_registration_[node_index];
  // A kernel must never read through a null pointer, whatever the graph looks like.
  for (int j = 0; j < node.inputs->size; ++j) {
    const int t = node.inputs->data[j];
    if (t == kTfLiteOptionalTensor) continue;
    const TfLiteTensor& in = tensors_[t];
    if (in.bytes > 0 && in.data.raw == nullptr && in.delegate == nullptr &&
        node.delegate == nullptr) {
      ReportError("node %d (%s): input tensor %d ('%s') has no data", node_index,
                  OpName(node_index).c_str(), t, in.name ? in.name : "");
      return kTfLiteError;
    }
  }
  if (reg.invoke == nullptr) {
    ReportError("node %d (%s) has no invoke function", node_index, OpName(node_index).c_str());
    return kTfLiteError;
  }
  uint32_t event = 0;
  if (profiler_ != nullptr) {
    event = profiler_->BeginEvent(ProfilingTag(reg), Profiler::EventType::OPERATOR_INVOKE_EVENT,
                                  node_index, subgraph_index_);
  }
  // An ADD whose producer computed it (core/residual_fusion.h) has nothing left to do.
  const TfLiteStatus status =
      octet::IsAbsorbedAdd(*this, node_index) ? kTfLiteOk : reg.invoke(&context_, &node);
  if (profiler_ != nullptr) profiler_->EndEvent(event);
  // A control-flow node whose subgraph was cancelled fails: that is the cancellation.
  if (status != kTfLiteOk && IsCancelled()) return kTfLiteCancelled;
  if (status != kTfLiteOk) {
    ReportError("node %d (%s) failed to invoke", node_index, OpName(node_index).c_str());
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::AllocateTensors() {
  return octet::GuardStatus(error_reporter_, "AllocateTensors",
                            [&] { return AllocateTensorsImpl(); });
}

TfLiteStatus Subgraph::AllocateTensorsImpl() {
  if (!needs_allocation_) return kTfLiteOk;
  // A control-flow op reaching this subgraph again through its callees (a call cycle built
  // through the C++ API; the model verifier rejects them in files) is refused instead of
  // recursing until the stack overflows (CVE-2021-29591).
  if (in_allocate_) {
    ReportError("subgraph %d is already being prepared: recursive subgraph reference",
                subgraph_index());
    return kTfLiteError;
  }
  const FlagScope allocate_scope(in_allocate_);
  // Tensors moved to the heap by a previous invoke go back to being planned.
  for (size_t i = 0; i < tensors_.size(); ++i) {
    if (tensor_extras_[i].made_dynamic_by_runtime) {
      std::free(tensors_[i].data.raw);
      tensors_[i].data.raw = nullptr;
      ReleaseHeapCharge(static_cast<int>(i));
      tensors_[i].allocation_type = kTfLiteArenaRw;
      tensor_extras_[i].made_dynamic_by_runtime = false;
    }
  }
  first_unprepared_node_ = execution_plan_.size();
  octet::FindResidualFusions(*this);
  for (size_t i = 0; i < execution_plan_.size(); ++i) {
    TF_LITE_ENSURE_STATUS(PrepareNode(i));
    const TfLiteNode& node = nodes_and_registration_[execution_plan_[i]].first;
    bool dynamic_output = false;
    for (int j = 0; j < node.outputs->size; ++j) {
      dynamic_output |= tensors_[node.outputs->data[j]].allocation_type == kTfLiteDynamic;
    }
    // Later nodes may depend on a shape only known at run time: prepare them in Invoke.
    if (dynamic_output) {
      first_unprepared_node_ = i + 1;
      break;
    }
  }
  octet::ConfirmResidualFusions(*this, first_unprepared_node_);
  octet::SubgraphGraphInfo info(this);
  std::string plan_error;
  if (!planner_->Plan(info, first_unprepared_node_, &plan_error)) {
    ReportError("subgraph %d: %s", subgraph_index(), plan_error.c_str());
    return kTfLiteError;
  }
  needs_allocation_ = false;
  // As TFLite: variable tensors (RNN/LSTM state) start from their reset value after every
  // (re)allocation.
  return ResetVariableTensors();
}

TfLiteStatus Subgraph::Invoke() {
  return octet::GuardStatus(error_reporter_, "Invoke", [&] { return InvokeImpl(); });
}

TfLiteStatus Subgraph::InvokeImpl() {
  if (needs_allocation_) {
    ReportError("Invoke called before AllocateTensors (or after a resize without it)");
    return kTfLiteError;
  }
  if (in_invoke_) {
    ReportError("subgraph %d is already running: recursive subgraph call", subgraph_index());
    return kTfLiteError;
  }
  const FlagScope invoke_scope(in_invoke_);
  for (size_t i = 0; i < execution_plan_.size(); ++i) {
    if (IsCancelled()) {
      ReportError("Client requested cancel during Invoke()");
      return kTfLiteCancelled;
    }
    if (i >= first_unprepared_node_) {
      TF_LITE_ENSURE_STATUS(PrepareNode(i));
      // Outputs and temporaries sized only now live on the heap.
      const TfLiteNode& node = nodes_and_registration_[execution_plan_[i]].first;
      for (const TfLiteIntArray* list : {node.outputs, node.temporaries}) {
        for (int j = 0; list && j < list->size; ++j) {
          TfLiteTensor& t = tensors_[list->data[j]];
          if (t.allocation_type == kTfLiteArenaRw && t.data.raw == nullptr) {
            TF_LITE_ENSURE_STATUS(ResizeTensor(&t, TfLiteIntArrayCopy(t.dims)));
          }
        }
      }
    }
    TF_LITE_ENSURE_STATUS(InvokeNode(i));
  }
  return kTfLiteOk;
}

// TFLite's reset value: zero, except int8 tensors, which hold their zero point (the real
// value 0; an int8 LSTM's hidden state with a non-zero zero point depends on it).
TfLiteStatus Subgraph::ResetVariableTensors() {
  for (TfLiteTensor& t : tensors_) {
    if (!t.is_variable || t.data.raw == nullptr || t.bytes == 0) continue;
    const int value = t.type == kTfLiteInt8 ? t.params.zero_point : 0;
    std::memset(t.data.raw, value, t.bytes);
  }
  return kTfLiteOk;
}

// --- delegates ------------------------------------------------------------------

TfLiteStatus Subgraph::ModifyGraphWithDelegate(TfLiteDelegate* delegate) {
  return octet::GuardStatus(error_reporter_, "ModifyGraphWithDelegate",
                            [&] { return ModifyGraphWithDelegateImpl(delegate); });
}

TfLiteStatus Subgraph::ModifyGraphWithDelegateImpl(TfLiteDelegate* delegate) {
  if (delegate == nullptr || delegate->Prepare == nullptr) {
    ReportError("ModifyGraphWithDelegate: delegate has no Prepare function");
    return kTfLiteError;
  }
  const TfLiteStatus status = delegate->Prepare(&context_, delegate);
  FreePreviewParams();
  needs_allocation_ = true;
  if (status != kTfLiteOk) {
    ReportError("delegate Prepare failed");
    return status;
  }
  return kTfLiteOk;
}

TfLiteStatus Subgraph::ReplaceNodeSubsetsWithDelegateKernels(TfLiteRegistration registration,
                                                             const TfLiteIntArray* nodes_to_replace,
                                                             TfLiteDelegate* delegate) {
  if (nodes_to_replace == nullptr) return kTfLiteError;
  registration.builtin_code = kTfLiteBuiltinDelegate;
  for (int i = 0; i < nodes_to_replace->size; ++i) {
    if (node_and_registration(nodes_to_replace->data[i]) == nullptr) {
      ReportError("delegate asked to replace node %d, which does not exist",
                  nodes_to_replace->data[i]);
      return kTfLiteError;
    }
  }
  octet::SubgraphGraphInfo info(this);
  std::vector<octet::NodeSubset> subsets = octet::PartitionGraphIntoIndependentNodeSubsets(
      info, execution_plan_, TfLiteIntArrayToVector(nodes_to_replace));
  execution_plan_.clear();
  for (const octet::NodeSubset& subset : subsets) {
    if (!subset.delegated) {
      execution_plan_.insert(execution_plan_.end(), subset.nodes.begin(), subset.nodes.end());
      continue;
    }
    auto* params = static_cast<TfLiteDelegateParams*>(
        octet::OrThrow(std::calloc(1, sizeof(TfLiteDelegateParams))));
    params->delegate = delegate;
    params->nodes_to_replace = ConvertVectorToTfLiteIntArray(subset.nodes);
    params->input_tensors = ConvertVectorToTfLiteIntArray(subset.input_tensors);
    params->output_tensors = ConvertVectorToTfLiteIntArray(subset.output_tensors);
    delegate_params_.push_back(params);
    // The delegate kernel's init receives the params, not a parsed builtin struct.
    const int new_index = static_cast<int>(nodes_and_registration_.size());
    nodes_and_registration_.emplace_back();
    auto& [node, reg] = nodes_and_registration_.back();
    std::memset(&node, 0, sizeof(node));
    node.inputs = ConvertVectorToTfLiteIntArray(subset.input_tensors);
    node.outputs = ConvertVectorToTfLiteIntArray(subset.output_tensors);
    node.intermediates = TfLiteIntArrayCreate(0);
    node.temporaries = TfLiteIntArrayCreate(0);
    node.delegate = delegate;
    node.builtin_data = params;
    reg = registration;
    if (reg.init != nullptr) {
      node.user_data = reg.init(&context_, reinterpret_cast<const char*>(params), 0);
    }
    for (int t : subset.output_tensors) tensors_[t].delegate = delegate;
    execution_plan_.push_back(new_index);
  }
  needs_allocation_ = true;
  return kTfLiteOk;
}

void Subgraph::FreePreviewParams() {
  for (TfLiteDelegateParams& p : preview_params_) {
    TfLiteIntArrayFree(p.nodes_to_replace);
    TfLiteIntArrayFree(p.input_tensors);
    TfLiteIntArrayFree(p.output_tensors);
  }
  preview_params_.clear();
}

TfLiteStatus Subgraph::PreviewDelegatePartitioning(const TfLiteIntArray* nodes_to_replace,
                                                   TfLiteDelegateParams** partition_params_array,
                                                   int* num_partitions) {
  if (nodes_to_replace == nullptr || partition_params_array == nullptr ||
      num_partitions == nullptr) {
    return kTfLiteError;
  }
  FreePreviewParams();
  octet::SubgraphGraphInfo info(this);
  for (const octet::NodeSubset& subset : octet::PartitionGraphIntoIndependentNodeSubsets(
           info, execution_plan_, TfLiteIntArrayToVector(nodes_to_replace))) {
    if (!subset.delegated) continue;
    TfLiteDelegateParams p{};
    p.nodes_to_replace = ConvertVectorToTfLiteIntArray(subset.nodes);
    p.input_tensors = ConvertVectorToTfLiteIntArray(subset.input_tensors);
    p.output_tensors = ConvertVectorToTfLiteIntArray(subset.output_tensors);
    preview_params_.push_back(p);
  }
  // Valid until the next preview or until the graph is modified, as in TFLite.
  *partition_params_array = preview_params_.empty() ? nullptr : preview_params_.data();
  *num_partitions = static_cast<int>(preview_params_.size());
  return kTfLiteOk;
}

// --- inspection ------------------------------------------------------------------

TfLiteTensor* Subgraph::tensor(int index) {
  if (index < 0 || static_cast<size_t>(index) >= tensors_.size()) return nullptr;
  return &tensors_[index];
}

const TfLiteTensor* Subgraph::tensor(int index) const {
  if (index < 0 || static_cast<size_t>(index) >= tensors_.size()) return nullptr;
  return &tensors_[index];
}

const std::pair<TfLiteNode, TfLiteRegistration>* Subgraph::node_and_registration(
    int node_index) const {
  if (node_index < 0 || static_cast<size_t>(node_index) >= nodes_and_registration_.size()) {
    return nullptr;
  }
  return &nodes_and_registration_[node_index];
}

std::pair<TfLiteNode, TfLiteRegistration>* Subgraph::node_and_registration(int node_index) {
  if (node_index < 0 || static_cast<size_t>(node_index) >= nodes_and_registration_.size()) {
    return nullptr;
  }
  return &nodes_and_registration_[node_index];
}

const octet::PlannerStats* Subgraph::planner_stats() const {
  return needs_allocation_ ? nullptr : &planner_->stats();
}

}  // namespace tflite
