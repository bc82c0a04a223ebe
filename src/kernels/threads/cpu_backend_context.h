// The kernels' view of the interpreter's threads. As in TFLite, the interpreter owns a
// kTfLiteCpuBackendContext external context that every subgraph's TfLiteContext hands out;
// Octet's holds the thread pool the optimized kernels split their work across.
#pragma once

#include <memory>
#include <vector>

#include "kernels/threads/thread_pool.h"
#include "tensorflow/lite/c/common.h"

namespace octet {

class CpuBackendContext : public TfLiteExternalContext {
 public:
  CpuBackendContext();
  ~CpuBackendContext();
  CpuBackendContext(const CpuBackendContext&) = delete;
  CpuBackendContext& operator=(const CpuBackendContext&) = delete;

  // num_threads >= 1, or -1 for the default (1, as TFLite's CPU backend). A replaced pool is
  // kept (idle) until the context goes: a delegate runtime built on it stays valid.
  void SetMaxNumThreads(int num_threads);
  int max_num_threads() const { return pool_->threads(); }
  ThreadPool* thread_pool() { return pool_.get(); }

 private:
  std::unique_ptr<ThreadPool> pool_;
  std::vector<std::unique_ptr<ThreadPool>> retired_;
};

// The thread pool of the interpreter running `context`'s kernels, or nullptr when the context
// has no Octet CPU backend (a kernel then runs on the calling thread).
ThreadPool* GetThreadPool(TfLiteContext* context);

}  // namespace octet
