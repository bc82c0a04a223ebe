// The float LOGISTIC / TANH / exp kernels of every path this CPU runs, against the true value in
// double and against the reference functions: random lengths (vector tails included), values
// across the whole range with the reference's cut-offs (-9, 16.619...) and their neighbours,
// and special values (NaN, ±Inf, ±0, subnormals, huge). The portable path must give the
// reference's bits; the vector paths within 4 ulp of the true value (libmvec's documented
// bound), and, at the cut-offs, the reference's branch (exactly 1 above the upper one).
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
#include "kernels/reference/activations.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

class FUnaryPathTest : public ::testing::TestWithParam<cpu::Isa> {};

// Distance in representable floats (0 for equal values, +0 and -0 included).
int64_t UlpDistance(float a, float b) {
  auto key = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, 4);
    return i < 0 ? int64_t{std::numeric_limits<int32_t>::min()} - i : int64_t{i};
  };
  const int64_t d = key(a) - key(b);
  return d < 0 ? -d : d;
}

// The reference's logistic in double (its cut-offs included): the true value it rounds.
double TrueLogistic(float x) {
  if (x > 16.619047164916992188f) return 1.0;
  if (x < -9.f) return std::exp(double{x});
  return 1.0 / (1.0 + std::exp(-double{x}));
}

std::vector<float> Inputs(std::mt19937& rng, size_t n) {
  const float kSpecial[] = {0.f,
                            -0.f,
                            1.f,
                            -1.f,
                            -9.f,
                            std::nextafter(-9.f, -10.f),
                            std::nextafter(-9.f, 0.f),
                            16.619047164916992188f,
                            std::nextafter(16.619047164916992188f, 20.f),
                            std::nextafter(16.619047164916992188f, 0.f),
                            88.f,
                            -88.f,
                            -104.f,
                            1e-20f,
                            -1e-30f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::min(),
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max()};
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_int_distribution<size_t> special(0, sizeof(kSpecial) / sizeof(kSpecial[0]) - 1);
  std::uniform_real_distribution<float> small(-1.f, 1.f), wide(-30.f, 30.f), huge(-120.f, 120.f);
  std::vector<float> v(n);
  for (float& x : v) {
    const int k = kind(rng);
    x = k == 0  ? kSpecial[special(rng)]
        : k < 4 ? small(rng) * std::exp2(-kind(rng))
        : k < 8 ? wide(rng)
                : huge(rng);
  }
  return v;
}

void ExpectClose(float got, double truth, float reference, float x, const char* what) {
  if (std::isnan(truth) || std::isnan(reference)) {
    EXPECT_TRUE(std::isnan(got)) << what << "(" << x << ") = " << got;
    return;
  }
  const float rounded = static_cast<float>(truth);
  EXPECT_LE(UlpDistance(got, rounded), 4)
      << what << "(" << x << ") = " << got << ", true " << truth << ", reference " << reference;
}

TEST_P(FUnaryPathTest, WithinFourUlpOfTheTrueValue) {
  const FUnaryKernel* k = FUnaryKernelFor(GetParam());
  ASSERT_NE(k, nullptr);
  const bool portable = GetParam() == cpu::Isa::kScalar;
  std::mt19937 rng(31);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = std::uniform_int_distribution<size_t>(0, 70)(rng);
    const std::vector<float> x = Inputs(rng, n);
    std::vector<float> sig(n, -7.f), th(n, -7.f), ex(n, -7.f);
    k->logistic(x.data(), sig.data(), n);
    k->tanh(x.data(), th.data(), n);
    k->exp(x.data(), ex.data(), n);
    for (size_t i = 0; i < n; ++i) {
      const float ref_sig = reference::Logistic(x[i]);
      const float ref_th = reference::Tanh(x[i]);
      const float ref_ex = std::exp(x[i]);
      if (portable) {
        EXPECT_EQ(UlpDistance(sig[i], ref_sig), 0) << "logistic(" << x[i] << ")";
        EXPECT_EQ(UlpDistance(th[i], ref_th), 0) << "tanh(" << x[i] << ")";
        EXPECT_EQ(UlpDistance(ex[i], ref_ex), 0) << "exp(" << x[i] << ")";
      }
      ExpectClose(sig[i], TrueLogistic(x[i]), ref_sig, x[i], "logistic");
      ExpectClose(th[i], std::tanh(double{x[i]}), ref_th, x[i], "tanh");
      ExpectClose(ex[i], std::exp(double{x[i]}), ref_ex, x[i], "exp");
      if (x[i] > 16.619047164916992188f) {
        EXPECT_EQ(sig[i], 1.f) << x[i];
      }
    }
  }
}

TEST_P(FUnaryPathTest, InPlaceAndTails) {
  const FUnaryKernel* k = FUnaryKernelFor(GetParam());
  ASSERT_NE(k, nullptr);
  std::mt19937 rng(5);
  for (size_t n : {size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{31}, size_t{33}}) {
    const std::vector<float> x = Inputs(rng, n);
    for (FUnaryFn fn : {k->logistic, k->tanh, k->exp}) {
      std::vector<float> out(n + 1, 123.f), in_place = x;
      fn(x.data(), out.data(), n);
      fn(in_place.data(), in_place.data(), n);
      EXPECT_EQ(out[n], 123.f) << "wrote past the end, n " << n;
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(UlpDistance(out[i], in_place[i]), 0) << i;
      }
    }
  }
}

std::vector<cpu::Isa> Paths() { return testing::PathsWithKernel(FUnaryKernelFor); }

INSTANTIATE_TEST_SUITE_P(Paths, FUnaryPathTest, ::testing::ValuesIn(Paths()), testing::PathName);

}  // namespace
}  // namespace octet::optimized
