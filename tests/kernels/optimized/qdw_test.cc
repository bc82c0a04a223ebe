// The quantized depthwise micro-kernels of every path this CPU runs, against the reference
// kernel: random shapes, strides, dilations, padding, depth multipliers and quantization,
// byte-for-byte equal outputs with 1 and 2 threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/qdw/qdw_driver.h"
#include "kernels/optimized/qdw/qdw_pack.h"
#include "kernels/optimized/quant_test_util.h"
#include "kernels/reference/integer_conv.h"
#include "kernels/threads/thread_pool.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

using testing::MakeQuantization;
using testing::RandomBytes;
using testing::RandomQuantization;
using testing::ReferenceParams;
using testing::Window;

struct DwCase {
  QDwShape shape;
  bool input_signed = true;
  bool with_bias = true;
  std::string Describe() const {
    const QDwShape& s = shape;
    return std::string(input_signed ? "int8" : "uint8") + " N" + std::to_string(s.batches) + " " +
           std::to_string(s.in_h) + "x" + std::to_string(s.in_w) + "x" + std::to_string(s.in_c) +
           " dm" + std::to_string(s.depth_multiplier) + " k" + std::to_string(s.kernel_h) + "x" +
           std::to_string(s.kernel_w) + " s" + std::to_string(s.stride_h) + "," +
           std::to_string(s.stride_w) + " d" + std::to_string(s.dilation_h) + "," +
           std::to_string(s.dilation_w) + " p" + std::to_string(s.pad_h) + "," +
           std::to_string(s.pad_w) + " -> " + std::to_string(s.out_h) + "x" +
           std::to_string(s.out_w);
  }
};

DwCase RandomDw(std::mt19937& rng) {
  static const int kKernels[] = {3, 3, 3, 3, 1, 2, 5, 7};
  static const int kMultipliers[] = {1, 1, 1, 1, 2, 3, 8};
  DwCase c;
  QDwShape& s = c.shape;
  s.batches = 1 + rng() % 2;
  s.in_h = 1 + rng() % 11;
  s.in_w = 1 + rng() % 11;
  s.in_c = 1 + rng() % (rng() % 3 == 0 ? 100 : 40);
  s.depth_multiplier = kMultipliers[rng() % 7];
  s.kernel_h = kKernels[rng() % 8];
  s.kernel_w = rng() % 4 == 0 ? kKernels[rng() % 8] : s.kernel_h;
  s.stride_h = 1 + rng() % 2;
  s.stride_w = rng() % 4 == 0 ? 1 + rng() % 3 : s.stride_h;
  s.dilation_h = rng() % 5 == 0 ? 2 : 1;
  s.dilation_w = rng() % 5 == 0 ? 2 : s.dilation_h;
  const bool same = rng() % 2;
  Window(same, s.in_h, s.kernel_h, s.stride_h, s.dilation_h, &s.out_h, &s.pad_h);
  Window(same, s.in_w, s.kernel_w, s.stride_w, s.dilation_w, &s.out_w, &s.pad_w);
  c.input_signed = rng() % 3 != 0;
  c.with_bias = rng() % 6 != 0;
  return c;
}

void CheckDw(const DwCase& c, const QDwKernel& kernel, std::mt19937& rng) {
  const QDwShape& s = c.shape;
  if (s.out_h <= 0 || s.out_w <= 0) return;
  const int channels = s.in_c * s.depth_multiplier;
  const int ks = s.kernel_h * s.kernel_w;
  const RandomQuantization q = MakeQuantization(rng, c.input_signed, channels, ks);
  const auto input = RandomBytes(rng, static_cast<size_t>(s.batches) * s.in_h * s.in_w * s.in_c);
  const auto weights = RandomBytes(rng, static_cast<size_t>(ks) * channels);

  reference::DepthwiseParams p;
  p.stride_height = s.stride_h;
  p.stride_width = s.stride_w;
  p.dilation_height = s.dilation_h;
  p.dilation_width = s.dilation_w;
  p.pad_height = s.pad_h;
  p.pad_width = s.pad_w;
  p.depth_multiplier = s.depth_multiplier;
  const Shape in_shape{s.batches, s.in_h, s.in_w, s.in_c};
  const Shape filter_shape{1, s.kernel_h, s.kernel_w, channels};
  const Shape out_shape{s.batches, s.out_h, s.out_w, channels};
  std::vector<uint8_t> want(static_cast<size_t>(out_shape.FlatSize()));
  const int32_t* bias = c.with_bias ? q.bias.data() : nullptr;
  if (c.input_signed) {
    reference::QuantizedDepthwiseConv<int32_t>(
        p, ReferenceParams(q), in_shape, reinterpret_cast<const int8_t*>(input.data()),
        filter_shape, reinterpret_cast<const int8_t*>(weights.data()), bias, out_shape,
        reinterpret_cast<int8_t*>(want.data()));
  } else {
    reference::QuantizedDepthwiseConv<int32_t>(p, ReferenceParams(q), in_shape, input.data(),
                                               filter_shape, weights.data(), bias, out_shape,
                                               want.data());
  }

  QDwWeightsDesc d;
  d.weights = weights.data();
  d.channels = channels;
  d.ks = ks;
  d.input_signed = c.input_signed;
  d.bias = bias;
  d.input_offset = -q.input_zp;
  d.filter_offset = -q.filter_zp;
  d.multiplier = q.multipliers.data();
  d.shift = q.shifts.data();
  d.output_zero_point = q.output_zp;
  d.act_min = q.act_min;
  d.act_max = q.act_max;
  std::vector<uint8_t> packed_buffer(QDwPackedSize(kernel, channels, ks));
  const QDwPacked packed = QDwPack(kernel, d, packed_buffer.data());
  const std::vector<uint8_t> zero_row(static_cast<size_t>(channels),
                                      static_cast<uint8_t>(q.input_zp));
  std::vector<uint8_t> scratch(QDepthwiseScratchBytes(s));
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    std::vector<uint8_t> got(want.size(), 0xEE);
    RunQDepthwise(packed, s, input.data(), zero_row.data(), scratch.data(), got.data(), &pool);
    ASSERT_EQ(got, want) << kernel.name << " threads " << threads << ": " << c.Describe();
  }
}

class QDwPathTest : public ::testing::TestWithParam<cpu::Isa> {
 protected:
  const QDwKernel& kernel() const { return *QDwKernelFor(GetParam()); }
};

TEST_P(QDwPathTest, RandomDepthwiseMatchesReference) {
  std::mt19937 rng(4321 + static_cast<int>(GetParam()));
  for (int i = 0; i < 500; ++i) {
    SCOPED_TRACE(i);
    CheckDw(RandomDw(rng), kernel(), rng);
    if (HasFatalFailure()) return;
  }
}

// The MobileNet shapes: 3x3, stride 1 and 2, many channels (whole and partial blocks).
TEST_P(QDwPathTest, MobileNetShapesMatchReference) {
  std::mt19937 rng(8);
  for (int channels : {32, 96, 144, 200, 576}) {
    for (int stride : {1, 2}) {
      DwCase c;
      QDwShape& s = c.shape;
      s.in_h = s.in_w = 9;
      s.in_c = channels;
      s.kernel_h = s.kernel_w = 3;
      s.stride_h = s.stride_w = stride;
      Window(true, s.in_h, 3, stride, 1, &s.out_h, &s.pad_h);
      Window(true, s.in_w, 3, stride, 1, &s.out_w, &s.pad_w);
      c.input_signed = channels != 200;
      CheckDw(c, kernel(), rng);
      if (HasFatalFailure()) return;
    }
  }
}

// Eight channels or fewer (first depthwise layers, where AVX2 puts two pixels in a vector):
// odd and even pixel counts per call, padding, 3x3 and 5x5, both signednesses.
TEST_P(QDwPathTest, FewChannelsMatchReference) {
  std::mt19937 rng(31);
  for (int channels : {1, 3, 4, 5, 7, 8}) {
    for (int width : {6, 7, 13}) {
      for (int kernel_size : {3, 5}) {
        DwCase c;
        QDwShape& s = c.shape;
        s.batches = 1 + (width == 7);
        s.in_h = 5;
        s.in_w = width;
        s.in_c = channels;
        s.kernel_h = s.kernel_w = kernel_size;
        s.stride_h = s.stride_w = width == 13 ? 2 : 1;
        const bool same = channels % 2 == 1;
        Window(same, s.in_h, kernel_size, s.stride_h, 1, &s.out_h, &s.pad_h);
        Window(same, s.in_w, kernel_size, s.stride_w, 1, &s.out_w, &s.pad_w);
        c.input_signed = (channels + width) % 3 != 0;
        CheckDw(c, kernel(), rng);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// The kernel a layer gets (QDwKernelForLayer): a narrower path's where this path's vectors
// would be mostly padding, never one the CPU cannot run; byte-exact either way.
TEST_P(QDwPathTest, LayersRunTheKernelChosenForTheirWidth) {
  std::mt19937 rng(77);
  for (int channels : {1, 5, 8, 16, 17, 48}) {
    const QDwKernel& chosen = *QDwKernelForLayer(GetParam(), channels);
    if (GetParam() == cpu::Isa::kAvx512Vnni) {
      EXPECT_EQ(chosen.block < kernel().block, channels <= kNarrowQDwChannels) << channels;
    } else {
      EXPECT_EQ(&chosen, &kernel()) << channels;
    }
    DwCase c;
    QDwShape& s = c.shape;
    s.in_h = 6;
    s.in_w = 11;
    s.in_c = channels;
    s.kernel_h = s.kernel_w = 3;
    Window(true, s.in_h, 3, 1, 1, &s.out_h, &s.pad_h);
    Window(true, s.in_w, 3, 1, 1, &s.out_w, &s.pad_w);
    c.input_signed = channels % 2 == 0;
    CheckDw(c, chosen, rng);
    if (HasFatalFailure()) return;
  }
}

// --- row kernels (QDwRowKernelFor): 3x3, dilation 1, horizontal stride 1 or 2, int8 --------

class QDwRowPathTest : public ::testing::TestWithParam<cpu::Isa> {
 protected:
  const QDwKernel& kernel() const { return *QDwRowKernelFor(GetParam()); }
};

// A random layer the row kernels take: any size, batch, depth multiplier, vertical stride,
// padding; channel counts around whole 16-channel blocks and their tails.
DwCase RandomRowCase(std::mt19937& rng) {
  static const int kMultipliers[] = {1, 1, 1, 1, 2, 3};
  DwCase c;
  QDwShape& s = c.shape;
  s.batches = 1 + rng() % 2;
  s.in_h = 1 + rng() % 9;
  s.in_w = 1 + rng() % (rng() % 4 == 0 ? 40 : 12);
  s.in_c = 1 + rng() % (rng() % 3 == 0 ? 70 : 34);
  s.depth_multiplier = kMultipliers[rng() % 6];
  s.kernel_h = s.kernel_w = 3;
  s.stride_w = 1 + rng() % 2;
  s.stride_h = rng() % 4 == 0 ? 3 : s.stride_w;
  const bool same = rng() % 2;
  Window(same, s.in_h, 3, s.stride_h, 1, &s.out_h, &s.pad_h);
  Window(same, s.in_w, 3, s.stride_w, 1, &s.out_w, &s.pad_w);
  c.with_bias = rng() % 6 != 0;
  return c;
}

TEST_P(QDwRowPathTest, RandomRowLayersMatchReference) {
  std::mt19937 rng(2468 + static_cast<int>(GetParam()));
  for (int i = 0; i < 600; ++i) {
    SCOPED_TRACE(i);
    const DwCase c = RandomRowCase(rng);
    ASSERT_TRUE(QDepthwiseRowKernelApplies(c.shape, c.input_signed)) << c.Describe();
    CheckDw(c, kernel(), rng);
    if (HasFatalFailure()) return;
  }
}

// MobileNet-sized rows: whole blocks, partial blocks, both strides, widths that leave 0-3
// pixels after the four-pixel steps.
TEST_P(QDwRowPathTest, MobileNetRowsMatchReference) {
  std::mt19937 rng(99);
  for (int channels : {16, 32, 96, 144, 200}) {
    for (int width : {7, 14, 17, 30}) {
      for (int stride : {1, 2}) {
        DwCase c;
        QDwShape& s = c.shape;
        s.in_h = 5;
        s.in_w = width;
        s.in_c = channels;
        s.kernel_h = s.kernel_w = 3;
        s.stride_h = s.stride_w = stride;
        const bool same = (width + stride) % 3 != 0;
        Window(same, s.in_h, 3, stride, 1, &s.out_h, &s.pad_h);
        Window(same, s.in_w, 3, stride, 1, &s.out_w, &s.pad_w);
        CheckDw(c, kernel(), rng);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// What the row kernels do not take: other filters, dilation, strides, uint8.
TEST(QDwRowKernel, AppliesOnlyToInt8ThreeByThreeUndilated) {
  QDwShape s;
  s.in_h = s.in_w = 8;
  s.in_c = 4;
  s.kernel_h = s.kernel_w = 3;
  EXPECT_TRUE(QDepthwiseRowKernelApplies(s, true));
  EXPECT_FALSE(QDepthwiseRowKernelApplies(s, false));
  QDwShape t = s;
  t.kernel_w = 5;
  EXPECT_FALSE(QDepthwiseRowKernelApplies(t, true));
  t = s;
  t.dilation_h = 2;
  EXPECT_FALSE(QDepthwiseRowKernelApplies(t, true));
  t = s;
  t.stride_w = 3;
  EXPECT_FALSE(QDepthwiseRowKernelApplies(t, true));
  t = s;
  t.stride_h = 3;
  EXPECT_TRUE(QDepthwiseRowKernelApplies(t, true));
}

// Only AVX-512 has a row kernel: on other CPUs and builds the suite has no paths.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(QDwRowPathTest);
INSTANTIATE_TEST_SUITE_P(Paths, QDwRowPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(QDwRowKernelFor)),
                         octet::testing::PathName);

INSTANTIATE_TEST_SUITE_P(Paths, QDwPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(QDwKernelFor)),
                         octet::testing::PathName);

}  // namespace
}  // namespace octet::optimized
