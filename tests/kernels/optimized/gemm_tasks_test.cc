// How GEMM outputs are split into thread-pool tasks: every (row tile, column block) in exactly
// one task whatever the split; GEMMs below kMinParallelMacs stay on the calling thread (a
// pool's wake-up costs more than their work), larger ones are split across the pool.
#include "kernels/optimized/gemm_tasks.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

#include "kernels/threads/thread_pool.h"

namespace octet::optimized {
namespace {

struct Coverage {
  std::vector<int> hits;  // per (tile, block)
  size_t tasks = 0;
  bool all_on_caller = true;
};

Coverage Cover(int m_tiles, int n_blocks, ThreadPool* pool, double macs) {
  Coverage c;
  c.hits.assign(static_cast<size_t>(m_tiles) * n_blocks, 0);
  std::mutex mu;
  const std::thread::id caller = std::this_thread::get_id();
  const GemmTasks tasks(m_tiles, n_blocks, pool, macs);
  tasks.Run([&](const GemmTasks::Range& r) {
    std::lock_guard<std::mutex> lock(mu);
    ++c.tasks;
    c.all_on_caller = c.all_on_caller && std::this_thread::get_id() == caller;
    for (int t = r.tile_begin; t < r.tile_end; ++t) {
      for (int b = r.block_begin; b < r.block_end; ++b)
        ++c.hits[static_cast<size_t>(t) * n_blocks + b];
    }
  });
  return c;
}

TEST(GemmTasks, EveryTileAndBlockOnceWhateverTheSplit) {
  ThreadPool pool(2);
  for (int m_tiles : {1, 2, 3, 7, 16, 17, 100}) {
    for (int n_blocks : {1, 2, 5}) {
      for (double macs : {1.0, kMinParallelMacs, 1e9}) {
        const Coverage c = Cover(m_tiles, n_blocks, &pool, macs);
        for (size_t i = 0; i < c.hits.size(); ++i) {
          ASSERT_EQ(c.hits[i], 1) << m_tiles << "x" << n_blocks << " macs " << macs << " at " << i;
        }
      }
    }
  }
}

TEST(GemmTasks, SmallGemmsStayOnTheCallingThread) {
  ThreadPool pool(2);
  const Coverage small = Cover(16, 4, &pool, kMinParallelMacs - 1);
  EXPECT_EQ(small.tasks, 1u);
  EXPECT_TRUE(small.all_on_caller);
  if (!ThreadPool::CanRunInParallel()) GTEST_SKIP() << "this build has no thread pool";
  const Coverage large = Cover(16, 4, &pool, kMinParallelMacs);
  EXPECT_GT(large.tasks, 1u);
}

}  // namespace
}  // namespace octet::optimized
