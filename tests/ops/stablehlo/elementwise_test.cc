// STABLEHLO_ADD / MULTIPLY / MAXIMUM / MINIMUM / AND against the StableHLO spec's examples,
// a direct loop in the test for every accepted type (integer ADD / MULTIPLY taken modulo
// 2^bits, as two's complement), exact binary16 rounding cases, bool truth tables, TFLite's
// std::max / std::min NaN order, and validation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ops/stablehlo/stablehlo_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "util/op_model.h"

namespace octet::stablehlo_test {
namespace {

using octet::testing::OpModel;
using namespace tflite::ops::builtin;  // NOLINT: Register_STABLEHLO_X

enum class Fn { kAdd, kMul, kMax, kMin, kAnd };

struct OpInfo {
  int code;
  TfLiteRegistration* registration;
  const char* name;
};

OpInfo Info(Fn fn) {
  switch (fn) {
    case Fn::kAdd:
      return {kTfLiteBuiltinStablehloAdd, Register_STABLEHLO_ADD(), "STABLEHLO_ADD"};
    case Fn::kMul:
      return {kTfLiteBuiltinStablehloMultiply, Register_STABLEHLO_MULTIPLY(), "STABLEHLO_MULTIPLY"};
    case Fn::kMax:
      return {kTfLiteBuiltinStablehloMaximum, Register_STABLEHLO_MAXIMUM(), "STABLEHLO_MAXIMUM"};
    case Fn::kMin:
      return {kTfLiteBuiltinStablehloMinimum, Register_STABLEHLO_MINIMUM(), "STABLEHLO_MINIMUM"};
    default:
      return {kTfLiteBuiltinStablehloAnd, Register_STABLEHLO_AND(), "STABLEHLO_AND"};
  }
}

template <typename T>
std::vector<T> RunOp(Fn fn, TfLiteType type, const std::vector<int>& shape, const std::vector<T>& a,
                     const std::vector<T>& b, std::vector<int>* out_shape = nullptr) {
  OpModel m;
  const int x = m.AddInput({type, shape});
  const int y = m.AddInput({type, shape});
  const int out = m.AddOutput({type, {}});
  const OpInfo info = Info(fn);
  m.SetBuiltinOp(info.code, info.registration);
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(x, a);
  m.SetInput(y, b);
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  if (out_shape) *out_shape = m.GetShape(out);
  return m.GetOutput<T>(out);
}

// ---- the spec's examples (int64 2x2) --------------------------------------------------

TEST(StablehloElementwise, SpecExamples) {
  std::vector<int> shape;
  EXPECT_EQ(RunOp<int64_t>(Fn::kAdd, kTfLiteInt64, {2, 2}, {1, 2, 3, 4}, {5, 6, 7, 8}, &shape),
            (std::vector<int64_t>{6, 8, 10, 12}));
  EXPECT_EQ(shape, (std::vector<int>{2, 2}));
  EXPECT_EQ(RunOp<int64_t>(Fn::kMul, kTfLiteInt64, {2, 2}, {1, 2, 3, 4}, {5, 6, 7, 8}),
            (std::vector<int64_t>{5, 12, 21, 32}));
  EXPECT_EQ(RunOp<int64_t>(Fn::kMax, kTfLiteInt64, {2, 2}, {1, 2, 7, 8}, {5, 6, 3, 4}),
            (std::vector<int64_t>{5, 6, 7, 8}));
  EXPECT_EQ(RunOp<int64_t>(Fn::kMin, kTfLiteInt64, {2, 2}, {1, 2, 7, 8}, {5, 6, 3, 4}),
            (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(RunOp<int64_t>(Fn::kAnd, kTfLiteInt64, {2, 2}, {1, 2, 3, 4}, {5, 6, 7, 8}),
            (std::vector<int64_t>{1, 2, 3, 0}));
  // The spec's float add example: [1.0, 2.0] + [3.0, 4.0].
  EXPECT_EQ(RunOp<float>(Fn::kAdd, kTfLiteFloat32, {2}, {1.0f, 2.0f}, {3.0f, 4.0f}),
            (std::vector<float>{4.0f, 6.0f}));
}

// ---- every type against a loop ------------------------------------------------------------

// Integer results modulo 2^bits: computed in 64-bit unsigned (itself modulo 2^64) and cut.
template <typename T>
T Expected(Fn fn, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t x = static_cast<uint64_t>(static_cast<int64_t>(a));
    const uint64_t y = static_cast<uint64_t>(static_cast<int64_t>(b));
    switch (fn) {
      case Fn::kAdd:
        return static_cast<T>(x + y);
      case Fn::kMul:
        return static_cast<T>(x * y);
      case Fn::kMax:
        return a < b ? b : a;
      case Fn::kMin:
        return b < a ? b : a;
      default:
        return static_cast<T>(x & y);
    }
  } else {
    switch (fn) {
      case Fn::kAdd:
        return a + b;
      case Fn::kMul:
        return a * b;
      case Fn::kMax:
        return a < b ? b : a;
      default:
        return b < a ? b : a;
    }
  }
}

template <typename T>
void CheckType(TfLiteType type, std::initializer_list<Fn> fns) {
  std::mt19937_64 rng(static_cast<uint64_t>(type) * 7919);
  const std::vector<int> shape = {3, 5, 4};
  std::vector<T> a(60), b(60);
  for (size_t i = 0; i < a.size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      // Full-range bit patterns, with the extremes included.
      a[i] = static_cast<T>(rng());
      b[i] = static_cast<T>(rng());
      if (i == 0) a[i] = std::numeric_limits<T>::max(), b[i] = 1;
      if (i == 1) a[i] = std::numeric_limits<T>::min(), b[i] = static_cast<T>(-1);
      if (i == 2) a[i] = b[i] = std::numeric_limits<T>::max();
    } else {
      a[i] = static_cast<T>(std::uniform_real_distribution<double>(-100, 100)(rng));
      b[i] = static_cast<T>(std::uniform_real_distribution<double>(-100, 100)(rng));
    }
  }
  for (Fn fn : fns) {
    std::vector<T> want(a.size());
    for (size_t i = 0; i < a.size(); ++i) want[i] = Expected(fn, a[i], b[i]);
    EXPECT_EQ(RunOp<T>(fn, type, shape, a, b), want)
        << Info(fn).name << " " << TfLiteTypeGetName(type);
  }
}

TEST(StablehloElementwise, EveryTypeMatchesALoop) {
  const auto all = {Fn::kAdd, Fn::kMul, Fn::kMax, Fn::kMin, Fn::kAnd};
  const auto arith = {Fn::kAdd, Fn::kMul, Fn::kMax, Fn::kMin};
  CheckType<float>(kTfLiteFloat32, arith);
  CheckType<double>(kTfLiteFloat64, arith);
  CheckType<int8_t>(kTfLiteInt8, all);
  CheckType<int16_t>(kTfLiteInt16, all);
  CheckType<int32_t>(kTfLiteInt32, all);
  CheckType<int64_t>(kTfLiteInt64, all);
  CheckType<uint8_t>(kTfLiteUInt8, all);
  CheckType<uint16_t>(kTfLiteUInt16, all);
  CheckType<uint32_t>(kTfLiteUInt32, all);
  CheckType<uint64_t>(kTfLiteUInt64, all);
}

TEST(StablehloElementwise, IntegerOverflowWraps) {
  EXPECT_EQ(RunOp<int32_t>(Fn::kAdd, kTfLiteInt32, {2}, {INT32_MAX, INT32_MIN}, {1, -1}),
            (std::vector<int32_t>{INT32_MIN, INT32_MAX}));
  // 65535 * 65535 = 2^32 - 2^17 + 1, which is 1 modulo 2^16 (and overflows int).
  EXPECT_EQ(RunOp<uint16_t>(Fn::kMul, kTfLiteUInt16, {1}, {65535}, {65535}),
            (std::vector<uint16_t>{1}));
  EXPECT_EQ(RunOp<int64_t>(Fn::kMul, kTfLiteInt64, {1}, {INT64_MIN}, {-1}),
            (std::vector<int64_t>{INT64_MIN}));
}

TEST(StablehloElementwise, BoolTruthTables) {
  const std::vector<bool> a = {false, false, true, true}, b = {false, true, false, true};
  auto run = [&](Fn fn) {
    std::vector<uint8_t> x(a.begin(), a.end()), y(b.begin(), b.end());
    return RunOp<uint8_t>(fn, kTfLiteBool, {4}, x, y);
  };
  const std::vector<uint8_t> any = {0, 1, 1, 1}, all = {0, 0, 0, 1};
  EXPECT_EQ(run(Fn::kAdd), any);
  EXPECT_EQ(run(Fn::kMax), any);
  EXPECT_EQ(run(Fn::kMul), all);
  EXPECT_EQ(run(Fn::kMin), all);
  EXPECT_EQ(run(Fn::kAnd), all);
}

TEST(StablehloElementwise, BoolBytesOtherThanOneAreTrue) {
  // A hostile model may hold any byte in a bool tensor; the output is always 0 or 1.
  EXPECT_EQ(RunOp<uint8_t>(Fn::kAdd, kTfLiteBool, {3}, {2, 0, 0}, {0, 255, 0}),
            (std::vector<uint8_t>{1, 1, 0}));
  EXPECT_EQ(RunOp<uint8_t>(Fn::kAnd, kTfLiteBool, {3}, {2, 4, 0}, {3, 1, 7}),
            (std::vector<uint8_t>{1, 1, 0}));
}

TEST(StablehloElementwise, MaxMinNaNOrderIsStdMaxMin) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // std::max(a, b) is b only when a < b; std::min(a, b) is b only when b < a.
  auto mx = RunOp<float>(Fn::kMax, kTfLiteFloat32, {2}, {nan, 1.0f}, {1.0f, nan});
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_EQ(mx[1], 1.0f);
  auto mn = RunOp<float>(Fn::kMin, kTfLiteFloat32, {2}, {nan, 1.0f}, {1.0f, nan});
  EXPECT_TRUE(std::isnan(mn[0]));
  EXPECT_EQ(mn[1], 1.0f);
}

// binary16 bit patterns: 1.0 = 0x3c00, 2.0 = 0x4000, 3.0 = 0x4200, 0.5 = 0x3800,
// 2^-11 = 0x1000, 65504 = 0x7bff, infinity = 0x7c00, smallest subnormal 2^-24 = 0x0001.
TEST(StablehloElementwise, Float16RoundsToNearestEven) {
  EXPECT_EQ(RunOp<uint16_t>(Fn::kAdd, kTfLiteFloat16, {5}, {0x3c00, 0x3c00, 0x3c01, 0x7bff, 0xfbff},
                            {0x4000, 0x1000, 0x1000, 0x7bff, 0xfbff}),
            // 3; 1 + 2^-11 ties to even 1.0; (1 + 2^-10) + 2^-11 ties to 1 + 2^-9; +-inf
            (std::vector<uint16_t>{0x4200, 0x3c00, 0x3c02, 0x7c00, 0xfc00}));
  EXPECT_EQ(RunOp<uint16_t>(Fn::kMul, kTfLiteFloat16, {4}, {0x0001, 0x0003, 0x4000, 0x8000},
                            {0x3800, 0x3800, 0x4200, 0x3c00}),
            // 2^-25 ties to 0; 1.5 * 2^-24 ties to 2 * 2^-24; 6.0 = 0x4600; -0 * 1 = -0
            (std::vector<uint16_t>{0x0000, 0x0002, 0x4600, 0x8000}));
  // 65504 * 2 overflows to infinity; 2^-14 (0x0400, smallest normal) * 0.5 = 0x0200.
  EXPECT_EQ(RunOp<uint16_t>(Fn::kMul, kTfLiteFloat16, {2}, {0x7bff, 0x0400}, {0x4000, 0x3800}),
            (std::vector<uint16_t>{0x7c00, 0x0200}));
  // Max / min pick an operand: -2 (0xc000) vs 1 (0x3c00).
  EXPECT_EQ(RunOp<uint16_t>(Fn::kMax, kTfLiteFloat16, {2}, {0xc000, 0x3c00}, {0x3c00, 0xc000}),
            (std::vector<uint16_t>{0x3c00, 0x3c00}));
  EXPECT_EQ(RunOp<uint16_t>(Fn::kMin, kTfLiteFloat16, {2}, {0xc000, 0x3c00}, {0x3c00, 0xc000}),
            (std::vector<uint16_t>{0xc000, 0xc000}));
}

TEST(StablehloElementwise, EmptyTensors) {
  std::vector<int> shape;
  EXPECT_TRUE(RunOp<float>(Fn::kAdd, kTfLiteFloat32, {2, 0}, {}, {}, &shape).empty());
  EXPECT_EQ(shape, (std::vector<int>{2, 0}));
}

// ---- validation ------------------------------------------------------------------------

struct BadCase {
  Fn fn = Fn::kAdd;
  TfLiteType a_type = kTfLiteFloat32, b_type = kTfLiteFloat32, out_type = kTfLiteFloat32;
  std::vector<int> a_shape = {2, 3}, b_shape = {2, 3};
  int inputs = 2;
  const char* message = "";
};

void ExpectRejected(const BadCase& c) {
  OpModel m;
  m.AddInput({c.a_type, c.a_shape});
  if (c.inputs >= 2) m.AddInput({c.b_type, c.b_shape});
  if (c.inputs >= 3) m.AddInput({c.b_type, c.b_shape});
  m.AddOutput({c.out_type, {}});
  const OpInfo info = Info(c.fn);
  m.SetBuiltinOp(info.code, info.registration);
  EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
  EXPECT_NE(m.error().find(std::string(info.name) + ": " + c.message), std::string::npos)
      << m.error();
}

TEST(StablehloElementwise, RejectsBadOperands) {
  std::vector<BadCase> cases(8);
  cases[0].b_shape = {1, 3};
  cases[0].message = "operands must have one shape (no broadcasting), got [2, 3] and [1, 3]";
  cases[1].fn = Fn::kMax;
  cases[1].b_shape = {2, 3, 1};
  cases[1].message = "operands must have one shape";
  cases[2].b_type = kTfLiteInt32;
  cases[2].message = "operands must have one type, got FLOAT32 and INT32";
  cases[3].out_type = kTfLiteFloat64;
  cases[3].message = "output must be FLOAT32, got FLOAT64";
  cases[4].fn = Fn::kAnd;
  cases[4].message = "type FLOAT32 is not supported";
  cases[5].fn = Fn::kMul;
  cases[5].a_type = cases[5].b_type = cases[5].out_type = kTfLiteComplex64;
  cases[5].message = "type COMPLEX64 is not supported";
  cases[6].inputs = 1;
  cases[6].fn = Fn::kMin;
  cases[6].message = "expected 2 inputs, got 1";
  cases[7].inputs = 3;
  cases[7].fn = Fn::kAnd;
  cases[7].a_type = cases[7].b_type = cases[7].out_type = kTfLiteInt32;
  cases[7].message = "expected 2 inputs, got 3";
  for (const BadCase& c : cases) ExpectRejected(c);
}

}  // namespace
}  // namespace octet::stablehlo_test
