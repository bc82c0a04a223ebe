// The XNNPACK delegate (built only with OCTET_HAVE_XNNPACK).
//
// Prepare walks the execution plan and keeps every node that one visitor, NodeToXnn, can
// express as XNNPACK subgraph nodes. The visitor runs twice: first per node against a
// scratch xnn_subgraph (so XNNPACK's own define-time validation decides along with ours),
// then, in the delegate kernel's init, for all nodes of a partition against the real
// subgraph whose external values are the partition's boundary tensors. The kernel owns the
// XNNPACK runtime; invoke binds the TFLite tensors' buffers and runs it.
//
// Written against the XNNPACK API of Debian 12 (0.0~git20220216): no concatenation there.
// Float32 and 8-bit quantized nodes (QS8 per-tensor, QC8 per-channel weights, QU8), as
// TFLite's XNNPACK delegate; XNNPACK requantizes in fp32, so 8-bit results may differ from
// the reference kernels by a step.
#include "octet/xnnpack_delegate.h"

#include <pthreadpool.h>
#include <xnnpack.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "delegates/xnnpack/xnnpack_builder.h"
#include "delegates/xnnpack/xnnpack_util.h"
#include "delegates/xnnpack/xnnpack_visitors.h"
#include "kernels/threads/cpu_backend_context.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"

namespace octet::xnnpack {
namespace {

constexpr const char* kKernelName = "XNNPACK";

// xnn_initialize is process-wide; done once, never undone (XNNPACK keeps only static tables).
bool LibraryReady() {
  static const bool ready = xnn_initialize(nullptr) == xnn_status_success;
  return ready;
}

struct SubgraphDeleter {
  void operator()(xnn_subgraph_t s) const { xnn_delete_subgraph(s); }
};
struct RuntimeDeleter {
  void operator()(xnn_runtime_t r) const { xnn_delete_runtime(r); }
};
struct PoolDeleter {
  void operator()(pthreadpool_t p) const { pthreadpool_destroy(p); }
};
using SubgraphPtr = std::unique_ptr<std::remove_pointer_t<xnn_subgraph_t>, SubgraphDeleter>;
using RuntimePtr = std::unique_ptr<std::remove_pointer_t<xnn_runtime_t>, RuntimeDeleter>;
using PoolPtr = std::unique_ptr<std::remove_pointer_t<pthreadpool_t>, PoolDeleter>;

SubgraphPtr NewSubgraph(uint32_t external_ids) {
  xnn_subgraph_t raw = nullptr;
  if (xnn_create_subgraph(external_ids, 0, &raw) != xnn_status_success) return nullptr;
  return SubgraphPtr(raw);
}

// What the C handle's data_ points at.
struct Delegate {
  TfLiteDelegate handle{};
  OctetXnnpackOptions options{};
  PoolPtr pool;  // null: run on the calling thread
};

Delegate* FromHandle(TfLiteDelegate* d) { return static_cast<Delegate*>(d->data_); }

// ---- the delegate kernel: one per partition --------------------------------------------------

struct Kernel {
  struct External {
    int tensor;
    uint32_t id;
    std::vector<int> dims;  // the shape the runtime was built for
    // Set for a result no one reads (an output of a partition node that neither the
    // partition nor the graph consumes): XNNPACK still needs memory to write it to.
    std::vector<uint8_t> discard;
  };
  OwnedBuffers owned;  // delegate-made constants; outlive the runtime
  RuntimePtr runtime;
  std::vector<External> externals;
  std::vector<xnn_external_value> bound;  // what the runtime was last set up with
};

// Builds `nodes` into one XNNPACK subgraph whose external values are the boundary tensors
// `inputs` (run-time ones; constants are baked in) and `outputs`, and creates its runtime
// on `pool`. On failure returns false, with a message when `report` is set.
bool BuildKernel(TfLiteContext* ctx, const TfLiteIntArray& nodes, const TfLiteIntArray& inputs,
                 const TfLiteIntArray& outputs, pthreadpool_t pool, bool report, Kernel* kernel) {
  const auto fail = [&](const std::string& message) {
    if (report) ctx->ReportError(ctx, "XNNPACK delegate: %s", message.c_str());
    return false;
  };
  std::unordered_map<int, ExternalValue> externals;
  uint32_t next_id = 0;
  for (int i = 0; i < inputs.size; ++i) {
    const int t = inputs.data[i];
    const TfLiteTensor* tensor = TensorAt(ctx, t);
    if (tensor == nullptr || IsConstant(*tensor) || externals.count(t)) continue;
    externals[t] = {next_id++, XNN_VALUE_FLAG_EXTERNAL_INPUT};
  }
  for (int i = 0; i < outputs.size; ++i) {
    const int t = outputs.data[i];
    if (TensorAt(ctx, t) == nullptr) continue;
    auto [it, fresh] = externals.try_emplace(t, ExternalValue{next_id, 0});
    if (fresh) ++next_id;
    it->second.flags |= XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
  }
  // Results no node of the partition reads and no one outside either: XNNPACK leaves such
  // internal values without memory (and asserts when it sets the runtime up), so they become
  // external outputs bound to a buffer of the kernel's own.
  std::unordered_set<int> consumed;
  for (int i = 0; i < nodes.size; ++i) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    if (ctx->GetNodeAndRegistration(ctx, nodes.data[i], &node, &reg) != kTfLiteOk) continue;
    for (int k = 0; k < node->inputs->size; ++k) consumed.insert(node->inputs->data[k]);
  }
  std::unordered_set<int> discarded;
  for (int i = 0; i < nodes.size; ++i) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    if (ctx->GetNodeAndRegistration(ctx, nodes.data[i], &node, &reg) != kTfLiteOk) continue;
    for (int k = 0; k < node->outputs->size; ++k) {
      const int t = node->outputs->data[k];
      if (TensorAt(ctx, t) == nullptr || consumed.count(t) || externals.count(t)) continue;
      externals[t] = {next_id++, XNN_VALUE_FLAG_EXTERNAL_OUTPUT};
      discarded.insert(t);
    }
  }

  SubgraphPtr subgraph = NewSubgraph(next_id);
  if (!subgraph) return fail("cannot create a subgraph");
  Builder b(ctx, subgraph.get(), &externals, &kernel->owned);
  for (int i = 0; i < nodes.size; ++i) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    if (ctx->GetNodeAndRegistration(ctx, nodes.data[i], &node, &reg) != kTfLiteOk ||
        !NodeToXnn(ctx, *node, *reg, b)) {
      return fail("cannot express node " + std::to_string(nodes.data[i]) + " in XNNPACK");
    }
  }
  for (const auto& [tensor, value] : externals) {
    if (!b.IsDefined(tensor)) {
      // An output nobody defined would be garbage; an unused input is simply not bound.
      if (value.flags & XNN_VALUE_FLAG_EXTERNAL_OUTPUT) {
        return fail("output tensor " + std::to_string(tensor) + " is not computed");
      }
      continue;
    }
    Kernel::External e{tensor, value.id, Dims(ctx->tensors[tensor]), {}};
    if (discarded.count(tensor)) e.discard.resize(std::max<size_t>(ctx->tensors[tensor].bytes, 1));
    kernel->externals.push_back(std::move(e));
  }
  xnn_runtime_t runtime = nullptr;
  if (xnn_create_runtime_v2(subgraph.get(), pool, 0, &runtime) != xnn_status_success) {
    return fail("cannot create the runtime");
  }
  kernel->runtime.reset(runtime);
  return true;  // the subgraph is no longer needed once the runtime exists
}

// Per-node check: our rules, XNNPACK's define-time validation and its runtime creation (some
// operator limits of XNNPACK show only there), for the node alone. A node that passes can
// be part of any partition.
bool IsNodeSupported(TfLiteContext* ctx, int node_index, const TfLiteNode& node) {
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(1);
  nodes->data[0] = node_index;
  Kernel trial;
  const bool ok = BuildKernel(ctx, *nodes, *node.inputs, *node.outputs, nullptr, false, &trial);
  TfLiteIntArrayFree(nodes);
  return ok;
}

void* KernelInit(TfLiteContext* ctx, const char* buffer, size_t) {
  const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
  Delegate* delegate = FromHandle(params->delegate);
  // One pool per interpreter: XNNPACK runs on the built-in kernels' pthreadpool when the
  // context has Octet's, so partitions and built-in nodes never leave two pools spinning
  // against each other; the delegate's own pool serves other runtimes.
  pthreadpool_t pool = delegate->pool.get();
  if (ThreadPool* shared = GetThreadPool(ctx)) {
    pool = static_cast<pthreadpool_t>(shared->native_handle());
  }
  auto kernel = std::make_unique<Kernel>();
  if (!BuildKernel(ctx, *params->nodes_to_replace, *params->input_tensors, *params->output_tensors,
                   pool, true, kernel.get())) {
    return nullptr;
  }
  return kernel.release();
}

void KernelFree(TfLiteContext*, void* buffer) { delete static_cast<Kernel*>(buffer); }

std::string ShapeText(const std::vector<int>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

TfLiteStatus KernelPrepare(TfLiteContext* ctx, TfLiteNode* node) {
  auto* kernel = static_cast<Kernel*>(node->user_data);
  if (kernel == nullptr) {
    ctx->ReportError(ctx, "XNNPACK delegate: this partition could not be built");
    return kTfLiteError;
  }
  for (const Kernel::External& e : kernel->externals) {
    const std::vector<int> now = Dims(ctx->tensors[e.tensor]);
    if (now != e.dims) {
      ctx->ReportError(ctx,
                       "XNNPACK delegate: tensor %d is now %s but was %s when delegated "
                       "(the delegate supports static shapes only)",
                       e.tensor, ShapeText(now).c_str(), ShapeText(e.dims).c_str());
      return kTfLiteError;
    }
  }
  kernel->bound.clear();  // buffers may move with the next allocation
  return kTfLiteOk;
}

TfLiteStatus KernelInvoke(TfLiteContext* ctx, TfLiteNode* node) {
  auto* kernel = static_cast<Kernel*>(node->user_data);
  if (kernel == nullptr) return kTfLiteError;
  std::vector<xnn_external_value> values;
  values.reserve(kernel->externals.size());
  for (Kernel::External& e : kernel->externals) {
    void* data = e.discard.empty() ? static_cast<void*>(ctx->tensors[e.tensor].data.raw)
                                   : static_cast<void*>(e.discard.data());
    if (data == nullptr) {
      ctx->ReportError(ctx, "XNNPACK delegate: tensor %d has no buffer", e.tensor);
      return kTfLiteError;
    }
    values.push_back({e.id, data});
  }
  const bool same = values.size() == kernel->bound.size() &&
                    std::equal(values.begin(), values.end(), kernel->bound.begin(),
                               [](const xnn_external_value& a, const xnn_external_value& c) {
                                 return a.id == c.id && a.data == c.data;
                               });
  if (!same) {
    if (xnn_setup_runtime(kernel->runtime.get(), values.size(), values.data()) !=
        xnn_status_success) {
      ctx->ReportError(ctx, "XNNPACK delegate: runtime setup failed");
      kernel->bound.clear();
      return kTfLiteError;
    }
    kernel->bound = std::move(values);
  }
  if (xnn_invoke_runtime(kernel->runtime.get()) != xnn_status_success) {
    ctx->ReportError(ctx, "XNNPACK delegate: runtime invoke failed");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus DelegatePrepare(TfLiteContext* ctx, TfLiteDelegate* handle) {
  TfLiteIntArray* plan = nullptr;
  if (ctx->GetExecutionPlan(ctx, &plan) != kTfLiteOk) return kTfLiteError;
  std::vector<int> supported;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* reg = nullptr;
    if (ctx->GetNodeAndRegistration(ctx, plan->data[i], &node, &reg) != kTfLiteOk) {
      return kTfLiteError;
    }
    if (IsNodeSupported(ctx, plan->data[i], *node)) supported.push_back(plan->data[i]);
  }
  if (supported.empty()) return kTfLiteOk;

  TfLiteRegistration kernel{};
  kernel.init = KernelInit;
  kernel.free = KernelFree;
  kernel.prepare = KernelPrepare;
  kernel.invoke = KernelInvoke;
  kernel.custom_name = kKernelName;
  kernel.version = 1;
  TfLiteIntArray* nodes = TfLiteIntArrayCreate(static_cast<int>(supported.size()));
  std::copy(supported.begin(), supported.end(), nodes->data);
  const TfLiteStatus status =
      ctx->ReplaceNodeSubsetsWithDelegateKernels(ctx, kernel, nodes, handle);
  TfLiteIntArrayFree(nodes);
  return status;
}

}  // namespace
}  // namespace octet::xnnpack

using octet::xnnpack::Delegate;

extern "C" bool OctetXnnpackAvailable(void) { return octet::xnnpack::LibraryReady(); }

extern "C" TfLiteDelegate* OctetXnnpackDelegateCreate(const OctetXnnpackOptions* options) {
  if (!octet::xnnpack::LibraryReady()) return nullptr;
  auto delegate = std::make_unique<Delegate>();
  delegate->options = options ? *options : OctetXnnpackOptionsDefault();
  if (delegate->options.num_threads > 1) {
    delegate->pool.reset(pthreadpool_create(static_cast<size_t>(delegate->options.num_threads)));
    if (!delegate->pool) return nullptr;
  }
  delegate->handle = TfLiteDelegateCreate();
  delegate->handle.data_ = delegate.get();
  delegate->handle.Prepare = octet::xnnpack::DelegatePrepare;
  delegate->handle.flags = kTfLiteDelegateFlagsNone;
  return &delegate.release()->handle;
}

extern "C" void OctetXnnpackDelegateDelete(TfLiteDelegate* handle) {
  if (handle == nullptr) return;
  delete octet::xnnpack::FromHandle(handle);
}
