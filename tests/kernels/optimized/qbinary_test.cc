// The 8-bit ADD / SUB / MUL kernels of every path this CPU runs against the reference
// arithmetic (reference::integer::AddSub / Mul): random parameters, lengths (vector tails
// included) and scalar operands, byte-for-byte equal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/qbinary/qbinary_linear.h"
#include "kernels/reference/integer_elementwise.h"
#include "quant/quantization_util.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

class QBinaryPathTest : public ::testing::TestWithParam<cpu::Isa> {};

template <typename T>
uint8_t Reference(const QBinaryParams& q, uint8_t xb, uint8_t yb) {
  const T x = static_cast<T>(xb), y = static_cast<T>(yb);
  T out;
  if (q.op == QBinaryOp::kMul) {
    reference::integer::MulParams p;
    p.input1_offset = q.input1_offset;
    p.input2_offset = q.input2_offset;
    p.output_offset = q.output_offset;
    p.output_multiplier = q.output_multiplier;
    p.output_shift = q.output_shift;
    p.act_min = q.act_min;
    p.act_max = q.act_max;
    out = reference::integer::Mul<T>(x, y, p);
  } else {
    reference::integer::AddSubParams p;
    p.input1_offset = q.input1_offset;
    p.input2_offset = q.input2_offset;
    p.output_offset = q.output_offset;
    p.left_shift = q.left_shift;
    p.input1_multiplier = q.input1_multiplier;
    p.input1_shift = q.input1_shift;
    p.input2_multiplier = q.input2_multiplier;
    p.input2_shift = q.input2_shift;
    p.output_multiplier = q.output_multiplier;
    p.output_shift = q.output_shift;
    p.act_min = q.act_min;
    p.act_max = q.act_max;
    out = q.op == QBinaryOp::kSub ? reference::integer::AddSub<true, T>(x, y, p)
                                  : reference::integer::AddSub<false, T>(x, y, p);
  }
  return static_cast<uint8_t>(out);
}

QBinaryParams RandomParams(std::mt19937& rng, QBinaryOp op, bool is_signed) {
  const int lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  std::uniform_int_distribution<int> value(lo, hi);
  auto multiplier = [&]() {
    // Few significant bits make exact rounding ties common.
    return rng() % 3 == 0 ? (1 << 30) : (1 << 30) + static_cast<int32_t>(rng() % (1u << 30));
  };
  QBinaryParams q{};
  q.op = op;
  q.is_signed = is_signed;
  q.input1_offset = -value(rng);
  q.input2_offset = -value(rng);
  q.output_offset = value(rng);
  q.left_shift = 20;
  q.input1_multiplier = multiplier();
  q.input1_shift = -1 - static_cast<int>(rng() % 4);
  q.input2_multiplier = multiplier();
  q.input2_shift = -1 - static_cast<int>(rng() % 4);
  q.output_multiplier = multiplier();
  q.output_shift = op == QBinaryOp::kMul ? static_cast<int>(rng() % 12) - 10
                                         : -static_cast<int>(14 + rng() % 10);
  int a = value(rng), b = value(rng);
  q.act_min = rng() % 2 ? lo : std::min(a, b);
  q.act_max = rng() % 2 ? hi : std::max(a, b);
  return q;
}

// One call of n random elements (an operand a single value one time in `scalar_odds`),
// byte-for-byte against the reference.
void CheckRandomCall(const QBinaryKernel& kernel, const QBinaryParams& q, size_t n, int scalar_odds,
                     std::mt19937& rng) {
  QBinaryCall c{};
  c.a_scalar = rng() % scalar_odds == 0;
  c.b_scalar = !c.a_scalar && rng() % scalar_odds == 0;
  std::vector<uint8_t> a(c.a_scalar ? 1 : n), b(c.b_scalar ? 1 : n), got(n, 0xEE), want(n);
  for (auto& v : a) v = static_cast<uint8_t>(rng());
  for (auto& v : b) v = static_cast<uint8_t>(rng());
  for (size_t k = 0; k < n; ++k) {
    const uint8_t x = a[c.a_scalar ? 0 : k], y = b[c.b_scalar ? 0 : k];
    want[k] = q.is_signed ? Reference<int8_t>(q, x, y) : Reference<uint8_t>(q, x, y);
  }
  c.a = a.data();
  c.b = b.data();
  c.out = got.data();
  c.n = n;
  kernel.run(q, c);
  ASSERT_EQ(got, want) << kernel.name << " op " << static_cast<int>(q.op)
                       << (q.is_signed ? " int8" : " uint8") << " n " << n;
}

TEST_P(QBinaryPathTest, MatchesReference) {
  const QBinaryKernel& kernel = *QBinaryKernelFor(GetParam());
  std::mt19937 rng(31);
  for (int i = 0; i < 3000; ++i) {
    const QBinaryOp op = static_cast<QBinaryOp>(rng() % 3);
    const bool is_signed = rng() % 3 != 0;
    const QBinaryParams q = RandomParams(rng, op, is_signed);
    SCOPED_TRACE(i);
    CheckRandomCall(kernel, q, 1 + rng() % 70, 5, rng);
    if (HasFatalFailure()) return;
  }
}

// ADD/SUB parameters as TFLite's prepare derives them from scales (left shift 20, inputs
// rescaled by s_i / (2 max(s1, s2)), the sum by 2 max / (2^20 s_out)). With `nice`, the
// scales are small powers of two apart, so exact rounding ties are everywhere.
QBinaryParams RealisticParams(std::mt19937& rng, QBinaryOp op, bool is_signed, bool nice) {
  const int lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  std::uniform_int_distribution<int> value(lo, hi);
  std::uniform_real_distribution<double> spread(0.25, 4.0);
  const double s1 = 0.05 * (nice ? 1.0 : spread(rng));
  const double s2 = nice ? s1 * (1 << (rng() % 3)) : 0.05 * spread(rng);
  const double so = nice ? s1 * (1 << (rng() % 3)) : 0.05 * spread(rng) * 1.5;
  QBinaryParams q{};
  q.op = op;
  q.is_signed = is_signed;
  q.input1_offset = -value(rng);
  q.input2_offset = -value(rng);
  q.output_offset = value(rng);
  q.left_shift = 20;
  const double twice_max = 2 * std::max(s1, s2);
  quant::QuantizeMultiplierSmallerThanOneExp(s1 / twice_max, &q.input1_multiplier, &q.input1_shift);
  quant::QuantizeMultiplierSmallerThanOneExp(s2 / twice_max, &q.input2_multiplier, &q.input2_shift);
  quant::QuantizeMultiplierSmallerThanOneExp(twice_max / ((1 << 20) * so), &q.output_multiplier,
                                             &q.output_shift);
  const int a = value(rng), b = value(rng);
  q.act_min = rng() % 2 ? lo : std::min(a, b);
  q.act_max = rng() % 2 ? hi : std::max(a, b);
  return q;
}

// The linear form's claim, checked on every input pair: wherever QBinaryLinearExactAt says
// its floor is exact, it equals the reference. It must also claim most pairs for generic
// scales, or the fast path would never run.
TEST(QBinaryLinear, FloorIsExactWhereverItClaims) {
  std::mt19937 rng(5);
  for (int i = 0; i < 60; ++i) {
    const QBinaryOp op = i % 2 ? QBinaryOp::kSub : QBinaryOp::kAdd;
    const bool is_signed = i % 3 != 0, nice = i % 4 == 0;
    QBinaryParams q = RealisticParams(rng, op, is_signed, nice);
    PlanQBinaryLinear(&q);
    ASSERT_TRUE(q.linear.usable) << "case " << i;
    const QBinaryLinear& l = q.linear;
    int claimed = 0;
    for (int xb = 0; xb < 256; ++xb) {
      for (int yb = 0; yb < 256; ++yb) {
        const int64_t x = is_signed ? static_cast<int8_t>(xb) : xb;
        const int64_t y = is_signed ? static_cast<int8_t>(yb) : yb;
        const int64_t form = x * l.m1 + y * l.m2 + l.bias;
        ASSERT_GE(form, INT32_MIN);
        ASSERT_LE(form, INT32_MAX);
        if (!QBinaryLinearExactAt(l, static_cast<int32_t>(form))) continue;
        ++claimed;
        const int64_t floor = form >> l.frac_bits;
        const auto got = static_cast<int32_t>(std::clamp<int64_t>(floor, q.act_min, q.act_max));
        const uint8_t want =
            is_signed ? Reference<int8_t>(q, xb, yb) : Reference<uint8_t>(q, xb, yb);
        const int32_t want_value = is_signed ? static_cast<int8_t>(want) : want;
        ASSERT_EQ(got, want_value) << "case " << i << " x " << x << " y " << y;
      }
    }
    if (!nice) {
      EXPECT_GT(claimed, 65536 * 99 / 100) << "case " << i;
    }
  }
  // MUL has no linear form.
  QBinaryParams mul = RealisticParams(rng, QBinaryOp::kAdd, true, false);
  mul.op = QBinaryOp::kMul;
  PlanQBinaryLinear(&mul);
  EXPECT_FALSE(mul.linear.usable);
}

// Long runs with realistic ADD/SUB parameters, so whole 32-element blocks take the linear
// form (and, with tie-heavy scales, the exact fallback inside a run).
TEST_P(QBinaryPathTest, RealisticAddSubMatchReference) {
  const QBinaryKernel& kernel = *QBinaryKernelFor(GetParam());
  std::mt19937 rng(77);
  for (int i = 0; i < 400; ++i) {
    const QBinaryOp op = rng() % 2 ? QBinaryOp::kSub : QBinaryOp::kAdd;
    const bool is_signed = rng() % 3 != 0;
    QBinaryParams q = RealisticParams(rng, op, is_signed, rng() % 3 == 0);
    PlanQBinaryLinear(&q);
    SCOPED_TRACE(i);
    CheckRandomCall(kernel, q, 1 + rng() % 300, 6, rng);
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, QBinaryPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(QBinaryKernelFor)),
                         octet::testing::PathName);

}  // namespace
}  // namespace octet::optimized
