// The kernels' thread pool: ParallelFor over independent tasks (output tiles). Backed by
// pthreadpool when the build has it; without it every task runs on the calling thread.
// Results never depend on the thread count: each output is computed by exactly one task,
// with the same arithmetic whichever thread runs it.
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>

namespace octet {

class ThreadPool {
 public:
  // `threads` >= 1 is the total number of threads, the caller included.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return threads_; }
  // False in builds without a threading backend (no pthreadpool): every pool has one thread.
  static bool CanRunInParallel();
  // The underlying pthreadpool_t, for libraries that take one (XNNPACK), so that one pool
  // serves them and the built-in kernels; null with one thread.
  void* native_handle() const;

  // Calls fn(i) once for every i in [0, tasks), possibly concurrently; returns when all
  // calls have returned.
  template <typename Fn>
  void ParallelFor(size_t tasks, Fn&& fn) {
    if (tasks == 0) return;
    if (tasks == 1 || threads_ == 1) {
      for (size_t i = 0; i < tasks; ++i) fn(i);
      return;
    }
    Run(
        tasks, [](void* f, size_t i) { (*static_cast<std::remove_reference_t<Fn>*>(f))(i); },
        static_cast<void*>(&fn));
  }

 private:
  void Run(size_t tasks, void (*task)(void*, size_t), void* context);

  struct Impl;
  int threads_ = 1;
  std::unique_ptr<Impl> impl_;
};

// Elements per task below which elementwise kernels stay on one thread. Small enough that an
// ADD of a few thousand elements is split as the producing layers split their rows: each
// thread then reads its own outputs back instead of the caller reading the other core's half
// (ResNet8 float with two threads 1.68x -> 1.71-1.76x faster than one; 16384 before).
constexpr size_t kElementwiseChunk = 4096;

// Calls fn(begin, end) over [0, n) split into contiguous chunks of at least `min_chunk` items
// (elementwise work: chunks too small cost more in wake-ups than they save). `pool` may be
// null: one call on the calling thread.
template <typename Fn>
void ParallelForChunks(ThreadPool* pool, size_t n, size_t min_chunk, Fn&& fn) {
  const size_t threads = pool ? static_cast<size_t>(pool->threads()) : 1;
  size_t chunks = min_chunk > 0 ? n / min_chunk : n;
  if (chunks > threads) chunks = threads;
  if (chunks <= 1) {
    if (n > 0) fn(size_t{0}, n);
    return;
  }
  const size_t per_chunk = (n + chunks - 1) / chunks;
  pool->ParallelFor(chunks, [&](size_t c) {
    const size_t begin = c * per_chunk;
    const size_t end = begin + per_chunk < n ? begin + per_chunk : n;
    if (begin < end) fn(begin, end);
  });
}

// The number of tasks worth splitting `work_items` into for `threads` threads: enough for
// balance (a few per thread) without tiles so small that overhead dominates.
size_t SuggestedTaskCount(size_t work_items, int threads);

// Calls fn(begin, end) over [0, n) split into SuggestedTaskCount(n, threads) contiguous
// ranges, in order (the depthwise drivers' output rows). `pool` may be null: the ranges
// run in order on the calling thread.
template <typename Fn>
void ParallelForRanges(ThreadPool* pool, int n, Fn&& fn) {
  const int threads = pool ? pool->threads() : 1;
  const int tasks = static_cast<int>(SuggestedTaskCount(static_cast<size_t>(n), threads));
  if (tasks <= 0) return;
  const int per_task = (n + tasks - 1) / tasks;
  auto one = [&](size_t index) {
    const int begin = static_cast<int>(index) * per_task;
    const int end = begin + per_task < n ? begin + per_task : n;
    if (begin < end) fn(begin, end);
  };
  if (pool) {
    pool->ParallelFor(static_cast<size_t>(tasks), one);
  } else {
    for (int i = 0; i < tasks; ++i) one(static_cast<size_t>(i));
  }
}

}  // namespace octet
