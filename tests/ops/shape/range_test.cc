// RANGE: lengths and values worked by hand, constant inputs (static output) and runtime
// inputs (dynamic output, resized at invoke), plus the refused cases.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ops/shape/shape_ops.h"
#include "ops/shape/shape_test_util.h"

namespace octet::shape_test {
namespace {

using tflite::ops::builtin::Register_RANGE;

template <typename T>
std::vector<T> RunRange(TfLiteType type, T start, T limit, T delta, bool constant,
                        std::vector<int>* shape, bool* dynamic) {
  OpModel m;
  int ids[3] = {-1, -1, -1};
  const T values[3] = {start, limit, delta};
  for (int i = 0; i < 3; ++i) {
    if (constant) {
      m.AddConstInput<T>({type, {}}, {values[i]});
    } else {
      ids[i] = m.AddInput({type, {}});
    }
  }
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinRange, Register_RANGE());
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  *dynamic = m.tensor(out)->allocation_type == kTfLiteDynamic;
  if (!constant) {
    for (int i = 0; i < 3; ++i) m.SetInput<T>(ids[i], {values[i]});
  }
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  *shape = m.GetShape(out);
  return m.GetOutput<T>(out);
}

TEST(Shape_Range, IntegerAndFloatValues) {
  for (bool constant : {true, false}) {
    std::vector<int> shape;
    bool dynamic = false;
    EXPECT_EQ(RunRange<int32_t>(kTfLiteInt32, 2, 11, 3, constant, &shape, &dynamic),
              std::vector<int32_t>({2, 5, 8}));
    EXPECT_EQ(shape, std::vector<int>({3}));
    EXPECT_EQ(dynamic, !constant);
    EXPECT_EQ(RunRange<int32_t>(kTfLiteInt32, 10, -2, -4, constant, &shape, &dynamic),
              std::vector<int32_t>({10, 6, 2}));
    EXPECT_EQ(RunRange<int32_t>(kTfLiteInt32, 4, 4, 1, constant, &shape, &dynamic),
              std::vector<int32_t>());
    EXPECT_EQ(shape, std::vector<int>({0}));
    const int64_t big = int64_t{1} << 40;
    EXPECT_EQ(RunRange<int64_t>(kTfLiteInt64, big, big + 5, 2, constant, &shape, &dynamic),
              std::vector<int64_t>({big, big + 2, big + 4}));
    EXPECT_EQ(RunRange<float>(kTfLiteFloat32, 0.5f, 2.0f, 0.5f, constant, &shape, &dynamic),
              std::vector<float>({0.5f, 1.0f, 1.5f}));
    EXPECT_EQ(RunRange<float>(kTfLiteFloat32, 1.0f, -0.2f, -0.5f, constant, &shape, &dynamic),
              std::vector<float>({1.0f, 0.5f, 0.0f}));
  }
}

TEST(Shape_Range, RefusesBadInputs) {
  struct Case {
    int32_t start, limit, delta;
    const char* message;
  };
  const Case cases[] = {
      {0, 5, 0, "RANGE: delta must not be zero"},
      {0, 5, -1, "RANGE: delta has the wrong sign"},
      {5, 0, 1, "RANGE: delta has the wrong sign"},
  };
  for (const Case& c : cases) {
    // Constant inputs: refused in prepare.
    OpModel m;
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {c.start});
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {c.limit});
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {c.delta});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRange, Register_RANGE());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find(c.message), std::string::npos) << m.error();
    // Runtime inputs: refused at invoke.
    OpModel r;
    const int a = r.AddInput({kTfLiteInt32, {}});
    const int b = r.AddInput({kTfLiteInt32, {}});
    const int d = r.AddInput({kTfLiteInt32, {}});
    r.AddOutput({kTfLiteInt32, {}});
    r.SetBuiltinOp(kTfLiteBuiltinRange, Register_RANGE());
    ASSERT_EQ(r.Build(), kTfLiteOk) << r.error();
    r.SetInput<int32_t>(a, {c.start});
    r.SetInput<int32_t>(b, {c.limit});
    r.SetInput<int32_t>(d, {c.delta});
    EXPECT_NE(r.Invoke(), kTfLiteOk);
    EXPECT_NE(r.error().find(c.message), std::string::npos) << r.error();
  }
  {
    OpModel m;
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {0});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {1.0f});
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {1});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRange, Register_RANGE());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("RANGE: limit type FLOAT32 does not match input type INT32"),
              std::string::npos)
        << m.error();
  }
  {
    OpModel m;
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {0, 1});
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {4});
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {1});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRange, Register_RANGE());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("RANGE: start must be a scalar"), std::string::npos) << m.error();
  }
  {  // the full int64 span: counted without overflow, then refused as too long
    OpModel m;
    m.AddConstInput<int64_t>({kTfLiteInt64, {}}, {std::numeric_limits<int64_t>::min()});
    m.AddConstInput<int64_t>({kTfLiteInt64, {}}, {std::numeric_limits<int64_t>::max()});
    m.AddConstInput<int64_t>({kTfLiteInt64, {}}, {1});
    m.AddOutput({kTfLiteInt64, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRange, Register_RANGE());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("elements are too many"), std::string::npos) << m.error();
  }
  {
    OpModel m;
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.0f});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {std::numeric_limits<float>::infinity()});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {1.0f});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRange, Register_RANGE());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("RANGE: start, limit and delta must be finite"), std::string::npos)
        << m.error();
  }
  {
    OpModel m;
    for (int i = 0; i < 3; ++i) m.AddConstInput<int16_t>({kTfLiteInt16, {}}, {1});
    m.AddOutput({kTfLiteInt16, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRange, Register_RANGE());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("RANGE: input type INT16 is not supported"), std::string::npos)
        << m.error();
  }
}

}  // namespace
}  // namespace octet::shape_test
