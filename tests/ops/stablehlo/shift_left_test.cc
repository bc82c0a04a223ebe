// STABLEHLO_SHIFT_LEFT against the StableHLO spec's example and a loop in the test that
// multiplies by 2^count modulo 2^bits (counts outside [0, bits) giving 0, as StableHLO
// defines them), for int8, int16 and int32; plus validation.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ops/stablehlo/stablehlo_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "util/op_model.h"

namespace octet::stablehlo_test {
namespace {

using octet::testing::OpModel;
using tflite::ops::builtin::Register_STABLEHLO_SHIFT_LEFT;

template <typename T>
std::vector<T> Shift(TfLiteType type, const std::vector<T>& a, const std::vector<T>& b) {
  OpModel m;
  const int x = m.AddInput({type, {static_cast<int>(a.size())}});
  const int y = m.AddInput({type, {static_cast<int>(b.size())}});
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinStablehloShiftLeft, Register_STABLEHLO_SHIFT_LEFT());
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(x, a);
  m.SetInput(y, b);
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  return m.GetOutput<T>(out);
}

TEST(StablehloShiftLeft, SpecExample) {
  EXPECT_EQ(Shift<int32_t>(kTfLiteInt32, {-1, 0, 1}, {1, 2, 3}), (std::vector<int32_t>{-2, 0, 8}));
}

TEST(StablehloShiftLeft, CountsOutsideTheWidthGiveZero) {
  EXPECT_EQ(Shift<int8_t>(kTfLiteInt8, {1, 1, 1, -1, 3}, {7, 8, -1, 127, 6}),
            (std::vector<int8_t>{-128, 0, 0, 0, -64}));
  EXPECT_EQ(Shift<int16_t>(kTfLiteInt16, {1, 1, -3}, {15, 16, -16}),
            (std::vector<int16_t>{INT16_MIN, 0, 0}));
  EXPECT_EQ(Shift<int32_t>(kTfLiteInt32, {1, 1, 5, 7}, {31, 32, INT32_MIN, INT32_MAX}),
            (std::vector<int32_t>{INT32_MIN, 0, 0, 0}));
}

template <typename T>
void CheckAgainstLoop(TfLiteType type) {
  constexpr int kBits = 8 * sizeof(T);
  std::mt19937 rng(kBits);
  std::vector<T> a(200), b(200), want(200);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<T>(rng());
    b[i] = static_cast<T>(static_cast<int>(rng() % (kBits + 8)) - 4);  // [-4, bits + 4)
    const int64_t count = b[i];
    if (count < 0 || count >= kBits) {
      want[i] = 0;
    } else {
      // a * 2^count modulo 2^64, then modulo 2^bits by the narrowing.
      want[i] = static_cast<T>(static_cast<uint64_t>(static_cast<int64_t>(a[i])) *
                               (uint64_t{1} << count));
    }
  }
  EXPECT_EQ(Shift<T>(type, a, b), want) << TfLiteTypeGetName(type);
}

TEST(StablehloShiftLeft, MatchesALoop) {
  CheckAgainstLoop<int8_t>(kTfLiteInt8);
  CheckAgainstLoop<int16_t>(kTfLiteInt16);
  CheckAgainstLoop<int32_t>(kTfLiteInt32);
}

TEST(StablehloShiftLeft, RejectsBadOperands) {
  struct Case {
    TfLiteType a = kTfLiteInt32, b = kTfLiteInt32, out = kTfLiteInt32;
    std::vector<int> b_shape = {4};
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteInt64, kTfLiteInt64, kTfLiteInt64, {4}, "type INT64 is not supported"},
      {kTfLiteUInt8, kTfLiteUInt8, kTfLiteUInt8, {4}, "type UINT8 is not supported"},
      {kTfLiteFloat32, kTfLiteFloat32, kTfLiteFloat32, {4}, "type FLOAT32 is not supported"},
      {kTfLiteInt32, kTfLiteInt8, kTfLiteInt32, {4}, "operands must have one type"},
      {kTfLiteInt32, kTfLiteInt32, kTfLiteInt16, {4}, "output must be INT32, got INT16"},
      {kTfLiteInt32, kTfLiteInt32, kTfLiteInt32, {1}, "operands must have one shape"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.a, {4}});
    m.AddInput({c.b, c.b_shape});
    m.AddOutput({c.out, {}});
    m.SetBuiltinOp(kTfLiteBuiltinStablehloShiftLeft, Register_STABLEHLO_SHIFT_LEFT());
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(std::string("STABLEHLO_SHIFT_LEFT: ") + c.message), std::string::npos)
        << m.error();
  }
}

}  // namespace
}  // namespace octet::stablehlo_test
