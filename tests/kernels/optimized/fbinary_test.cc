// The float ADD / SUB / MUL / DIV kernels of every path this CPU runs against the reference
// (reference::Arith + ClampToBounds): random lengths (vector tails included), scalar operands,
// activation bounds, and special values (NaN, ±Inf, ±0, subnormals). Equal bits, except that
// any NaN matches any NaN (payloads are not part of the contract).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/reference/binary.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

using reference::ArithOp;

class FBinaryPathTest : public ::testing::TestWithParam<cpu::Isa> {};

float ReferenceOne(FBinaryOp op, float x, float y, const reference::ActivationBounds<float>& b) {
  switch (op) {
    case FBinaryOp::kAdd:
      return reference::ClampToBounds(reference::Arith<ArithOp::kAdd>(x, y), b);
    case FBinaryOp::kSub:
      return reference::ClampToBounds(reference::Arith<ArithOp::kSub>(x, y), b);
    case FBinaryOp::kMul:
      return reference::ClampToBounds(reference::Arith<ArithOp::kMul>(x, y), b);
    case FBinaryOp::kDiv:
      return reference::ClampToBounds(reference::Arith<ArithOp::kDiv>(x, y), b);
  }
  return 0.f;
}

bool SameFloat(float got, float want) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  uint32_t g, w;
  std::memcpy(&g, &got, 4);
  std::memcpy(&w, &want, 4);
  return g == w;  // -0 and +0 differ
}

float RandomValue(std::mt19937& rng) {
  static const float kSpecial[] = {0.f,
                                   -0.f,
                                   1.f,
                                   -1.f,
                                   6.f,
                                   std::numeric_limits<float>::infinity(),
                                   -std::numeric_limits<float>::infinity(),
                                   std::numeric_limits<float>::quiet_NaN(),
                                   std::numeric_limits<float>::denorm_min(),
                                   -std::numeric_limits<float>::min(),
                                   std::numeric_limits<float>::max()};
  if (rng() % 8 == 0) return kSpecial[rng() % (sizeof(kSpecial) / sizeof(float))];
  std::uniform_real_distribution<float> d(-10.f, 10.f);
  return d(rng);
}

TEST_P(FBinaryPathTest, MatchesTheReferenceBitForBit) {
  const FBinaryKernel* kernel = FBinaryKernelFor(GetParam());
  ASSERT_NE(kernel, nullptr);
  std::mt19937 rng(31 + static_cast<int>(GetParam()));
  const float inf = std::numeric_limits<float>::infinity();
  const reference::ActivationBounds<float> kBounds[] = {
      {-inf, inf}, {0.f, inf}, {0.f, 6.f}, {-1.f, 1.f}, {-3.5f, 2.25f}};
  for (int trial = 0; trial < 600; ++trial) {
    const FBinaryOp op = static_cast<FBinaryOp>(trial % 4);
    const size_t n = trial % 7 == 0 ? rng() % 2000 : rng() % 70;
    const int scalar = static_cast<int>(rng() % 3);  // 0 none, 1 a, 2 b
    const reference::ActivationBounds<float> bounds = kBounds[rng() % 5];
    std::vector<float> a(scalar == 1 ? 1 : std::max<size_t>(n, 1)),
        b(scalar == 2 ? 1 : std::max<size_t>(n, 1));
    for (float& v : a) v = RandomValue(rng);
    for (float& v : b) v = RandomValue(rng);
    std::vector<float> got(n + 1, 123.f);  // one guard element
    FBinaryCall call;
    call.op = op;
    call.a = a.data();
    call.b = b.data();
    call.out = got.data();
    call.n = n;
    call.a_scalar = scalar == 1;
    call.b_scalar = scalar == 2;
    call.act_min = bounds.min;
    call.act_max = bounds.max;
    kernel->run(call);
    for (size_t i = 0; i < n; ++i) {
      const float want = ReferenceOne(op, a[scalar == 1 ? 0 : i], b[scalar == 2 ? 0 : i], bounds);
      ASSERT_TRUE(SameFloat(got[i], want))
          << kernel->name << " op " << static_cast<int>(op) << " n " << n << " i " << i << ": "
          << got[i] << " vs " << want;
    }
    EXPECT_EQ(got[n], 123.f) << kernel->name << " wrote past n = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, FBinaryPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(FBinaryKernelFor)),
                         octet::testing::PathName);

}  // namespace
}  // namespace octet::optimized
