// The raw int32 output mode of the quantized depthwise micro-kernels (what hybrid
// DEPTHWISE_CONV_2D runs on), on every path this CPU runs: random shapes, depth multipliers,
// strides, dilations, padding, zero points and biases; each sum must equal the direct 64-bit
// definition Σ over in-image taps of (w + filter_offset)(x + input_offset) + bias, taken
// modulo 2^32, in natural channel order, with no element outside the output written.
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
#include "kernels/threads/thread_pool.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

using testing::RandomBytes;
using testing::Window;

struct RawCase {
  QDwShape shape;
  bool input_signed = true;
  int32_t input_zero_point = 0;
  int32_t filter_offset = 0;  // uint8 weights only
  bool with_bias = true;
  std::string Describe() const {
    const QDwShape& s = shape;
    return std::string(input_signed ? "int8" : "uint8") + " N" + std::to_string(s.batches) + " " +
           std::to_string(s.in_h) + "x" + std::to_string(s.in_w) + "x" + std::to_string(s.in_c) +
           " dm" + std::to_string(s.depth_multiplier) + " k" + std::to_string(s.kernel_h) + "x" +
           std::to_string(s.kernel_w) + " s" + std::to_string(s.stride_h) + "," +
           std::to_string(s.stride_w) + " d" + std::to_string(s.dilation_h) + "," +
           std::to_string(s.dilation_w) + " p" + std::to_string(s.pad_h) + "," +
           std::to_string(s.pad_w) + " zp" + std::to_string(input_zero_point);
  }
};

RawCase RandomRaw(std::mt19937& rng) {
  static const int kKernels[] = {3, 3, 3, 1, 2, 5, 7};
  static const int kMultipliers[] = {1, 1, 1, 2, 3, 4};
  RawCase c;
  QDwShape& s = c.shape;
  s.batches = 1 + rng() % 2;
  s.in_h = 1 + rng() % 10;
  s.in_w = 1 + rng() % 10;
  s.in_c = 1 + rng() % (rng() % 3 == 0 ? 90 : 35);
  s.depth_multiplier = kMultipliers[rng() % 6];
  s.kernel_h = kKernels[rng() % 7];
  s.kernel_w = rng() % 4 == 0 ? kKernels[rng() % 7] : s.kernel_h;
  s.stride_h = 1 + rng() % 2;
  s.stride_w = rng() % 4 == 0 ? 1 + rng() % 3 : s.stride_h;
  s.dilation_h = rng() % 5 == 0 ? 2 : 1;
  s.dilation_w = rng() % 5 == 0 ? 2 : s.dilation_h;
  const bool same = rng() % 2;
  Window(same, s.in_h, s.kernel_h, s.stride_h, s.dilation_h, &s.out_h, &s.pad_h);
  Window(same, s.in_w, s.kernel_w, s.stride_w, s.dilation_w, &s.out_w, &s.pad_w);
  c.input_signed = rng() % 4 != 0;
  c.input_zero_point =
      c.input_signed ? static_cast<int32_t>(rng() % 256) - 128 : static_cast<int32_t>(rng() % 256);
  c.filter_offset = c.input_signed ? 0 : -static_cast<int32_t>(rng() % 256);
  c.with_bias = rng() % 3 != 0;
  return c;
}

void CheckRaw(const RawCase& c, const QDwKernel& kernel, std::mt19937& rng) {
  const QDwShape& s = c.shape;
  if (s.out_h <= 0 || s.out_w <= 0) return;
  const int channels = s.in_c * s.depth_multiplier;
  const int ks = s.kernel_h * s.kernel_w;
  const auto input = RandomBytes(rng, static_cast<size_t>(s.batches) * s.in_h * s.in_w * s.in_c);
  const auto weights = RandomBytes(rng, static_cast<size_t>(ks) * channels);
  std::vector<int32_t> bias(static_cast<size_t>(channels));
  for (int32_t& b : bias) b = static_cast<int32_t>(rng());  // any int32: sums wrap mod 2^32

  auto value = [&](uint8_t raw, bool as_signed) {
    return as_signed ? static_cast<int64_t>(static_cast<int8_t>(raw)) : static_cast<int64_t>(raw);
  };
  const size_t outputs = static_cast<size_t>(s.batches) * s.out_h * s.out_w * channels;
  std::vector<int32_t> want(outputs);
  for (int b = 0, at = 0; b < s.batches; ++b) {
    for (int oy = 0; oy < s.out_h; ++oy) {
      for (int ox = 0; ox < s.out_w; ++ox) {
        for (int oc = 0; oc < channels; ++oc, ++at) {
          const int ic = oc / s.depth_multiplier;
          int64_t sum = c.with_bias ? bias[oc] : 0;
          for (int fy = 0; fy < s.kernel_h; ++fy) {
            for (int fx = 0; fx < s.kernel_w; ++fx) {
              const int iy = oy * s.stride_h - s.pad_h + fy * s.dilation_h;
              const int ix = ox * s.stride_w - s.pad_w + fx * s.dilation_w;
              if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
              const int64_t x =
                  value(input[((static_cast<size_t>(b) * s.in_h + iy) * s.in_w + ix) * s.in_c + ic],
                        c.input_signed) -
                  c.input_zero_point;
              const int64_t w =
                  value(weights[static_cast<size_t>(fy * s.kernel_w + fx) * channels + oc],
                        c.input_signed) +
                  c.filter_offset;
              sum += w * x;
            }
          }
          want[static_cast<size_t>(at)] = static_cast<int32_t>(static_cast<uint32_t>(sum));
        }
      }
    }
  }

  // The requantization arrays are placeholders: raw mode must not use them.
  const std::vector<int32_t> multipliers(static_cast<size_t>(channels), 0);
  const std::vector<int> shifts(static_cast<size_t>(channels), 0);
  QDwWeightsDesc d;
  d.weights = weights.data();
  d.channels = channels;
  d.ks = ks;
  d.input_signed = c.input_signed;
  d.bias = c.with_bias ? bias.data() : nullptr;
  d.input_offset = -c.input_zero_point;
  d.filter_offset = c.filter_offset;
  d.multiplier = multipliers.data();
  d.shift = shifts.data();
  d.act_min = c.input_signed ? -128 : 0;
  d.act_max = c.input_signed ? 127 : 255;
  std::vector<uint8_t> packed_buffer(QDwPackedSize(kernel, channels, ks));
  const QDwPacked packed = QDwPack(kernel, d, packed_buffer.data());
  const std::vector<uint8_t> zero_row(static_cast<size_t>(channels),
                                      static_cast<uint8_t>(c.input_zero_point));
  std::vector<uint8_t> scratch(QDepthwiseScratchBytes(s));
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    std::vector<int32_t> got(outputs, 0x5A5A5A5A);
    RunQDepthwise(packed, s, input.data(), zero_row.data(), scratch.data(), nullptr, &pool,
                  got.data());
    ASSERT_EQ(got, want) << kernel.name << " threads " << threads << ": " << c.Describe();
  }
}

class QDwRawPathTest : public ::testing::TestWithParam<cpu::Isa> {
 protected:
  const QDwKernel& kernel() const { return *QDwKernelFor(GetParam()); }
};

TEST_P(QDwRawPathTest, RandomRawSumsMatchTheDefinition) {
  std::mt19937 rng(2024 + static_cast<int>(GetParam()));
  for (int i = 0; i < 400; ++i) {
    SCOPED_TRACE(i);
    CheckRaw(RandomRaw(rng), kernel(), rng);
    if (HasFatalFailure()) return;
  }
}

// Whole and partial channel blocks of every kernel (8, 16, 32), interior and edge pixels.
TEST_P(QDwRawPathTest, BlockBoundariesMatchTheDefinition) {
  std::mt19937 rng(77);
  for (int channels : {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 64, 65}) {
    RawCase c;
    QDwShape& s = c.shape;
    s.in_h = s.in_w = 6;
    s.in_c = channels;
    s.kernel_h = s.kernel_w = 3;
    Window(true, s.in_h, 3, 1, 1, &s.out_h, &s.pad_h);
    Window(true, s.in_w, 3, 1, 1, &s.out_w, &s.pad_w);
    c.input_zero_point = channels % 2 ? -128 : 127;
    CheckRaw(c, kernel(), rng);
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, QDwRawPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(QDwKernelFor)),
                         octet::testing::PathName);

}  // namespace
}  // namespace octet::optimized
