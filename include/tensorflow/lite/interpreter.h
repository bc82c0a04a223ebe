// tflite::Interpreter: owns the subgraphs of a model and runs the primary one.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/portable_type_to_tflitetype.h"
#include "tensorflow/lite/signature_runner.h"

namespace octet {
class CpuBackendContext;
class MemoryBudget;
class Resources;
}  // namespace octet

namespace tflite {

class InterpreterBuilder;

class Interpreter {
 public:
  explicit Interpreter(ErrorReporter* error_reporter = DefaultErrorReporter());
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // --- building by hand (the builder uses the same calls) ----------------------
  TfLiteStatus SetInputs(std::vector<int> inputs);
  TfLiteStatus SetOutputs(std::vector<int> outputs);
  TfLiteStatus SetVariables(std::vector<int> variables);
  TfLiteStatus AddTensors(int tensors_to_add, int* first_new_tensor_index = nullptr);
  TfLiteStatus AddNodeWithParameters(const std::vector<int>& inputs,
                                     const std::vector<int>& outputs, const char* init_data,
                                     size_t init_data_size, void* builtin_data,
                                     const TfLiteRegistration* registration,
                                     int* node_index = nullptr);
  TfLiteStatus SetTensorParametersReadOnly(int tensor_index, TfLiteType type, const char* name,
                                           const std::vector<int>& dims,
                                           TfLiteQuantization quantization, const char* buffer,
                                           size_t bytes, const Allocation* allocation = nullptr);
  TfLiteStatus SetTensorParametersReadOnly(int tensor_index, TfLiteType type, const char* name,
                                           const std::vector<int>& dims,
                                           TfLiteQuantizationParams quantization,
                                           const char* buffer, size_t bytes,
                                           const Allocation* allocation = nullptr);
  TfLiteStatus SetTensorParametersReadWrite(int tensor_index, TfLiteType type, const char* name,
                                            const std::vector<int>& dims,
                                            TfLiteQuantization quantization,
                                            bool is_variable = false);
  TfLiteStatus SetTensorParametersReadWrite(int tensor_index, TfLiteType type, const char* name,
                                            const std::vector<int>& dims,
                                            TfLiteQuantizationParams quantization,
                                            bool is_variable = false);

  // --- running ---------------------------------------------------------------
  TfLiteStatus AllocateTensors();
  TfLiteStatus Invoke();
  TfLiteStatus ResizeInputTensor(int tensor_index, const std::vector<int>& dims);
  TfLiteStatus ResizeInputTensorStrict(int tensor_index, const std::vector<int>& dims);
  TfLiteStatus ResetVariableTensors();
  TfLiteStatus ModifyGraphWithDelegate(TfLiteDelegate* delegate);

  // Owning handle to a delegate.
  using TfLiteDelegatePtr = std::unique_ptr<TfLiteDelegate, void (*)(TfLiteDelegate*)>;
  // The interpreter keeps the delegate (even when applying it fails) and deletes it with its
  // deleter after the graph that uses it is gone.
  template <typename Delegate, typename Deleter>
  inline TfLiteStatus ModifyGraphWithDelegate(std::unique_ptr<Delegate, Deleter> delegate) {
    Deleter deleter = std::move(delegate.get_deleter());
    owned_delegates_.emplace_back(delegate.release(), [deleter](TfLiteDelegate* d) {
      deleter(static_cast<typename std::unique_ptr<Delegate, Deleter>::pointer>(d));
    });
    return ModifyGraphWithDelegate(owned_delegates_.back().get());
  }
  // TfLiteDelegate is a C struct: the default deleter cannot delete what derives from it.
  TfLiteStatus ModifyGraphWithDelegate(std::unique_ptr<TfLiteDelegate> delegate) = delete;

  // A hint for kernels and delegates (context->allow_fp32_relax_to_fp16); Octet's own kernels
  // have no float16 path and always compute in float32.
  void SetAllowFp16PrecisionForFp32(bool allow);
  bool GetAllowFp16PrecisionForFp32() const {
    return primary_subgraph().context()->allow_fp32_relax_to_fp16;
  }

  // --- cancellation ------------------------------------------------------------
  // Invoke asks check_cancelled_func(data) before every node (in every subgraph, so also in
  // each WHILE iteration) and stops with kTfLiteCancelled when it returns true.
  void SetCancellationFunction(void* data, bool (*check_cancelled_func)(void*));
  // Makes Cancel() work; the C API's TfLiteInterpreterOptionsEnableCancellation calls it.
  TfLiteStatus EnableCancellation();
  // Stops the Invoke in flight (from any thread) at its next node with kTfLiteCancelled.
  // A cancel before an Invoke starts does not affect it. kTfLiteError unless enabled.
  TfLiteStatus Cancel();

  // --- memory limit (an Octet extension) ----------------------------------------
  // The most memory this interpreter may hold in its tensor arenas, the kernels' persistent
  // buffers (packed weights) and heap tensors, over all subgraphs. Each allocation is checked
  // first: a model that needs more fails AllocateTensors (or Invoke, for shapes known only
  // then) with an error naming the request. The default is $OCTET_MAX_MEMORY when set,
  // otherwise half of the physical memory; SIZE_MAX means unlimited. Lowering the limit
  // frees nothing: it applies to later allocations.
  void SetMaxMemoryBytes(size_t bytes);
  size_t max_memory_bytes() const;
  size_t memory_used_bytes() const;  // held now
  size_t memory_peak_bytes() const;  // the most held at once so far

  // Threads the built-in kernels split their work across (-1: the default, 1).
  TfLiteStatus SetNumThreads(int num_threads);
  // Receives an OPERATOR_INVOKE_EVENT for every node invoke of every subgraph (null: none).
  // The profiler must outlive its use; the unique_ptr overload hands it to the interpreter.
  void SetProfiler(Profiler* profiler);
  void SetProfiler(std::unique_ptr<Profiler> profiler);
  Profiler* GetProfiler() { return profiler_; }

  // An external context every subgraph's kernels see (replaces the interpreter's own CPU
  // backend context for kTfLiteCpuBackendContext).
  void SetExternalContext(TfLiteExternalContextType type, TfLiteExternalContext* ctx);

  // --- tensors -----------------------------------------------------------------
  const std::vector<int>& inputs() const { return primary_subgraph().inputs(); }
  const std::vector<int>& outputs() const { return primary_subgraph().outputs(); }
  const std::vector<int>& variables() const { return primary_subgraph().variables(); }
  const char* GetInputName(int index) const;
  const char* GetOutputName(int index) const;
  size_t tensors_size() const { return primary_subgraph().tensors_size(); }
  size_t nodes_size() const { return primary_subgraph().nodes_size(); }
  const std::vector<int>& execution_plan() const { return primary_subgraph().execution_plan(); }
  TfLiteTensor* tensor(int index) { return primary_subgraph().tensor(index); }
  const TfLiteTensor* tensor(int index) const { return primary_subgraph().tensor(index); }
  TfLiteTensor* input_tensor(size_t index) { return tensor(inputs().at(index)); }
  const TfLiteTensor* input_tensor(size_t index) const { return tensor(inputs().at(index)); }
  TfLiteTensor* output_tensor(size_t index) { return tensor(outputs().at(index)); }
  const TfLiteTensor* output_tensor(size_t index) const { return tensor(outputs().at(index)); }
  const std::pair<TfLiteNode, TfLiteRegistration>* node_and_registration(int node_index) const {
    return primary_subgraph().node_and_registration(node_index);
  }

  // Null when there is no such tensor or its type is not T's (as in TFLite).
  template <class T>
  T* typed_tensor(int tensor_index) {
    TfLiteTensor* t = tensor(tensor_index);
    if (t == nullptr || t->type != typeToTfLiteType<T>()) return nullptr;
    return reinterpret_cast<T*>(t->data.raw);
  }
  template <class T>
  const T* typed_tensor(int tensor_index) const {
    const TfLiteTensor* t = tensor(tensor_index);
    if (t == nullptr || t->type != typeToTfLiteType<T>()) return nullptr;
    return reinterpret_cast<const T*>(t->data.raw);
  }
  template <class T>
  T* typed_input_tensor(int index) {
    if (index < 0 || static_cast<size_t>(index) >= inputs().size()) return nullptr;
    return typed_tensor<T>(inputs()[index]);
  }
  template <class T>
  const T* typed_input_tensor(int index) const {
    if (index < 0 || static_cast<size_t>(index) >= inputs().size()) return nullptr;
    return typed_tensor<T>(inputs()[index]);
  }
  template <class T>
  T* typed_output_tensor(int index) {
    if (index < 0 || static_cast<size_t>(index) >= outputs().size()) return nullptr;
    return typed_tensor<T>(outputs()[index]);
  }
  template <class T>
  const T* typed_output_tensor(int index) const {
    if (index < 0 || static_cast<size_t>(index) >= outputs().size()) return nullptr;
    return typed_tensor<T>(outputs()[index]);
  }

  // --- subgraphs and signatures ----------------------------------------------
  size_t subgraphs_size() const { return subgraphs_.size(); }
  Subgraph* subgraph(int index);
  const Subgraph* subgraph(int index) const;
  Subgraph& primary_subgraph() { return *subgraphs_.front(); }
  const Subgraph& primary_subgraph() const { return *subgraphs_.front(); }
  void AddSubgraphs(int subgraphs_to_add, int* first_new_subgraph_index = nullptr);

  std::vector<const std::string*> signature_keys() const;
  // nullptr when no signature has that key; with no key, the first signature.
  SignatureRunner* GetSignatureRunner(const char* signature_key);
  const std::map<std::string, uint32_t>& signature_inputs(const char* signature_key) const;
  const std::map<std::string, uint32_t>& signature_outputs(const char* signature_key) const;
  // The subgraph a signature runs (-1: no such signature).
  int GetSubgraphIndexFromSignature(const char* signature_key) const;
  // A signature's tensor by its signature name (null when the key or name is unknown).
  TfLiteTensor* input_tensor_by_signature(const char* signature_input_name,
                                          const char* signature_key);
  const TfLiteTensor* output_tensor_by_signature(const char* signature_output_name,
                                                 const char* signature_key) const;

  ErrorReporter* error_reporter() const { return error_reporter_; }

 private:
  friend class InterpreterBuilder;
  struct SignatureDef {
    std::string key;
    int subgraph_index = 0;
    std::map<std::string, uint32_t> inputs, outputs;
  };
  void AddSignature(SignatureDef def) { signature_defs_.push_back(std::move(def)); }
  // The signature with this key; with a null key, the first one if first_if_null.
  const SignatureDef* FindSignature(const char* signature_key, bool first_if_null) const;

  ErrorReporter* error_reporter_;
  // Declared before subgraphs_ so that it outlives them: they give their memory back to it.
  std::unique_ptr<octet::MemoryBudget> memory_budget_;
  // Resources (variables, lookup tables) of all subgraphs, kept across invokes (charged to
  // the budget above).
  std::unique_ptr<octet::Resources> resources_;
  std::vector<std::unique_ptr<Subgraph>> subgraphs_;
  std::vector<SignatureDef> signature_defs_;
  std::map<std::string, std::unique_ptr<SignatureRunner>> signature_runners_;
  std::vector<TfLiteDelegate*> delegates_applied_;
  // Delegates handed over with ModifyGraphWithDelegate(unique_ptr); freed after subgraphs_.
  std::vector<std::unique_ptr<TfLiteDelegate, std::function<void(TfLiteDelegate*)>>>
      owned_delegates_;
  // Set by Cancel(), cleared when Invoke starts; shared by every subgraph.
  std::atomic<bool> cancel_requested_{false};
  bool cancellation_enabled_ = false;
  void* cancellation_data_ = nullptr;
  bool (*check_cancelled_func_)(void*) = nullptr;
  int num_threads_ = 1;
  // The thread pool of the built-in kernels, shared by every subgraph.
  std::unique_ptr<octet::CpuBackendContext> own_cpu_backend_context_;
  Profiler* profiler_ = nullptr;
  std::unique_ptr<Profiler> owned_profiler_;
  TfLiteExternalContext* external_contexts_[kTfLiteMaxExternalContexts] = {};
};

}  // namespace tflite
