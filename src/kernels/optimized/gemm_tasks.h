// How the GEMM drivers (quantized and float) split an output of m_tiles row tiles by n_blocks
// column blocks into thread-pool tasks: rows first; columns too when there are too few row
// tiles to keep the threads busy. Each output element belongs to exactly one task, so results
// never depend on the thread count. Portable code.
#pragma once

#include <algorithm>
#include <cstddef>

#include "kernels/threads/thread_pool.h"

namespace octet::optimized {

// Multiply-accumulates below which a GEMM stays on the calling thread: waking the pool's
// workers costs more than a few microseconds of work saves (a batch-1 FULLY_CONNECTED of
// 640x128, an LSTM step's recurrent products).
constexpr double kMinParallelMacs = 131072;

class GemmTasks {
 public:
  // `macs`: the GEMM's multiply-accumulates (rows x columns x depth).
  GemmTasks(int m_tiles, int n_blocks, ThreadPool* pool, double macs)
      : m_tiles_(m_tiles), n_blocks_(n_blocks), pool_(macs < kMinParallelMacs ? nullptr : pool) {
    const int threads = pool_ ? pool_->threads() : 1;
    if (threads <= 1) {
      row_tasks_ = col_tasks_ = 1;
    } else if (m_tiles >= kRowTilesPerThread * threads) {
      // Many row tiles: small row tasks, so that the pool's dynamic assignment evens out
      // the threads to within one small task. Eight per thread: tiles differ in cost (a
      // float convolution's clipped border runs cost a fraction of its interior tiles), and
      // ResNet8 float on two threads ran 5% faster with eight than with four.
      row_tasks_ = std::min(m_tiles, kTasksPerThread * threads);
    } else {
      // Few row tiles (small images, FULLY_CONNECTED): one task per tile and column block,
      // or the threads would wait on an uneven last round of whole row tiles.
      row_tasks_ = std::max(1, m_tiles);
      col_tasks_ = std::max(1, n_blocks);
    }
    tiles_per_task_ = (m_tiles + row_tasks_ - 1) / row_tasks_;
    blocks_per_task_ = (n_blocks + col_tasks_ - 1) / col_tasks_;
  }

  // The row tiles [tile_begin, tile_end) and column blocks [block_begin, block_end) of a task.
  struct Range {
    int tile_begin, tile_end, block_begin, block_end;
  };
  Range RangeOf(size_t index) const {
    const int rt = static_cast<int>(index) / col_tasks_;
    const int ct = static_cast<int>(index) % col_tasks_;
    return {rt * tiles_per_task_, std::min(m_tiles_, (rt + 1) * tiles_per_task_),
            ct * blocks_per_task_, std::min(n_blocks_, (ct + 1) * blocks_per_task_)};
  }

  // Calls task(RangeOf(i)) for every task, on the pool when there is one.
  template <typename Task>
  void Run(const Task& task) const {
    const size_t tasks = static_cast<size_t>(row_tasks_) * static_cast<size_t>(col_tasks_);
    if (tasks == 1) {  // the whole GEMM on this thread, without the pool's round trip
      task(Range{0, m_tiles_, 0, n_blocks_});
      return;
    }
    auto one = [&](size_t i) { task(RangeOf(i)); };
    if (pool_) {
      pool_->ParallelFor(tasks, one);
    } else {
      for (size_t i = 0; i < tasks; ++i) one(i);
    }
  }

 private:
  static constexpr int kRowTilesPerThread = 8;
  static constexpr int kTasksPerThread = 8;
  int m_tiles_, n_blocks_;
  ThreadPool* pool_;
  int row_tasks_ = 1, col_tasks_ = 1, tiles_per_task_ = 0, blocks_per_task_ = 0;
};

}  // namespace octet::optimized
