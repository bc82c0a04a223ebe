// Quantized ABS, EXP, LOG and RSQRT. ABS (int8, int16) and RSQRT (int8) against outputs of
// TFLite 2.12 itself: single-op models written with ModelBuilder and run once through
// TFLite's interpreter on every int8 input (RSQRT: every non-negative one) and on 256 int16
// inputs spread over the whole range, the output bytes kept below as hex. TFLite 2.12 has no
// quantized EXP or LOG, so those are checked on all 256 int8 inputs against the real function
// evaluated in double. Then the prepare checks and RSQRT's invoke-time domain check.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/test_util.h"
#include "util/golden_hex.h"

namespace octet::elementwise_test {
namespace {

namespace builtin = tflite::ops::builtin;
using octet::testing::FromHex;

// TFLite's output bytes (little-endian for int16), as hex.
constexpr char kAbs8A[] =
    "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7e7d7c7b79787776747372716f6e6d6c6a69"
    "686765646362605f5e5d5b5a59585655545351504f4e4c4b4a49474645444241403f3d3c3b3a383736353332"
    "31302e2d2c2b29282726242322211f1e1d1c1a19181715141312100f0e0d0b0a0908060504030100fffefcfb"
    "fcfeff00010304050608090a0b0d0e0f10121314151718191a1c1d1e1f21222324262728292b2c2d2e303132"
    "33353637383a3b3c3d3f40414244454647494a4b4c4e4f50515354555658595a5b5d5e5f6062636465676869"
    "6a6c6d6e6f71727374767778797b7c7d7e7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f";
constexpr char kAbs8B[] =
    "ecebeae9e8e7e6e5e4e3e2e1e0dfdedddcdbdad9d8d7d6d5d4d3d2d1d0cfcecdcccbcac9c8c7c6c5c4c3c2c1"
    "c0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0afaeadacabaaa9a8a7a6a5a4a3a2a1a09f9e9d9c9b9a9998979695"
    "94939291908f8e8d8c8b8a898887868584838281808182838485868788898a8b8c8d8e8f9091929394959697"
    "98999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3"
    "c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef"
    "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405060708090a0b0c0d0e0f10111213";
constexpr char kAbs8C[] =
    "00020406080a0c0e10121416181a1c1e20222426282a2c2e30323436383a3c3e40424446484a4c4e50525456"
    "585a5c5e60626466686a6c6e70727477797b7d7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f"
    "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f"
    "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f"
    "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f"
    "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f";
constexpr char kAbs8D[] =
    "6666666666666666666666666666666666666666666666666666666666666666666666666666666666666666"
    "6666666666666666666665656565656565656565656565656565656565656565656565656565656565656565"
    "6565656565656565656565656565656565656565656565656565656565656565656565656565656565656565"
    "6565656565656565656565656464646464646464646464646464646464646464646464646464646464646464"
    "6464646464646464646464646464646464646464646464646464646464646464646464646464646464646464"
    "646464646464646464646464646565656565656565656565656565656565656565656565";
constexpr char kAbs16A[] =
    "ff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7f"
    "ff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fed7e7e7d0f7c9f7a3079"
    "c1775276e374747305729570266fb76d486cd96a6a69fb678b661c65ad633e62cf60605ff15d815c125ba359"
    "3458c5565655e75377520851994f2a4ebb4c4c4bdd496d48fe468f452044b1424241d33f633ef43c853b163a"
    "a7383837c9355934ea327b310c309d2e2e2dbf2b4f2ae0287127022693242423b5214520d61e671df81b891a"
    "1a19ab173b16cc145d13ee117f10100fa10d310cc20a5309e4077506060597032702b800b700260295030405"
    "7306e3075209c10a300c9f0d0e0f7d10ed115c13cb143a16a9171819871af71b661dd51e4420b32122239124"
    "01267027df284e2abd2b2c2d9b2e0b307a31e9325834c7353637a538153a843bf33c623ed13f4041af421f44"
    "8e45fd466c48db494a4bb94c294e984f07517652e5535455c3563358a259115b805cef5d5e5fcd603d62ac63"
    "1b658a66f9676869d76a476cb66d256f947003727273e1745176c0772f799e7a0d7c7c7deb7eff7fff7fff7f"
    "ff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7f"
    "ff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7fff7f";
constexpr char kAbs16B[] =
    "ff7fff7efe7dfd7cfc7bfb7afa79f978f877f776f675f574f473f372f271f170f06fef6eee6ded6cec6beb6a"
    "ea69e968e867e766e665e564e463e362e261e160e05fdf5ede5ddd5cdc5bdb5ada59d958d857d756d655d554"
    "d453d352d251d150d04fcf4ece4dcd4ccc4bcb4aca49c948c847c746c645c544c443c342c241c140c03fbf3e"
    "be3dbd3cbc3bbb3aba39b938b837b736b635b534b433b332b231b130b02faf2eae2dad2cac2bab2aaa29a928"
    "a827a726a625a524a423a322a221a120a01f9f1e9e1d9d1c9c1b9b1a9a199918981797169615951494139312"
    "92119110900f8f0e8e0d8d0c8c0b8b0a8a098908880787068605850484038302820181008000810182028303"
    "8404850586068707880889098a0a8b0b8c0c8d0d8e0e8f0f9010911192129313941495159616971798189919"
    "9a1a9b1b9c1c9d1d9e1e9f1fa020a121a222a323a424a525a626a727a828a929aa2aab2bac2cad2dae2eaf2f"
    "b030b131b232b333b434b535b636b737b838b939ba3abb3bbc3cbd3dbe3ebf3fc040c141c242c343c444c545"
    "c646c747c848c949ca4acb4bcc4ccd4dce4ecf4fd050d151d252d353d454d555d656d757d858d959da5adb5b"
    "dc5cdd5dde5edf5fe060e161e262e363e464e565e666e767e868e969ea6aeb6bec6ced6dee6eef6ff070f171"
    "f272f373f474f575f676f777f878f979fa7afb7bfc7cfd7dfe7eff7f";
constexpr char kAbs16C[] =
    "0020c01f801f401fff1ebf1e7f1e3f1efe1dbe1d7e1d3e1dfd1cbd1c7d1c3d1cfc1bbc1b7c1b3c1bfb1abb1a"
    "7b1a3b1afa19ba197a193a19f918b91879183918f817b81778173817f716b71677163716f615b61576153615"
    "f514b51475143514f413b41374133413f312b31273123312f211b21172113211f110b11071103110f00fb00f"
    "700f300fef0eaf0e6f0e2f0eee0dae0d6e0d2e0ded0cad0c6d0c2d0cec0bac0b6c0b2c0beb0aab0a6b0a2b0a"
    "ea09aa096a092a09e908a90869082908e807a80768072807e706a70667062706e605a60566052605e504a504"
    "65042504e403a40364032403e302a30263022302e201a20162012201e100a1006100210020006100a100e100"
    "21016201a201e20122026302a302e30223036403a403e40324046504a504e50425056605a605e60526066706"
    "a706e70627076807a807e80728086908a908e90829096a09aa09ea092a0a6b0aab0aeb0a2b0b6c0bac0bec0b"
    "2c0c6d0cad0ced0c2d0d6e0dae0dee0d2e0e6f0eaf0eef0e2f0f700fb00ff00f30107110b110f11031117211"
    "b211f21132127312b312f31233137413b413f41334147514b514f51435157615b615f61536167716b716f716"
    "37177817b817f81738187918b918f91839197a19ba19fa193a1a7b1abb1afb1a3b1b7c1bbc1bfc1b3c1c7d1c"
    "bd1cfd1c3d1d7e1dbe1dfe1d3e1e7f1ebf1eff1e3f1f801fc01f0020";
constexpr char kAbs16Nq[] =
    "0080ff7efe7dfd7cfc7bfb7afa79f978f877f776f675f574f473f372f271f170f06fef6eee6ded6cec6beb6a"
    "ea69e968e867e766e665e564e463e362e261e160e05fdf5ede5ddd5cdc5bdb5ada59d958d857d756d655d554"
    "d453d352d251d150d04fcf4ece4dcd4ccc4bcb4aca49c948c847c746c645c544c443c342c241c140c03fbf3e"
    "be3dbd3cbc3bbb3aba39b938b837b736b635b534b433b332b231b130b02faf2eae2dad2cac2bab2aaa29a928"
    "a827a726a625a524a423a322a221a120a01f9f1e9e1d9d1c9c1b9b1a9a199918981797169615951494139312"
    "92119110900f8f0e8e0d8d0c8c0b8b0a8a098908880787068605850484038302820181008000810182028303"
    "8404850586068707880889098a0a8b0b8c0c8d0d8e0e8f0f9010911192129313941495159616971798189919"
    "9a1a9b1b9c1c9d1d9e1e9f1fa020a121a222a323a424a525a626a727a828a929aa2aab2bac2cad2dae2eaf2f"
    "b030b131b232b333b434b535b636b737b838b939ba3abb3bbc3cbd3dbe3ebf3fc040c141c242c343c444c545"
    "c646c747c848c949ca4acb4bcc4ccd4dce4ecf4fd050d151d252d353d454d555d656d757d858d959da5adb5b"
    "dc5cdd5dde5edf5fe060e161e262e363e464e565e666e767e868e969ea6aeb6bec6ced6dee6eef6ff070f171"
    "f272f373f474f575f676f777f878f979fa7afb7bfc7cfd7dfe7eff7f";
constexpr char kRsqrtA[] =
    "7f601e01f0e4dbd5cfcbc7c3c1bebcbab8b6b5b3b2b1b0afaeadacabaaaaa9a8a8a7a6a6a5a5a4a4a3a3a3a2"
    "a2a1a1a1a0a0a09f9f9f9e9e9e9e9d9d9d9d9c9c9c9c9c9b9b9b9b9b9a9a9a9a9a9999999999999998989898"
    "9898989797979797979797969696969696969696969595959595959595959594949494949494949494949494"
    "9393939393939393939393939393939292929292929292929292929292929292919191919191919191919191"
    "9191919191919191909090909090909090909090909090909090909090909090908f8f8f8f8f8f8f8f8f8f8f"
    "8f8f8f8f8f8f8f8f";
constexpr char kRsqrtB[] =
    "7f7f6d55473e37312d292623211f1d1b1a181716151413121111100f0f0e0d0d0c0c0b0b0a0a0a0909090808"
    "0807070706060606050505050404040404030303030302020202020202010101010101010000000000000000"
    "fffffffffffffffffffffefefefefefefefefefefefdfdfdfdfdfdfdfdfdfdfdfdfdfdfcfcfcfcfc";
constexpr char kRsqrtC[] =
    "7f44322a25211f1d1b1a1918171716151514141413131212121211111111111010101010100f0f0f0f0f0f0f"
    "0f0e0e0e0e0e0e0e0e0e0e0e0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c"
    "0c0c0c0c0c0c0c0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"
    "0b0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a"
    "0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a09090909090909090909090909090909090909090909"
    "090909090909090909090909090909090909090909090909090909090909090909090909";

struct Q {
  float scale;
  int zero_point;
};

template <typename T>
constexpr TfLiteType TypeOf() {
  return std::is_same_v<T, int8_t> ? kTfLiteInt8 : kTfLiteInt16;
}

// int8 values from `first` to 127.
std::vector<int8_t> Int8From(int first) {
  std::vector<int8_t> v;
  for (int q = first; q <= 127; ++q) v.push_back(static_cast<int8_t>(q));
  return v;
}

// The 256 int16 inputs of the goldens: -32768 + 257 k, ending at 32767.
std::vector<int16_t> Int16Spread() {
  std::vector<int16_t> v;
  for (int k = 0; k < 256; ++k) v.push_back(static_cast<int16_t>(-32768 + 257 * k));
  return v;
}

// Runs `reg` on `in` with the given quantization (no quantization when `qi` is null).
template <typename T>
RunResult<T> RunQ(const TfLiteRegistration *reg, int code, const Q *qi, const Q *qo,
                  const std::vector<T> &in, TfLiteType out_type = TypeOf<T>()) {
  RunResult<T> r;
  OpModel m;
  const int n = static_cast<int>(in.size());
  TensorSpec si{TypeOf<T>(), {n}}, so{out_type, {}};
  if (qi != nullptr) si = {TypeOf<T>(), {n}, {qi->scale}, {qi->zero_point}};
  if (qo != nullptr) so = {out_type, {}, {qo->scale}, {qo->zero_point}};
  const int ii = m.AddInput(si);
  const int io = m.AddOutput(so);
  m.SetBuiltinOp(code, reg);
  r.build = m.Build();
  r.error = m.error();
  if (r.build != kTfLiteOk) return r;
  m.SetInput(ii, in);
  r.invoke = m.Invoke();
  if (r.invoke == kTfLiteOk) r.values = m.GetOutput<T>(io);
  r.error = m.error();
  return r;
}

template <typename T>
void ExpectGolden(const TfLiteRegistration *reg, int code, Q qi, Q qo, const std::vector<T> &in,
                  const char *hex) {
  const std::vector<T> want = FromHex<T>(hex);
  ASSERT_EQ(want.size(), in.size());
  const auto r = RunQ<T>(reg, code, &qi, &qo, in);
  ASSERT_EQ(r.build, kTfLiteOk) << r.error;
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  ASSERT_EQ(r.values.size(), want.size());
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(r.values[i], want[i])
        << "input " << static_cast<int>(in[i]) << " scales " << qi.scale << "/" << qo.scale;
  }
}

TEST(QuantizedUnaryTest, AbsInt8EveryValueMatchesTflite) {
  const struct {
    Q in, out;
    const char *hex;
  } cases[] = {
      {{0.05f, 3}, {0.04f, -5}, kAbs8A},        // rescaled up, saturates at 127
      {{0.1f, -20}, {0.1f, -128}, kAbs8B},      // equal scales: offset only
      {{0.0235f, -128}, {0.0117f, 0}, kAbs8C},  // doubles the steps
      {{0.01f, 60}, {0.9f, 100}, kAbs8D},       // shrinks to a few steps
  };
  for (const auto &c : cases) {
    ExpectGolden<int8_t>(builtin::Register_ABS(), kTfLiteBuiltinAbs, c.in, c.out, Int8From(-128),
                         c.hex);
  }
}

TEST(QuantizedUnaryTest, AbsInt16MatchesTflite) {
  ExpectGolden<int16_t>(builtin::Register_ABS(), kTfLiteBuiltinAbs, {0.001f, 0}, {0.0007f, 0},
                        Int16Spread(), kAbs16A);
  // Equal scales: |-32768| saturates to 32767.
  ExpectGolden<int16_t>(builtin::Register_ABS(), kTfLiteBuiltinAbs, {0.002f, 0}, {0.002f, 0},
                        Int16Spread(), kAbs16B);
  ExpectGolden<int16_t>(builtin::Register_ABS(), kTfLiteBuiltinAbs, {0.001f, 0}, {0.004f, 0},
                        Int16Spread(), kAbs16C);
}

TEST(QuantizedUnaryTest, AbsInt16WithoutQuantizationWrapsLikeTflite) {
  const auto r =
      RunQ<int16_t>(builtin::Register_ABS(), kTfLiteBuiltinAbs, nullptr, nullptr, Int16Spread());
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.values, FromHex<int16_t>(kAbs16Nq));
  EXPECT_EQ(r.values[0], -32768);  // |-32768| wraps
}

TEST(QuantizedUnaryTest, RsqrtInt8EveryNonNegativeValueMatchesTflite) {
  const struct {
    Q in, out;
    const char *hex;
  } cases[] = {
      {{0.05f, -100}, {0.02f, -128}, kRsqrtA},
      {{0.3f, 0}, {0.01f, -20}, kRsqrtB},
      {{0.001f, -128}, {0.5f, 5}, kRsqrtC},
  };
  for (const auto &c : cases) {
    ExpectGolden<int8_t>(builtin::Register_RSQRT(), kTfLiteBuiltinRsqrt, c.in, c.out,
                         Int8From(c.in.zero_point), c.hex);
  }
}

TEST(QuantizedUnaryTest, RsqrtInt8NegativeInputFailsAtInvoke) {
  const Q qi{0.05f, -100}, qo{0.02f, -128};
  const auto r = RunQ<int8_t>(builtin::Register_RSQRT(), kTfLiteBuiltinRsqrt, &qi, &qo,
                              std::vector<int8_t>{5, -100, -101, 7});
  ASSERT_EQ(r.build, kTfLiteOk) << r.error;
  EXPECT_EQ(r.invoke, kTfLiteError);
  EXPECT_NE(r.error.find("RSQRT: input -101 at index 2 is below the input zero point -100"),
            std::string::npos)
      << r.error;
}

// round(y / scale) + zero_point clamped to int8, for y in double. TFLite computes in float,
// so where y / scale is within float error of a rounding tie either neighbour is accepted.
void ExpectQuantizedReal(int8_t got, double y, Q qo, int8_t q_in) {
  const double v = y / qo.scale;
  auto quantize = [&](double r) { return std::fmin(std::fmax(r + qo.zero_point, -128.0), 127.0); };
  const double want = quantize(std::round(v));
  const double frac = v - std::floor(v);
  const bool near_tie = std::fabs(frac - 0.5) <= 1e-5 * std::fmax(1.0, std::fabs(v));
  if (near_tie && got == quantize(std::floor(v))) return;
  EXPECT_EQ(got, want) << "input " << static_cast<int>(q_in) << " y " << y;
}

TEST(QuantizedUnaryTest, ExpInt8EveryValueIsTheRoundedRealExp) {
  const struct {
    Q in, out;
  } cases[] = {
      {{0.05f, 0}, {0.1f, -128}},     // saturates at both ends
      {{0.02f, -128}, {1.0f, -128}},  // x in [0, 5.1]
      {{0.1f, 50}, {0.004f, -128}},
  };
  const std::vector<int8_t> in = Int8From(-128);
  for (const auto &c : cases) {
    const auto r = RunQ<int8_t>(builtin::Register_EXP(), kTfLiteBuiltinExp, &c.in, &c.out, in);
    ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
    for (size_t i = 0; i < in.size(); ++i) {
      const double x = static_cast<double>(c.in.scale) * (in[i] - c.in.zero_point);
      ExpectQuantizedReal(r.values[i], std::exp(x), c.out, in[i]);
    }
  }
}

TEST(QuantizedUnaryTest, LogInt8EveryValueIsTheRoundedRealLog) {
  const struct {
    Q in, out;
  } cases[] = {
      {{0.05f, -128}, {0.03f, 0}},  // x = 0 at the lowest code
      {{0.1f, 0}, {0.05f, 10}},     // half the domain is x <= 0
      {{0.002f, -100}, {0.1f, 127}},
  };
  const std::vector<int8_t> in = Int8From(-128);
  for (const auto &c : cases) {
    const auto r = RunQ<int8_t>(builtin::Register_LOG(), kTfLiteBuiltinLog, &c.in, &c.out, in);
    ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
    for (size_t i = 0; i < in.size(); ++i) {
      if (in[i] <= c.in.zero_point) {
        // TFLite's rule for x <= 0: the output's lowest code.
        EXPECT_EQ(r.values[i], -128) << "input " << static_cast<int>(in[i]);
        continue;
      }
      const double x = static_cast<double>(c.in.scale) * (in[i] - c.in.zero_point);
      ExpectQuantizedReal(r.values[i], std::log(x), c.out, in[i]);
    }
  }
}

// Builds a one-op model and returns prepare's error ("" when it succeeded).
template <typename T>
std::string PrepareError(const TfLiteRegistration *reg, int code, const Q *qi, const Q *qo,
                         TfLiteType out_type = TypeOf<T>()) {
  const auto r = RunQ<T>(reg, code, qi, qo, std::vector<T>(4), out_type);
  return r.build == kTfLiteOk ? "" : r.error;
}

TEST(QuantizedUnaryTest, Int16ZeroPointsMustBeZero) {
  const Q zero{0.01f, 0}, nonzero{0.01f, 3};
  const std::string in_error =
      PrepareError<int16_t>(builtin::Register_ABS(), kTfLiteBuiltinAbs, &nonzero, &zero);
  EXPECT_NE(in_error.find("ABS: input"), std::string::npos) << in_error;
  EXPECT_NE(in_error.find("must have zero_point 0, has 3"), std::string::npos) << in_error;
  const std::string out_error =
      PrepareError<int16_t>(builtin::Register_ABS(), kTfLiteBuiltinAbs, &zero, &nonzero);
  EXPECT_NE(out_error.find("ABS: output"), std::string::npos) << out_error;
  EXPECT_NE(out_error.find("must have zero_point 0, has 3"), std::string::npos) << out_error;
  EXPECT_EQ(PrepareError<int16_t>(builtin::Register_ABS(), kTfLiteBuiltinAbs, &zero, &zero), "");
}

TEST(QuantizedUnaryTest, Int8NeedsQuantization) {
  const Q q{0.01f, 0};
  EXPECT_NE(PrepareError<int8_t>(builtin::Register_LOG(), kTfLiteBuiltinLog, nullptr, &q), "");
  EXPECT_NE(PrepareError<int8_t>(builtin::Register_EXP(), kTfLiteBuiltinExp, &q, nullptr), "");
}

TEST(QuantizedUnaryTest, UnsupportedTypesAreRefusedByName) {
  const Q q{0.01f, 0};
  // int16 EXP/LOG/RSQRT are supported now (quantized_unary_int16_test.cc); int32 is not.
  OpModel m;
  m.AddInput({kTfLiteInt32, {2}});
  m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinExp, builtin::Register_EXP());
  ASSERT_EQ(m.Build(), kTfLiteError);
  EXPECT_NE(m.error().find("EXP: input type INT32 is not supported (float32, int8, int16)"),
            std::string::npos)
      << m.error();
  const std::string mixed =
      PrepareError<int8_t>(builtin::Register_ABS(), kTfLiteBuiltinAbs, &q, &q, kTfLiteInt16);
  EXPECT_NE(mixed.find("ABS"), std::string::npos) << mixed;
}

TEST(QuantizedUnaryTest, RsqrtMultiplierOutOfRangeIsRefused) {
  // 1 / (sqrt(1e8) * 1) = 1e-4 needs a right shift past what the extra 20 bits allow.
  const Q qi{1e8f, 0}, qo{1.0f, 0};
  const std::string error =
      PrepareError<int8_t>(builtin::Register_RSQRT(), kTfLiteBuiltinRsqrt, &qi, &qo);
  EXPECT_NE(error.find("RSQRT"), std::string::npos) << error;
  EXPECT_NE(error.find("1 / (sqrt(input_scale) * output_scale)"), std::string::npos) << error;
}

}  // namespace
}  // namespace octet::elementwise_test
