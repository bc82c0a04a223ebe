#include "kernels/threads/cpu_backend_context.h"

namespace octet {
namespace {

// Marks a TfLiteExternalContext as Octet's (another runtime's context of the same type
// would not be a CpuBackendContext).
TfLiteStatus RefreshCpuBackend(TfLiteContext*) { return kTfLiteOk; }

}  // namespace

CpuBackendContext::CpuBackendContext()
    : TfLiteExternalContext{}, pool_(std::make_unique<ThreadPool>(1)) {
  type = kTfLiteCpuBackendContext;
  Refresh = &RefreshCpuBackend;
}

CpuBackendContext::~CpuBackendContext() = default;

void CpuBackendContext::SetMaxNumThreads(int num_threads) {
  const int threads = num_threads < 1 ? 1 : num_threads;
  if (threads == pool_->threads()) return;
  retired_.push_back(std::move(pool_));
  pool_ = std::make_unique<ThreadPool>(threads);
}

ThreadPool* GetThreadPool(TfLiteContext* context) {
  if (context == nullptr || context->GetExternalContext == nullptr) return nullptr;
  TfLiteExternalContext* external = context->GetExternalContext(context, kTfLiteCpuBackendContext);
  if (external == nullptr || external->Refresh != &RefreshCpuBackend) return nullptr;
  return static_cast<CpuBackendContext*>(external)->thread_pool();
}

}  // namespace octet
