// The float depthwise micro-kernels of every path this CPU runs, through the packer and the
// driver: random depthwise convolutions (multiplier 1) against an exact (double)
// computation, within the rounding bound of float_test_util.h.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/fdw/fdw_driver.h"
#include "kernels/optimized/float_test_util.h"
#include "kernels/optimized/quant_test_util.h"
#include "kernels/threads/thread_pool.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

using testing::Expected;
using testing::ExpectWithin;
using testing::Finish;
using testing::RandomClamp;
using testing::RandomFloats;

std::string Describe(const Window2D& s) {
  return std::to_string(s.batches) + "x" + std::to_string(s.in_h) + "x" + std::to_string(s.in_w) +
         "x" + std::to_string(s.in_c) + " k" + std::to_string(s.kernel_h) + "x" +
         std::to_string(s.kernel_w) + " s" + std::to_string(s.stride_h) + "," +
         std::to_string(s.stride_w) + " d" + std::to_string(s.dilation_h) + "," +
         std::to_string(s.dilation_w) + " pad " + std::to_string(s.pad_h) + "," +
         std::to_string(s.pad_w);
}

Window2D RandomShape(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  Window2D s;
  s.batches = pick(1, 2);
  s.in_h = pick(1, 14);
  s.in_w = pick(1, 40);  // more than one kernel call's worth of pixels per row
  s.in_c = rng() % 3 == 0 ? pick(17, 70) : pick(1, 16);
  static const int kSizes[] = {1, 2, 3, 3, 3, 5, 7};
  s.kernel_h = kSizes[rng() % 7];
  s.kernel_w = rng() % 4 == 0 ? kSizes[rng() % 7] : s.kernel_h;
  s.stride_h = pick(1, 2);
  s.stride_w = pick(1, 2);
  s.dilation_h = rng() % 5 == 0 ? 2 : 1;
  s.dilation_w = rng() % 5 == 0 ? 3 : 1;
  const bool same = rng() % 2 == 0;
  testing::Window(same, s.in_h, s.kernel_h, s.stride_h, s.dilation_h, &s.out_h, &s.pad_h);
  testing::Window(same, s.in_w, s.kernel_w, s.stride_w, s.dilation_w, &s.out_w, &s.pad_w);
  return s;
}

// Runs `s` on `kernel`; `corrupt` moves one packed weight (to prove the check can fail).
std::vector<float> RunDepthwise(const Window2D& s, const FDwKernel& kernel,
                                const std::vector<float>& input, const std::vector<float>& weights,
                                const std::vector<float>* bias, FloatClamp clamp, int threads,
                                bool corrupt) {
  const int ks = s.kernel_h * s.kernel_w;
  std::vector<float> packed_buffer(FDwPackedFloats(kernel, s.in_c, ks));
  const FDwPacked packed = FDwPack(kernel, weights.data(), bias ? bias->data() : nullptr, s.in_c,
                                   ks, packed_buffer.data());
  if (corrupt) packed_buffer[static_cast<size_t>(kernel.block) * (1 + ks / 2)] += 0.5f;
  const std::vector<float> zero_row(static_cast<size_t>(s.in_c), 0.f);
  std::vector<float> got(static_cast<size_t>(s.batches) * s.out_h * s.out_w * s.in_c,
                         std::nanf(""));
  ThreadPool pool(threads);
  RunFDepthwise(packed, s, input.data(), zero_row.data(), clamp, got.data(), &pool);
  return got;
}

std::vector<Expected> Exact(const Window2D& s, const std::vector<float>& input,
                            const std::vector<float>& weights, const std::vector<float>* bias,
                            FloatClamp clamp) {
  std::vector<Expected> want;
  const int c_n = s.in_c;
  for (int b = 0; b < s.batches; ++b)
    for (int oy = 0; oy < s.out_h; ++oy)
      for (int ox = 0; ox < s.out_w; ++ox)
        for (int c = 0; c < c_n; ++c) {
          double sum = bias ? (*bias)[c] : 0.0;
          double magnitude = std::fabs(sum);
          for (int fy = 0; fy < s.kernel_h; ++fy)
            for (int fx = 0; fx < s.kernel_w; ++fx) {
              const int iy = oy * s.stride_h - s.pad_h + fy * s.dilation_h;
              const int ix = ox * s.stride_w - s.pad_w + fx * s.dilation_w;
              if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
              const double term =
                  double{input[((static_cast<size_t>(b) * s.in_h + iy) * s.in_w + ix) * c_n + c]} *
                  weights[(static_cast<size_t>(fy) * s.kernel_w + fx) * c_n + c];
              sum += term;
              magnitude += std::fabs(term);
            }
          want.push_back(Finish(sum, magnitude, s.kernel_h * s.kernel_w, clamp));
        }
  return want;
}

class FDwPathTest : public ::testing::TestWithParam<cpu::Isa> {
 protected:
  const FDwKernel& kernel() const { return *FDwKernelFor(GetParam()); }
};

TEST_P(FDwPathTest, RandomDepthwiseWithinTheRoundingBound) {
  std::mt19937 rng(99 + static_cast<int>(GetParam()));
  for (int i = 0; i < 300; ++i) {
    SCOPED_TRACE(i);
    const Window2D s = RandomShape(rng);
    const auto input =
        RandomFloats(rng, static_cast<size_t>(s.batches) * s.in_h * s.in_w * s.in_c, -1.f, 1.f);
    const auto weights =
        RandomFloats(rng, static_cast<size_t>(s.kernel_h) * s.kernel_w * s.in_c, -1.f, 1.f);
    const auto bias = RandomFloats(rng, static_cast<size_t>(s.in_c), -2.f, 2.f);
    const bool with_bias = rng() % 4 != 0;
    const FloatClamp clamp = RandomClamp(rng);
    const auto want = Exact(s, input, weights, with_bias ? &bias : nullptr, clamp);
    for (int threads : {1, 2}) {
      ExpectWithin(
          RunDepthwise(s, kernel(), input, weights, with_bias ? &bias : nullptr, clamp, threads,
                       false),
          want,
          std::string(kernel().name) + " threads " + std::to_string(threads) + ": " + Describe(s));
      if (HasFatalFailure()) return;
    }
  }
}

// The kernel a layer gets (FDwKernelForLayer): a narrower path's where this path's vectors
// would be mostly padding, never one the CPU cannot run; its results within the bound.
TEST_P(FDwPathTest, LayersRunTheKernelChosenForTheirWidth) {
  std::mt19937 rng(5);
  for (int channels : {1, 3, 8, 9, 16, 40}) {
    const FDwKernel& chosen = *FDwKernelForLayer(GetParam(), channels);
    if (GetParam() == cpu::Isa::kAvx512Vnni) {
      EXPECT_EQ(chosen.block < kernel().block, channels <= kNarrowFDwChannels) << channels;
    } else {
      EXPECT_EQ(&chosen, &kernel()) << channels;
    }
    Window2D s;
    s.in_h = 7;
    s.in_w = 9;
    s.in_c = channels;
    s.kernel_h = s.kernel_w = 3;
    testing::Window(true, s.in_h, 3, 1, 1, &s.out_h, &s.pad_h);
    testing::Window(true, s.in_w, 3, 1, 1, &s.out_w, &s.pad_w);
    const auto input = RandomFloats(rng, static_cast<size_t>(s.in_h) * s.in_w * s.in_c, -1.f, 1.f);
    const auto weights = RandomFloats(rng, static_cast<size_t>(9) * s.in_c, -1.f, 1.f);
    const auto bias = RandomFloats(rng, static_cast<size_t>(s.in_c), -2.f, 2.f);
    const FloatClamp clamp = RandomClamp(rng);
    ExpectWithin(RunDepthwise(s, chosen, input, weights, &bias, clamp, 1, false),
                 Exact(s, input, weights, &bias, clamp), std::string(chosen.name));
    if (HasFatalFailure()) return;
  }
}

// 3x3, stride 1, undilated: the shape the kernels may run row by row (FDwRow3x3), finding
// the padding themselves. Narrow images (1-3 columns: every pixel an edge), SAME and VALID,
// channel tails.
TEST_P(FDwPathTest, Rows3x3StrideOneWithinTheRoundingBound) {
  std::mt19937 rng(7 + static_cast<int>(GetParam()));
  for (int i = 0; i < 200; ++i) {
    SCOPED_TRACE(i);
    Window2D s;
    s.batches = 1 + static_cast<int>(rng() % 2);
    s.in_h = 1 + static_cast<int>(rng() % 9);
    s.in_w = 1 + static_cast<int>(rng() % 13);
    s.in_c = 1 + static_cast<int>(rng() % 40);
    s.kernel_h = s.kernel_w = 3;
    const bool same = rng() % 3 != 0;
    testing::Window(same, s.in_h, 3, 1, 1, &s.out_h, &s.pad_h);
    testing::Window(same, s.in_w, 3, 1, 1, &s.out_w, &s.pad_w);
    if (s.out_h <= 0 || s.out_w <= 0) continue;
    const auto input =
        RandomFloats(rng, static_cast<size_t>(s.batches) * s.in_h * s.in_w * s.in_c, -1.f, 1.f);
    const auto weights = RandomFloats(rng, static_cast<size_t>(9) * s.in_c, -1.f, 1.f);
    const auto bias = RandomFloats(rng, static_cast<size_t>(s.in_c), -2.f, 2.f);
    const FloatClamp clamp = RandomClamp(rng);
    const auto want = Exact(s, input, weights, &bias, clamp);
    for (int threads : {1, 2}) {
      ExpectWithin(
          RunDepthwise(s, kernel(), input, weights, &bias, clamp, threads, false), want,
          std::string(kernel().name) + " threads " + std::to_string(threads) + ": " + Describe(s));
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(FDwPathTest, ACorruptedWeightIsCaught) {
  std::mt19937 rng(3);
  Window2D s;
  s.in_h = s.in_w = s.out_h = s.out_w = 6;
  s.in_c = 5;
  s.kernel_h = s.kernel_w = 3;
  s.pad_h = s.pad_w = 1;
  const auto input = RandomFloats(rng, 6 * 6 * 5, 0.5f, 1.f);
  const auto weights = RandomFloats(rng, 9 * 5, -1.f, 1.f);
  const FloatClamp none{std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
  const auto want = Exact(s, input, weights, nullptr, none);
  const auto got = RunDepthwise(s, kernel(), input, weights, nullptr, none, 1, true);
  size_t outside = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    outside += std::fabs(got[i] - want[i].value) > want[i].bound;
  }
  // The centre tap of channel 0 is wrong: every pixel's channel 0 is off.
  EXPECT_EQ(outside, static_cast<size_t>(6 * 6));
}

INSTANTIATE_TEST_SUITE_P(Paths, FDwPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(FDwKernelFor)),
                         octet::testing::PathName);

}  // namespace
}  // namespace octet::optimized
