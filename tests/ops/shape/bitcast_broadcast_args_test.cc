// BITCAST (shapes by element size, bytes unchanged) and BROADCAST_ARGS (shape broadcasting
// worked by hand), with their refused cases.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ops/shape/shape_ops.h"
#include "ops/shape/shape_test_util.h"

namespace octet::shape_test {
namespace {

using tflite::ops::builtin::Register_BITCAST;
using tflite::ops::builtin::Register_BROADCAST_ARGS;

TEST(Shape_Bitcast, WiderNarrowerAndEqualSizes) {
  const std::vector<float> f = {1.0f, -2.5f, 3.25f, 0.0f, 1e10f, -0.0f};
  {  // float32 [2,3] -> uint8 [2,3,4]
    OpModel m;
    const int in = m.AddInput({kTfLiteFloat32, {2, 3}});
    const int out = m.AddOutput({kTfLiteUInt8, {}});
    m.SetBuiltinOp(kTfLiteBuiltinBitcast, Register_BITCAST());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput(in, f);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(out), std::vector<int>({2, 3, 4}));
    std::vector<uint8_t> want(24);
    std::memcpy(want.data(), f.data(), 24);
    EXPECT_EQ(m.GetOutput<uint8_t>(out), want);
  }
  {  // int16 [3,2] -> int32 [3]
    OpModel m;
    const int in = m.AddInput({kTfLiteInt16, {3, 2}});
    const int out = m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinBitcast, Register_BITCAST());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    const std::vector<int16_t> v = {1, 2, -1, -1, 0x1234, 0};
    m.SetInput(in, v);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(out), std::vector<int>({3}));
    std::vector<int32_t> want(3);
    std::memcpy(want.data(), v.data(), 12);
    EXPECT_EQ(m.GetOutput<int32_t>(out), want);
  }
  {  // float32 -> int32 keeps the shape: 1.0f is 0x3f800000
    OpModel m;
    const int in = m.AddInput({kTfLiteFloat32, {1, 2}});
    const int out = m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinBitcast, Register_BITCAST());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<float>(in, {1.0f, -2.0f});
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(out), std::vector<int>({1, 2}));
    EXPECT_EQ(m.GetOutput<int32_t>(out),
              std::vector<int32_t>({0x3f800000, static_cast<int32_t>(0xc0000000u)}));
  }
}

TEST(Shape_Bitcast, RefusesMismatchedLastDim) {
  struct Case {
    TfLiteType in, out;
    std::vector<int> dims;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteUInt8, kTfLiteInt32, {2, 3}, "BITCAST: casting UINT8 to INT32 needs a last dim of 4"},
      {kTfLiteUInt8, kTfLiteInt32, {}, "BITCAST: casting UINT8 to INT32 needs a last dim of 4"},
      {kTfLiteString, kTfLiteInt32, {2}, "BITCAST: input type STRING has no fixed size"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.in, c.dims});
    m.AddOutput({c.out, {}});
    m.SetBuiltinOp(kTfLiteBuiltinBitcast, Register_BITCAST());
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << m.error();
  }
}

template <typename T>
std::vector<T> RunArgs(TfLiteType type, const std::vector<T>& a, const std::vector<T>& b,
                       bool constant, std::vector<int>* shape) {
  OpModel m;
  int ia = -1, ib = -1;
  if (constant) {
    m.AddConstInput<T>({type, {static_cast<int>(a.size())}}, a);
    m.AddConstInput<T>({type, {static_cast<int>(b.size())}}, b);
  } else {
    ia = m.AddInput({type, {static_cast<int>(a.size())}});
    ib = m.AddInput({type, {static_cast<int>(b.size())}});
  }
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinBroadcastArgs, Register_BROADCAST_ARGS());
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  *shape = m.GetShape(out);  // known before invoke: the longer input's length
  if (!constant) {
    m.SetInput(ia, a);
    m.SetInput(ib, b);
  }
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  return m.GetOutput<T>(out);
}

TEST(Shape_BroadcastArgs, Int32AndInt64) {
  for (bool constant : {true, false}) {
    std::vector<int> shape;
    EXPECT_EQ(RunArgs<int32_t>(kTfLiteInt32, {2, 1, 3}, {4, 1}, constant, &shape),
              std::vector<int32_t>({2, 4, 3}));
    EXPECT_EQ(shape, std::vector<int>({3}));
    EXPECT_EQ(RunArgs<int64_t>(kTfLiteInt64, {5}, {7, 1, 1, 5}, constant, &shape),
              std::vector<int64_t>({7, 1, 1, 5}));
    EXPECT_EQ(shape, std::vector<int>({4}));
    EXPECT_EQ(RunArgs<int32_t>(kTfLiteInt32, {0, 1}, {1, 6}, constant, &shape),
              std::vector<int32_t>({0, 6}));
    EXPECT_EQ(RunArgs<int32_t>(kTfLiteInt32, {}, {3}, constant, &shape), std::vector<int32_t>({3}));
  }
}

TEST(Shape_BroadcastArgs, RefusesIncompatibleShapesAndTypes) {
  {
    OpModel m;
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {2, 3});
    m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {4});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinBroadcastArgs, Register_BROADCAST_ARGS());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("BROADCAST_ARGS: dims 3 and 4 at position 1 cannot be broadcast"),
              std::string::npos)
        << m.error();
  }
  {  // the same at invoke for runtime inputs
    OpModel m;
    const int a = m.AddInput({kTfLiteInt32, {2}});
    const int b = m.AddInput({kTfLiteInt32, {1}});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinBroadcastArgs, Register_BROADCAST_ARGS());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<int32_t>(a, {2, 3});
    m.SetInput<int32_t>(b, {4});
    EXPECT_NE(m.Invoke(), kTfLiteOk);
    EXPECT_NE(m.error().find("BROADCAST_ARGS: dims 3 and 4"), std::string::npos) << m.error();
  }
  {
    OpModel m;
    m.AddInput({kTfLiteInt32, {2}});
    m.AddInput({kTfLiteInt64, {2}});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinBroadcastArgs, Register_BROADCAST_ARGS());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("BROADCAST_ARGS: shape 1 type INT64 does not match"),
              std::string::npos)
        << m.error();
  }
  {
    OpModel m;
    m.AddInput({kTfLiteInt32, {2, 1}});
    m.AddInput({kTfLiteInt32, {2}});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinBroadcastArgs, Register_BROADCAST_ARGS());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("BROADCAST_ARGS: both shapes must be vectors"), std::string::npos)
        << m.error();
  }
}

}  // namespace
}  // namespace octet::shape_test
