#include "kernels/threads/thread_pool.h"

#include <algorithm>

#if defined(OCTET_HAVE_PTHREADPOOL)
#include <pthreadpool.h>
#endif

// ThreadSanitizer cannot see the synchronization inside Debian's pthreadpool (not built with
// it), so under TSan the hand-over is declared: everything before parallelize happens before
// every task, and every task before parallelize returns, which pthreadpool guarantees.
#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* address);
extern "C" void __tsan_release(void* address);
#define OCTET_DECLARE_TSAN_HANDOVER 1
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
#if defined(OCTET_DECLARE_TSAN_HANDOVER)
    struct Handover {
      void (*task)(void*, size_t);
      void* context;
    } handover{task, context};
    __tsan_release(&handover);
    pthreadpool_parallelize_1d(
        impl_->pool,
        [](void* h, size_t i) {
          __tsan_acquire(h);
          static_cast<Handover*>(h)->task(static_cast<Handover*>(h)->context, i);
          __tsan_release(h);
        },
        &handover, tasks, /*flags=*/0);
    __tsan_acquire(&handover);
#else
    pthreadpool_parallelize_1d(impl_->pool, task, context, tasks, /*flags=*/0);
#endif
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
