// TfLiteDelegateFactory: a TfLiteDelegate whose data_ is the SimpleDelegateInterface, and
// whose kernels hold one SimpleDelegateKernelInterface each (node user_data).
#include "tensorflow/lite/delegates/utils/simple_delegate.h"

#include <limits>

#include "tensorflow/lite/delegates/utils.h"

namespace tflite {
namespace {

SimpleDelegateInterface* Simple(const TfLiteDelegate* delegate) {
  return static_cast<SimpleDelegateInterface*>(delegate->data_);
}

SimpleDelegateKernelInterface* Kernel(TfLiteContext* context, TfLiteNode* node) {
  auto* kernel = static_cast<SimpleDelegateKernelInterface*>(node->user_data);
  if (kernel == nullptr) context->ReportError(context, "delegate kernel failed to initialize");
  return kernel;
}

TfLiteRegistration KernelRegistration(SimpleDelegateInterface* simple) {
  TfLiteRegistration r{};
  r.init = [](TfLiteContext* context, const char* buffer, size_t) -> void* {
    const auto* params = reinterpret_cast<const TfLiteDelegateParams*>(buffer);
    std::unique_ptr<SimpleDelegateKernelInterface> kernel =
        Simple(params->delegate)->CreateDelegateKernelInterface();
    if (kernel == nullptr || kernel->Init(context, params) != kTfLiteOk) return nullptr;
    return kernel.release();
  };
  r.free = [](TfLiteContext*, void* buffer) {
    delete static_cast<SimpleDelegateKernelInterface*>(buffer);
  };
  r.prepare = [](TfLiteContext* context, TfLiteNode* node) -> TfLiteStatus {
    SimpleDelegateKernelInterface* kernel = Kernel(context, node);
    return kernel ? kernel->Prepare(context, node) : kTfLiteError;
  };
  r.invoke = [](TfLiteContext* context, TfLiteNode* node) -> TfLiteStatus {
    SimpleDelegateKernelInterface* kernel = Kernel(context, node);
    return kernel ? kernel->Eval(context, node) : kTfLiteError;
  };
  r.custom_name = simple->Name();
  r.version = 1;
  return r;
}

TfLiteStatus DelegatePrepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  SimpleDelegateInterface* simple = Simple(delegate);
  TF_LITE_ENSURE_STATUS(simple->Initialize(context));
  delegates::GraphPartitionHelper helper(context, [simple](TfLiteContext* ctx, TfLiteNode* node,
                                                           TfLiteRegistration* reg, std::string*) {
    return simple->IsNodeSupportedByDelegate(reg, node, ctx);
  });
  TF_LITE_ENSURE_STATUS(helper.Partition(nullptr));
  const SimpleDelegateInterface::Options options = simple->DelegateOptions();
  const int max_partitions = options.max_delegated_partitions > 0 ? options.max_delegated_partitions
                                                                  : std::numeric_limits<int>::max();
  const std::vector<int> nodes =
      helper.GetNodesOfFirstNLargestPartitions(max_partitions, options.min_nodes_per_partition);
  if (nodes.empty()) return kTfLiteOk;
  TfLiteIntArray* to_replace = ConvertVectorToTfLiteIntArray(nodes);
  const TfLiteStatus status = context->ReplaceNodeSubsetsWithDelegateKernels(
      context, KernelRegistration(simple), to_replace, delegate);
  TfLiteIntArrayFree(to_replace);
  return status;
}

}  // namespace

TfLiteDelegate* TfLiteDelegateFactory::CreateSimpleDelegate(
    std::unique_ptr<SimpleDelegateInterface> simple_delegate, int64_t flags) {
  if (simple_delegate == nullptr) return nullptr;
  auto* delegate = new TfLiteDelegate(TfLiteDelegateCreate());
  delegate->data_ = simple_delegate.release();
  delegate->Prepare = DelegatePrepare;
  delegate->flags = flags;
  return delegate;
}

void TfLiteDelegateFactory::DeleteSimpleDelegate(TfLiteDelegate* delegate) {
  if (delegate == nullptr) return;
  delete Simple(delegate);
  delete delegate;
}

}  // namespace tflite
