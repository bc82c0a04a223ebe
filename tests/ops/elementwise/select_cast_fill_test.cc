// SELECT_V2, CAST, FILL and ZEROS_LIKE against hand-worked values and
// independent loops.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/test_util.h"

namespace octet::elementwise_test {
namespace {

namespace builtin = tflite::ops::builtin;

TEST(Elementwise_SelectV2, BroadcastsAllThree) {
  OpModel m;
  const int c = m.AddInput({kTfLiteBool, {2, 1, 1}});
  const int x = m.AddInput({kTfLiteFloat32, {1, 3, 1}});
  const int y = m.AddInput({kTfLiteFloat32, {2}});
  const int o = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinSelectV2, builtin::Register_SELECT_V2());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  const std::vector<uint8_t> cond = {1, 0};
  const std::vector<float> xs = {1, 2, 3}, ys = {-1, -2};
  m.SetInput(c, cond);
  m.SetInput(x, xs);
  m.SetInput(y, ys);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(o), (std::vector<int>{2, 3, 2}));
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k) want.push_back(cond[i] ? xs[j] : ys[k]);
  EXPECT_EQ(m.GetOutput<float>(o), want);
}

TEST(Elementwise_SelectV2, ErrorConditionNotBool) {
  OpModel m;
  m.AddInput({kTfLiteInt32, {2}});
  m.AddInput({kTfLiteFloat32, {2}});
  m.AddInput({kTfLiteFloat32, {2}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinSelectV2, builtin::Register_SELECT_V2());
  EXPECT_EQ(m.Build(), kTfLiteError);
  EXPECT_NE(m.error().find("SELECT_V2: condition type must be BOOL, got INT32"), std::string::npos)
      << m.error();
}

TEST(Elementwise_Cast, FloatToIntTruncatesAndSaturates) {
  const std::vector<float> in = {1.9f, -1.9f, 0.f, 3e9f, -3e9f, std::nanf("")};
  auto r = RunUnary<float, int32_t>(kTfLiteBuiltinCast, builtin::Register_CAST(), kTfLiteFloat32,
                                    {6}, in, kTfLiteInt32);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.values, (std::vector<int32_t>{1, -1, 0, std::numeric_limits<int32_t>::max(),
                                            std::numeric_limits<int32_t>::min(), 0}));
}

TEST(Elementwise_Cast, BoolAndIntegerConversions) {
  auto to_bool = RunUnary<float, uint8_t>(kTfLiteBuiltinCast, builtin::Register_CAST(),
                                          kTfLiteFloat32, {3}, {0.f, -0.5f, 2.f}, kTfLiteBool);
  ASSERT_EQ(to_bool.invoke, kTfLiteOk) << to_bool.error;
  EXPECT_EQ(to_bool.values, (std::vector<uint8_t>{0, 1, 1}));
  auto from_bool = RunUnary<uint8_t, float>(kTfLiteBuiltinCast, builtin::Register_CAST(),
                                            kTfLiteBool, {3}, {0, 1, 7}, kTfLiteFloat32);
  ASSERT_EQ(from_bool.invoke, kTfLiteOk) << from_bool.error;
  EXPECT_EQ(from_bool.values, (std::vector<float>{0, 1, 1}));
  auto narrow = RunUnary<int32_t, uint8_t>(kTfLiteBuiltinCast, builtin::Register_CAST(),
                                           kTfLiteInt32, {3}, {5, 256 + 7, -1}, kTfLiteUInt8);
  ASSERT_EQ(narrow.invoke, kTfLiteOk) << narrow.error;
  EXPECT_EQ(narrow.values, (std::vector<uint8_t>{5, 7, 255}));  // modular like static_cast
  auto widen = RunUnary<int8_t, int64_t>(kTfLiteBuiltinCast, builtin::Register_CAST(), kTfLiteInt8,
                                         {2}, {-128, 127}, kTfLiteInt64);
  ASSERT_EQ(widen.invoke, kTfLiteOk) << widen.error;
  EXPECT_EQ(widen.values, (std::vector<int64_t>{-128, 127}));
}

TEST(Elementwise_Cast, ErrorUnsupportedPair) {
  auto r = RunUnary<float, float>(kTfLiteBuiltinCast, builtin::Register_CAST(), kTfLiteFloat32, {1},
                                  {1.f}, kTfLiteUInt64);
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("CAST: cast from FLOAT32 to UINT64 is not supported"), std::string::npos)
      << r.error;
}

TEST(Elementwise_Fill, ConstantDims) {
  OpModel m;
  m.AddConstInput<int32_t>({kTfLiteInt32, {3}}, {2, 1, 3});
  const int v = m.AddInput({kTfLiteFloat32, {}});
  const int o = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinFill, builtin::Register_FILL());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(o), (std::vector<int>{2, 1, 3}));
  m.SetInput<float>(v, {2.5f});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<float>(o), std::vector<float>(6, 2.5f));
}

TEST(Elementwise_Fill, DynamicInt64DimsResizeAtInvoke) {
  OpModel m;
  const int d = m.AddInput({kTfLiteInt64, {2}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {-7});
  const int o = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinFill, builtin::Register_FILL());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int64_t>(d, {3, 2});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(o), (std::vector<int>{3, 2}));
  EXPECT_EQ(m.GetOutput<int32_t>(o), std::vector<int32_t>(6, -7));
}

TEST(Elementwise_Fill, ErrorNegativeDimAndNonScalarValue) {
  OpModel m;
  const int d = m.AddInput({kTfLiteInt32, {2}});
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {1.f});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinFill, builtin::Register_FILL());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(d, {2, -1});
  EXPECT_EQ(m.Invoke(), kTfLiteError);
  EXPECT_NE(m.error().find("FILL: dimension 1 is negative (-1)"), std::string::npos) << m.error();

  OpModel n;
  n.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {2});
  n.AddInput({kTfLiteFloat32, {1}});
  n.AddOutput({kTfLiteFloat32, {}});
  n.SetBuiltinOp(kTfLiteBuiltinFill, builtin::Register_FILL());
  EXPECT_EQ(n.Build(), kTfLiteError);
  EXPECT_NE(n.error().find("FILL: value must be a scalar, got rank 1"), std::string::npos)
      << n.error();
}

TEST(Elementwise_ZerosLike, Int64AndFloat) {
  auto r = RunUnary<int64_t, int64_t>(kTfLiteBuiltinZerosLike, builtin::Register_ZEROS_LIKE(),
                                      kTfLiteInt64, {2, 2}, {1, 2, 3, 4}, kTfLiteInt64);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.shape, (std::vector<int>{2, 2}));
  EXPECT_EQ(r.values, std::vector<int64_t>(4, 0));
  auto e = RunUnary<uint8_t, uint8_t>(kTfLiteBuiltinZerosLike, builtin::Register_ZEROS_LIKE(),
                                      kTfLiteBool, {1}, {1}, kTfLiteBool);
  EXPECT_EQ(e.build, kTfLiteError);
  EXPECT_NE(e.error.find("ZEROS_LIKE: input type BOOL is not supported"), std::string::npos)
      << e.error;
}

}  // namespace
}  // namespace octet::elementwise_test
