// The hybrid input quantizer (fquant) of every path this CPU runs against
// reference::SymmetricQuantize / AsymmetricQuantize: q, scale and offset bit for bit, over
// lengths around every vector width, constant, zero, subnormal, huge, one-signed and
// mixed-sign vectors, exact .5 ties after scaling (built so that zero_point + x * inv is a
// half-integer in float), NaN and infinities, misaligned inputs; the two kernel loops on their
// own with extreme parameters; the rounding of the product before the sum (no FMA); and the
// reference itself against its previous formulation where that one was defined.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/fquant/fquant_driver.h"
#include "kernels/reference/hybrid_quantize.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

const size_t kLengths[] = {0,  1,  2,  3,  5,  7,   8,   9,   15,  16,  17,  23,   31,   32,  33,
                           47, 63, 64, 65, 79, 127, 128, 129, 255, 256, 257, 1000, 1023, 4099};

// Runs both quantizers of `k` and of the reference on `x` (copied one float past a 64-byte
// boundary when `misalign`) and expects the same bits.
void ExpectSameAsReference(const FQuantKernel& k, const std::vector<float>& x, bool misalign,
                           const std::string& what) {
  const size_t n = x.size();
  std::vector<float> buffer(n + 32);
  float* in = buffer.data() + (misalign ? 1 : 0);
  std::copy(x.begin(), x.end(), in);
  std::vector<int8_t> want(n), got(n, int8_t{0x5A});
  float want_scale = -1.f, got_scale = -2.f;
  reference::SymmetricQuantize(in, static_cast<int64_t>(n), want.data(), &want_scale);
  FQuantSymmetric(k, in, n, got.data(), &got_scale);
  ASSERT_EQ(got, want) << k.name << " symmetric " << what << " n " << n;
  ASSERT_EQ(Bits(got_scale), Bits(want_scale)) << k.name << " symmetric " << what << " n " << n;

  int32_t want_offset = 99, got_offset = -99;
  std::fill(got.begin(), got.end(), int8_t{0x5A});
  reference::AsymmetricQuantize(in, static_cast<int64_t>(n), want.data(), &want_scale,
                                &want_offset);
  FQuantAsymmetric(k, in, n, got.data(), &got_scale, &got_offset);
  ASSERT_EQ(got, want) << k.name << " asymmetric " << what << " n " << n;
  ASSERT_EQ(Bits(got_scale), Bits(want_scale)) << k.name << " asymmetric " << what << " n " << n;
  ASSERT_EQ(got_offset, want_offset) << k.name << " asymmetric " << what << " n " << n;
}

// Random vectors of one kind; `rng` decides where the extremes fall.
std::vector<float> Make(int kind, size_t n, std::mt19937& rng) {
  std::vector<float> x(n);
  auto uniform = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
  };
  for (size_t i = 0; i < n; ++i) {
    switch (kind) {
      case 0:  // mixed signs
        x[i] = uniform(-3.f, 3.f);
        break;
      case 1:  // one-signed, positive: the asymmetric zero point at its end
        x[i] = uniform(0.5f, 9.f);
        break;
      case 2:  // one-signed, negative
        x[i] = uniform(-700.f, -0.001f);
        break;
      case 3:  // skewed: zero points away from the middle
        x[i] = uniform(-0.2f, 5.f);
        break;
      case 4:  // subnormals (the scales' inverses overflow) and zeros
        x[i] = rng() % 4 == 0 ? 0.f : uniform(-1e-38f, 1e-38f) * 1e-3f;
        break;
      case 5:  // huge, up to the float maximum
        x[i] = (rng() % 2 ? 1.f : -1.f) * std::numeric_limits<float>::max() * uniform(0.f, 1.f);
        break;
      case 6:  // tiny but normal
        x[i] = uniform(-1e-30f, 1e-30f);
        break;
      case 7:  // a few distinct values, with zeros of both signs
        x[i] = std::vector<float>{0.f, -0.f, 1.f, -1.f, 0.25f, 3.f}[rng() % 6];
        break;
      default:  // every value in many magnitudes
        x[i] = uniform(-1.f, 1.f) * std::pow(10.f, uniform(-6.f, 6.f));
    }
  }
  return x;
}
constexpr int kKinds = 9;

class FQuantPathTest : public ::testing::TestWithParam<cpu::Isa> {
 protected:
  const FQuantKernel& kernel() const { return *FQuantKernelFor(GetParam()); }
};

TEST_P(FQuantPathTest, RandomVectorsOfEveryKindAndLength) {
  std::mt19937 rng(11);
  for (size_t n : kLengths) {
    for (int kind = 0; kind < kKinds; ++kind) {
      for (int rep = 0; rep < 3; ++rep) {
        const std::vector<float> x = Make(kind, n, rng);
        ExpectSameAsReference(kernel(), x, rep == 1,
                              "kind " + std::to_string(kind) + " rep " + std::to_string(rep));
      }
    }
  }
  // Long vectors: the unrolled loops for many steps.
  for (size_t n : {size_t{100003}, size_t{112 * 112 * 32}}) {
    ExpectSameAsReference(kernel(), Make(0, n, rng), false, "long mixed");
    ExpectSameAsReference(kernel(), Make(3, n, rng), true, "long skewed");
  }
}

TEST_P(FQuantPathTest, ConstantAndZeroVectors) {
  const float values[] = {0.f,     -0.f,  1.f,    -1.f,  0.37f,  -250.f, 1e-42f,
                          -1e-42f, 1e38f, -3e38f, 127.f, -128.f, 1e-45f};
  for (size_t n : kLengths) {
    for (float v : values) {
      ExpectSameAsReference(kernel(), std::vector<float>(n, v), n % 2 == 1,
                            "constant " + std::to_string(v));
    }
  }
}

// Elements whose scaled value zero_point + x * inv is exactly a half-integer in float. For
// scales that are powers of two every such element is exact; the test checks that the ties
// are really there (else it would test nothing).
TEST_P(FQuantPathTest, ExactTiesRoundAwayFromZero) {
  std::mt19937 rng(12);
  int symmetric_ties = 0, asymmetric_ties = 0;
  for (size_t n : kLengths) {
    if (n < 2) continue;
    for (int e = -20; e <= 20; e += 5) {
      const float unit = std::ldexp(1.f, e);
      // Symmetric: max|x| = 127 * unit gives inv = 1 / unit exactly.
      {
        std::vector<float> x(n);
        for (float& v : x)
          v = (static_cast<float>(static_cast<int>(rng() % 254) - 127) + 0.5f) * unit;
        x[rng() % n] = (rng() % 2 ? 127.f : -127.f) * unit;
        float scale, inv;
        float lo, hi;
        reference::HybridQuantizeRange(x.data(), static_cast<int64_t>(n), &lo, &hi);
        ASSERT_TRUE(reference::SymmetricQuantizeParams(lo, hi, &scale, &inv));
        for (float v : x) symmetric_ties += std::fabs(v * inv - std::trunc(v * inv)) == 0.5f;
        ExpectSameAsReference(kernel(), x, e == 0, "symmetric ties, unit 2^" + std::to_string(e));
      }
      // Asymmetric: [-a, 255 - a] * unit gives scale = unit and zero point a - 128.
      {
        const int a = 1 + static_cast<int>(rng() % 254);
        std::vector<float> x(n);
        for (float& v : x) {
          v = (static_cast<float>(static_cast<int>(rng() % 255) - a) + 0.5f) * unit;
        }
        x[0] = static_cast<float>(-a) * unit;
        x[n - 1] = static_cast<float>(255 - a) * unit;
        std::shuffle(x.begin(), x.end(), rng);
        float lo, hi, scale, inv;
        int32_t offset;
        reference::HybridQuantizeRange(x.data(), static_cast<int64_t>(n), &lo, &hi);
        ASSERT_TRUE(reference::AsymmetricQuantizeParams(lo, hi, &scale, &offset, &inv));
        for (float v : x) {
          const float s = static_cast<float>(offset) + v * inv;
          asymmetric_ties += std::fabs(s - std::trunc(s)) == 0.5f;
        }
        ExpectSameAsReference(kernel(), x, e == 5, "asymmetric ties, unit 2^" + std::to_string(e));
      }
    }
  }
  EXPECT_GT(symmetric_ties, 10000);
  EXPECT_GT(asymmetric_ties, 10000);
}

TEST_P(FQuantPathTest, NaNAndInfinities) {
  std::mt19937 rng(13);
  const float specials[] = {kNaN, -kNaN, kInf, -kInf};
  for (size_t n : kLengths) {
    if (n == 0) continue;
    for (int rep = 0; rep < 6; ++rep) {
      std::vector<float> x = Make(rep % kKinds, n, rng);
      // Specials at the start (the old scan's seed), at the end (the tails) and at random.
      const size_t count = 1 + rng() % 3;
      for (size_t c = 0; c < count; ++c) {
        const size_t at = c == 0 ? (rep % 2 ? 0 : n - 1) : rng() % n;
        x[at] = specials[(rep + c) % 4];
      }
      ExpectSameAsReference(kernel(), x, rep % 2 == 1, "specials rep " + std::to_string(rep));
    }
    ExpectSameAsReference(kernel(), std::vector<float>(n, kNaN), false, "all NaN");
    ExpectSameAsReference(kernel(), std::vector<float>(n, -kInf), false, "all -inf");
  }
}

// The two loops with parameters the drivers never pass too: infinite or zero inverse scales,
// every zero point, both clamp ranges, elements that land beyond the int32 range.
TEST_P(FQuantPathTest, KernelLoopsMatchTheReferenceElements) {
  std::mt19937 rng(14);
  const float invs[] = {1.f, 0.f, kInf, 1e30f, 3e-39f, 1.f / 3.f, 127.f / 2.5f, 0.0078125f};
  for (size_t n : kLengths) {
    std::vector<float> x = Make(static_cast<int>(rng() % kKinds), n, rng);
    for (size_t i = 0; i < n; i += 1 + rng() % 7) {
      x[i] = std::vector<float>{kNaN, kInf, -kInf, 0.f, -0.f, 3e9f, -3e9f}[rng() % 7];
    }
    float want_lo, want_hi, got_lo = kNaN, got_hi = kNaN;
    reference::HybridQuantizeRange(x.data(), static_cast<int64_t>(n), &want_lo, &want_hi);
    kernel().range(x.data(), n, &got_lo, &got_hi);
    ASSERT_EQ(Bits(got_lo), Bits(want_lo)) << kernel().name << " n " << n;
    ASSERT_EQ(Bits(got_hi), Bits(want_hi)) << kernel().name << " n " << n;
    for (float inv : invs) {
      for (int zp : {0, -128, 127, -5, 77}) {
        const bool symmetric_bounds = rng() % 2;
        const float qmin = symmetric_bounds ? -127.f : -128.f;
        std::vector<int8_t> want(n), got(n, int8_t{0x5A});
        for (size_t i = 0; i < n; ++i) {
          const float v = static_cast<float>(zp) + reference::HybridRoundedProduct(x[i], inv);
          want[i] = reference::HybridQuantizeElement(v, qmin, 127.f);
        }
        kernel().quantize(x.data(), n, inv, static_cast<float>(zp), qmin, 127.f, got.data());
        ASSERT_EQ(got, want) << kernel().name << " n " << n << " inv " << inv << " zp " << zp;
      }
    }
  }
}

// zero_point + x * inv has two roundings in the reference. Elements for which one fused
// rounding (an FMA) would give another code are searched for, and must give the reference's.
TEST_P(FQuantPathTest, ProductIsRoundedBeforeTheSum) {
  std::mt19937 rng(15);
  std::vector<float> x;
  std::vector<float> invs;
  std::vector<float> zps;
  for (int attempt = 0; attempt < 200000 && x.size() < 64; ++attempt) {
    const float inv = std::uniform_real_distribution<float>(0.01f, 4.f)(rng);
    const int zp = static_cast<int>(rng() % 200) - 100;
    // A half-integer target whose product has the other sign to the zero point (cancellation).
    const float target = static_cast<float>(static_cast<int>(rng() % 40) - 20) + 0.5f;
    float xi = (target - static_cast<float>(zp)) / inv;
    for (int step = 0; step < 8; ++step, xi = std::nextafter(xi, step % 2 ? kInf : -kInf)) {
      const float two_roundings = static_cast<float>(zp) + reference::HybridRoundedProduct(xi, inv);
      const float fused = std::fma(xi, inv, static_cast<float>(zp));
      if (reference::HybridQuantizeElement(two_roundings, -128.f, 127.f) !=
          reference::HybridQuantizeElement(fused, -128.f, 127.f)) {
        x.push_back(xi);
        invs.push_back(inv);
        zps.push_back(static_cast<float>(zp));
        break;
      }
    }
  }
  ASSERT_GE(x.size(), 8u) << "no element found where an FMA would change the code";
  for (size_t i = 0; i < x.size(); ++i) {
    int8_t got[3] = {0, 0, 0};
    const float three[3] = {x[i], x[i], x[i]};
    kernel().quantize(three, 3, invs[i], zps[i], -128.f, 127.f, got);
    const int8_t want = reference::HybridQuantizeElement(
        zps[i] + reference::HybridRoundedProduct(x[i], invs[i]), -128.f, 127.f);
    ASSERT_EQ(got[0], want) << kernel().name << " x " << x[i] << " inv " << invs[i];
    ASSERT_EQ(got[2], want) << kernel().name;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, FQuantPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(FQuantKernelFor)),
                         octet::testing::PathName);

// The reference as it was written before the split (std::minmax_element, round, then clamp
// in int), valid where that code was defined: finite elements with a normal range.
void LegacySymmetric(const float* x, int64_t n, int8_t* q, float* scale) {
  float lo = 0.f, hi = 0.f;
  if (n > 0) {
    const auto mm = std::minmax_element(x, x + n);
    lo = *mm.first;
    hi = *mm.second;
  }
  const float range = std::max(std::fabs(lo), std::fabs(hi));
  if (range == 0.f) {
    if (n > 0) std::memset(q, 0, static_cast<size_t>(n));  // (no null pointer for n = 0)
    *scale = 1.f;
    return;
  }
  *scale = range / 127.f;
  const float inv = 127.f / range;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(std::round(x[i] * inv));
    q[i] = static_cast<int8_t>(std::min(127, std::max(-127, v)));
  }
}

void LegacyAsymmetric(const float* x, int64_t n, int8_t* q, float* scale, int32_t* offset) {
  float lo = 0.f, hi = 0.f;
  if (n > 0) {
    const auto mm = std::minmax_element(x, x + n);
    lo = *mm.first;
    hi = *mm.second;
  }
  const double rmin = static_cast<double>(std::min(0.f, lo));
  const double rmax = static_cast<double>(std::max(0.f, hi));
  if (rmin == rmax) {
    if (n > 0) std::memset(q, 0, static_cast<size_t>(n));  // (no null pointer for n = 0)
    *scale = 1.f;
    *offset = 0;
    return;
  }
  const double s = (rmax - rmin) / 255.0;
  const double zp_from_min = -128.0 - rmin / s;
  const double zp_from_max = 127.0 - rmax / s;
  const double zp =
      128.0 + std::fabs(rmin / s) < 127.0 + std::fabs(rmax / s) ? zp_from_min : zp_from_max;
  const int32_t nudged =
      zp <= -128.0 ? -128 : (zp >= 127.0 ? 127 : static_cast<int32_t>(std::round(zp)));
  *scale = static_cast<float>(s);
  *offset = nudged;
  const float inv = 1.f / *scale;
  for (int64_t i = 0; i < n; ++i) {
    // (The product rounded on its own, as x86 builds without FMA did.)
    const float v_f = static_cast<float>(nudged) + reference::HybridRoundedProduct(x[i], inv);
    const int32_t v = static_cast<int32_t>(std::round(v_f));
    q[i] = static_cast<int8_t>(std::min(127, std::max(-128, v)));
  }
}

TEST(FQuantReference, SameAsItsPreviousFormulationWhereThatWasDefined) {
  std::mt19937 rng(16);
  for (size_t n : kLengths) {
    for (int kind : {0, 1, 2, 3, 5, 6, 7, 8}) {
      const std::vector<float> x = Make(kind, n, rng);
      std::vector<int8_t> want(n), got(n);
      float want_scale, got_scale;
      int32_t want_offset, got_offset;
      LegacySymmetric(x.data(), static_cast<int64_t>(n), want.data(), &want_scale);
      reference::SymmetricQuantize(x.data(), static_cast<int64_t>(n), got.data(), &got_scale);
      ASSERT_EQ(got, want) << "kind " << kind << " n " << n;
      ASSERT_EQ(Bits(got_scale), Bits(want_scale)) << "kind " << kind << " n " << n;
      LegacyAsymmetric(x.data(), static_cast<int64_t>(n), want.data(), &want_scale, &want_offset);
      reference::AsymmetricQuantize(x.data(), static_cast<int64_t>(n), got.data(), &got_scale,
                                    &got_offset);
      ASSERT_EQ(got, want) << "kind " << kind << " n " << n;
      ASSERT_EQ(Bits(got_scale), Bits(want_scale)) << "kind " << kind << " n " << n;
      ASSERT_EQ(got_offset, want_offset) << "kind " << kind << " n " << n;
    }
  }
}

// What the now well-defined cases give: NaN the lowest code, infinities and overflowing
// products saturating, a NaN zero point nudged to -128.
TEST(FQuantReference, UndefinedCasesAreDefined) {
  EXPECT_EQ(reference::HybridQuantizeElement(kNaN, -127.f, 127.f), -127);
  EXPECT_EQ(reference::HybridQuantizeElement(kInf, -128.f, 127.f), 127);
  EXPECT_EQ(reference::HybridQuantizeElement(-kInf, -128.f, 127.f), -128);
  EXPECT_EQ(reference::HybridQuantizeElement(3e9f, -127.f, 127.f), 127);
  EXPECT_EQ(reference::HybridQuantizeElement(-126.5f, -127.f, 127.f), -127);
  EXPECT_EQ(reference::HybridQuantizeElement(126.5f, -127.f, 127.f), 127);
  EXPECT_EQ(reference::HybridQuantizeElement(-0.5f, -128.f, 127.f), -1);
  EXPECT_EQ(reference::HybridQuantizeElement(0.49999997f, -128.f, 127.f), 0);
  float lo, hi;
  const float with_nan[] = {kNaN, 2.f, -3.f, kNaN};
  reference::HybridQuantizeRange(with_nan, 4, &lo, &hi);
  EXPECT_EQ(lo, -3.f);
  EXPECT_EQ(hi, 2.f);
  float scale, inv;
  int32_t offset;
  ASSERT_TRUE(reference::AsymmetricQuantizeParams(-kInf, kInf, &scale, &offset, &inv));
  EXPECT_EQ(offset, -128);
  EXPECT_EQ(scale, kInf);
  // A subnormal range: 127 / range overflows, so x * inv is infinite (or NaN for x = 0).
  const float tiny[] = {1e-40f, 0.f, -5e-41f};
  int8_t q[3];
  reference::SymmetricQuantize(tiny, 3, q, &scale);
  EXPECT_EQ(q[0], 127);
  EXPECT_EQ(q[1], -127);
  EXPECT_EQ(q[2], -127);
}

}  // namespace
}  // namespace octet::optimized
