// tflite::Subgraph: one graph of tensors and nodes, its execution plan, its memory plan,
// and the TfLiteContext its kernels see.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/allocation.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/core/api/error_reporter.h"
#include "tensorflow/lite/core/api/profiler.h"

namespace octet {
class ArenaPlanner;
class MemoryBudget;
class Resources;
class OwnedQuantization;
struct PlannerStats;
}  // namespace octet

namespace tflite {

class Subgraph {
 public:
  Subgraph(ErrorReporter* error_reporter, std::vector<std::unique_ptr<Subgraph>>* subgraphs,
           int subgraph_index);
  ~Subgraph();
  Subgraph(const Subgraph&) = delete;
  Subgraph& operator=(const Subgraph&) = delete;

  // --- building -------------------------------------------------------------
  TfLiteStatus AddTensors(int tensors_to_add, int* first_new_tensor_index = nullptr);
  TfLiteStatus SetInputs(std::vector<int> inputs);
  TfLiteStatus SetOutputs(std::vector<int> outputs);
  TfLiteStatus SetVariables(std::vector<int> variables);
  // Constant tensor pointing at `buffer` (not copied; must outlive the subgraph).
  // Takes ownership of quantization params and sparsity.
  TfLiteStatus SetTensorParametersReadOnly(int tensor_index, TfLiteType type, const char* name,
                                           const std::vector<int>& dims,
                                           TfLiteQuantization quantization, const char* buffer,
                                           size_t bytes, const Allocation* allocation = nullptr,
                                           TfLiteSparsity* sparsity = nullptr);
  // Tensor planned into the arena (or the persistent arena when is_variable).
  TfLiteStatus SetTensorParametersReadWrite(int tensor_index, TfLiteType type, const char* name,
                                            const std::vector<int>& dims,
                                            TfLiteQuantization quantization,
                                            bool is_variable = false,
                                            const std::vector<int>& dims_signature = {});
  // Adds a node and calls its registration's init. Takes ownership of builtin_data
  // (malloc'd). For custom ops init_data/init_data_size are the custom options.
  TfLiteStatus AddNodeWithParameters(const std::vector<int>& inputs,
                                     const std::vector<int>& outputs,
                                     const std::vector<int>& intermediates, const char* init_data,
                                     size_t init_data_size, void* builtin_data,
                                     const TfLiteRegistration* registration,
                                     int* node_index = nullptr);

  // --- running --------------------------------------------------------------
  TfLiteStatus ResizeInputTensor(int tensor_index, const std::vector<int>& dims);
  // Runs every kernel's prepare in plan order, then plans and commits the arenas.
  TfLiteStatus AllocateTensors();
  TfLiteStatus Invoke();
  // Zeroes all variable tensors (e.g. LSTM state) back to their initial value.
  TfLiteStatus ResetVariableTensors();
  TfLiteStatus ModifyGraphWithDelegate(TfLiteDelegate* delegate);
  TfLiteStatus ReplaceNodeSubsetsWithDelegateKernels(TfLiteRegistration registration,
                                                     const TfLiteIntArray* nodes_to_replace,
                                                     TfLiteDelegate* delegate);
  // The delegated subsets ReplaceNodeSubsetsWithDelegateKernels would create, without
  // changing the graph. The array stays valid until the next call or graph change.
  TfLiteStatus PreviewDelegatePartitioning(const TfLiteIntArray* nodes_to_replace,
                                           TfLiteDelegateParams** partition_params_array,
                                           int* num_partitions);

  // --- inspection -----------------------------------------------------------
  TfLiteTensor* tensor(int index);
  const TfLiteTensor* tensor(int index) const;
  size_t tensors_size() const { return tensors_.size(); }
  size_t nodes_size() const { return nodes_and_registration_.size(); }
  const std::pair<TfLiteNode, TfLiteRegistration>* node_and_registration(int node_index) const;
  std::pair<TfLiteNode, TfLiteRegistration>* node_and_registration(int node_index);
  const std::vector<int>& execution_plan() const { return execution_plan_; }
  const std::vector<int>& inputs() const { return inputs_; }
  const std::vector<int>& outputs() const { return outputs_; }
  const std::vector<int>& variables() const { return variables_; }
  TfLiteContext* context() { return &context_; }
  const TfLiteContext* context() const { return &context_; }
  ErrorReporter* error_reporter() const { return error_reporter_; }
  int subgraph_index() const { return subgraph_index_; }
  const std::string& name() const { return name_; }
  void SetName(std::string name) { name_ = std::move(name); }
  // All subgraphs of the interpreter (for control-flow kernels: IF, WHILE, CALL_ONCE).
  std::vector<std::unique_ptr<Subgraph>>* subgraphs() { return subgraphs_; }
  // Arena sizes after AllocateTensors (nullptr before).
  const octet::PlannerStats* planner_stats() const;
  // Bytes kernels hold through AllocatePersistentBuffer (packed weights, tables).
  size_t kernel_persistent_bytes() const { return kernel_persistent_bytes_; }
  bool HasDynamicTensors() const { return first_unprepared_node_ < execution_plan_.size(); }
  void SetNumThreads(int num_threads) { context_.recommended_num_threads = num_threads; }
  // What context->GetExternalContext(type) returns to this subgraph's kernels.
  void SetExternalContext(TfLiteExternalContextType type, TfLiteExternalContext* ctx);
  TfLiteExternalContext* GetExternalContext(TfLiteExternalContextType type) const;
  // Whether AllocateTensors must run before the next Invoke.
  bool needs_allocation() const { return needs_allocation_; }

  // Receives an OPERATOR_INVOKE_EVENT per node invoke (null: none); also what kernels see as
  // context->profiler.
  void SetProfiler(Profiler* profiler);
  Profiler* GetProfiler() const { return profiler_; }

  // The implementation node `node_index` runs, as its kernel recorded it (octet/kernel_info.h).
  void SetNodeKernelName(const TfLiteNode* node, const char* name);
  const char* NodeKernelName(int node_index) const;
  // The index of one of this subgraph's nodes, or -1.
  int NodeIndexOf(const TfLiteNode* node) const;

  // Octet: a same-shape float ADD fused into the CONV_2D that produces one of its inputs
  // (core/residual_fusion.h), recorded by node index.
  struct ResidualFusion {
    // On the producer: the ADD it may compute (-1: none), its other input and its output.
    int add_node = -1;
    int residual = -1;
    int output = -1;
    bool accepted = false;  // the producer's kernel can compute it
    bool active = false;    // it does: set when every node is prepared
    // On the ADD: Octet's own kernel may be skipped, with these activation bounds.
    bool allowed = false;
    bool absorbed = false;  // skipped: its producer computes it
    float act_min = 0.f, act_max = 0.f;
  };
  std::vector<ResidualFusion>& residual_fusions() { return residual_fusions_; }
  const std::vector<ResidualFusion>& residual_fusions() const { return residual_fusions_; }

  // Cancellation: Invoke checks before every node and stops with kTfLiteCancelled when
  // check_cancelled_func(data) returns true or *cancel_requested is set (either may be null).
  void SetCancellationFunction(void* data, bool (*check_cancelled_func)(void*));
  void SetCancellationFlag(const std::atomic<bool>* cancel_requested);
  // Octet: the budget the arenas, kernels' persistent buffers and heap tensors are charged
  // to (null: unlimited). Set once, before AllocateTensors; it must outlive the subgraph.
  void SetMemoryBudget(octet::MemoryBudget* budget);
  octet::MemoryBudget* memory_budget() const { return memory_budget_; }
  // Octet: the interpreter's resources (variables, lookup tables), shared by its subgraphs
  // (null in a subgraph made outside an interpreter).
  void SetResources(octet::Resources* resources) { resources_ = resources; }
  octet::Resources* resources() const { return resources_; }
  bool IsCancelled() const;

  void ReportError(const char* format, ...);
  // Resizes (and for dynamic tensors reallocates) a tensor; takes ownership of new_size.
  TfLiteStatus ResizeTensor(TfLiteTensor* tensor, TfLiteIntArray* new_size);

 private:
  struct TensorExtra;
  // The bodies of the public calls of the same name, which catch running out of memory.
  TfLiteStatus ResizeInputTensorImpl(int tensor_index, const std::vector<int>& dims);
  TfLiteStatus AllocateTensorsImpl();
  TfLiteStatus InvokeImpl();
  TfLiteStatus ModifyGraphWithDelegateImpl(TfLiteDelegate* delegate);
  TfLiteStatus PrepareNode(size_t plan_index);
  TfLiteStatus RequestScratchBuffer(size_t bytes, int* index);
  void* ScratchBuffer(int index);
  TfLiteStatus InvokeNode(size_t plan_index);
  TfLiteStatus CheckTensorIndices(const char* label, const std::vector<int>& indices,
                                  bool allow_optional);
  void FreeTensorStorage(int tensor_index);
  void ReleaseHeapCharge(int tensor_index);
  TfLiteStatus ChargeHeapTensor(const TfLiteTensor& tensor, size_t bytes);
  // Frees what the tensor held and sets the fields both SetTensorParameters* share; the
  // tensor takes the quantization and sparsity.
  TfLiteTensor& ResetTensor(int tensor_index, TfLiteType type, const char* name,
                            const std::vector<int>& dims, octet::OwnedQuantization* quantization);
  TfLiteStatus CheckTensorIndex(const char* label, int index);
  void ResetNode(TfLiteNode& node, const TfLiteRegistration& registration);
  void SetupContextCallbacks();
  void FreePreviewParams();
  std::string OpName(int node_index) const;

  ErrorReporter* error_reporter_;
  std::vector<std::unique_ptr<Subgraph>>* subgraphs_;
  int subgraph_index_;
  std::string name_;
  TfLiteContext context_{};
  std::vector<TfLiteTensor> tensors_;
  std::vector<TensorExtra> tensor_extras_;
  std::vector<std::pair<TfLiteNode, TfLiteRegistration>> nodes_and_registration_;
  std::vector<int> execution_plan_;
  TfLiteIntArray* plan_cache_ = nullptr;  // what GetExecutionPlan hands out
  std::vector<int> inputs_, outputs_, variables_;
  std::unique_ptr<octet::ArenaPlanner> planner_;
  size_t first_unprepared_node_ = 0;
  bool needs_allocation_ = true;
  bool in_invoke_ = false;
  bool in_allocate_ = false;
  std::vector<TfLiteDelegateParams*> delegate_params_;
  std::vector<TfLiteDelegateParams> preview_params_;
  // RequestScratchBufferInArena: each node's scratch temporaries, in request order.
  std::map<int, std::vector<int>> scratch_tensors_;
  int preparing_node_ = -1;
  size_t scratch_requests_ = 0;
  std::deque<std::vector<char>> persistent_buffers_;
  size_t kernel_persistent_bytes_ = 0;
  octet::MemoryBudget* memory_budget_ = nullptr;
  octet::Resources* resources_ = nullptr;
  size_t persistent_charged_ = 0;  // kernel persistent buffers, against memory_budget_
  TfLiteExternalContext* external_contexts_[kTfLiteMaxExternalContexts] = {};
  std::vector<const char*> node_kernel_names_;    // by node index; null: none recorded
  std::vector<ResidualFusion> residual_fusions_;  // by node index
  Profiler* profiler_ = nullptr;
  void* cancellation_data_ = nullptr;
  bool (*check_cancelled_func_)(void*) = nullptr;
  const std::atomic<bool>* cancel_requested_ = nullptr;
};

}  // namespace tflite
