// Quantized (uint8) DIV against outputs of TFLite 2.12 itself (its WASM build run on the
// same models; inputs: every uint8 value as the dividend), and its prepare/eval refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/test_util.h"
#include "util/golden_hex.h"

namespace octet::elementwise_test {
namespace {

namespace builtin = tflite::ops::builtin;
using octet::testing::EveryByte;
using octet::testing::FromHex;

struct Q {
  float scale;
  int zero_point;
};

struct DivCase {
  std::vector<int> shape1, shape2;
  Q q1, q2, qo;
  TfLiteFusedActivation activation;
  std::vector<uint8_t> a, b;
  TfLiteType type = kTfLiteUInt8;
};

RunResult<uint8_t> RunDiv(const DivCase &c) {
  RunResult<uint8_t> r;
  OpModel m;
  const int ia = m.AddInput({c.type, c.shape1, {c.q1.scale}, {c.q1.zero_point}});
  const int ib = m.AddInput({c.type, c.shape2, {c.q2.scale}, {c.q2.zero_point}});
  const int io = m.AddOutput({c.type, {}, {c.qo.scale}, {c.qo.zero_point}});
  TfLiteDivParams params{};
  params.activation = c.activation;
  m.SetBuiltinOp(kTfLiteBuiltinDiv, builtin::Register_DIV(), params);
  r.build = m.Build();
  if (r.build == kTfLiteOk) {
    m.SetInput(ia, c.a);
    m.SetInput(ib, c.b);
    r.invoke = m.Invoke();
    if (r.invoke == kTfLiteOk) {
      r.values = m.GetOutput<uint8_t>(io);
      r.shape = m.GetShape(io);
    }
  }
  r.error = m.error();
  return r;
}

// Divisors for the zero point 100 (raw 0 included: it is -100, not zero) and 140.
const std::vector<uint8_t> kDivisors = {1,   2,   3,   7,   50,  99,  101, 127,
                                        128, 129, 130, 160, 200, 254, 255, 0};

// TFLite's outputs for the 16x16 dividend (every byte) of each case.
constexpr char kAGolden[] =
    "9898989ab6ff00080d1116475b65669494949495aeff00171b1f234e5f68689090909091a6ff0026"
    "292d3055636b6b8c8c8c8c8d9eff0034383b3e5b676d6d888888888896ff004346494b626b707084"
    "848484848eff0052545658696f7273808080808086ff00616364666f7375757c7c7c7c7b7eff0070"
    "7172737677780078790077777600ff7e7f80807d7b7a7a74747473736e00ff8d8d8e8e837f7d7d70"
    "70706f6f6600ff9c9c9b9b8a837f7f6c6c6b6b6a5e00ffabaaa9a89187828268686767665600ffba"
    "b8b7b6978b858564646363624e00ffc9c7c5c39e8f878760605f5f5d4600ffd7d5d3d0a5938a8a5c"
    "5c5b5b593e00ffe6e3e0deab978c8c58";
constexpr char kCGolden[] =
    "cbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcacacacacacacacacacacacacacacacacacaca"
    "cacacacac9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c9c8c8c8c8ffffffc9c8c8"
    "c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8"
    "c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8"
    "c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8e6e7e7e7e8e8e8e9e9e9eaeaeaeaebebd4d4d4d4d4d4d4d5"
    "d5d5d5d5d5d5d5d5cfcfcfcfcfcfcfcfcfd0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d1d1d1d1"
    "c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8c8";
constexpr char kDGolden[] =
    "85888fe86c777a85888fff6f787b85888f8471797b85878f0073797c8587902f757a7c8587904e76"
    "7b7c8487915d787b7d84879167797c7d8486926d7a7c83848694717b7d82838696757c7d82838598"
    "777c7e8283859e797d7e828284ac7b7e7f818284ff7c7e7f8182834c7d7f7f818182727e7f808081"
    "817c7f8000ff808080ffffff00807f828181807f7f7d8481817f7f7e7a8582817f7f7d768682827f"
    "7e7d718783827e7e7c668783827e7d7a508884827e7d79008884837d7c78ff8884837d7b76d68985"
    "837c7a74b68985837c7a71a98985847c796da38985847b78699e8985847b77639b89867c7a765b99"
    "89867b79744f988a867b79733b968a86";
constexpr char kEGolden[] =
    "7e7e7e7e83ff00646566676f7374747d7d7d7d7e82ff0067686869707375757d7d7d7d7d80ff0069"
    "6a6b6b717475757c7c7c7c7c7fff006c6c6d6d737576767b7b7b7b7b7eff006e6f6f70747576767b"
    "7b7b7b7b7cff0071717272757677777a7a7a7a7a7bec08747474747677777779797979797aa84d76"
    "76767777000000ff780000007762927a7a7a7a797979797777777777761dd77c7c7c7c7a7a797976"
    "767676767400ff7f7f7f7f7c7a7a7a75757575757300ff818181817d7b7a7a75757575747200ff84"
    "8483837e7c7b7b74747474747000ff868686857f7c7b7b73737373736f00ff89888888807d7c7c73"
    "737372726e00ff8b8b8a8a817e7c7c72";

void ExpectGolden(const DivCase &c, const char *golden) {
  const RunResult<uint8_t> r = RunDiv(c);
  ASSERT_EQ(r.build, kTfLiteOk) << r.error;
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  const std::vector<uint8_t> want = FromHex(golden);
  ASSERT_EQ(r.values.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(r.values[i], want[i]) << "element " << i;
  }
}

TEST(Elementwise_QuantizedDiv, GoldenRowBroadcast) {
  ExpectGolden({{16, 16},
                {16},
                {0.05f, 128},
                {0.02f, 100},
                {0.1f, 120},
                kTfLiteActNone,
                EveryByte(),
                kDivisors},
               kAGolden);
}

TEST(Elementwise_QuantizedDiv, GoldenColumnBroadcastRelu6) {
  ExpectGolden({{16, 16},
                {16, 1},
                {0.0123f, 77},
                {0.5f, 140},
                {0.004f, 200},
                kTfLiteActRelu6,
                EveryByte(),
                kDivisors},
               kCGolden);
}

TEST(Elementwise_QuantizedDiv, GoldenSameShape) {
  std::vector<uint8_t> b(256);
  for (int i = 0; i < 256; ++i) {
    const int v = (i * 37 + 11) % 256;
    b[i] = static_cast<uint8_t>(v == 128 ? 1 : v);  // 128 is the zero point
  }
  ExpectGolden(
      {{256}, {256}, {0.1f, 128}, {0.1f, 128}, {0.2f, 128}, kTfLiteActNone, EveryByte(), b},
      kDGolden);
}

// Multiplier 2^-29: the rounding shift passes 32 and 64, where TFLite's shifts wrap.
TEST(Elementwise_QuantizedDiv, GoldenTinyMultiplierWrappedShift) {
  ExpectGolden({{16, 16},
                {16},
                {1e-5f, 128},
                {100.0f, 100},
                {100.0f, 120},
                kTfLiteActNone,
                EveryByte(),
                kDivisors},
               kEGolden);
}

TEST(Elementwise_QuantizedDiv, ExactSmallQuotients) {
  // Unit scales, zero points 0: 200 / 8 = 25, 7 / 2 = 3.5 -> 4, 9 / 4 = 2.25 -> 2.
  const auto r =
      RunDiv({{3}, {3}, {1.0f, 0}, {1.0f, 0}, {1.0f, 0}, kTfLiteActNone, {200, 7, 9}, {8, 2, 4}});
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.values, (std::vector<uint8_t>{25, 4, 2}));
  EXPECT_EQ(r.shape, (std::vector<int>{3}));
}

TEST(Elementwise_QuantizedDiv, ErrorDivisorAtZeroPoint) {
  const auto r =
      RunDiv({{2}, {2}, {1.0f, 0}, {1.0f, 10}, {1.0f, 0}, kTfLiteActNone, {4, 4}, {12, 10}});
  ASSERT_EQ(r.build, kTfLiteOk) << r.error;
  EXPECT_EQ(r.invoke, kTfLiteError);
  EXPECT_NE(r.error.find("DIV: division by zero (divisor element 1 equals the zero point 10)"),
            std::string::npos)
      << r.error;
}

TEST(Elementwise_QuantizedDiv, ErrorInt8AndInt16) {
  for (TfLiteType type : {kTfLiteInt8, kTfLiteInt16}) {
    DivCase c{{2}, {2}, {1.0f, 0}, {1.0f, 0}, {1.0f, 0}, kTfLiteActNone, {1, 1}, {1, 1}};
    c.type = type;
    const auto r = RunDiv(c);
    EXPECT_EQ(r.build, kTfLiteError);
    EXPECT_NE(r.error.find(std::string("DIV: input type ") + TfLiteTypeGetName(type) +
                           " is not supported"),
              std::string::npos)
        << r.error;
  }
}

TEST(Elementwise_QuantizedDiv, ErrorRescaleTooLarge) {
  // 1 / (1e-4 * 1e-4) = 1e8 needs a shift of 27: the rounding shift would turn left.
  const auto r =
      RunDiv({{2}, {2}, {1.0f, 0}, {1e-4f, 0}, {1e-4f, 0}, kTfLiteActNone, {1, 1}, {1, 1}});
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("DIV: output"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("shift of 27 bits"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("scale too large"), std::string::npos) << r.error;
}

TEST(Elementwise_QuantizedDiv, ErrorMissingQuantization) {
  OpModel m;
  m.AddInput({kTfLiteUInt8, {2}, {0.5f}, {0}});
  m.AddInput({kTfLiteUInt8, {2}});
  m.AddOutput({kTfLiteUInt8, {}, {0.5f}, {0}});
  m.SetBuiltinOp(kTfLiteBuiltinDiv, builtin::Register_DIV(), TfLiteDivParams{});
  EXPECT_EQ(m.Build(), kTfLiteError);
  EXPECT_NE(m.error().find("DIV: input 1"), std::string::npos) << m.error();
}

TEST(Elementwise_QuantizedDiv, ErrorOutputTypeMismatch) {
  OpModel m;
  m.AddInput({kTfLiteUInt8, {2}, {0.5f}, {0}});
  m.AddInput({kTfLiteUInt8, {2}, {0.5f}, {0}});
  m.AddOutput({kTfLiteInt8, {}, {0.5f}, {0}});
  m.SetBuiltinOp(kTfLiteBuiltinDiv, builtin::Register_DIV(), TfLiteDivParams{});
  EXPECT_EQ(m.Build(), kTfLiteError);
  EXPECT_NE(m.error().find("DIV"), std::string::npos) << m.error();
}

}  // namespace
}  // namespace octet::elementwise_test
