// QUANTIZE / DEQUANTIZE kernels of every path this CPU runs against the reference functions:
// random values, exact rounding ties, NaN, infinities and huge values, vector tails.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/reference/quantize.h"
#include "util/kernel_paths.h"

namespace octet::optimized {
namespace {

class QConvertPathTest : public ::testing::TestWithParam<cpu::Isa> {};

TEST_P(QConvertPathTest, QuantizeMatchesReference) {
  const QConvertKernel& k = *QConvertKernelFor(GetParam());
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> log_scale(-4.f, 1.f);
  for (int i = 0; i < 2000; ++i) {
    const bool is_signed = rng() % 2;
    const float scale = std::pow(10.f, log_scale(rng));
    const int32_t zp = is_signed ? static_cast<int32_t>(rng() % 256) - 128 : rng() % 256;
    const size_t n = 1 + rng() % 60;
    std::vector<float> in(n);
    for (float& v : in) {
      switch (rng() % 8) {
        case 0:  // exactly half-way between two quantized values
          v = (static_cast<int>(rng() % 400) - 200 + 0.5f) * scale;
          break;
        case 1:
          v = std::numeric_limits<float>::quiet_NaN();
          break;
        case 2:
          v = (rng() % 2 ? 1 : -1) * std::numeric_limits<float>::infinity();
          break;
        case 3:
          v = (rng() % 2 ? 1e30f : -1e30f);
          break;
        default:
          v = std::uniform_real_distribution<float>(-200.f, 200.f)(rng) * scale;
      }
    }
    std::vector<uint8_t> want(n), got(n, 0xEE);
    if (is_signed) {
      reference::AffineQuantize(in.data(), n, scale, zp, reinterpret_cast<int8_t*>(want.data()));
    } else {
      reference::AffineQuantize(in.data(), n, scale, zp, want.data());
    }
    k.quantize(in.data(), n, scale, zp, is_signed, got.data());
    ASSERT_EQ(got, want) << k.name << " case " << i << " scale " << scale << " zp " << zp;
  }
}

TEST_P(QConvertPathTest, DequantizeMatchesReference) {
  const QConvertKernel& k = *QConvertKernelFor(GetParam());
  std::mt19937 rng(4);
  for (int i = 0; i < 500; ++i) {
    const bool is_signed = rng() % 2;
    const float scale = std::pow(10.f, std::uniform_real_distribution<float>(-5.f, 2.f)(rng));
    const int32_t zp = is_signed ? static_cast<int32_t>(rng() % 256) - 128 : rng() % 256;
    const size_t n = 1 + rng() % 60;
    std::vector<uint8_t> in(n);
    for (auto& v : in) v = static_cast<uint8_t>(rng());
    std::vector<float> want(n), got(n, -1.f);
    if (is_signed) {
      reference::Dequantize(reinterpret_cast<const int8_t*>(in.data()), n, scale, zp, want.data());
    } else {
      reference::Dequantize(in.data(), n, scale, zp, want.data());
    }
    k.dequantize(in.data(), n, scale, zp, is_signed, got.data());
    ASSERT_EQ(got, want) << k.name << " case " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, QConvertPathTest,
                         ::testing::ValuesIn(octet::testing::PathsWithKernel(QConvertKernelFor)),
                         octet::testing::PathName);

}  // namespace
}  // namespace octet::optimized
