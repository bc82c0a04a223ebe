// QUANTIZE between integer types: every pair TFLite (int8/uint8 -> int8/uint8, int16 ->
// int8/int16) and TFLite Micro (int8 -> int16/int32, int16 -> int32) requantize, against the
// real values they stand for, and pairs neither supports refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ops/elementwise/elementwise_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "util/op_model.h"

namespace {

using octet::testing::OpModel;

template <typename T>
constexpr TfLiteType TypeOf() {
  if (std::is_same<T, int8_t>::value) return kTfLiteInt8;
  if (std::is_same<T, uint8_t>::value) return kTfLiteUInt8;
  if (std::is_same<T, int16_t>::value) return kTfLiteInt16;
  return kTfLiteInt32;
}

// Requantizes `values` and checks each result against round(real / s_out) + zp_out, clamped:
// within 1 (the fixed-point multiplier rounds twice), and exactly when the real quotient is
// at least 1/4 away from a rounding tie.
template <typename In, typename Out>
void ExpectRequantizes(float s_in, int32_t zp_in, float s_out, int32_t zp_out,
                       const std::vector<In>& values) {
  OpModel m;
  const int in = m.AddInput({TypeOf<In>(), {static_cast<int>(values.size())}, {s_in}, {zp_in}});
  const int out =
      m.AddOutput({TypeOf<Out>(), {static_cast<int>(values.size())}, {s_out}, {zp_out}});
  m.SetBuiltinOp(kTfLiteBuiltinQuantize, tflite::ops::builtin::Register_QUANTIZE());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<In>(in, values);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const std::vector<Out> got = m.GetOutput<Out>(out);
  int exact = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double quotient = (static_cast<double>(values[i]) - zp_in) * s_in / s_out;
    const double lo = std::numeric_limits<Out>::min(), hi = std::numeric_limits<Out>::max();
    const double want = std::fmin(hi, std::fmax(lo, std::round(quotient) + zp_out));
    EXPECT_LE(std::fabs(static_cast<double>(got[i]) - want), 1.0) << i << " of " << values[i];
    const double frac = std::fabs(quotient - std::trunc(quotient));
    if (std::fabs(frac - 0.5) > 0.25) {
      EXPECT_EQ(static_cast<double>(got[i]), want) << i << " of " << values[i];
      ++exact;
    }
  }
  EXPECT_GT(exact, 0);
}

template <typename T>
std::vector<T> EveryValue() {
  std::vector<T> v;
  for (int x = std::numeric_limits<T>::min(); x <= std::numeric_limits<T>::max(); ++x) {
    v.push_back(static_cast<T>(x));
  }
  return v;
}

std::vector<int16_t> SomeInt16() {
  std::vector<int16_t> v;
  for (int x = -32768; x <= 32767; x += 257) v.push_back(static_cast<int16_t>(x));
  v.push_back(32767);
  return v;
}

// The DeepLabV3 (Coral) case: uint8 -> uint8 between two scales.
TEST(Elementwise_QuantizeRequant, UInt8ToUInt8) {
  ExpectRequantizes<uint8_t, uint8_t>(0.0235294f, 0, 0.0470588f, 3, EveryValue<uint8_t>());
  ExpectRequantizes<uint8_t, uint8_t>(0.1f, 128, 0.03f, 100, EveryValue<uint8_t>());
}

TEST(Elementwise_QuantizeRequant, UInt8ToUInt8SameScaleIsACopyWithZeroPointShift) {
  ExpectRequantizes<uint8_t, uint8_t>(0.5f, 10, 0.5f, 0, EveryValue<uint8_t>());
}

TEST(Elementwise_QuantizeRequant, EveryOtherSupportedPair) {
  ExpectRequantizes<uint8_t, int8_t>(0.02f, 128, 0.03f, -5, EveryValue<uint8_t>());
  ExpectRequantizes<int8_t, int8_t>(0.02f, -3, 0.011f, 7, EveryValue<int8_t>());
  ExpectRequantizes<int8_t, uint8_t>(0.02f, -3, 0.05f, 130, EveryValue<int8_t>());
  ExpectRequantizes<int8_t, int16_t>(0.02f, -3, 0.0005f, 0, EveryValue<int8_t>());
  ExpectRequantizes<int8_t, int32_t>(0.02f, -3, 0.0007f, 11, EveryValue<int8_t>());
  ExpectRequantizes<int16_t, int8_t>(0.001f, 0, 0.3f, 4, SomeInt16());
  ExpectRequantizes<int16_t, int16_t>(0.001f, 0, 0.0017f, 0, SomeInt16());
  ExpectRequantizes<int16_t, int32_t>(0.001f, 0, 0.0003f, 0, SomeInt16());
}

TEST(Elementwise_QuantizeRequant, UInt8ToInt16IsRefusedByName) {
  OpModel m;
  m.AddInput({kTfLiteUInt8, {2}, {0.5f}, {128}});
  m.AddOutput({kTfLiteInt16, {2}, {0.5f}, {0}});
  m.SetBuiltinOp(kTfLiteBuiltinQuantize, tflite::ops::builtin::Register_QUANTIZE());
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("requantizing UINT8 to INT16 is not supported"), std::string::npos)
      << m.error();
}

}  // namespace
