// CAST to and from float16, bfloat16, float64, uint16, uint32 and complex64
// against conversions written out plainly here (the binary16 / bfloat16
// formats decoded from their definitions, nearest values found by search),
// hand-worked edge values, and golden bytes from TFLite 2.12 (WASM) for the
// pairs that build has.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/test_util.h"

namespace octet::elementwise_test {
namespace {

namespace builtin = tflite::ops::builtin;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kInfF = std::numeric_limits<float>::infinity();

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

uint64_t Bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits.
double HalfValue(uint16_t h) {
  const int e = (h >> 10) & 31;
  const int m = h & 1023;
  const double s = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 31) return m != 0 ? std::nan("") : s * kInf;
  if (e == 0) return s * std::ldexp(m, -24);
  return s * std::ldexp(1024 + m, e - 25);
}

// The binary16 nearest to x, by trying every finite code (ties to the even
// code); from 65520 on (halfway to 2^16) it is infinity.
uint16_t NearestHalf(float x) {
  if (std::isnan(x)) return std::signbit(x) ? 0xfe00 : 0x7e00;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(x));
  if (a >= 65520.0) return sign | 0x7c00;
  uint16_t best = 0;
  double best_err = kInf;
  for (uint16_t c = 0; c < 0x7c00; ++c) {
    const double err = std::fabs(HalfValue(c) - a);
    if (err < best_err || (err == best_err && (c & 1) == 0)) {
      best = c;
      best_err = err;
    }
  }
  return sign | best;
}

// bfloat16: 1 sign, 8 exponent (bias 127), 7 fraction bits; code 0x7f80
// decodes to 2^128, the value IEEE rounding treats as the step past the largest.
double BF16Value(uint16_t b) {
  const int e = (b >> 7) & 255;
  const int m = b & 127;
  const double s = (b & 0x8000) ? -1.0 : 1.0;
  if (e == 0) return s * std::ldexp(m, -133);
  return s * std::ldexp(128 + m, e - 134);
}

// The bfloat16 nearest to x: one of the two codes around it, ties to even.
uint16_t NearestBF16(float x) {
  if (std::isnan(x)) return std::signbit(x) ? 0xffc0 : 0x7fc0;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(x));
  if (std::isinf(a)) return sign | 0x7f80;
  const uint16_t lo = static_cast<uint16_t>((Bits(x) >> 16) & 0x7fff);
  const uint16_t hi = lo + 1;
  const double dlo = a - BF16Value(lo), dhi = BF16Value(hi) - a;
  const uint16_t pick = dlo < dhi ? lo : dhi < dlo ? hi : ((lo & 1) == 0 ? lo : hi);
  return sign | pick;
}

// Float -> integer as Octet defines it: truncate toward zero, saturate at the
// type's limits, NaN -> 0 (TFLite's result wherever TFLite's is defined).
template <typename T>
T SatTrunc(double v) {
  if (std::isnan(v)) return 0;
  const double t = std::trunc(v);
  if (t >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  if (t <= static_cast<double>(std::numeric_limits<T>::lowest())) {
    return std::numeric_limits<T>::lowest();
  }
  return static_cast<T>(t);
}

// Integer -> narrower integer keeps the low bits (two's complement), as
// static_cast does.
template <typename T>
T Wrap(int64_t v) {
  constexpr int bits = 8 * sizeof(T);
  if constexpr (bits == 64) {
    return static_cast<T>(v);
  } else {
    int64_t low = static_cast<int64_t>(static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1));
    if (std::is_signed_v<T> && low >= (int64_t{1} << (bits - 1))) low -= int64_t{1} << bits;
    return static_cast<T>(low);
  }
}

// Runs CAST over a 1-D tensor of n elements; `in` and the result hold the
// storage units (two floats per complex64 element).
template <typename In, typename Out>
std::vector<Out> Cast(TfLiteType from, const std::vector<In> &in, TfLiteType to, int n = -1) {
  if (n < 0) n = static_cast<int>(in.size());
  auto r = RunUnary<In, Out>(kTfLiteBuiltinCast, builtin::Register_CAST(), from, {n}, in, to);
  EXPECT_EQ(r.build, kTfLiteOk) << r.error;
  EXPECT_EQ(r.invoke, kTfLiteOk) << r.error;
  return r.values;
}

// Checks a floating result bit for bit, except that any NaN matches a NaN.
template <typename F>
void ExpectSameFloat(F got, F want, int i) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << "element " << i;
  } else {
    EXPECT_EQ(Bits(got), Bits(want)) << "element " << i << ": " << got << " vs " << want;
  }
}

// Casts `in` (whose exact real values are `real`) to every integer type and
// bool and checks each element.
template <typename In>
void ExpectFloatSourceToIntegers(TfLiteType from, const std::vector<In> &in,
                                 const std::vector<double> &real, int n = -1) {
  const auto check = [&](TfLiteType to, auto tag) {
    using T = decltype(tag);
    const auto got = Cast<In, T>(from, in, to, n);
    ASSERT_EQ(got.size(), real.size());
    for (size_t i = 0; i < real.size(); ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        EXPECT_EQ(got[i], real[i] != 0.0) << TfLiteTypeGetName(to) << " element " << i;
      } else {
        EXPECT_EQ(got[i], SatTrunc<T>(real[i])) << TfLiteTypeGetName(to) << " element " << i;
      }
    }
  };
  check(kTfLiteInt64, int64_t{});
  check(kTfLiteInt32, int32_t{});
  check(kTfLiteUInt32, uint32_t{});
  check(kTfLiteInt16, int16_t{});
  check(kTfLiteUInt16, uint16_t{});
  check(kTfLiteInt8, int8_t{});
  check(kTfLiteUInt8, uint8_t{});
  check(kTfLiteBool, bool{});
}

const std::vector<uint16_t> kHalfEdges = {
    0x0000, 0x8000,  // +-0
    0x0001, 0x83ff,  // smallest subnormal, largest negative subnormal
    0x0400, 0x3c00,  // smallest normal, 1
    0x3e00, 0xbe00,  // +-1.5
    0x5bff, 0x7bff,  // 255.875, 65504 (largest)
    0xfbff, 0x7c00,  // -65504, +inf
    0xfc00, 0x7e00,  // -inf, NaN
    0xfe01, 0x7d00,  // negative NaN with payload, signalling NaN
};

TEST(Elementwise_CastTypes, Float16ToIntegersAndBool) {
  std::vector<double> real;
  for (uint16_t h : kHalfEdges) real.push_back(HalfValue(h));
  ExpectFloatSourceToIntegers(kTfLiteFloat16, kHalfEdges, real);
  // Hand-worked spot checks of the rule itself.
  const auto i16 = Cast<uint16_t, int16_t>(kTfLiteFloat16, kHalfEdges, kTfLiteInt16);
  EXPECT_EQ(i16[9], 32767);  // 65504 saturates
  EXPECT_EQ(i16[10], -32768);
  EXPECT_EQ(i16[7], -1);  // -1.5 truncates toward zero
  EXPECT_EQ(i16[13], 0);  // NaN
  const auto u8 = Cast<uint16_t, uint8_t>(kTfLiteFloat16, kHalfEdges, kTfLiteUInt8);
  EXPECT_EQ(u8[8], 255);  // 255.875
  EXPECT_EQ(u8[7], 0);    // -1.5 saturates at 0
  const auto b = Cast<uint16_t, uint8_t>(kTfLiteFloat16, kHalfEdges, kTfLiteBool);
  EXPECT_EQ(b, (std::vector<uint8_t>{0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
}

TEST(Elementwise_CastTypes, Float16ToFloats) {
  const int n = static_cast<int>(kHalfEdges.size());
  const auto f32 = Cast<uint16_t, float>(kTfLiteFloat16, kHalfEdges, kTfLiteFloat32);
  const auto f64 = Cast<uint16_t, double>(kTfLiteFloat16, kHalfEdges, kTfLiteFloat64);
  const auto c64 = Cast<uint16_t, float>(kTfLiteFloat16, kHalfEdges, kTfLiteComplex64);
  const auto bf = Cast<uint16_t, uint16_t>(kTfLiteFloat16, kHalfEdges, kTfLiteBFloat16);
  const auto f16 = Cast<uint16_t, uint16_t>(kTfLiteFloat16, kHalfEdges, kTfLiteFloat16);
  ASSERT_EQ(f32.size(), kHalfEdges.size());
  ASSERT_EQ(c64.size(), 2 * kHalfEdges.size());
  for (int i = 0; i < n; ++i) {
    const double v = HalfValue(kHalfEdges[i]);
    ExpectSameFloat(f32[i], static_cast<float>(v), i);
    ExpectSameFloat(f64[i], v, i);
    ExpectSameFloat(c64[2 * i], static_cast<float>(v), i);
    EXPECT_EQ(Bits(c64[2 * i + 1]), 0u) << i;
    if (!std::isnan(v)) {
      EXPECT_EQ(std::signbit(f32[i]), std::signbit(v)) << i;
      EXPECT_EQ(bf[i], NearestBF16(static_cast<float>(v))) << i;
      EXPECT_EQ(f16[i], kHalfEdges[i]) << i;  // exact round trip
    }
  }
  // NaNs keep their sign; float16 and bfloat16 results are the canonical
  // quiet NaNs (float16 -> float16 goes through float32 as in TFLite).
  EXPECT_TRUE(std::signbit(f32[14]));
  EXPECT_EQ(f16[13], 0x7e00);
  EXPECT_EQ(f16[14], 0xfe00);
  EXPECT_EQ(f16[15], 0x7e00);
  EXPECT_EQ(bf[13], 0x7fc0);
  EXPECT_EQ(bf[14], 0xffc0);
  EXPECT_EQ(f32[4], std::ldexp(1.0f, -14));
  EXPECT_EQ(f32[2], std::ldexp(1.0f, -24));
}

TEST(Elementwise_CastTypes, Float32ToFloat16RoundsToNearestEven) {
  const std::vector<float> in = {0.0f,
                                 -0.0f,
                                 0x1.002p0f,  // 1 + 2^-11: tie, to even 1
                                 0x1.006p0f,  // 1 + 3*2^-11: tie, to even 1 + 2^-9
                                 2049.0f,
                                 2051.0f,
                                 65504.0f,
                                 std::nextafter(65520.0f, 0.0f),  // just under 65520: 65504
                                 65520.0f,
                                 -65520.0f,
                                 0x1p-25f,    // tie between 0 and 2^-24: 0
                                 0x1.8p-24f,  // tie between 2^-24 and 2^-23: 2^-23
                                 0x1.0p-26f,
                                 0.1f,
                                 std::numeric_limits<float>::max(),
                                 -kInfF,
                                 std::nanf(""),
                                 -std::nanf(""),
                                 1e-8f,
                                 -3.0e-5f};
  const std::vector<uint16_t> want_edges = {0x0000, 0x8000, 0x3c00, 0x3c02, 0x6800, 0x6802, 0x7bff,
                                            0x7bff, 0x7c00, 0xfc00, 0x0000, 0x0002, 0x0000};
  const auto got = Cast<float, uint16_t>(kTfLiteFloat32, in, kTfLiteFloat16);
  ASSERT_EQ(got.size(), in.size());
  for (size_t i = 0; i < want_edges.size(); ++i) EXPECT_EQ(got[i], want_edges[i]) << i;
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(got[i], NearestHalf(in[i])) << i;
  EXPECT_EQ(got[14], 0x7c00);
  EXPECT_EQ(got[16], 0x7e00);
  EXPECT_EQ(got[17], 0xfe00);

  // A spread of values over float16's range, including subnormals.
  std::vector<float> spread = Ramp(300, -70000.0f, 70000.0f, 3);
  for (float f : Ramp(200, -1.0f, 1.0f, 5)) spread.push_back(f * 1e-4f);
  const auto s = Cast<float, uint16_t>(kTfLiteFloat32, spread, kTfLiteFloat16);
  ASSERT_EQ(s.size(), spread.size());
  for (size_t i = 0; i < spread.size(); ++i) EXPECT_EQ(s[i], NearestHalf(spread[i])) << spread[i];
}

TEST(Elementwise_CastTypes, IntegersAndBoolToFloat16) {
  const std::vector<int32_t> i32 = {0,
                                    1,
                                    -1,
                                    2049,
                                    -2051,
                                    65519,
                                    65520,
                                    -65536,
                                    std::numeric_limits<int32_t>::max(),
                                    std::numeric_limits<int32_t>::min()};
  const auto h32 = Cast<int32_t, uint16_t>(kTfLiteInt32, i32, kTfLiteFloat16);
  ASSERT_EQ(h32.size(), i32.size());
  for (size_t i = 0; i < i32.size(); ++i) {
    EXPECT_EQ(h32[i], NearestHalf(static_cast<float>(i32[i]))) << i32[i];
  }
  EXPECT_EQ(h32[3], 0x6800);  // 2049 -> 2048
  EXPECT_EQ(h32[5], 0x7bff);  // 65519 -> 65504
  EXPECT_EQ(h32[6], 0x7c00);  // 65520 -> inf

  const std::vector<int64_t> i64 = {int64_t{1} << 40, -(int64_t{1} << 14) - 1, 0};
  EXPECT_EQ((Cast<int64_t, uint16_t>(kTfLiteInt64, i64, kTfLiteFloat16)),
            (std::vector<uint16_t>{0x7c00, 0xf400, 0x0000}));
  const std::vector<uint16_t> u16 = {65535, 2047, 0};
  EXPECT_EQ((Cast<uint16_t, uint16_t>(kTfLiteUInt16, u16, kTfLiteFloat16)),
            (std::vector<uint16_t>{0x7c00, 0x67ff, 0x0000}));
  const std::vector<uint32_t> u32 = {4294967295u, 65504u, 3u};
  EXPECT_EQ((Cast<uint32_t, uint16_t>(kTfLiteUInt32, u32, kTfLiteFloat16)),
            (std::vector<uint16_t>{0x7c00, 0x7bff, 0x4200}));
  const std::vector<int16_t> i16 = {-32768, 32767};
  EXPECT_EQ((Cast<int16_t, uint16_t>(kTfLiteInt16, i16, kTfLiteFloat16)),
            (std::vector<uint16_t>{0xf800, 0x7800}));  // 32767 -> 32768
  const std::vector<int8_t> i8 = {-128, 127};
  EXPECT_EQ((Cast<int8_t, uint16_t>(kTfLiteInt8, i8, kTfLiteFloat16)),
            (std::vector<uint16_t>{0xd800, 0x57f0}));
  const std::vector<uint8_t> u8 = {255, 0};
  EXPECT_EQ((Cast<uint8_t, uint16_t>(kTfLiteUInt8, u8, kTfLiteFloat16)),
            (std::vector<uint16_t>{0x5bf8, 0x0000}));
  const std::vector<uint8_t> b = {0, 1, 7};  // any nonzero byte is true
  EXPECT_EQ((Cast<uint8_t, uint16_t>(kTfLiteBool, b, kTfLiteFloat16)),
            (std::vector<uint16_t>{0x0000, 0x3c00, 0x3c00}));
}

TEST(Elementwise_CastTypes, Float64ToNarrowerFloats) {
  const double dmax = std::numeric_limits<float>::max();
  const double mid = 0x1.ffffffp127;  // halfway between FLT_MAX and 2^128
  const std::vector<double> in = {0.0,
                                  -0.0,
                                  0.1,
                                  1e300,
                                  -1e300,
                                  dmax,
                                  mid,
                                  std::nextafter(mid, 0.0),
                                  -mid,
                                  1e-50,
                                  -1e-50,
                                  1e-40,
                                  kInf,
                                  std::nan(""),
                                  1.0 + 0x1p-11 + 0x1p-40};
  const auto f = Cast<double, float>(kTfLiteFloat64, in, kTfLiteFloat32);
  const std::vector<float> want = {0.0f,
                                   -0.0f,
                                   static_cast<float>(0.1),
                                   kInfF,
                                   -kInfF,
                                   std::numeric_limits<float>::max(),
                                   kInfF,
                                   std::numeric_limits<float>::max(),
                                   -kInfF,
                                   0.0f,
                                   -0.0f,
                                   static_cast<float>(1e-40),
                                   kInfF,
                                   std::nanf(""),
                                   0x1.002p0f};
  ASSERT_EQ(f.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ExpectSameFloat(f[i], want[i], static_cast<int>(i));

  // float16 and bfloat16 go through float32 (TFLite's double rounding): 1 +
  // 2^-11 + 2^-40 becomes the float 1 + 2^-11, a tie that float16 rounds to 1,
  // though the double itself is nearer 1 + 2^-10.
  const auto h = Cast<double, uint16_t>(kTfLiteFloat64, in, kTfLiteFloat16);
  ASSERT_EQ(h.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(h[i], NearestHalf(want[i])) << i;
  EXPECT_EQ(h[14], 0x3c00);
  EXPECT_EQ(h[3], 0x7c00);
  const auto bf = Cast<double, uint16_t>(kTfLiteFloat64, in, kTfLiteBFloat16);
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(bf[i], NearestBF16(want[i])) << i;
  const auto c = Cast<double, float>(kTfLiteFloat64, in, kTfLiteComplex64);
  ASSERT_EQ(c.size(), 2 * in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ExpectSameFloat(c[2 * i], want[i], static_cast<int>(i));
    EXPECT_EQ(Bits(c[2 * i + 1]), 0u);
  }
}

TEST(Elementwise_CastTypes, Float64ToIntegersAndBool) {
  const std::vector<double> in = {
      0.0,     -0.0,    2.9,          -2.9,          255.5,        -0.5,         -1.0,
      65535.9, 65536.0, 2147483647.9, -2147483648.9, 4294967295.5, 4294967296.0, 9.3e18,
      -9.3e18, 1e-320,  kInf,         -kInf,         std::nan("")};
  ExpectFloatSourceToIntegers(kTfLiteFloat64, in, in);
  const auto i32 = Cast<double, int32_t>(kTfLiteFloat64, in, kTfLiteInt32);
  EXPECT_EQ(i32[9], 2147483647);
  EXPECT_EQ(i32[10], std::numeric_limits<int32_t>::min());
  EXPECT_EQ(i32[18], 0);  // NaN
  const auto u32 = Cast<double, uint32_t>(kTfLiteFloat64, in, kTfLiteUInt32);
  EXPECT_EQ(u32[11], 4294967295u);
  EXPECT_EQ(u32[12], 4294967295u);
  EXPECT_EQ(u32[6], 0u);
  const auto i64 = Cast<double, int64_t>(kTfLiteFloat64, in, kTfLiteInt64);
  EXPECT_EQ(i64[13], std::numeric_limits<int64_t>::max());
  EXPECT_EQ(i64[14], std::numeric_limits<int64_t>::min());
  const auto b = Cast<double, uint8_t>(kTfLiteFloat64, in, kTfLiteBool);
  EXPECT_EQ(b[1], 0);
  EXPECT_EQ(b[15], 1);  // a denormal is nonzero
  EXPECT_EQ(b[18], 1);  // NaN != 0
}

TEST(Elementwise_CastTypes, ToFloat64IsExact) {
  const std::vector<float> f = {0.1f, -0.0f, std::numeric_limits<float>::denorm_min(), -kInfF};
  const auto df = Cast<float, double>(kTfLiteFloat32, f, kTfLiteFloat64);
  ASSERT_EQ(df.size(), f.size());
  for (size_t i = 0; i < f.size(); ++i) EXPECT_EQ(Bits(df[i]), Bits(static_cast<double>(f[i])));
  const std::vector<int64_t> i64 = {(int64_t{1} << 53) + 1, std::numeric_limits<int64_t>::min()};
  EXPECT_EQ((Cast<int64_t, double>(kTfLiteInt64, i64, kTfLiteFloat64)),
            (std::vector<double>{9007199254740992.0, -9223372036854775808.0}));
  const std::vector<uint32_t> u32 = {4294967295u, 0u};
  EXPECT_EQ((Cast<uint32_t, double>(kTfLiteUInt32, u32, kTfLiteFloat64)),
            (std::vector<double>{4294967295.0, 0.0}));
  const std::vector<uint8_t> b = {0, 3};
  EXPECT_EQ((Cast<uint8_t, double>(kTfLiteBool, b, kTfLiteFloat64)),
            (std::vector<double>{0.0, 1.0}));
  const std::vector<double> d = {-0.0, 1e308};
  const auto dd = Cast<double, double>(kTfLiteFloat64, d, kTfLiteFloat64);
  EXPECT_EQ(Bits(dd[0]), Bits(-0.0));
  EXPECT_EQ(dd[1], 1e308);
}

TEST(Elementwise_CastTypes, Unsigned16And32AmongIntegers) {
  const std::vector<int64_t> vals = {0,     1,          -1,           127,          128,
                                     255,   256,        32767,        32768,        65535,
                                     65536, 2147483647, 2147483648LL, 4294967295LL, -2147483648LL};
  const auto check_from = [&](TfLiteType from, auto src_tag) {
    using S = decltype(src_tag);
    std::vector<S> in;
    for (int64_t v : vals) in.push_back(Wrap<S>(v));
    const auto to = [&](TfLiteType t, auto dst_tag) {
      using D = decltype(dst_tag);
      const auto got = Cast<S, D>(from, in, t);
      ASSERT_EQ(got.size(), in.size());
      for (size_t i = 0; i < in.size(); ++i) {
        EXPECT_EQ(got[i], Wrap<D>(static_cast<int64_t>(in[i])))
            << TfLiteTypeGetName(from) << " " << +in[i] << " -> " << TfLiteTypeGetName(t);
      }
    };
    to(kTfLiteInt64, int64_t{});
    to(kTfLiteInt32, int32_t{});
    to(kTfLiteUInt32, uint32_t{});
    to(kTfLiteInt16, int16_t{});
    to(kTfLiteUInt16, uint16_t{});
    to(kTfLiteInt8, int8_t{});
    to(kTfLiteUInt8, uint8_t{});
    const auto b = Cast<S, uint8_t>(from, in, kTfLiteBool);
    for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(b[i], in[i] != 0 ? 1 : 0);
  };
  check_from(kTfLiteUInt16, uint16_t{});
  check_from(kTfLiteUInt32, uint32_t{});
  // And into them from every older integer type.
  check_from(kTfLiteInt64, int64_t{});
  check_from(kTfLiteInt32, int32_t{});
  check_from(kTfLiteInt16, int16_t{});
  check_from(kTfLiteInt8, int8_t{});
  check_from(kTfLiteUInt8, uint8_t{});
  // Hand-worked: uint32 max is -1 as int32, uint16 65535 is -1 as int16.
  EXPECT_EQ((Cast<uint32_t, int32_t>(kTfLiteUInt32, {4294967295u}, kTfLiteInt32)),
            (std::vector<int32_t>{-1}));
  EXPECT_EQ((Cast<int16_t, uint16_t>(kTfLiteInt16, {-1}, kTfLiteUInt16)),
            (std::vector<uint16_t>{65535}));
  EXPECT_EQ((Cast<uint8_t, uint32_t>(kTfLiteBool, {0, 9}, kTfLiteUInt32)),
            (std::vector<uint32_t>{0, 1}));
}

TEST(Elementwise_CastTypes, Unsigned16And32WithFloat32) {
  const std::vector<float> f = {0.0f,  -0.0f,    1.9f,     -0.9f,         -1.0f,
                                -1e9f, 65535.5f, 65536.0f, 4294967040.0f, 4294967296.0f,
                                1e20f, kInfF,    -kInfF,   std::nanf("")};
  std::vector<double> real(f.begin(), f.end());
  ExpectFloatSourceToIntegers(kTfLiteFloat32, f, real);
  const auto u16 = Cast<float, uint16_t>(kTfLiteFloat32, f, kTfLiteUInt16);
  EXPECT_EQ(u16, (std::vector<uint16_t>{0, 0, 1, 0, 0, 0, 65535, 65535, 65535, 65535, 65535, 65535,
                                        0, 0}));
  const auto u32 = Cast<float, uint32_t>(kTfLiteFloat32, f, kTfLiteUInt32);
  EXPECT_EQ(u32[8], 4294967040u);
  EXPECT_EQ(u32[9], 4294967295u);

  const std::vector<uint32_t> u = {16777217u, 4294967295u, 16777219u};
  EXPECT_EQ((Cast<uint32_t, float>(kTfLiteUInt32, u, kTfLiteFloat32)),
            (std::vector<float>{16777216.0f, 4294967296.0f, 16777220.0f}));
  const std::vector<uint16_t> s = {65535, 1};
  EXPECT_EQ((Cast<uint16_t, float>(kTfLiteUInt16, s, kTfLiteFloat32)),
            (std::vector<float>{65535.0f, 1.0f}));
}

TEST(Elementwise_CastTypes, Complex64ToRealTakesRealPart) {
  const std::vector<float> c = {3.7f,    -5.0f,  // real 3.7
                                -0.0f,   1.0f,   // -0 (imaginary part ignored, even for bool)
                                0.0f,    9.0f,  std::nanf(""), 0.0f, 1e10f,  2.0f,
                                -300.5f, 0.0f,  0x1.006p0f,    7.0f, -kInfF, 0.0f};
  const int n = static_cast<int>(c.size() / 2);
  std::vector<double> real;
  for (int i = 0; i < n; ++i) real.push_back(c[2 * i]);
  ExpectFloatSourceToIntegers(kTfLiteComplex64, c, real, n);
  const auto b = Cast<float, uint8_t>(kTfLiteComplex64, c, kTfLiteBool, n);
  EXPECT_EQ(b, (std::vector<uint8_t>{1, 0, 0, 1, 1, 1, 1, 1}));
  const auto f = Cast<float, float>(kTfLiteComplex64, c, kTfLiteFloat32, n);
  const auto d = Cast<float, double>(kTfLiteComplex64, c, kTfLiteFloat64, n);
  const auto h = Cast<float, uint16_t>(kTfLiteComplex64, c, kTfLiteFloat16, n);
  const auto bf = Cast<float, uint16_t>(kTfLiteComplex64, c, kTfLiteBFloat16, n);
  ASSERT_EQ(f.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    ExpectSameFloat(f[i], c[2 * i], i);
    ExpectSameFloat(d[i], static_cast<double>(c[2 * i]), i);
    EXPECT_EQ(h[i], NearestHalf(c[2 * i])) << i;
    EXPECT_EQ(bf[i], NearestBF16(c[2 * i])) << i;
  }
  EXPECT_EQ(Bits(f[1]), 0x80000000u);
  EXPECT_EQ(h[6], 0x3c02);
  EXPECT_EQ((Cast<float, int32_t>(kTfLiteComplex64, c, kTfLiteInt32, n)),
            (std::vector<int32_t>{3, 0, 0, 0, std::numeric_limits<int32_t>::max(), -300, 1,
                                  std::numeric_limits<int32_t>::min()}));
}

TEST(Elementwise_CastTypes, RealToComplex64AndComplexIdentity) {
  const std::vector<int32_t> i = {-7, 16777217, 0};
  EXPECT_EQ((Cast<int32_t, float>(kTfLiteInt32, i, kTfLiteComplex64)),
            (std::vector<float>{-7.0f, 0.0f, 16777216.0f, 0.0f, 0.0f, 0.0f}));
  const std::vector<uint8_t> b = {0, 5};
  EXPECT_EQ((Cast<uint8_t, float>(kTfLiteBool, b, kTfLiteComplex64)),
            (std::vector<float>{0.0f, 0.0f, 1.0f, 0.0f}));
  const std::vector<uint16_t> h = {0x3c01, 0xfc00};
  EXPECT_EQ((Cast<uint16_t, float>(kTfLiteFloat16, h, kTfLiteComplex64)),
            (std::vector<float>{1.0009765625f, 0.0f, -kInfF, 0.0f}));
  const std::vector<float> f = {-0.0f, 2.5f};
  const auto cf = Cast<float, float>(kTfLiteFloat32, f, kTfLiteComplex64);
  ASSERT_EQ(cf.size(), 4u);
  EXPECT_EQ(Bits(cf[0]), 0x80000000u);
  EXPECT_EQ(Bits(cf[1]), 0u);
  EXPECT_EQ(cf[2], 2.5f);
  const std::vector<int64_t> i64 = {-1, int64_t{1} << 62};
  EXPECT_EQ((Cast<int64_t, float>(kTfLiteInt64, i64, kTfLiteComplex64)),
            (std::vector<float>{-1.0f, 0.0f, 0x1p62f, 0.0f}));

  // complex64 -> complex64 copies both parts, NaN payloads included.
  const std::vector<uint32_t> raw = {0x7fa00001u, 0xff800000u, 0x80000000u, 0x3f800000u};
  std::vector<float> c;
  for (uint32_t r : raw) c.push_back(FromBits(r));
  const auto cc = Cast<float, float>(kTfLiteComplex64, c, kTfLiteComplex64, 2);
  ASSERT_EQ(cc.size(), 4u);
  for (size_t k = 0; k < raw.size(); ++k) EXPECT_EQ(Bits(cc[k]), raw[k]) << k;
}

TEST(Elementwise_CastTypes, BFloat16) {
  const std::vector<float> f = {0.0f,
                                -0.0f,
                                0x1.01p0f,                          // 1 + 2^-8: tie, to 1
                                0x1.03p0f,                          // 1 + 3*2^-8: tie, up
                                0x1.0101p0f,                        // just past the tie: up
                                std::numeric_limits<float>::max(),  // carries into inf
                                std::numeric_limits<float>::denorm_min(),
                                1e-40f,
                                3.14159265f,
                                -65504.0f,
                                kInfF,
                                std::nanf(""),
                                -std::nanf("")};
  const auto got = Cast<float, uint16_t>(kTfLiteFloat32, f, kTfLiteBFloat16);
  ASSERT_EQ(got.size(), f.size());
  for (size_t i = 0; i < f.size(); ++i) EXPECT_EQ(got[i], NearestBF16(f[i])) << f[i];
  EXPECT_EQ(got[2], 0x3f80);
  EXPECT_EQ(got[3], 0x3f82);
  EXPECT_EQ(got[4], 0x3f81);
  EXPECT_EQ(got[5], 0x7f80);
  EXPECT_EQ(got[6], 0x0000);
  EXPECT_EQ(got[11], 0x7fc0);
  EXPECT_EQ(got[12], 0xffc0);
  std::vector<float> spread = Ramp(300, -4.0f, 4.0f, 9);
  const auto s = Cast<float, uint16_t>(kTfLiteFloat32, spread, kTfLiteBFloat16);
  for (size_t i = 0; i < spread.size(); ++i) EXPECT_EQ(s[i], NearestBF16(spread[i])) << spread[i];

  // bfloat16 as a source: its value is exact in float32.
  const std::vector<uint16_t> b = {0x0000, 0x8000, 0x3f80, 0xc0a0, 0x4f00, 0x7f7f,
                                   0xff80, 0x7fc0, 0x0001, 0x477f, 0x4780};
  std::vector<double> real;
  for (uint16_t v : b) {
    const bool special = (v & 0x7f80) == 0x7f80;  // all-ones exponent: inf or NaN
    const double inf = (v & 0x8000) ? -kInf : kInf;
    real.push_back(!special ? BF16Value(v) : (v & 0x7f) != 0 ? std::nan("") : inf);
  }
  ExpectFloatSourceToIntegers(kTfLiteBFloat16, b, real);
  const auto bf = Cast<uint16_t, float>(kTfLiteBFloat16, b, kTfLiteFloat32);
  ASSERT_EQ(bf.size(), b.size());
  for (size_t i = 0; i < b.size(); ++i) {
    EXPECT_EQ(Bits(bf[i]), static_cast<uint32_t>(b[i]) << 16) << i;
  }
  const auto bh = Cast<uint16_t, uint16_t>(kTfLiteBFloat16, b, kTfLiteFloat16);
  for (size_t i = 0; i < b.size(); ++i) EXPECT_EQ(bh[i], NearestHalf(bf[i])) << i;
  EXPECT_EQ(bh[9], 0x7bf8);   // 65280
  EXPECT_EQ(bh[10], 0x7c00);  // 65536
  EXPECT_EQ(bh[3], 0xc500);   // -5
  // bfloat16 -> bfloat16 is a copy, NaN payloads included.
  const std::vector<uint16_t> nan_payload = {0x7f81, 0xffff, 0x8000};
  EXPECT_EQ((Cast<uint16_t, uint16_t>(kTfLiteBFloat16, nan_payload, kTfLiteBFloat16)), nan_payload);
  const auto bc = Cast<uint16_t, float>(kTfLiteBFloat16, {0xc0a0}, kTfLiteComplex64);
  EXPECT_EQ(bc, (std::vector<float>{-5.0f, 0.0f}));
}

// Output bytes TFLite 2.12 (WASM) gave for the same inputs: the pairs of this
// file whose tensors that build can feed and read back.
std::vector<uint8_t> Hex(const char *h) {
  std::vector<uint8_t> out;
  for (; h[0] != 0 && h[1] != 0; h += 2) {
    out.push_back(static_cast<uint8_t>(std::stoi(std::string(h, 2), nullptr, 16)));
  }
  return out;
}

template <typename In>
std::vector<uint8_t> CastBytes(TfLiteType from, const std::vector<In> &in, TfLiteType to) {
  return Cast<In, uint8_t>(from, in, to);
}

TEST(Elementwise_CastTypes, MatchesTflite212Goldens) {
  const std::vector<int32_t> i32 = {0,     1,     -1,       2049,       -2051,
                                    65519, 65520, 16777217, 2147483647, -2147483647 - 1};
  EXPECT_EQ(
      CastBytes(kTfLiteInt32, i32, kTfLiteUInt32),
      Hex("0000000001000000ffffffff01080000fdf7ffffefff0000f0ff000001000001ffffff7f00000080"));
  const std::vector<uint32_t> u32 = {0u, 1u, 16777217u, 4294967295u, 2147483648u, 65535u, 65536u};
  EXPECT_EQ(CastBytes(kTfLiteUInt32, u32, kTfLiteFloat32),
            Hex("000000000000803f0000804b0000804f0000004f00ff7f4700008047"));
  EXPECT_EQ(CastBytes(kTfLiteUInt32, u32, kTfLiteInt32),
            Hex("000000000100000001000001ffffffff00000080ffff000000000100"));
  EXPECT_EQ(CastBytes(kTfLiteUInt32, u32, kTfLiteInt16), Hex("000001000100ffff0000ffff0000"));
  const std::vector<float> f = {0.f, -0.f, 1.9f, -0.9f, 255.5f, 65535.5f, 4294967040.f, 1e9f};
  EXPECT_EQ(CastBytes(kTfLiteFloat32, f, kTfLiteUInt32),
            Hex("00000000000000000100000000000000ff000000ffff000000ffffff00ca9a3b"));
}

// Types TFLite's CAST has no conversion for are refused at prepare, naming the
// pair.
TEST(Elementwise_CastTypes, RefusesPairsTfliteRefuses) {
  const struct {
    TfLiteType from, to;
    const char *text;
  } cases[] = {
      {kTfLiteFloat32, kTfLiteUInt64, "CAST: cast from FLOAT32 to UINT64 is not supported"},
      {kTfLiteUInt64, kTfLiteInt32, "CAST: cast from UINT64 to INT32 is not supported"},
      {kTfLiteComplex128, kTfLiteFloat32, "CAST: cast from COMPLEX128 to FLOAT32 is not supported"},
      {kTfLiteFloat64, kTfLiteComplex128, "CAST: cast from FLOAT64 to COMPLEX128 is not supported"},
      {kTfLiteInt32, kTfLiteString, "CAST: cast from INT32 to STRING is not supported"},
  };
  for (const auto &c : cases) {
    auto r = RunUnary<uint8_t, uint8_t>(kTfLiteBuiltinCast, builtin::Register_CAST(), c.from, {2},
                                        {}, c.to);
    EXPECT_EQ(r.build, kTfLiteError) << c.text;
    EXPECT_NE(r.error.find(c.text), std::string::npos) << r.error;
  }
}

}  // namespace
}  // namespace octet::elementwise_test
