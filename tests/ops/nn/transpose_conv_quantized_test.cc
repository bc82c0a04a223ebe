// Quantized TRANSPOSE_CONV (uint8, int8 per-tensor and per-channel, int16x8 with int64 and
// int32 bias) against two truths computed here: the exact integer result (accumulate in
// int64, then TFLite's documented MultiplyByQuantizedMultiplier rounding), and a plain
// double transposed convolution of the dequantized tensors (within one output LSB).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ops/nn/transpose_conv_test_util.h"

namespace octet {
namespace {

using tc_test::Geometry;
using testing::OpModel;

// real = M * 2^(shift - 31), M in [2^30, 2^31): frexp, rounded half away from zero.
void Multiplier(double real, int32_t* m, int* shift) {
  const double q = std::frexp(real, shift);
  int64_t fixed = std::llround(q * 2147483648.0);
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++*shift;
  }
  *m = static_cast<int32_t>(fixed);
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// TFLite's int32 MultiplyByQuantizedMultiplier: x * 2^left, then the doubling high multiply
// (round half up: floor((x*M + 2^30) / 2^31)), then a division by 2^right rounded half away
// from zero.
int64_t Requant32(int64_t x, int32_t m, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const int64_t scaled = x * (int64_t{1} << left);
  EXPECT_TRUE(scaled >= INT32_MIN && scaled <= INT32_MAX) << "test data overflows int32";
  const int64_t high = FloorDiv(scaled * m + (int64_t{1} << 30), int64_t{1} << 31);
  if (right == 0) return high;
  const int64_t mag = (std::llabs(high) + (int64_t{1} << (right - 1))) >> right;
  return high < 0 ? -mag : mag;
}

// TFLite's int64 variant (int16x8): the multiplier rounded to 15 bits, one rounding shift.
int64_t Requant64(int64_t x, int32_t m, int shift) {
  const int64_t reduced = m < 0x7fff0000 ? (m + (1 << 15)) >> 16 : 0x7fff;
  const int total = 15 - shift;
  return FloorDiv(x * reduced + (int64_t{1} << (total - 1)), int64_t{1} << total);
}

struct QCase {
  TfLiteType type = kTfLiteInt8;  // input and output
  bool per_channel = false;
  bool bias = true;
  TfLiteType bias_type = kTfLiteInt32;
  TfLiteType requested_bias_type = kTfLiteFloat32;  // TransposeConvOptions.quantized_bias_type
  TfLiteFusedActivation act = kTfLiteActNone;
  bool dynamic_shape = false;
  bool wide = false;  // int16x8 accumulating in int64
};

std::string Describe(const Geometry& g, const QCase& q) {
  return std::string(TfLiteTypeGetName(q.type)) + (q.per_channel ? " per-channel" : "") + " in " +
         std::to_string(g.n) + "x" + std::to_string(g.h) + "x" + std::to_string(g.w) + "x" +
         std::to_string(g.c) + " k" + std::to_string(g.kh) + "x" + std::to_string(g.kw) + " s" +
         std::to_string(g.sh) + "," + std::to_string(g.sw) + " out " + std::to_string(g.oh) + "x" +
         std::to_string(g.ow) + "x" + std::to_string(g.oc) +
         (g.padding == kTfLitePaddingSame ? " SAME" : " VALID") + " act " + std::to_string(q.act) +
         (q.bias ? " bias " + std::string(TfLiteTypeGetName(q.bias_type)) : " no bias");
}

// Clamp of a fused activation in the output's integer domain (TFLite's
// CalculateActivationRangeQuantized).
void ActRange(TfLiteFusedActivation act, float scale, int zp, int qmin, int qmax, int* lo,
              int* hi) {
  auto q = [&](double v) { return zp + static_cast<int>(std::round(v / scale)); };
  *lo = qmin;
  *hi = qmax;
  if (act == kTfLiteActRelu) *lo = std::max(qmin, q(0));
  if (act == kTfLiteActRelu6) *lo = std::max(qmin, q(0)), *hi = std::min(qmax, q(6));
  if (act == kTfLiteActReluN1To1) *lo = std::max(qmin, q(-1)), *hi = std::min(qmax, q(1));
}

template <typename T, typename W, typename B>
void RunCase(const Geometry& g, const QCase& q, std::mt19937& rng) {
  SCOPED_TRACE(Describe(g, q));
  const int qmin = std::numeric_limits<T>::min(), qmax = std::numeric_limits<T>::max();
  auto uniform = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  auto real = [&](double lo, double hi) { return lo + (hi - lo) * (rng() % 10000) / 10000.0; };

  const bool u8 = q.type == kTfLiteUInt8, i16 = q.type == kTfLiteInt16;
  const float in_scale = static_cast<float>(real(0.005, 0.05));
  const int in_zp = u8 ? uniform(100, 156) : i16 ? 0 : uniform(-20, 20);
  std::vector<T> in(g.InputSize());
  for (auto& v : in) v = static_cast<T>(uniform(qmin, qmax));
  const int n_scales = q.per_channel ? g.oc : 1;
  std::vector<float> w_scales(n_scales);
  for (auto& s : w_scales) s = static_cast<float>(real(0.002, 0.02));
  const int w_zp = u8 ? uniform(110, 146) : 0;
  std::vector<W> w(g.FilterSize());
  for (auto& v : w) v = static_cast<W>(u8 ? uniform(0, 255) : uniform(-127, 127));
  std::vector<float> b_scales(n_scales);
  for (int i = 0; i < n_scales; ++i) {
    b_scales[i] = static_cast<float>(double{in_scale} * w_scales[i]);
  }
  std::vector<B> bias(g.oc);
  for (auto& v : bias) v = static_cast<B>(uniform(-60000, 60000));
  auto w_scale = [&](int o) { return w_scales[q.per_channel ? o : 0]; };

  // The exact integer accumulators and the real-valued result, both by plain scatter.
  std::vector<int64_t> acc(g.OutputSize(), 0);
  std::vector<double> ref(g.OutputSize(), 0.0);
  tc_test::ForEachProduct(g, [&](int64_t i, int64_t k, int64_t o, int oc) {
    const int64_t x = int64_t{in[i]} - in_zp, f = int64_t{w[k]} - w_zp;
    acc[o] += x * f;
    ref[o] += (x * double{in_scale}) * (f * double{w_scale(oc)});
  });
  for (int64_t o = 0; o < g.OutputSize(); ++o) {
    const int oc = static_cast<int>(o % g.oc);
    if (q.bias) {
      acc[o] += bias[oc];
      ref[o] += double(bias[oc]) * b_scales[q.per_channel ? oc : 0];
    }
  }
  double max_abs = 0;
  for (double v : ref) max_abs = std::max(max_abs, std::fabs(v));
  const float out_scale = static_cast<float>(max_abs > 0 ? max_abs / (i16 ? 20000 : 100) : 1.0);
  const int out_zp = u8 ? uniform(100, 156) : i16 ? 0 : uniform(-20, 20);
  int lo, hi;
  ActRange(q.act, out_scale, out_zp, qmin, qmax, &lo, &hi);

  OpModel m;
  const std::vector<int32_t> out_shape = {g.n, g.oh, g.ow, g.oc};
  const int shape = q.dynamic_shape ? m.AddInput({kTfLiteInt32, {4}})
                                    : m.AddConstInput({kTfLiteInt32, {4}}, out_shape);
  m.AddConstInput({u8 ? kTfLiteUInt8 : kTfLiteInt8,
                   {g.oc, g.kh, g.kw, g.c},
                   w_scales,
                   std::vector<int>(n_scales, w_zp),
                   0},
                  w);
  const int input = m.AddInput({q.type, {g.n, g.h, g.w, g.c}, {in_scale}, {in_zp}});
  if (q.bias) {
    m.AddConstInput({q.bias_type, {g.oc}, b_scales, std::vector<int>(n_scales, 0), 0}, bias);
  }
  const int output = m.AddOutput({q.type, {}, {out_scale}, {out_zp}});
  tc_test::SetTransposeConv(&m, tc_test::Params(g, q.act, q.requested_bias_type));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  if (q.dynamic_shape) m.SetInput(shape, out_shape);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  ASSERT_EQ(m.GetShape(output), (std::vector<int>{g.n, g.oh, g.ow, g.oc}));
  const std::vector<T> got = m.GetOutput<T>(output);
  ASSERT_EQ(static_cast<int64_t>(got.size()), g.OutputSize());

  for (int64_t o = 0; o < g.OutputSize(); ++o) {
    const int oc = static_cast<int>(o % g.oc);
    int32_t mult;
    int shift;
    Multiplier(double{in_scale} * w_scale(oc) / out_scale, &mult, &shift);
    const int64_t scaled = q.wide ? Requant64(acc[o], mult, shift) : Requant32(acc[o], mult, shift);
    const int64_t exact = std::min<int64_t>(std::max<int64_t>(scaled + out_zp, lo), hi);
    ASSERT_EQ(int64_t{got[o]}, exact) << "at output " << o;
    const double nearest = std::round(ref[o] / out_scale) + out_zp;
    const double want = std::min<double>(std::max<double>(nearest, lo), hi);
    ASSERT_LE(std::fabs(static_cast<double>(got[o]) - want), 1.0)
        << "at output " << o << ", real " << ref[o];
  }
}

TfLiteFusedActivation RandomAct(std::mt19937& rng) {
  const TfLiteFusedActivation acts[] = {kTfLiteActNone, kTfLiteActRelu, kTfLiteActRelu6,
                                        kTfLiteActReluN1To1};
  return acts[rng() % 4];
}

TEST(Nn_TransposeConvQuantized, Uint8MatchesIntegerAndFloatTruth) {
  std::mt19937 rng(101);
  for (int trial = 0; trial < 40; ++trial) {
    QCase q;
    q.type = kTfLiteUInt8;
    q.bias = trial % 3 != 0;
    q.act = RandomAct(rng);
    q.dynamic_shape = trial % 5 == 0;
    RunCase<uint8_t, uint8_t, int32_t>(tc_test::RandomGeometry(rng), q, rng);
  }
}

TEST(Nn_TransposeConvQuantized, Int8PerTensorAndPerChannel) {
  std::mt19937 rng(202);
  for (int trial = 0; trial < 60; ++trial) {
    QCase q;
    q.per_channel = trial % 2 == 0;
    q.bias = trial % 3 != 0;
    q.act = RandomAct(rng);
    q.dynamic_shape = trial % 5 == 1;
    RunCase<int8_t, int8_t, int32_t>(tc_test::RandomGeometry(rng), q, rng);
  }
}

TEST(Nn_TransposeConvQuantized, Int16x8Int64BiasAccumulatesIn64Bits) {
  std::mt19937 rng(303);
  for (int trial = 0; trial < 40; ++trial) {
    QCase q;
    q.type = kTfLiteInt16;
    q.per_channel = trial % 2 == 0;
    q.bias = trial % 4 != 0;
    q.bias_type = kTfLiteInt64;
    q.requested_bias_type = trial % 3 == 0 ? kTfLiteInt64 : kTfLiteFloat32;
    q.act = RandomAct(rng);
    q.dynamic_shape = trial % 5 == 2;
    q.wide = true;
    RunCase<int16_t, int8_t, int64_t>(tc_test::RandomGeometry(rng), q, rng);
  }
}

TEST(Nn_TransposeConvQuantized, Int16x8Int32BiasUsesThe32BitRequantization) {
  std::mt19937 rng(404);
  for (int trial = 0; trial < 40; ++trial) {
    QCase q;
    q.type = kTfLiteInt16;
    q.per_channel = trial % 2 == 1;
    // With no bias, quantized_bias_type INT32 alone selects the 32-bit path.
    q.bias = trial % 4 != 0;
    q.bias_type = kTfLiteInt32;
    q.requested_bias_type = (!q.bias || trial % 2 == 0) ? kTfLiteInt32 : kTfLiteFloat32;
    q.act = RandomAct(rng);
    q.dynamic_shape = trial % 5 == 3;
    RunCase<int16_t, int8_t, int32_t>(tc_test::RandomGeometry(rng), q, rng);
  }
}

// A known answer: stride 2 VALID with a 2x2 filter paints each input cell's 2x2 block with
// input * filter. Scales 0.5 * 0.25 / 0.125 make the requantization the identity.
TEST(Nn_TransposeConvQuantized, Int8StrideTwoPaintsBlocks) {
  Geometry g;
  g.h = g.w = 2;
  g.kh = g.kw = 2;
  g.sh = g.sw = 2;
  g.padding = kTfLitePaddingValid;
  g.oh = g.ow = 4;
  OpModel m;
  m.AddConstInput<int32_t>({kTfLiteInt32, {4}}, {1, 4, 4, 1});
  m.AddConstInput<int8_t>({kTfLiteInt8, {1, 2, 2, 1}, {0.25f}, {0}}, {1, -1, 2, -2});
  const int input = m.AddInput({kTfLiteInt8, {1, 2, 2, 1}, {0.5f}, {0}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {1}, {0.125f}, {0}}, {3});
  const int output = m.AddOutput({kTfLiteInt8, {}, {0.125f}, {-1}});
  tc_test::SetTransposeConv(&m, tc_test::Params(g, kTfLiteActNone));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int8_t>(input, {1, 2, 3, 4});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  // x * w + bias 3 + zero point -1.
  EXPECT_EQ(m.GetOutput<int8_t>(output),
            (std::vector<int8_t>{3, 1, 4, 0, 4, 0, 6, -2, 5, -1, 6, -2, 8, -4, 10, -6}));
}

}  // namespace
}  // namespace octet
