// Quantized uint8 LEAKY_RELU against outputs of TFLite 2.12 itself (its WASM build run on
// the same models, every uint8 value as input), and its prepare refusals.
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

RunResult<uint8_t> RunLeaky(Q qi, Q qo, float alpha, const std::vector<uint8_t> &in,
                            TfLiteType out_type = kTfLiteUInt8) {
  RunResult<uint8_t> r;
  OpModel m;
  const int ii = m.AddInput({kTfLiteUInt8, {16, 16}, {qi.scale}, {qi.zero_point}});
  const int io = m.AddOutput({out_type, {}, {qo.scale}, {qo.zero_point}});
  TfLiteLeakyReluParams params{};
  params.alpha = alpha;
  m.SetBuiltinOp(kTfLiteBuiltinLeakyRelu, builtin::Register_LEAKY_RELU(), params);
  r.build = m.Build();
  if (r.build == kTfLiteOk) {
    m.SetInput(ii, in);
    r.invoke = m.Invoke();
    if (r.invoke == kTfLiteOk) {
      r.values = m.GetOutput<uint8_t>(io);
      r.shape = m.GetShape(io);
    }
  }
  r.error = m.error();
  return r;
}

// TFLite's outputs for inputs 0..255. The scales are chosen so that TFLite's XNNPACK
// delegate declines the node (identity rescale > 128, or alpha rescale < 1/256): these are
// its builtin kernel's bits, not XNNPACK's 8-bit-multiplier approximation.
constexpr char kEGolden[] =
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000203050607090a0c0d0f101113141617191a1b"
    "1d1e202123242527282a2b2d2e2f313234353738393b3c3e3f414243454648494b4c4d4f50525354"
    "5657595a5c5d5e606163646667686a6b6d6e707172747577787a7b7c7e7f818284858688898b8c8e"
    "8f909293959698999a9c9d9fa0a1a3a4a6a7a9aaabadaeb0b1b3b4b5b7b8babbbdbebfc1c2c4c5c7"
    "c8ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffff";
constexpr char kFGolden[] =
    "11111111111111111111111111111111111111111111111111111111111111111111111111111111"
    "11111111111111111111111111111111111111111111111111111111111111111111111111111111"
    "111111111111111111111113141617191b1c1e1f2123242628292b2c2e303133343638393b3c3e40"
    "4143444648494b4d4e505153555658595b5d5e606163656668696b6d6e7072737576787a7b7d7e80"
    "82838586888a8b8d8e9092939597989a9b9d9fa0a2a3a5a7a8aaabadafb0b2b3b5b7b8babcbdbfc0"
    "c2c4c5c7c8cacccdcfd0d2d4d5d7d8dadcdddfe1e2e4e5e7e9eaecedeff1f2f4f5f7f9fafcfdffff"
    "ffffffffffffffffffffffffffffffff";
constexpr char kGGolden[] =
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "fffffffffffffffffffffffffffefcfaf9f7f5f4f2f0efedebeae8e6e5e3e1e0dedcdbd9d7d6d4d2"
    "d1cfcdcbcac8c6c5c3c1c0bebcbbb9b7b6b4b2b1afadacaaa8a7a5a3a2a09e9d9b9997969492918f"
    "8d8c8a888785838280ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffff";

void ExpectGolden(Q qi, Q qo, float alpha, const char *golden) {
  const RunResult<uint8_t> r = RunLeaky(qi, qo, alpha, EveryByte());
  ASSERT_EQ(r.build, kTfLiteOk) << r.error;
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  const std::vector<uint8_t> want = FromHex(golden);
  ASSERT_EQ(r.values.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(r.values[i], want[i]) << "input " << i;
  EXPECT_EQ(r.shape, (std::vector<int>{16, 16}));
}

// Identity rescale 200 saturates; the alpha side (1.426) rounds.
TEST(Elementwise_QuantizedLeakyReluUInt8, GoldenAlphaSide) {
  ExpectGolden({1.0f, 200}, {0.005f, 200}, 0.00713f, kEGolden);
}

// Identity rescale 1.6087 rounds; the alpha side (0.0016) barely moves.
TEST(Elementwise_QuantizedLeakyReluUInt8, GoldenIdentitySide) {
  ExpectGolden({0.37f, 90}, {0.23f, 17}, 0.001f, kFGolden);
}

TEST(Elementwise_QuantizedLeakyReluUInt8, GoldenNegativeAlpha) {
  ExpectGolden({0.9f, 128}, {0.0066f, 128}, -0.0123f, kGGolden);
}

TEST(Elementwise_QuantizedLeakyReluUInt8, ErrorOutputType) {
  const auto r = RunLeaky({0.1f, 128}, {0.1f, 0}, 0.2f, EveryByte(), kTfLiteInt8);
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("LEAKY_RELU"), std::string::npos) << r.error;
}

TEST(Elementwise_QuantizedLeakyReluUInt8, ErrorOutputScaleTooSmall) {
  // 1 / 1e-12 needs a left shift far beyond 30.
  const auto r = RunLeaky({1.0f, 128}, {1e-12f, 0}, 0.2f, EveryByte());
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("LEAKY_RELU: output"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace octet::elementwise_test
