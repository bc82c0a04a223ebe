// Philox4x32-10 against Random123's published known-answer vectors (tests/kat_vectors), the
// stream's counter / key layout and carries as TF's PhiloxRandom defines them, and TF's
// word-to-float conversions against their definitions (1.m - 1 mantissas, Box-Muller in
// double).
#include "ops/random/philox.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace octet::random_test {
namespace {

using ops::random::BoxMullerFloat;
using ops::random::Philox4x32_10;
using ops::random::PhiloxBlock;
using ops::random::PhiloxKey;
using ops::random::PhiloxStream;
using ops::random::Uint32ToUnitFloat;
using ops::random::Uint64ToUnitDouble;

TEST(RandomPhilox, Random123KnownAnswers) {
  struct Kat {
    PhiloxBlock counter;
    PhiloxKey key;
    PhiloxBlock expected;
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) EXPECT_EQ(Philox4x32_10(k.counter, k.key), k.expected);
}

TEST(RandomPhilox, SeedsFillKeyAndCounterHighHalf) {
  PhiloxStream s(0x0123456789abcdefull, 0xfedcba9876543210ull);
  EXPECT_EQ(s.key(), (PhiloxKey{0x89abcdef, 0x01234567}));
  EXPECT_EQ(s.counter(), (PhiloxBlock{0, 0, 0x76543210, 0xfedcba98}));
  // Each draw is the bijection of the current counter, then the counter steps by one.
  const PhiloxBlock first = s.Next();
  EXPECT_EQ(first, Philox4x32_10({0, 0, 0x76543210, 0xfedcba98}, {0x89abcdef, 0x01234567}));
  EXPECT_EQ(s.counter(), (PhiloxBlock{1, 0, 0x76543210, 0xfedcba98}));
}

TEST(RandomPhilox, NextCarriesThrough128Bits) {
  PhiloxStream s(7, 0xffffffffffffffffull);
  s.Skip(0xffffffffffffffffull);  // counter = 2^128 - 1
  EXPECT_EQ(s.counter(), (PhiloxBlock{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}));
  s.Next();
  EXPECT_EQ(s.counter(), (PhiloxBlock{0, 0, 0, 0}));
}

TEST(RandomPhilox, SkipAddsToTheCounter) {
  PhiloxStream s(1, 0);
  s.Skip(5);
  EXPECT_EQ(s.counter(), (PhiloxBlock{5, 0, 0, 0}));
  s.Skip(0xfffffffeull);  // carry from word 0 into word 1
  EXPECT_EQ(s.counter(), (PhiloxBlock{3, 1, 0, 0}));
  s.Skip(0xffffffff00000000ull);  // carry out of word 1 into word 2
  EXPECT_EQ(s.counter(), (PhiloxBlock{3, 0, 1, 0}));
  // Skipping n blocks then drawing equals drawing n + 1 times.
  PhiloxStream a(99, 3), b(99, 3);
  for (int i = 0; i < 9; ++i) a.Next();
  b.Skip(9);
  EXPECT_EQ(a.Next(), b.Next());
}

TEST(RandomPhilox, Uint32ToUnitFloatIsTheLow23BitsOverTwoTo23) {
  const uint32_t words[] = {0u, 1u, 0x7fffffu, 0x800000u, 0x12345678u, 0xffffffffu, 0xdeadbeefu};
  for (uint32_t w : words) {
    const double expected = static_cast<double>(w & 0x7fffffu) / 8388608.0;  // exact in float
    EXPECT_EQ(Uint32ToUnitFloat(w), static_cast<float>(expected)) << std::hex << w;
    EXPECT_GE(Uint32ToUnitFloat(w), 0.0f);
    EXPECT_LT(Uint32ToUnitFloat(w), 1.0f);
  }
}

TEST(RandomPhilox, Uint64ToUnitDoubleIs52BitsOverTwoTo52) {
  const uint32_t pairs[][2] = {
      {0, 0}, {0, 1}, {0xfffff, 0xffffffff}, {0xfff00000, 7}, {0x12345678, 0x9abcdef0}};
  for (const auto& p : pairs) {
    const uint64_t mantissa = (static_cast<uint64_t>(p[0] & 0xfffffu) << 32) | p[1];
    const double expected = static_cast<double>(mantissa) / 4503599627370496.0;  // 2^52
    EXPECT_EQ(Uint64ToUnitDouble(p[0], p[1]), expected);
    EXPECT_LT(Uint64ToUnitDouble(p[0], p[1]), 1.0);
  }
}

TEST(RandomPhilox, BoxMullerMatchesTheTransformInDouble) {
  // z0 = sqrt(-2 ln u1) sin(2 pi u2), z1 = ... cos(...), u1 clamped below at 1e-7.
  PhiloxStream s(2024, 11);
  for (int i = 0; i < 2000; ++i) {
    const PhiloxBlock w = s.Next();
    float z0, z1;
    BoxMullerFloat(w[0], w[1], &z0, &z1);
    const double u1 = std::max<double>(Uint32ToUnitFloat(w[0]), 1.0e-7f);
    const double u2 = Uint32ToUnitFloat(w[1]);
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double kPi = 3.14159265358979323846;
    const double e0 = r * std::sin(2 * kPi * u2), e1 = r * std::cos(2 * kPi * u2);
    EXPECT_NEAR(z0, e0, 1e-5 + 1e-5 * std::fabs(e0)) << i;
    EXPECT_NEAR(z1, e1, 1e-5 + 1e-5 * std::fabs(e1)) << i;
  }
  // u1 = 0 (mantissa bits zero) uses the clamp: radius sqrt(-2 ln 1e-7), finite.
  float z0, z1;
  BoxMullerFloat(0u, 0u, &z0, &z1);  // angle 0: sin 0, cos 1
  EXPECT_EQ(z0, 0.0f);
  EXPECT_NEAR(z1, std::sqrt(-2.0 * std::log(static_cast<double>(1.0e-7f))), 1e-5);
}

}  // namespace
}  // namespace octet::random_test
