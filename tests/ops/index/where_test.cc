// WHERE against the coordinates of the non-zero elements collected by a plain loop.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "index_test_util.h"

namespace octet::index_test {
namespace {

using tflite::ops::builtin::Register_WHERE;

template <typename T>
std::vector<int64_t> NaiveWhere(const std::vector<T>& data, const std::vector<int>& dims,
                                int* count) {
  std::vector<int64_t> out;
  *count = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    if (!(data[i] == T(0))) {
      ++*count;
      for (int c : Unravel(static_cast<int64_t>(i), dims)) out.push_back(c);
    }
  }
  return out;
}

template <typename T>
void Check(TfLiteType type, const std::vector<int>& dims, const std::vector<T>& data,
           bool constant) {
  OpModel m;
  int in = -1;
  if (constant) {
    m.AddConstInput<T>({type, dims}, data);
  } else {
    in = m.AddInput({type, dims});
  }
  const int out = m.AddOutput({kTfLiteInt64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinWhere, Register_WHERE());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(IsDynamic(m, out), !constant);
  if (!constant) m.SetInput(in, data);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  int count = 0;
  const std::vector<int64_t> want = NaiveWhere(data, dims, &count);
  EXPECT_EQ(m.GetShape(out), std::vector<int>({count, static_cast<int>(dims.size())}));
  EXPECT_EQ(m.GetOutput<int64_t>(out), want);
}

TEST(Index_Where, EveryConditionType) {
  for (bool constant : {true, false}) {
    Check<uint8_t>(kTfLiteBool, {2, 3}, {1, 0, 1, 0, 0, 1}, constant);  // bool as bytes
    Check<float>(kTfLiteFloat32, {2, 2, 2}, {0.0f, -0.0f, 1.5f, 0, 0, -2, 0, 1e-30f}, constant);
    Check<int32_t>(kTfLiteInt32, {5}, {0, 3, 0, -1, 0}, constant);
    Check<int64_t>(kTfLiteInt64, {1, 3}, {int64_t{1} << 40, 0, 1}, constant);
    Check<int8_t>(kTfLiteInt8, {2, 2}, {-128, 0, 0, 1}, constant);
    Check<uint8_t>(kTfLiteUInt8, {3}, {255, 0, 0}, constant);
    Check<uint32_t>(kTfLiteUInt32, {2}, {0, 4000000000u}, constant);
    Check<uint8_t>(kTfLiteBool, {2, 2}, {0, 0, 0, 0}, constant);  // nothing true: [0, 2]
    Check<int32_t>(kTfLiteInt32, {0, 3}, {}, constant);           // empty
  }
}

TEST(Index_Where, HandWorked) {
  OpModel m;
  const int in = m.AddInput({kTfLiteBool, {2, 2}});
  const int out = m.AddOutput({kTfLiteInt64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinWhere, Register_WHERE());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<uint8_t>(in, {1, 0, 0, 1});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), std::vector<int>({2, 2}));
  EXPECT_EQ(m.GetOutput<int64_t>(out), std::vector<int64_t>({0, 0, 1, 1}));
  // NaN differs from zero: it counts as true.
  OpModel f;
  const int fin = f.AddInput({kTfLiteFloat32, {3}});
  const int fout = f.AddOutput({kTfLiteInt64, {}});
  f.SetBuiltinOp(kTfLiteBuiltinWhere, Register_WHERE());
  ASSERT_EQ(f.Build(), kTfLiteOk) << f.error();
  f.SetInput<float>(fin, {0.0f, std::numeric_limits<float>::quiet_NaN(), 0.0f});
  ASSERT_EQ(f.Invoke(), kTfLiteOk) << f.error();
  EXPECT_EQ(f.GetOutput<int64_t>(fout), std::vector<int64_t>({1}));
}

TEST(Index_Where, RefusesBadInputs) {
  struct Case {
    TfLiteType type, out_type;
    std::vector<int> dims;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteBool, kTfLiteInt64, {}, "WHERE: the condition must have rank >= 1"},
      {kTfLiteInt16, kTfLiteInt64, {2}, "WHERE: condition type INT16 is not supported"},
      {kTfLiteBool, kTfLiteInt32, {2}, "WHERE: output must be INT64, got INT32"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.type, c.dims});
    m.AddOutput({c.out_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinWhere, Register_WHERE());
    ExpectBuildError(m, c.message);
  }
  OpModel m;
  m.AddInput({kTfLiteBool, {2}});
  m.AddInput({kTfLiteBool, {2}});
  m.AddOutput({kTfLiteInt64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinWhere, Register_WHERE());
  ExpectBuildError(m, "WHERE: expected 1 inputs, got 2");
}

}  // namespace
}  // namespace octet::index_test
