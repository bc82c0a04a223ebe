// The channel-vectorized quantized pooling against reference::QuantizedPool: random shapes,
// filters, strides, padding (windows clipped at every border), channel counts past the
// kernel's channel block, int8/uint8/int16 values at their extremes, clamps; equal bytes.
#include "kernels/optimized/pool/qpool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/reference/integer_pooling.h"

namespace octet::optimized {
namespace {

template <typename T>
void CheckRandomPools(uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  const int lowest = std::numeric_limits<T>::lowest(), highest = std::numeric_limits<T>::max();
  int checked = 0;
  for (int i = 0; i < 300; ++i) {
    PoolParams p;
    p.filter_height = pick(1, 6);
    p.filter_width = pick(1, 6);
    p.stride_height = pick(1, 3);
    p.stride_width = pick(1, 3);
    p.pad_height = pick(0, p.filter_height - 1);
    p.pad_width = pick(0, p.filter_width - 1);
    const int batches = pick(1, 2), in_h = pick(1, 12), in_w = pick(1, 12);
    const int depth = rng() % 8 == 0 ? pick(250, 600) : pick(1, 40);
    const int out_h = (in_h + 2 * p.pad_height - p.filter_height) / p.stride_height + 1;
    const int out_w = (in_w + 2 * p.pad_width - p.filter_width) / p.stride_width + 1;
    if (out_h <= 0 || out_w <= 0) continue;
    const Shape in_shape{batches, in_h, in_w, depth};
    const Shape out_shape{batches, out_h, out_w, depth};
    std::vector<T> input(static_cast<size_t>(in_shape.FlatSize()));
    for (T& v : input) {
      // A third of the values at the type's ends, so sums and maxima reach them.
      const int r = static_cast<int>(rng() % 6);
      v = static_cast<T>(r == 0 ? lowest : r == 1 ? highest : pick(lowest, highest));
    }
    int32_t act_min = lowest, act_max = highest;
    if (rng() % 2) {
      act_min = pick(lowest, 0);
      act_max = pick(0, highest);
    }
    for (auto kind : {reference::PoolKind::kAverage, reference::PoolKind::kMax}) {
      std::vector<T> want(static_cast<size_t>(out_shape.FlatSize())), got(want.size());
      const bool want_ok = reference::QuantizedPool<T>(kind, p, act_min, act_max, in_shape,
                                                       input.data(), out_shape, want.data());
      const bool got_ok = optimized::QuantizedPool<T>(kind, p, act_min, act_max, in_shape,
                                                      input.data(), out_shape, got.data());
      ASSERT_EQ(got_ok, want_ok) << "case " << i;
      if (!want_ok) continue;
      ASSERT_EQ(got, want) << "case " << i << " kind " << static_cast<int>(kind) << " depth "
                           << depth << " filter " << p.filter_height << "x" << p.filter_width;
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(QPool, Int8MatchesReference) { CheckRandomPools<int8_t>(1); }
TEST(QPool, UInt8MatchesReference) { CheckRandomPools<uint8_t>(2); }
TEST(QPool, Int16MatchesReference) { CheckRandomPools<int16_t>(3); }

}  // namespace
}  // namespace octet::optimized
