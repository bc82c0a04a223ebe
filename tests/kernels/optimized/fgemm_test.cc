// The float GEMM micro-kernels of every path this CPU runs, through the packer and the
// drivers: random convolutions and fully-connected layers against an exact (double)
// computation, within the rounding bound of float_test_util.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/fgemm/fgemm_driver.h"
#include "kernels/optimized/fgemm/fgemm_pack.h"
#include "kernels/optimized/float_test_util.h"
#include "kernels/optimized/pad_image.h"
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

struct ConvCase {
  FConvShape shape;
  int out_c = 1;
  bool with_bias = true;
  std::string Describe() const {
    const FConvShape& s = shape;
    return std::to_string(s.batches) + "x" + std::to_string(s.in_h) + "x" + std::to_string(s.in_w) +
           "x" + std::to_string(s.in_c) + " -> " + std::to_string(out_c) + " k" +
           std::to_string(s.kernel_h) + "x" + std::to_string(s.kernel_w) + " s" +
           std::to_string(s.stride_h) + "," + std::to_string(s.stride_w) + " d" +
           std::to_string(s.dilation_h) + "," + std::to_string(s.dilation_w) + " pad " +
           std::to_string(s.pad_h) + "," + std::to_string(s.pad_w) + (with_bias ? "" : " no bias");
  }
};

// A fused ADD (FGemmResidual): `run(residual, output)` must give, bit for bit, the unfused
// output `got` plus the residual, clamped by the ADD's activation, as the ADD computes it.
template <typename Run>
void ExpectFusedAddMatches(const std::vector<float>& got, std::mt19937& rng, const Run& run) {
  const auto values = RandomFloats(rng, got.size(), -2.f, 2.f);
  const FGemmResidual residual{values.data(), RandomClamp(rng)};
  std::vector<float> fused(got.size(), std::nanf(""));
  run(residual, fused.data());
  for (size_t i = 0; i < got.size(); ++i) {
    const float want =
        std::min(std::max(got[i] + values[i], residual.clamp.min), residual.clamp.max);
    ASSERT_EQ(std::memcmp(&want, &fused[i], sizeof(float)), 0)
        << "output " << i << " fused " << fused[i] << " want " << want;
  }
}

ConvCase RandomConv(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  ConvCase c;
  FConvShape& s = c.shape;
  s.batches = pick(1, 2);
  s.in_h = pick(1, 13);
  s.in_w = pick(1, 13);
  s.in_c = rng() % 4 == 0 ? pick(33, 90) : pick(1, 20);
  c.out_c = rng() % 3 == 0 ? pick(33, 80) : pick(1, 20);
  static const int kSizes[] = {1, 1, 2, 3, 3, 5, 7};
  s.kernel_h = kSizes[rng() % 7];
  s.kernel_w = rng() % 3 == 0 ? kSizes[rng() % 7] : s.kernel_h;
  s.stride_h = pick(1, 2);
  s.stride_w = pick(1, 2);
  s.dilation_h = rng() % 5 == 0 ? 2 : 1;
  s.dilation_w = rng() % 5 == 0 ? 2 : 1;
  const bool same = rng() % 2 == 0;
  testing::Window(same, s.in_h, s.kernel_h, s.stride_h, s.dilation_h, &s.out_h, &s.pad_h);
  testing::Window(same, s.in_w, s.kernel_w, s.stride_w, s.dilation_w, &s.out_w, &s.pad_w);
  c.with_bias = rng() % 4 != 0;
  return c;
}

void CheckConv(const ConvCase& c, const FGemmKernel& kernel, std::mt19937& rng) {
  const FConvShape& s = c.shape;
  const int ks = s.kernel_h * s.kernel_w;
  const auto input =
      RandomFloats(rng, static_cast<size_t>(s.batches) * s.in_h * s.in_w * s.in_c, -1.f, 1.f);
  const auto weights = RandomFloats(rng, static_cast<size_t>(c.out_c) * ks * s.in_c, -1.f, 1.f);
  const auto bias = RandomFloats(rng, static_cast<size_t>(c.out_c), -2.f, 2.f);
  const FloatClamp clamp = RandomClamp(rng);

  std::vector<Expected> want;
  for (int b = 0; b < s.batches; ++b)
    for (int oy = 0; oy < s.out_h; ++oy)
      for (int ox = 0; ox < s.out_w; ++ox)
        for (int oc = 0; oc < c.out_c; ++oc) {
          double sum = c.with_bias ? bias[oc] : 0.0;
          double magnitude = std::fabs(sum);
          for (int fy = 0; fy < s.kernel_h; ++fy)
            for (int fx = 0; fx < s.kernel_w; ++fx) {
              const int iy = oy * s.stride_h - s.pad_h + fy * s.dilation_h;
              const int ix = ox * s.stride_w - s.pad_w + fx * s.dilation_w;
              if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
              for (int ic = 0; ic < s.in_c; ++ic) {
                const double term =
                    double{input[((static_cast<size_t>(b) * s.in_h + iy) * s.in_w + ix) * s.in_c +
                                 ic]} *
                    weights[(static_cast<size_t>(oc) * ks + fy * s.kernel_w + fx) * s.in_c + ic];
                sum += term;
                magnitude += std::fabs(term);
              }
            }
          want.push_back(Finish(sum, magnitude, ks * s.in_c, clamp));
        }

  FGemmWeightsDesc d;
  d.weights = weights.data();
  d.bias = c.with_bias ? bias.data() : nullptr;
  d.n = c.out_c;
  d.ks = ks;
  d.kc = s.in_c;
  d.kernel_w = s.kernel_w;
  d.dilation_w = s.dilation_w;
  std::vector<float> packed_buffer(FGemmPackedFloats(kernel, d));
  const FGemmPacked packed = FGemmPack(kernel, d, packed_buffer.data());
  // A padding tap: in_c zeros (border pixels run one tap per filter position).
  const std::vector<float> zero_row(static_cast<size_t>(packed.kc), 0.f);
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    std::vector<float> got(want.size(), std::nanf(""));
    RunFGemmConv(packed, s, input.data(), zero_row.data(), clamp, got.data(), &pool);
    ExpectWithin(
        got, want,
        std::string(kernel.name) + " threads " + std::to_string(threads) + ": " + c.Describe());
    if (::testing::Test::HasFatalFailure()) return;
    ExpectFusedAddMatches(got, rng, [&](const FGemmResidual& r, float* out) {
      RunFGemmConv(packed, s, input.data(), zero_row.data(), clamp, out, &pool, nullptr, &r);
    });
    if (::testing::Test::HasFatalFailure()) return;
    // The same bits as the VALID convolution of the input zero-padded by hand (PAD + conv,
    // which `octet fuse`'s fold-pad replaces by this one): clipped border windows, tables with
    // padding taps and the driver's own padded copy all add the same nonzero products in the
    // same order (a +0 product leaves a sum that started at +0 or nonzero unchanged).
    if (want.empty()) continue;  // no output pixels: no padded window either
    const FConvShape wide = PaddedWindow(s);
    std::vector<float> zero_padded(PaddedImageElements(s), 0.f);
    for (int b = 0; b < s.batches; ++b)
      for (int iy = 0; iy < s.in_h && iy + s.pad_h < wide.in_h; ++iy)
        for (int ix = 0; ix < s.in_w && ix + s.pad_w < wide.in_w; ++ix)
          std::memcpy(
              &zero_padded[((static_cast<size_t>(b) * wide.in_h + iy + s.pad_h) * wide.in_w + ix +
                            s.pad_w) *
                           s.in_c],
              &input[((static_cast<size_t>(b) * s.in_h + iy) * s.in_w + ix) * s.in_c],
              s.in_c * sizeof(float));
    std::vector<float> via_pad(want.size(), std::nanf(""));
    RunFGemmConv(packed, wide, zero_padded.data(), zero_row.data(), clamp, via_pad.data(), &pool);
    ASSERT_EQ(0, std::memcmp(via_pad.data(), got.data(), got.size() * sizeof(float)))
        << kernel.name << " threads " << threads << " explicit padding: " << c.Describe();
    // Through the driver's zero-bordered copy where it would use one, whatever the buffer held
    // before (it is an arena temporary).
    const size_t padded_floats = FConvPaddedInputFloats(packed, s);
    if (padded_floats == 0) continue;
    std::vector<float> padded(padded_floats, std::nanf(""));
    std::vector<float> via_copy(want.size(), std::nanf(""));
    RunFGemmConv(packed, s, input.data(), zero_row.data(), clamp, via_copy.data(), &pool,
                 padded.data());
    ASSERT_EQ(0, std::memcmp(via_copy.data(), got.data(), got.size() * sizeof(float)))
        << kernel.name << " threads " << threads << " padded copy: " << c.Describe();
  }
}

void CheckRows(int rows, int depth, int units, size_t row_stride, const FGemmKernel& kernel,
               std::mt19937& rng) {
  const auto input = RandomFloats(rng, static_cast<size_t>(rows) * row_stride, -1.f, 1.f);
  const auto weights = RandomFloats(rng, static_cast<size_t>(units) * depth, -1.f, 1.f);
  const auto bias = RandomFloats(rng, static_cast<size_t>(units), -2.f, 2.f);
  const FloatClamp clamp = RandomClamp(rng);
  std::vector<Expected> want;
  for (int r = 0; r < rows; ++r)
    for (int u = 0; u < units; ++u) {
      double sum = bias[u], magnitude = std::fabs(bias[u]);
      for (int k = 0; k < depth; ++k) {
        const double term = double{input[r * row_stride + k]} * weights[u * depth + k];
        sum += term;
        magnitude += std::fabs(term);
      }
      want.push_back(Finish(sum, magnitude, depth, clamp));
    }
  FGemmWeightsDesc d;
  d.weights = weights.data();
  d.bias = bias.data();
  d.n = units;
  d.kc = depth;
  std::vector<float> packed_buffer(FGemmPackedFloats(kernel, d));
  const FGemmPacked packed = FGemmPack(kernel, d, packed_buffer.data());
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    std::vector<float> got(want.size(), std::nanf(""));
    RunFGemmRows(packed, rows, input.data(), row_stride, clamp, got.data(), &pool);
    const std::string label = std::string(kernel.name) + " rows " + std::to_string(rows) +
                              " depth " + std::to_string(depth) + " units " + std::to_string(units);
    ExpectWithin(got, want, label);
    if (::testing::Test::HasFatalFailure()) return;
    SCOPED_TRACE(label + " fused add");
    ExpectFusedAddMatches(got, rng, [&](const FGemmResidual& r, float* out) {
      RunFGemmRows(packed, rows, input.data(), row_stride, clamp, out, &pool, &r);
    });
    if (::testing::Test::HasFatalFailure()) return;
  }
}

class FGemmPathTest : public ::testing::TestWithParam<cpu::Isa> {
 protected:
  const FGemmKernel& kernel() const { return *FGemmKernelFor(GetParam()); }
};

TEST_P(FGemmPathTest, RandomConvolutionsWithinTheRoundingBound) {
  std::mt19937 rng(2024 + static_cast<int>(GetParam()));
  for (int i = 0; i < 300; ++i) {
    SCOPED_TRACE(i);
    CheckConv(RandomConv(rng), kernel(), rng);
    if (HasFatalFailure()) return;
  }
}

// Wide filters over wide images: row taps, long runs of interior and clipped border pixels
// (several kernel passes per call), corners in tables.
TEST_P(FGemmPathTest, WideFilterConvolutionsUseRowTaps) {
  std::mt19937 rng(8);
  int row_taps = 0;
  for (int i = 0; i < 120; ++i) {
    SCOPED_TRACE(i);
    ConvCase c = RandomConv(rng);
    FConvShape& s = c.shape;
    s.in_c = 1 + static_cast<int>(rng() % 70);
    s.dilation_w = 1;
    s.kernel_w = 2 + static_cast<int>(rng() % 6);
    s.in_w = 1 + static_cast<int>(rng() % 40);
    testing::Window(rng() % 2 == 0, s.in_w, s.kernel_w, s.stride_w, 1, &s.out_w, &s.pad_w);
    FGemmWeightsDesc d;
    d.ks = s.kernel_h * s.kernel_w;
    d.kc = s.in_c;
    d.kernel_w = s.kernel_w;
    row_taps += FGemmUsesRowTaps(d);
    CheckConv(c, kernel(), rng);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(row_taps, 60);
}

TEST_P(FGemmPathTest, DenseRowsWithinTheRoundingBound) {
  std::mt19937 rng(77);
  for (int rows : {1, 2, 5, 8, 13, 64}) {
    for (int depth : {1, 3, 16, 100, 1000}) {
      for (int units : {1, 7, 16, 31, 32, 33, 100}) {
        // Rows further apart than their depth, as a strided view would be.
        CheckRows(rows, depth, units, static_cast<size_t>(depth) + (rows % 2), kernel(), rng);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// A NaN input makes its row's outputs NaN, clamped or not, as the reference's
// std::min(std::max(x, lo), hi) does; the other rows stay finite.
TEST_P(FGemmPathTest, NanPropagatesThroughTheClamp) {
  std::mt19937 rng(4);
  const int rows = 5, depth = 20, units = 37;
  auto input = RandomFloats(rng, static_cast<size_t>(rows) * depth, -1.f, 1.f);
  input[2 * depth + 7] = std::nanf("");
  const auto weights = RandomFloats(rng, static_cast<size_t>(units) * depth, -1.f, 1.f);
  FGemmWeightsDesc d;
  d.weights = weights.data();
  d.n = units;
  d.kc = depth;
  std::vector<float> packed_buffer(FGemmPackedFloats(kernel(), d));
  const FGemmPacked packed = FGemmPack(kernel(), d, packed_buffer.data());
  for (FloatClamp clamp : {FloatClamp{0.f, 6.f}, FloatClamp{-1.f, 1.f}}) {
    std::vector<float> got(static_cast<size_t>(rows) * units);
    RunFGemmRows(packed, rows, input.data(), depth, clamp, got.data(), nullptr);
    for (int r = 0; r < rows; ++r) {
      for (int u = 0; u < units; ++u) {
        EXPECT_EQ(std::isnan(got[r * units + u]), r == 2) << "row " << r << " unit " << u;
      }
    }
  }
}

// The check can fail: a packed weight moved by 0.5 (as a wrong index would) puts outputs
// outside the bound.
TEST_P(FGemmPathTest, ACorruptedWeightIsCaught) {
  std::mt19937 rng(5);
  const int rows = 9, depth = 64, units = 20;
  const auto input = RandomFloats(rng, static_cast<size_t>(rows) * depth, 0.5f, 1.f);
  const auto weights = RandomFloats(rng, static_cast<size_t>(units) * depth, -1.f, 1.f);
  const FloatClamp none{std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
  std::vector<Expected> want;
  for (int r = 0; r < rows; ++r)
    for (int u = 0; u < units; ++u) {
      double sum = 0, magnitude = 0;
      for (int k = 0; k < depth; ++k) {
        const double term = double{input[r * depth + k]} * weights[u * depth + k];
        sum += term;
        magnitude += std::fabs(term);
      }
      want.push_back(Finish(sum, magnitude, depth, none));
    }
  FGemmWeightsDesc d;
  d.weights = weights.data();
  d.n = units;
  d.kc = depth;
  std::vector<float> packed_buffer(FGemmPackedFloats(kernel(), d));
  const FGemmPacked packed = FGemmPack(kernel(), d, packed_buffer.data());
  packed_buffer[static_cast<size_t>(kernel().nr) * 11 + 3] += 0.5f;  // channel 10, column 3
  std::vector<float> got(want.size());
  RunFGemmRows(packed, rows, input.data(), depth, none, got.data(), nullptr);
  size_t outside = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    outside += std::fabs(got[i] - want[i].value) > want[i].bound;
  }
  EXPECT_EQ(outside, static_cast<size_t>(rows));  // column 3 of every row
}

INSTANTIATE_TEST_SUITE_P(Paths, FGemmPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(FGemmKernelFor)),
                         octet::testing::PathName);

}  // namespace
}  // namespace octet::optimized
