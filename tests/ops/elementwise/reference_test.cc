// Direct tests of the pure reference helpers (no interpreter).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/reference/binary.h"
#include "kernels/reference/broadcast.h"
#include "kernels/reference/cast.h"
#include "kernels/reference/elementwise.h"
#include "kernels/reference/quantize.h"

namespace octet::reference {
namespace {

TEST(Elementwise_Reference, BroadcastShapes) {
  Shape out;
  ASSERT_TRUE(BroadcastShapes(Shape{2, 1, 3}, Shape{4, 1}, &out));
  EXPECT_EQ(out, (Shape{2, 4, 3}));
  ASSERT_TRUE(BroadcastShapes(Shape{}, Shape{5}, &out));
  EXPECT_EQ(out, (Shape{5}));
  ASSERT_TRUE(BroadcastShapes(Shape{1, 0}, Shape{3, 1}, &out));
  EXPECT_EQ(out, (Shape{3, 0}));
  EXPECT_FALSE(BroadcastShapes(Shape{2, 3}, Shape{4}, &out));
}

TEST(Elementwise_Reference, ForEachBroadcastIndexVisitsRowMajor) {
  const Shape a{2, 1}, b{3}, out{2, 3};
  std::vector<std::array<int64_t, 3>> seen;
  ForEachBroadcastIndex<2>(out, {&a, &b}, [&](int64_t o, const std::array<int64_t, 2> &in) {
    seen.push_back({o, in[0], in[1]});
  });
  const std::vector<std::array<int64_t, 3>> expected = {{0, 0, 0}, {1, 0, 1}, {2, 0, 2},
                                                        {3, 1, 0}, {4, 1, 1}, {5, 1, 2}};
  EXPECT_EQ(seen, expected);
}

TEST(Elementwise_Reference, ForEachBroadcastIndexScalarAndEmpty) {
  const Shape scalar{}, empty{0, 3};
  int calls = 0;
  ForEachBroadcastIndex<1>(scalar, {&scalar}, [&](int64_t o, const std::array<int64_t, 1> &in) {
    EXPECT_EQ(o, 0);
    EXPECT_EQ(in[0], 0);
    ++calls;
  });
  EXPECT_EQ(calls, 1);
  ForEachBroadcastIndex<1>(empty, {&empty},
                           [&](int64_t, const std::array<int64_t, 1> &) { ++calls; });
  EXPECT_EQ(calls, 1);
}

TEST(Elementwise_Reference, IntegerEdgeCasesWrapInsteadOfOverflowing) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(TruncDiv<int32_t>(kMin, -1), kMin);
  EXPECT_EQ(FloorDiv<int32_t>(kMin, -1), kMin);
  EXPECT_EQ(FloorMod<int32_t>(kMin, -1), 0);
  EXPECT_EQ(WrapAdd<int32_t>(std::numeric_limits<int32_t>::max(), 1), kMin);
  EXPECT_EQ(Abs<int32_t>(kMin), kMin);
  EXPECT_EQ(FloorDiv<int32_t>(-7, 2), -4);
  EXPECT_EQ(FloorDiv<int32_t>(7, -2), -4);
  EXPECT_EQ(FloorDiv<int32_t>(-8, 2), -4);
  EXPECT_EQ(FloorMod<int32_t>(-7, 3), 2);
  EXPECT_EQ(FloorMod<int32_t>(7, -3), -2);
  EXPECT_EQ(IntegerPow<int32_t>(3, 5), 243);
  EXPECT_EQ(IntegerPow<int32_t>(-2, 0), 1);
}

TEST(Elementwise_Reference, RoundHalfToEven) {
  EXPECT_EQ(RoundHalfToEven(0.5f), 0.0f);
  EXPECT_EQ(RoundHalfToEven(1.5f), 2.0f);
  EXPECT_EQ(RoundHalfToEven(2.5f), 2.0f);
  EXPECT_EQ(RoundHalfToEven(-0.5f), 0.0f);
  EXPECT_EQ(RoundHalfToEven(-1.5f), -2.0f);
  EXPECT_EQ(RoundHalfToEven(-2.6f), -3.0f);
  EXPECT_EQ(RoundHalfToEven(1e20f), 1e20f);
}

TEST(Elementwise_Reference, CastValueSaturatesFloatToInt) {
  EXPECT_EQ((CastValue<int32_t, float>(-3.9f)), -3);
  EXPECT_EQ((CastValue<int32_t, float>(1e10f)), std::numeric_limits<int32_t>::max());
  EXPECT_EQ((CastValue<int32_t, float>(-1e10f)), std::numeric_limits<int32_t>::min());
  EXPECT_EQ((CastValue<int32_t, float>(std::nanf(""))), 0);
  EXPECT_EQ((CastValue<uint8_t, float>(-0.5f)), 0);
  EXPECT_EQ((CastValue<uint8_t, float>(255.9f)), 255);
  EXPECT_EQ((CastValue<int64_t, float>(9.3e18f)), std::numeric_limits<int64_t>::max());
  EXPECT_EQ((CastValue<bool, float>(0.25f)), true);
}

TEST(Elementwise_Reference, QuantizeRoundsHalfAwayFromZeroAndClamps) {
  EXPECT_EQ(QuantizeValue<int8_t>(0.25f, 0.5f, 0), 1);    // 0.5 -> 1
  EXPECT_EQ(QuantizeValue<int8_t>(-0.25f, 0.5f, 0), -1);  // -0.5 -> -1
  EXPECT_EQ(QuantizeValue<int8_t>(1000.f, 0.5f, 0), 127);
  EXPECT_EQ(QuantizeValue<uint8_t>(-1.f, 0.1f, 3), 0);
  EXPECT_EQ(QuantizeValue<int16_t>(1e30f, 1e-10f, 0), 32767);
  EXPECT_EQ(QuantizeValue<int8_t>(std::nanf(""), 1.f, 0), -128);
}

TEST(Elementwise_Reference, HalfToFloat) {
  EXPECT_EQ(HalfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xc000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0x0200), std::ldexp(1.0f, -15));
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isinf(HalfToFloat(0x7c00)));
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7e00)));
  EXPECT_TRUE(std::signbit(HalfToFloat(0x8000)));
}

// Every finite half survives the round trip; a float halfway between two neighbouring halves
// goes to the one with an even mantissa, a hair above it to the upper one.
TEST(Elementwise_Reference, FloatToHalfRoundsToNearestEven) {
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    for (uint32_t sign : {0u, 0x8000u}) {
      const auto bits = static_cast<uint16_t>(h | sign);
      ASSERT_EQ(FloatToHalf(HalfToFloat(bits)), bits) << std::hex << bits;
    }
    if (h + 1 == 0x7c00) break;
    const float lo = HalfToFloat(static_cast<uint16_t>(h));
    const float hi = HalfToFloat(static_cast<uint16_t>(h + 1));
    const float mid = lo + (hi - lo) / 2;  // exact: a half has 11 significant bits
    ASSERT_EQ(FloatToHalf(mid), (h & 1u) ? h + 1 : h) << std::hex << h;
    ASSERT_EQ(FloatToHalf(std::nextafter(mid, hi)), h + 1) << std::hex << h;
  }
  EXPECT_EQ(FloatToHalf(65519.99f), 0x7bff);  // below the midpoint to 2^16: 65504
  EXPECT_EQ(FloatToHalf(65520.f), 0x7c00);    // the midpoint rounds to even: infinity
  EXPECT_EQ(FloatToHalf(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -26)), 0x0000);  // a quarter of the least subnormal
  EXPECT_EQ(FloatToHalf(-std::nanf("")), 0xfe00);
}

}  // namespace
}  // namespace octet::reference
