// The quantized GEMM micro-kernels of every path this CPU runs, against the reference
// kernels: random convolution and fully-connected specs, byte-for-byte equal outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/qgemm/qgemm_driver.h"
#include "kernels/optimized/qgemm/qgemm_pack.h"
#include "kernels/optimized/quant_test_util.h"
#include "kernels/reference/integer_conv.h"
#include "kernels/threads/thread_pool.h"
#include "quant/quantization_util.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

using testing::MakeQuantization;
using testing::RandomBytes;
using testing::RandomQuantization;
using testing::ReferenceParams;
using testing::Window;

QGemmWeightsDesc Describe(const RandomQuantization& q, const std::vector<uint8_t>& weights, int n,
                          int ks, int kc, bool with_bias) {
  QGemmWeightsDesc d;
  d.weights = weights.data();
  d.n = n;
  d.ks = ks;
  d.kc = kc;
  d.input_signed = q.input_signed;
  d.bias = with_bias ? q.bias.data() : nullptr;
  d.input_offset = -q.input_zp;
  d.filter_offset = -q.filter_zp;
  d.multiplier = q.multipliers.data();
  d.shift = q.shifts.data();
  d.output_zero_point = q.output_zp;
  d.act_min = q.act_min;
  d.act_max = q.act_max;
  return d;
}

struct ConvCase {
  QConvShape shape;
  int out_c = 1;
  bool input_signed = true;
  bool with_bias = true;
  std::string Describe() const {
    const QConvShape& s = shape;
    return std::string(input_signed ? "int8" : "uint8") + " N" + std::to_string(s.batches) + " " +
           std::to_string(s.in_h) + "x" + std::to_string(s.in_w) + "x" + std::to_string(s.in_c) +
           " k" + std::to_string(s.kernel_h) + "x" + std::to_string(s.kernel_w) + " s" +
           std::to_string(s.stride_h) + "," + std::to_string(s.stride_w) + " d" +
           std::to_string(s.dilation_h) + "," + std::to_string(s.dilation_w) + " p" +
           std::to_string(s.pad_h) + "," + std::to_string(s.pad_w) + " -> " +
           std::to_string(s.out_h) + "x" + std::to_string(s.out_w) + "x" + std::to_string(out_c) +
           (with_bias ? "" : " no-bias");
  }
};

ConvCase RandomConv(std::mt19937& rng) {
  static const int kChannels[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 64, 96};
  static const int kKernels[] = {1, 1, 1, 2, 3, 3, 3, 5, 7};
  ConvCase c;
  QConvShape& s = c.shape;
  s.batches = 1 + rng() % 2;
  s.in_h = 1 + rng() % 12;
  s.in_w = 1 + rng() % 12;
  s.in_c = kChannels[rng() % (sizeof(kChannels) / sizeof(int))];
  s.kernel_h = kKernels[rng() % (sizeof(kKernels) / sizeof(int))];
  s.kernel_w = rng() % 4 == 0 ? kKernels[rng() % (sizeof(kKernels) / sizeof(int))] : s.kernel_h;
  s.stride_h = 1 + rng() % 2;
  s.stride_w = rng() % 4 == 0 ? 1 + rng() % 3 : s.stride_h;
  s.dilation_h = rng() % 5 == 0 ? 2 : 1;
  s.dilation_w = rng() % 5 == 0 ? 2 : s.dilation_h;
  const bool same = rng() % 2;
  Window(same, s.in_h, s.kernel_h, s.stride_h, s.dilation_h, &s.out_h, &s.pad_h);
  Window(same, s.in_w, s.kernel_w, s.stride_w, s.dilation_w, &s.out_w, &s.pad_w);
  c.out_c = 1 + static_cast<int>(rng() % 80);
  c.input_signed = rng() % 3 != 0;
  c.with_bias = rng() % 6 != 0;
  return c;
}

// Runs one case through the reference and through `kernel`, with 1 and 2 threads. Returns
// false, checking nothing, for a case the kernel does not take (a wide-input kernel and a
// layer that stays on the byte kernel).
bool CheckConv(const ConvCase& c, const QGemmKernel& kernel, std::mt19937& rng) {
  const QConvShape& s = c.shape;
  if (s.out_h <= 0 || s.out_w <= 0) return false;
  const int ks = s.kernel_h * s.kernel_w;
  const RandomQuantization q = MakeQuantization(rng, c.input_signed, c.out_c, ks * s.in_c);
  const auto input = RandomBytes(rng, static_cast<size_t>(s.batches) * s.in_h * s.in_w * s.in_c);
  const auto weights = RandomBytes(rng, static_cast<size_t>(c.out_c) * ks * s.in_c);

  reference::ConvParams p;
  p.stride_height = s.stride_h;
  p.stride_width = s.stride_w;
  p.dilation_height = s.dilation_h;
  p.dilation_width = s.dilation_w;
  p.pad_height = s.pad_h;
  p.pad_width = s.pad_w;
  const Shape in_shape{s.batches, s.in_h, s.in_w, s.in_c};
  const Shape filter_shape{c.out_c, s.kernel_h, s.kernel_w, s.in_c};
  const Shape out_shape{s.batches, s.out_h, s.out_w, c.out_c};
  std::vector<uint8_t> want(static_cast<size_t>(out_shape.FlatSize()));
  const int32_t* bias = c.with_bias ? q.bias.data() : nullptr;
  if (c.input_signed) {
    reference::QuantizedConv<int32_t>(p, ReferenceParams(q), in_shape,
                                      reinterpret_cast<const int8_t*>(input.data()), filter_shape,
                                      reinterpret_cast<const int8_t*>(weights.data()), bias,
                                      out_shape, reinterpret_cast<int8_t*>(want.data()));
  } else {
    reference::QuantizedConv<int32_t>(p, ReferenceParams(q), in_shape, input.data(), filter_shape,
                                      weights.data(), bias, out_shape, want.data());
  }

  auto value = [&](uint8_t byte) {
    return c.input_signed ? static_cast<int64_t>(static_cast<int8_t>(byte))
                          : static_cast<int64_t>(byte);
  };
  QGemmWeightsDesc desc = Describe(q, weights, c.out_c, ks, s.in_c, c.with_bias);
  desc.kernel_w = s.kernel_w;
  desc.dilation_w = s.dilation_w;
  if (kernel.wide_input && !QGemmConvTakesWideInput(kernel, desc)) return false;
  std::vector<uint8_t> packed_buffer(QGemmPackedSize(kernel, desc));
  const QGemmPacked packed = QGemmPack(kernel, desc, packed_buffer.data());
  std::vector<uint8_t> zero_row(QGemmZeroRowBytes(packed), static_cast<uint8_t>(q.input_zp));
  // A wide-input kernel reads the image and the zero point as little-endian int16 values.
  std::vector<uint8_t> image = input;
  if (kernel.wide_input) {
    image.assign(2 * input.size(), 0);
    for (size_t i = 0; i < input.size(); ++i) {
      const auto v = static_cast<uint16_t>(value(input[i]));
      image[2 * i] = static_cast<uint8_t>(v & 0xff);
      image[2 * i + 1] = static_cast<uint8_t>(v >> 8);
    }
    const auto zp = static_cast<uint16_t>(static_cast<int16_t>(q.input_zp));
    for (size_t i = 0; i + 1 < zero_row.size(); i += 2) {
      zero_row[i] = static_cast<uint8_t>(zp & 0xff);
      zero_row[i + 1] = static_cast<uint8_t>(zp >> 8);
    }
  }
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    std::vector<uint8_t> got(want.size(), 0xEE);
    RunQGemmConv(packed, s, image.data(), image.size(), zero_row.data(), got.data(), &pool);
    EXPECT_EQ(got, want) << kernel.name << " threads " << threads << ": " << c.Describe();
    if (got != want) return true;
    if (kernel.wide_input) {
      // The op's way: WidenConvInput widens the bytes (inside a border of the zero point
      // where that pays) into a buffer holding anything before.
      std::vector<int16_t> wide(QGemmConvWideInputElements(packed, s), 0x5A5A);
      const QConvShape run =
          WidenConvInput(packed, s, input.data(), c.input_signed, q.input_zp, wide.data(), &pool);
      const size_t wide_bytes = 2 * static_cast<size_t>(run.batches) * run.in_h * run.in_w *
                                static_cast<size_t>(run.in_c);
      std::vector<uint8_t> via_wide(want.size(), 0xEE);
      RunQGemmConv(packed, run, reinterpret_cast<const uint8_t*>(wide.data()), wide_bytes,
                   zero_row.data(), via_wide.data(), &pool);
      EXPECT_EQ(via_wide, want) << kernel.name << " threads " << threads
                                << " widened by WidenConvInput: " << c.Describe();
      if (via_wide != want) return true;
    }
    // Through a zero-point-bordered copy where the driver would use one, whatever the buffer
    // held before (it is an arena temporary).
    const size_t padded_bytes = QGemmConvPaddedInputBytes(packed, s);
    if (padded_bytes == 0) continue;
    std::vector<uint8_t> padded(padded_bytes, 0xA5);
    std::vector<uint8_t> via_copy(want.size(), 0xEE);
    RunQGemmConv(packed, s, image.data(), image.size(), zero_row.data(), via_copy.data(), &pool,
                 nullptr, padded.data());
    EXPECT_EQ(via_copy, want) << kernel.name << " threads " << threads
                              << " padded copy: " << c.Describe();
    if (via_copy != want) return true;
  }

  // The raw int32 sums (the hybrid ops' mode): bias + Σ (w + filter_offset)(x + input_offset)
  // over the taps inside the image, exactly.
  std::vector<int32_t> want_raw;
  for (int b = 0; b < s.batches; ++b)
    for (int oy = 0; oy < s.out_h; ++oy)
      for (int ox = 0; ox < s.out_w; ++ox)
        for (int oc = 0; oc < c.out_c; ++oc) {
          int64_t acc = bias ? bias[oc] : 0;
          for (int fy = 0; fy < s.kernel_h; ++fy)
            for (int fx = 0; fx < s.kernel_w; ++fx) {
              const int iy = oy * s.stride_h - s.pad_h + fy * s.dilation_h;
              const int ix = ox * s.stride_w - s.pad_w + fx * s.dilation_w;
              if (iy < 0 || iy >= s.in_h || ix < 0 || ix >= s.in_w) continue;
              for (int ic = 0; ic < s.in_c; ++ic) {
                const size_t in_at =
                    ((static_cast<size_t>(b) * s.in_h + iy) * s.in_w + ix) * s.in_c;
                const size_t w_at =
                    ((static_cast<size_t>(oc) * s.kernel_h + fy) * s.kernel_w + fx) * s.in_c;
                acc += (value(weights[w_at + ic]) - q.filter_zp) *
                       (value(input[in_at + ic]) - q.input_zp);
              }
            }
          want_raw.push_back(static_cast<int32_t>(acc));
        }
  std::vector<int32_t> raw(want_raw.size(), -1);
  ThreadPool pool(2);
  RunQGemmConv(packed, s, image.data(), image.size(), zero_row.data(), nullptr, &pool, raw.data());
  EXPECT_EQ(raw, want_raw) << kernel.name << " raw int32: " << c.Describe();
  return true;
}

// Every micro-kernel this CPU runs.
std::vector<const QGemmKernel*> KernelsToTest() {
  std::vector<const QGemmKernel*> kernels;
  for (cpu::Isa isa : octet::testing::PathsWithKernel(QGemmKernelFor)) {
    kernels.push_back(QGemmKernelFor(isa));
    if (QGemmFewRowsKernelFor(isa) != QGemmKernelFor(isa)) {
      kernels.push_back(QGemmFewRowsKernelFor(isa));
    }
    if (QGemmWideInputKernelFor(isa) != nullptr) kernels.push_back(QGemmWideInputKernelFor(isa));
  }
  return kernels;
}

class QGemmPathTest : public ::testing::TestWithParam<const QGemmKernel*> {
 protected:
  const QGemmKernel& kernel() const { return *GetParam(); }
};

TEST_P(QGemmPathTest, RandomConvolutionsMatchReference) {
  std::mt19937 rng(1234 + static_cast<unsigned>(GetParam()->mr * 64 + GetParam()->nr));
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    SCOPED_TRACE(i);
    checked += CheckConv(RandomConv(rng), kernel(), rng) ? 1 : 0;
    if (HasFailure()) return;
  }
  EXPECT_GT(checked, 100) << kernel().name << " took too few of the random layers";
}

TEST_P(QGemmPathTest, PointwiseAndLargeChannelCounts) {
  std::mt19937 rng(99);
  for (int in_c : {4, 16, 63, 64, 144, 256, 513}) {
    for (int out_c : {1, 16, 24, 64, 65, 144}) {
      ConvCase c;
      c.shape.in_h = 3;
      c.shape.in_w = 5;
      c.shape.in_c = in_c;
      c.shape.out_h = 3;
      c.shape.out_w = 5;
      c.out_c = out_c;
      c.input_signed = (in_c + out_c) % 3 != 0;
      CheckConv(c, kernel(), rng);
      if (HasFailure()) return;
    }
  }
}

// Wide images, so that most tiles are whole output-row runs with every window inside (the
// driver's per-tile shortcut) and the last windows end at the input's last byte (the im2col
// copies' 16-byte moves must stop short of it: ASan checks the exact-size input).
TEST_P(QGemmPathTest, WideRowsWholeTilesAndInputEnd) {
  std::mt19937 rng(2024);
  struct Wide {
    int in_c, kernel, stride, dilation, out_c;
    bool same;
  };
  const Wide cases[] = {
      {3, 3, 1, 1, 16, true},   {3, 3, 2, 1, 8, false},   {16, 3, 1, 1, 16, true},
      {16, 3, 1, 1, 16, false}, {16, 1, 2, 1, 32, false}, {64, 3, 1, 2, 24, true},
      {40, 3, 2, 1, 20, false}, {1, 5, 1, 1, 9, false},   {7, 2, 1, 1, 33, false},
  };
  for (const Wide& w : cases) {
    for (int in_w : {17, 23}) {
      ConvCase c;
      QConvShape& s = c.shape;
      s.batches = 2;
      s.in_h = 5;
      s.in_w = in_w;
      s.in_c = w.in_c;
      s.kernel_h = s.kernel_w = w.kernel;
      s.stride_h = s.stride_w = w.stride;
      s.dilation_h = s.dilation_w = w.dilation;
      Window(w.same, s.in_h, s.kernel_h, s.stride_h, s.dilation_h, &s.out_h, &s.pad_h);
      Window(w.same, s.in_w, s.kernel_w, s.stride_w, s.dilation_w, &s.out_w, &s.pad_w);
      c.out_c = w.out_c;
      c.input_signed = in_w == 17;
      CheckConv(c, kernel(), rng);
      if (HasFailure()) return;
    }
  }
}

TEST_P(QGemmPathTest, RandomFullyConnectedMatchesReference) {
  if (kernel().wide_input) GTEST_SKIP() << "a wide-input kernel runs convolutions only";
  std::mt19937 rng(77);
  for (int i = 0; i < 200; ++i) {
    const int batches = 1 + rng() % 6;
    const int depth = 1 + rng() % 300;
    const int units = 1 + rng() % 100;
    const bool input_signed = rng() % 3 != 0;
    const RandomQuantization q = MakeQuantization(rng, input_signed, units, depth);
    const auto input = RandomBytes(rng, static_cast<size_t>(batches) * depth);
    const auto weights = RandomBytes(rng, static_cast<size_t>(units) * depth);
    std::vector<uint8_t> want(static_cast<size_t>(batches) * units);
    if (input_signed) {
      reference::QuantizedFullyConnected<int32_t>(
          ReferenceParams(q), batches, depth, units, reinterpret_cast<const int8_t*>(input.data()),
          reinterpret_cast<const int8_t*>(weights.data()), q.bias.data(),
          reinterpret_cast<int8_t*>(want.data()));
    } else {
      reference::QuantizedFullyConnected<int32_t>(ReferenceParams(q), batches, depth, units,
                                                  input.data(), weights.data(), q.bias.data(),
                                                  want.data());
    }
    const QGemmWeightsDesc desc = Describe(q, weights, units, 1, depth, true);
    std::vector<uint8_t> packed_buffer(QGemmPackedSize(kernel(), desc));
    const QGemmPacked packed = QGemmPack(kernel(), desc, packed_buffer.data());
    for (int threads : {1, 2}) {
      ThreadPool pool(threads);
      std::vector<uint8_t> got(want.size(), 0xEE);
      RunQGemmRows(packed, batches, input.data(), static_cast<size_t>(depth), got.data(), &pool);
      ASSERT_EQ(got, want) << kernel().name << " case " << i << " batches " << batches << " depth "
                           << depth << " units " << units;
    }
  }
}

// With all-zero int8 weights the accumulator is exactly the bias, so crafted biases put the
// requantization on its rounding boundaries: (acc * M / 2^(31 - shift)) = y + 1/2 exactly, and
// a few units either side, for every shift in [-31, 30] the spec allows.
TEST_P(QGemmPathTest, RequantizationRoundingBoundaries) {
  if (kernel().wide_input) GTEST_SKIP() << "a wide-input kernel runs convolutions only";
  std::mt19937 rng(5);
  constexpr int kColumns = 64;
  for (int shift = -31; shift <= 30; ++shift) {
    for (int trial = 0; trial < 20; ++trial) {
      RandomQuantization q;
      q.input_signed = true;
      q.output_zp = static_cast<int32_t>(rng() % 256) - 128;
      for (int c = 0; c < kColumns; ++c) {
        // Multipliers with few significant bits make exact ties (x * M landing on half a
        // unit) common in both rounding steps; random ones exercise everything else.
        static const int32_t kTieProne[] = {1 << 30,    3 << 29,       5 << 28, 7 << 28,
                                            0x7fffffff, (1 << 30) + 1, 0};
        const int32_t m =
            rng() % 2 ? kTieProne[rng() % 7] : (1 << 30) + static_cast<int32_t>(rng() % (1u << 30));
        q.multipliers.push_back(m);
        q.shifts.push_back(shift);
        // acc with acc * m * 2^shift / 2^31 close to y + 0.5 for a y in the output range.
        const double y = static_cast<double>(static_cast<int>(rng() % 300) - 150) + 0.5;
        const double acc = y * std::ldexp(1.0, 31 - shift) / std::max<int32_t>(m, 1);
        const double nudged = std::round(acc) + static_cast<int>(rng() % 7) - 3;
        q.bias.push_back(
            static_cast<int32_t>(std::max(-2147483648.0, std::min(2147483647.0, nudged))));
      }
      const std::vector<uint8_t> weights(kColumns * 4, 0);
      const std::vector<uint8_t> input(4, static_cast<uint8_t>(rng()));
      std::vector<uint8_t> want(kColumns);
      for (int c = 0; c < kColumns; ++c) {
        const int32_t scaled =
            quant::MultiplyByQuantizedMultiplier(q.bias[c], q.multipliers[c], q.shifts[c]);
        // Where scaled + zero point leaves int32 (the reference's own arithmetic overflows
        // there), Octet's kernels define it as wrapping.
        const int32_t v = static_cast<int32_t>(static_cast<uint32_t>(scaled) +
                                               static_cast<uint32_t>(q.output_zp));
        want[c] = static_cast<uint8_t>(static_cast<int8_t>(std::min(127, std::max(-128, v))));
      }
      const QGemmWeightsDesc desc = Describe(q, weights, kColumns, 1, 4, true);
      std::vector<uint8_t> packed_buffer(QGemmPackedSize(kernel(), desc));
      const QGemmPacked packed = QGemmPack(kernel(), desc, packed_buffer.data());
      std::vector<uint8_t> got(kColumns);
      RunQGemmRows(packed, 1, input.data(), 4, got.data(), nullptr);
      ASSERT_EQ(got, want) << kernel().name << " shift " << shift;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, QGemmPathTest, ::testing::ValuesIn(KernelsToTest()),
                         [](const ::testing::TestParamInfo<const QGemmKernel*>& info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace octet::optimized
