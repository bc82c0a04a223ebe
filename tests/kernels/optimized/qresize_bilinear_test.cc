// The hoisted quantized RESIZE_BILINEAR against the reference kernel: random up- and
// down-scalings (half-pixel centres extrapolating at the borders included), align_corners,
// batches, depths, int8 / uint8 / int16 values at their extremes; equal outputs.
#include "kernels/optimized/resize/qresize_bilinear.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/reference/integer_resize.h"

namespace octet::optimized {
namespace {

template <typename T>
void ExpectMatchesReference(uint32_t seed) {
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 300; ++trial) {
    const int batches = 1 + static_cast<int>(rng() % 2);
    const int in_h = 1 + static_cast<int>(rng() % 12), in_w = 1 + static_cast<int>(rng() % 12);
    const int out_h = 1 + static_cast<int>(rng() % 30), out_w = 1 + static_cast<int>(rng() % 30);
    const int depth = 1 + static_cast<int>(rng() % 40);
    reference::ResizeParams p;
    const int mode = static_cast<int>(rng() % 3);  // TFLite allows at most one of the two
    p.align_corners = mode == 1;
    p.half_pixel_centers = mode == 2;
    const Shape in_shape{batches, in_h, in_w, depth};
    const Shape out_shape{batches, out_h, out_w, depth};
    std::vector<T> input(static_cast<size_t>(in_shape.FlatSize()));
    const bool extremes = rng() % 3 == 0;
    for (T& v : input) {
      v = extremes ? (rng() % 2 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max())
                   : static_cast<T>(rng());
    }
    std::vector<T> want(static_cast<size_t>(out_shape.FlatSize()));
    std::vector<T> got(want.size(), T{7});
    reference::QuantizedResizeBilinear<T>(p, in_shape, input.data(), out_shape, want.data());
    QuantizedResizeBilinear<T>(p, in_shape, input.data(), out_shape, got.data());
    ASSERT_EQ(got, want) << in_h << "x" << in_w << " -> " << out_h << "x" << out_w << " depth "
                         << depth << " mode " << mode;
  }
}

TEST(QResizeBilinear, Int8MatchesReference) { ExpectMatchesReference<int8_t>(1); }
TEST(QResizeBilinear, UInt8MatchesReference) { ExpectMatchesReference<uint8_t>(2); }
TEST(QResizeBilinear, Int16MatchesReference) { ExpectMatchesReference<int16_t>(3); }

}  // namespace
}  // namespace octet::optimized
