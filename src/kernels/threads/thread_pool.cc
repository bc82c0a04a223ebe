#include "kernels/threads/thread_pool.h"

#include <algorithm>

#if defined(OCTET_HAVE_PTHREADPOOL)
#include <pthreadpool.h>
#endif

namespace octet {

struct ThreadPool::Impl {
#if defined(OCTET_HAVE_PTHREADPOOL)
  pthreadpool_t pool = nullptr;
  ~Impl() {
    if (pool) pthreadpool_destroy(pool);
  }
#endif
};

ThreadPool::ThreadPool(int threads) : threads_(std::max(1, threads)) {
#if defined(OCTET_HAVE_PTHREADPOOL)
  if (threads_ > 1) {
    impl_ = std::make_unique<Impl>();
    impl_->pool = pthreadpool_create(static_cast<size_t>(threads_));
    if (impl_->pool == nullptr) threads_ = 1;  // could not start workers: run serially
  }
#else
  threads_ = 1;
#endif
}

ThreadPool::~ThreadPool() = default;

void* ThreadPool::native_handle() const {
#if defined(OCTET_HAVE_PTHREADPOOL)
  if (impl_ && impl_->pool) return impl_->pool;
#endif
  return nullptr;
}

bool ThreadPool::CanRunInParallel() {
#if defined(OCTET_HAVE_PTHREADPOOL)
  return true;
#else
  return false;
#endif
}

void ThreadPool::Run(size_t tasks, void (*task)(void*, size_t), void* context) {
#if defined(OCTET_HAVE_PTHREADPOOL)
  if (impl_ && impl_->pool) {
    pthreadpool_parallelize_1d(impl_->pool, task, context, tasks, /*flags=*/0);
    return;
  }
#endif
  for (size_t i = 0; i < tasks; ++i) task(context, i);
}

size_t SuggestedTaskCount(size_t work_items, int threads) {
  if (threads <= 1) return 1;
  return std::min<size_t>(work_items, static_cast<size_t>(threads) * 4);
}

}  // namespace octet
