// SIGN, ATAN2, ADD_N, BITWISE_XOR, RIGHT_SHIFT and SELECT (v1) against values computed in
// the test (std:: math, the naive broadcaster of test_util.h) or worked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/test_util.h"

namespace octet::elementwise_test {
namespace {

namespace builtin = tflite::ops::builtin;

TEST(Elementwise_Sign, FloatInt32AndFloat64) {
  {
    OpModel m;
    const int i = m.AddInput({kTfLiteFloat32, {2, 3}});
    const int o = m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSign, builtin::Register_SIGN());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    m.SetInput<float>(i, {-3.5f, -0.0f, 0.0f, 1e-30f, 42.0f, nan});
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetOutput<float>(o), std::vector<float>({-1, 0, 0, 1, 1, 0}));
  }
  {
    OpModel m;
    const int i = m.AddInput({kTfLiteInt32, {4}});
    const int o = m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSign, builtin::Register_SIGN());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<int32_t>(i, {std::numeric_limits<int32_t>::min(), -1, 0, 7});
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetOutput<int32_t>(o), std::vector<int32_t>({-1, -1, 0, 1}));
  }
  {
    OpModel m;
    const int i = m.AddInput({kTfLiteFloat64, {2}});
    const int o = m.AddOutput({kTfLiteFloat64, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSign, builtin::Register_SIGN());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<double>(i, {-2.0, 5.0});
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetOutput<double>(o), std::vector<double>({-1.0, 1.0}));
  }
}

TEST(Elementwise_Sign, RefusesInt8) {
  OpModel m;
  m.AddInput({kTfLiteInt8, {2}});
  m.AddOutput({kTfLiteInt8, {}});
  m.SetBuiltinOp(kTfLiteBuiltinSign, builtin::Register_SIGN());
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("SIGN: input type INT8 is not supported"), std::string::npos)
      << m.error();
}

TEST(Elementwise_Atan2, AllQuadrants) {
  OpModel m;
  const int y = m.AddInput({kTfLiteFloat32, {2, 3}});
  const int x = m.AddInput({kTfLiteFloat32, {2, 3}});
  const int o = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinAtan2, builtin::Register_ATAN2());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  const std::vector<float> yv = {1, 1, -1, -1, 0, 2};
  const std::vector<float> xv = {1, -1, -1, 1, -1, 0};
  m.SetInput(y, yv);
  m.SetInput(x, xv);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const std::vector<float> got = m.GetOutput<float>(o);
  const double pi = M_PI;
  const std::vector<double> want = {pi / 4, 3 * pi / 4, -3 * pi / 4, -pi / 4, pi, pi / 2};
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_TRUE(octet::testing::Near(got[k], static_cast<float>(want[k]))) << k;
  }
}

TEST(Elementwise_Atan2, RefusesMismatchedShapesAndTypes) {
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {2, 3}});
    m.AddInput({kTfLiteFloat32, {3}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinAtan2, builtin::Register_ATAN2());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("ATAN2: y shape [2,3] and x shape [3] differ"), std::string::npos)
        << m.error();
  }
  {
    OpModel m;
    m.AddInput({kTfLiteInt32, {2}});
    m.AddInput({kTfLiteInt32, {2}});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinAtan2, builtin::Register_ATAN2());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("ATAN2: input type INT32 is not supported"), std::string::npos)
        << m.error();
  }
}

TEST(Elementwise_AddN, SumsInInputOrder) {
  OpModel m;
  const int a = m.AddInput({kTfLiteFloat32, {2, 2}});
  const int b = m.AddInput({kTfLiteFloat32, {2, 2}});
  const int c = m.AddConstInput<float>({kTfLiteFloat32, {2, 2}}, {100, 200, 300, 400});
  const int o = m.AddOutput({kTfLiteFloat32, {}});
  (void)c;
  m.SetBuiltinOp(kTfLiteBuiltinAddN, builtin::Register_ADD_N());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(a, {1, 2, 3, 4});
  m.SetInput<float>(b, {0.5f, -2, 0, 10});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(o), std::vector<int>({2, 2}));
  EXPECT_EQ(m.GetOutput<float>(o), std::vector<float>({101.5f, 200, 303, 414}));

  OpModel mi;
  const int x = mi.AddInput({kTfLiteInt32, {3}});
  const int y = mi.AddInput({kTfLiteInt32, {3}});
  const int oi = mi.AddOutput({kTfLiteInt32, {}});
  mi.SetBuiltinOp(kTfLiteBuiltinAddN, builtin::Register_ADD_N());
  ASSERT_EQ(mi.Build(), kTfLiteOk) << mi.error();
  mi.SetInput<int32_t>(x, {1, -5, std::numeric_limits<int32_t>::max()});
  mi.SetInput<int32_t>(y, {2, 5, 1});
  ASSERT_EQ(mi.Invoke(), kTfLiteOk) << mi.error();
  EXPECT_EQ(mi.GetOutput<int32_t>(oi),
            std::vector<int32_t>({3, 0, std::numeric_limits<int32_t>::min()}));  // wraps
}

TEST(Elementwise_AddN, RefusesBadInputs) {
  struct Case {
    std::vector<TensorSpec> ins;
    const char *message;
  };
  const Case cases[] = {
      {{{kTfLiteFloat32, {2}}}, "ADD_N: expected 2 to"},
      {{{kTfLiteFloat32, {2}}, {kTfLiteFloat32, {3}}},
       "ADD_N: input 1 shape [3] differs from input 0 shape [2]"},
      {{{kTfLiteFloat32, {2}}, {kTfLiteInt32, {2}}}, "ADD_N: input 1 type INT32 differs"},
      {{{kTfLiteInt8, {2}}, {kTfLiteInt8, {2}}}, "ADD_N: input type INT8 is not supported"},
  };
  for (const Case &c : cases) {
    OpModel m;
    for (const TensorSpec &s : c.ins) m.AddInput(s);
    m.AddOutput({c.ins[0].type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinAddN, builtin::Register_ADD_N());
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << m.error();
  }
}

// BITWISE_XOR / RIGHT_SHIFT for one integer type, broadcasting [2,3] against [3].
template <typename T>
void CheckIntBinary(TfLiteType type, int code, TfLiteRegistration *reg, bool is_xor) {
  const std::vector<int> sa = {2, 3}, sb = {3};
  std::vector<T> a = {T(1),   T(-1), std::numeric_limits<T>::max(), std::numeric_limits<T>::min(),
                      T(100), T(77)};
  std::vector<T> b = {T(0), T(3), T(sizeof(T) * 8 + 5)};  // last: over-wide shift clamps
  if (std::is_signed_v<T>) b[0] = T(-2);                  // negative shift clamps to 0
  OpModel m;
  const int ia = m.AddInput({type, sa});
  const int ib = m.AddInput({type, sb});
  const int o = m.AddOutput({type, {}});
  m.SetBuiltinOp(code, reg);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(ia, a);
  m.SetInput(ib, b);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const std::function<T(T, T)> f = [is_xor](T x, T y) -> T {
    if (is_xor) return static_cast<T>(x ^ y);
    const int bits = static_cast<int>(sizeof(T) * 8);
    int64_t s = static_cast<int64_t>(y);
    s = s < 0 ? 0 : (s > bits - 1 ? bits - 1 : s);
    // Arithmetic shift written as floor division, independent of the >> operator.
    const int64_t v = static_cast<int64_t>(x);
    const int64_t p = int64_t{1} << s;
    return static_cast<T>(v >= 0 ? v / p : -((-v + p - 1) / p));
  };
  EXPECT_EQ(m.GetShape(o), sa);
  EXPECT_EQ(m.GetOutput<T>(o), (NaiveBinary<T, T, T>(sa, a, sb, b, f)))
      << TfLiteTypeGetName(type) << (is_xor ? " xor" : " shift");
}

TEST(Elementwise_BitwiseXorRightShift, AllIntegerTypes) {
  for (bool is_xor : {true, false}) {
    const int code = is_xor ? kTfLiteBuiltinBitwiseXor : kTfLiteBuiltinRightShift;
    TfLiteRegistration *reg =
        is_xor ? builtin::Register_BITWISE_XOR() : builtin::Register_RIGHT_SHIFT();
    CheckIntBinary<int8_t>(kTfLiteInt8, code, reg, is_xor);
    CheckIntBinary<uint8_t>(kTfLiteUInt8, code, reg, is_xor);
    CheckIntBinary<int16_t>(kTfLiteInt16, code, reg, is_xor);
    CheckIntBinary<uint16_t>(kTfLiteUInt16, code, reg, is_xor);
    CheckIntBinary<int32_t>(kTfLiteInt32, code, reg, is_xor);
    CheckIntBinary<uint32_t>(kTfLiteUInt32, code, reg, is_xor);
  }
}

TEST(Elementwise_BitwiseXorRightShift, HandWorked) {
  OpModel m;
  const int a = m.AddInput({kTfLiteInt8, {4}});
  const int b = m.AddInput({kTfLiteInt8, {4}});
  const int o = m.AddOutput({kTfLiteInt8, {}});
  m.SetBuiltinOp(kTfLiteBuiltinRightShift, builtin::Register_RIGHT_SHIFT());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int8_t>(a, {-128, -7, 64, 5});
  m.SetInput<int8_t>(b, {7, 1, 100, -1});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<int8_t>(o), std::vector<int8_t>({-1, -4, 0, 5}));
}

TEST(Elementwise_BitwiseXorRightShift, RefusesBadInputs) {
  for (int code : {kTfLiteBuiltinBitwiseXor, kTfLiteBuiltinRightShift}) {
    const bool is_xor = code == kTfLiteBuiltinBitwiseXor;
    const std::string op = is_xor ? "BITWISE_XOR" : "RIGHT_SHIFT";
    TfLiteRegistration *reg =
        is_xor ? builtin::Register_BITWISE_XOR() : builtin::Register_RIGHT_SHIFT();
    {
      OpModel m;
      m.AddInput({kTfLiteFloat32, {2}});
      m.AddInput({kTfLiteFloat32, {2}});
      m.AddOutput({kTfLiteFloat32, {}});
      m.SetBuiltinOp(code, reg);
      EXPECT_NE(m.Build(), kTfLiteOk);
      EXPECT_NE(m.error().find(op + ": input type FLOAT32 is not supported"), std::string::npos)
          << m.error();
    }
    {
      OpModel m;
      m.AddInput({kTfLiteInt32, {2, 3}});
      m.AddInput({kTfLiteInt32, {2}});
      m.AddOutput({kTfLiteInt32, {}});
      m.SetBuiltinOp(code, reg);
      EXPECT_NE(m.Build(), kTfLiteOk);
      EXPECT_NE(m.error().find(op + ": shapes [2,3] and [2] cannot be broadcast"),
                std::string::npos)
          << m.error();
    }
    {
      OpModel m;
      m.AddInput({kTfLiteInt32, {2}});
      m.AddInput({kTfLiteInt16, {2}});
      m.AddOutput({kTfLiteInt32, {}});
      m.SetBuiltinOp(code, reg);
      EXPECT_NE(m.Build(), kTfLiteOk);
      EXPECT_NE(m.error().find(op + ": input types differ"), std::string::npos) << m.error();
    }
  }
}

// SELECT v1 with a condition of the inputs' shape, a scalar and a first-dimension vector.
TEST(Elementwise_Select, SameShapeScalarAndRankOneConditions) {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6}, y = {-1, -2, -3, -4, -5, -6};
  struct Case {
    std::vector<int> cond_shape;
    std::vector<bool> cond;
    std::vector<float> want;
  };
  const Case cases[] = {
      {{2, 3}, {true, false, true, false, false, true}, {1, -2, 3, -4, -5, 6}},
      {{}, {false}, {-1, -2, -3, -4, -5, -6}},
      {{}, {true}, {1, 2, 3, 4, 5, 6}},
      {{2}, {false, true}, {-1, -2, -3, 4, 5, 6}},
  };
  for (const Case &c : cases) {
    OpModel m;
    const int ic = m.AddInput({kTfLiteBool, c.cond_shape});
    const int ix = m.AddInput({kTfLiteFloat32, {2, 3}});
    const int iy = m.AddInput({kTfLiteFloat32, {2, 3}});
    const int o = m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSelect, builtin::Register_SELECT());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    std::vector<uint8_t> cond(c.cond.begin(), c.cond.end());
    m.SetInput(ic, cond);
    m.SetInput(ix, x);
    m.SetInput(iy, y);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(o), std::vector<int>({2, 3}));
    EXPECT_EQ(m.GetOutput<float>(o), c.want);
  }
}

TEST(Elementwise_Select, OtherTypesMoveBytes) {
  OpModel m;
  const int ic = m.AddInput({kTfLiteBool, {3}});
  const int ix = m.AddInput({kTfLiteInt64, {3, 1}});
  const int iy = m.AddInput({kTfLiteInt64, {3, 1}});
  const int o = m.AddOutput({kTfLiteInt64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinSelect, builtin::Register_SELECT());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<uint8_t>(ic, {1, 0, 1});
  m.SetInput<int64_t>(ix, {int64_t{1} << 40, 2, 3});
  m.SetInput<int64_t>(iy, {7, 8, 9});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<int64_t>(o), std::vector<int64_t>({int64_t{1} << 40, 8, 3}));
}

TEST(Elementwise_Select, RefusesV2StyleBroadcasting) {
  struct Case {
    std::vector<int> cond, x, y;
    TfLiteType cond_type;
    const char *message;
  };
  const Case cases[] = {
      {{3}, {2, 3}, {2, 3}, kTfLiteBool, "SELECT: condition shape [3] must equal input shape"},
      {{2, 1}, {2, 3}, {2, 3}, kTfLiteBool, "SELECT: condition shape [2,1] must equal"},
      {{2, 3}, {2, 3}, {3}, kTfLiteBool, "SELECT: x shape [2,3] and y shape [3] differ"},
      {{2, 3}, {2, 3}, {2, 3}, kTfLiteInt32, "SELECT: condition type must be BOOL"},
  };
  for (const Case &c : cases) {
    OpModel m;
    m.AddInput({c.cond_type, c.cond});
    m.AddInput({kTfLiteFloat32, c.x});
    m.AddInput({kTfLiteFloat32, c.y});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSelect, builtin::Register_SELECT());
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << m.error();
  }
}

}  // namespace
}  // namespace octet::elementwise_test
