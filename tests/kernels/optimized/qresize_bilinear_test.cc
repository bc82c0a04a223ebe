// Quantized RESIZE_BILINEAR's two-pass driver against the reference kernel on every path
// that has an 8-bit kernel (int16 runs the driver's own loops), with one and two threads:
// random up- and down-scalings (half-pixel centres at the borders included), align_corners,
// batches, depths below, at and above a vector of lanes, values at their extremes, outputs
// large enough to be split across threads, and a scaling whose rounded-up scale carries the
// last rows past the input (the reference clamps them to the last row). Equal outputs.
#include "kernels/optimized/resize/qresize_bilinear.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/optimized/dispatch.h"
#include "kernels/reference/integer_resize.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

struct ResizeCase {
  int batches, in_h, in_w, out_h, out_w, depth, mode;  // mode: 0 plain, 1 align, 2 half-pixel
  std::string Describe() const {
    return std::to_string(batches) + "x" + std::to_string(in_h) + "x" + std::to_string(in_w) +
           " -> " + std::to_string(out_h) + "x" + std::to_string(out_w) + " depth " +
           std::to_string(depth) + " mode " + std::to_string(mode);
  }
};

template <typename T>
void ExpectMatchesReference(const QResizeKernel& kernel, const ResizeCase& c, std::mt19937& rng) {
  reference::ResizeParams p;
  p.align_corners = c.mode == 1;
  p.half_pixel_centers = c.mode == 2;
  const Shape in_shape{c.batches, c.in_h, c.in_w, c.depth};
  const Shape out_shape{c.batches, c.out_h, c.out_w, c.depth};
  // Exactly the input's size: ASan sees any read past it.
  std::vector<T> input(static_cast<size_t>(in_shape.FlatSize()));
  const bool extremes = rng() % 3 == 0;
  for (T& v : input) {
    v = extremes ? (rng() % 2 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max())
                 : static_cast<T>(rng());
  }
  std::vector<T> want(static_cast<size_t>(out_shape.FlatSize()));
  reference::QuantizedResizeBilinear<T>(p, in_shape, input.data(), out_shape, want.data());
  std::vector<int32_t> scratch(QResizeScratchInts(in_shape, out_shape));
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    std::vector<T> got(want.size(), T{7});
    QuantizedResizeBilinear<T>(kernel, p, in_shape, input.data(), out_shape, got.data(),
                               scratch.data(), &pool);
    ASSERT_EQ(got, want) << kernel.name << " threads " << threads << ": " << c.Describe();
  }
}

class QResizePathTest : public ::testing::TestWithParam<cpu::Isa> {
 protected:
  const QResizeKernel& kernel() const { return *QResizeKernelFor(GetParam()); }

  template <typename T>
  void RandomCases(uint32_t seed) {
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 300; ++trial) {
      ResizeCase c;
      c.batches = 1 + static_cast<int>(rng() % 2);
      c.in_h = 1 + static_cast<int>(rng() % 12);
      c.in_w = 1 + static_cast<int>(rng() % 12);
      c.out_h = 1 + static_cast<int>(rng() % 30);
      c.out_w = 1 + static_cast<int>(rng() % 30);
      c.depth = 1 + static_cast<int>(rng() % 40);
      c.mode = static_cast<int>(rng() % 3);  // TFLite allows at most one of the two flags
      ExpectMatchesReference<T>(kernel(), c, rng);
      if (HasFailure()) return;
    }
  }
};

TEST_P(QResizePathTest, Int8MatchesReference) { RandomCases<int8_t>(1); }
TEST_P(QResizePathTest, UInt8MatchesReference) { RandomCases<uint8_t>(2); }
TEST_P(QResizePathTest, Int16MatchesReference) { RandomCases<int16_t>(3); }

TEST_P(QResizePathTest, LargeOutputsSplitAcrossThreads) {
  std::mt19937 rng(4);
  // DeepLab's last resize (33x33x21 to 513x513), scaled down; depths 1, 3, 8, 16 and 21.
  const ResizeCase cases[] = {{1, 33, 33, 129, 129, 21, 0}, {1, 17, 9, 100, 60, 8, 2},
                              {2, 5, 7, 90, 120, 3, 1},     {1, 6, 6, 200, 150, 1, 2},
                              {1, 40, 40, 64, 64, 16, 0}};
  for (const ResizeCase& c : cases) {
    ExpectMatchesReference<uint8_t>(kernel(), c, rng);
    ExpectMatchesReference<int8_t>(kernel(), c, rng);
    if (HasFailure()) return;
  }
}

TEST_P(QResizePathTest, RoundedUpScaleStaysInsideTheInput) {
  std::mt19937 rng(5);
  // scale round(1024 * 7 / 300) = 24, and 299 * 24 >= 7 * 1024: TFLite reads an 8th row.
  for (int mode : {0, 2}) {
    ExpectMatchesReference<uint8_t>(kernel(), {1, 7, 7, 300, 300, 3, mode}, rng);
    ExpectMatchesReference<int16_t>(kernel(), {1, 7, 3, 300, 3, 2, mode}, rng);
  }
  // Those last output pixels are the last input pixel itself.
  std::vector<uint8_t> input(7 * 7);
  for (uint8_t& v : input) v = static_cast<uint8_t>(rng());
  std::vector<uint8_t> output(300 * 300);
  std::vector<int32_t> scratch(QResizeScratchInts({1, 7, 7, 1}, {1, 300, 300, 1}));
  QuantizedResizeBilinear<uint8_t>(kernel(), reference::ResizeParams{}, {1, 7, 7, 1}, input.data(),
                                   {1, 300, 300, 1}, output.data(), scratch.data(), nullptr);
  EXPECT_EQ(output.back(), input.back());
}

INSTANTIATE_TEST_SUITE_P(Paths, QResizePathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(QResizeKernelFor)),
                         octet::testing::PathName);

}  // namespace
}  // namespace octet::optimized
