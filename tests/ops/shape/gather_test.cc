#include <gtest/gtest.h>

#include "ops/shape/shape_ops.h"
#include "ops/shape/shape_test_util.h"
#include "tensorflow/lite/string_util.h"

namespace octet::shape_test {
namespace {

TfLiteRegistration* Reg() { return tflite::ops::builtin::Register_GATHER(); }

TfLiteGatherParams Params(int axis, int batch_dims = 0) {
  TfLiteGatherParams p{};
  p.axis = axis;
  p.batch_dims = batch_dims;
  return p;
}

TEST(Shape_Gather, AxisOneWithMatrixIndices) {
  const std::vector<int> dims = {2, 4, 3};
  OpModel m;
  const int in = m.AddInput({kTfLiteFloat32, dims});
  m.AddConstInput<int32_t>({kTfLiteInt32, {2, 2}}, {3, 0, 1, 1});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinGather, Reg(), Params(-2));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  const auto data = Iota<float>(24);
  m.SetInput(in, data);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const std::vector<int> out_dims = {2, 2, 2, 3};
  EXPECT_EQ(m.GetShape(out), out_dims);
  const int idx[4] = {3, 0, 1, 1};
  std::vector<float> expected;
  for (int a = 0; a < 2; ++a)
    for (int k = 0; k < 4; ++k)
      for (int c = 0; c < 3; ++c) expected.push_back(data[Ravel({a, idx[k], c}, dims)]);
  EXPECT_EQ(m.GetOutput<float>(out), expected);
}

TEST(Shape_Gather, BatchDimsInt64Indices) {
  // params [2, 3], indices [2, 2], batch_dims 1, axis 1: out[b, j] = params[b, idx[b, j]].
  OpModel m;
  const int in = m.AddInput({kTfLiteInt32, {2, 3}});
  const int ind = m.AddInput({kTfLiteInt64, {2, 2}});
  const int out = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinGather, Reg(), Params(1, 1));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(in, {10, 11, 12, 20, 21, 22});
  m.SetInput<int64_t>(ind, {2, 0, 1, 1});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{2, 2}));
  EXPECT_EQ(m.GetOutput<int32_t>(out), (std::vector<int32_t>{12, 10, 21, 21}));
}

TEST(Shape_Gather, ErrorIndexOutOfRange) {
  OpModel m;
  const int in = m.AddInput({kTfLiteFloat32, {5}});
  const int ind = m.AddInput({kTfLiteInt32, {2}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinGather, Reg(), Params(0));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(in, Iota<float>(5));
  m.SetInput<int32_t>(ind, {1, 7});
  EXPECT_NE(m.Invoke(), kTfLiteOk);
  EXPECT_NE(m.error().find("GATHER: index 7 out of range [0, 5)"), std::string::npos) << m.error();
}

TEST(Shape_Gather, ErrorBatchDims) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2, 3}});
  m.AddInput({kTfLiteInt32, {3, 1}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinGather, Reg(), Params(1, 1));
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("GATHER: batch dim 0 differs: params 2 vs indices 3"), std::string::npos)
      << m.error();
}

TEST(Shape_Gather, ErrorAxis) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2, 3}});
  m.AddInput({kTfLiteInt32, {1}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinGather, Reg(), Params(2));
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("GATHER: axis 2 out of range for rank 2"), std::string::npos)
      << m.error();
}

// TFLite's string GATHER: 1-D params, the picked strings in the indices' shape (empty
// strings and repeats included).
std::vector<char> Strings(const std::vector<std::string>& v) {
  tflite::DynamicBuffer buffer;
  for (const std::string& s : v) buffer.AddString(s.data(), s.size());
  char* raw = nullptr;
  const int bytes = buffer.WriteToBuffer(&raw);
  std::vector<char> out(raw, raw + bytes);
  free(raw);
  return out;
}

std::vector<std::string> ReadStrings(const TfLiteTensor* t) {
  std::vector<std::string> v;
  for (int i = 0; i < tflite::GetStringCount(t); ++i) {
    const tflite::StringRef r = tflite::GetString(t, i);
    v.emplace_back(r.str, r.len);
  }
  return v;
}

TEST(Shape_Gather, StringParams) {
  for (TfLiteType index_type : {kTfLiteInt32, kTfLiteInt64}) {
    OpModel m;
    const auto params = Strings({"zero", "", "two", "three"});
    m.AddConstInput(TensorSpec{kTfLiteString, {4}}, params.data(), params.size());
    const int ind = m.AddInput({index_type, {2, 2}});
    const int out = m.AddOutput({kTfLiteString, {}});
    m.SetBuiltinOp(kTfLiteBuiltinGather, Reg(), Params(0));
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    if (index_type == kTfLiteInt32) {
      m.SetInput<int32_t>(ind, {3, 1, 0, 3});
    } else {
      m.SetInput<int64_t>(ind, {3, 1, 0, 3});
    }
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(out), (std::vector<int>{2, 2}));
    EXPECT_EQ(ReadStrings(m.tensor(out)), (std::vector<std::string>{"three", "", "zero", "three"}));
    // Another invoke rewrites the output with its own sizes.
    if (index_type == kTfLiteInt32) {
      m.SetInput<int32_t>(ind, {2, 2, 2, 2});
    } else {
      m.SetInput<int64_t>(ind, {2, 2, 2, 2});
    }
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(ReadStrings(m.tensor(out)), (std::vector<std::string>(4, "two")));
  }
}

TEST(Shape_Gather, StringErrors) {
  {  // 2-D string params: TFLite gathers strings along a vector only
    OpModel m;
    const auto params = Strings({"a", "b", "c", "d"});
    m.AddConstInput(TensorSpec{kTfLiteString, {2, 2}}, params.data(), params.size());
    m.AddInput({kTfLiteInt32, {1}});
    m.AddOutput({kTfLiteString, {}});
    m.SetBuiltinOp(kTfLiteBuiltinGather, Reg(), Params(0));
    ASSERT_EQ(m.Build(), kTfLiteError);
    EXPECT_NE(m.error().find("GATHER: string params must be 1-D"), std::string::npos) << m.error();
  }
  {  // an index past the strings (and a negative one) fails at invoke
    OpModel m;
    const auto params = Strings({"a", "b"});
    m.AddConstInput(TensorSpec{kTfLiteString, {2}}, params.data(), params.size());
    const int ind = m.AddInput({kTfLiteInt32, {1}});
    m.AddOutput({kTfLiteString, {}});
    m.SetBuiltinOp(kTfLiteBuiltinGather, Reg(), Params(0));
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    for (int32_t bad : {2, -1}) {
      m.SetInput<int32_t>(ind, {bad});
      EXPECT_NE(m.Invoke(), kTfLiteOk);
      EXPECT_NE(m.error().find("GATHER: index " + std::to_string(bad) + " out of range [0, 2)"),
                std::string::npos)
          << m.error();
    }
  }
}

TEST(Shape_GatherNd, RowsAndElements) {
  const std::vector<int> dims = {2, 3, 2};
  OpModel m;
  const int in = m.AddInput({kTfLiteFloat32, dims});
  m.AddConstInput<int32_t>({kTfLiteInt32, {3, 2}}, {1, 2, 0, 0, 1, 0});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinGatherNd, tflite::ops::builtin::Register_GATHER_ND());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  const auto data = Iota<float>(12);
  m.SetInput(in, data);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{3, 2}));
  const int rows[3][2] = {{1, 2}, {0, 0}, {1, 0}};
  std::vector<float> expected;
  for (auto& r : rows)
    for (int k = 0; k < 2; ++k) expected.push_back(data[Ravel({r[0], r[1], k}, dims)]);
  EXPECT_EQ(m.GetOutput<float>(out), expected);
}

TEST(Shape_GatherNd, ErrorIndexOutOfRange) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2, 3}});
  const int ind = m.AddInput({kTfLiteInt64, {1, 2}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinGatherNd, tflite::ops::builtin::Register_GATHER_ND());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int64_t>(ind, {1, -1});
  EXPECT_NE(m.Invoke(), kTfLiteOk);
  EXPECT_NE(m.error().find("GATHER_ND: index -1 out of range [0, 3)"), std::string::npos)
      << m.error();
}

TEST(Shape_GatherNd, ErrorDepth) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2}});
  m.AddInput({kTfLiteInt32, {1, 2}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinGatherNd, tflite::ops::builtin::Register_GATHER_ND());
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("GATHER_ND: index depth 2 exceeds params rank 1"), std::string::npos)
      << m.error();
}

TfLiteRegistration* RegNd() { return tflite::ops::builtin::Register_GATHER_ND(); }

// TFLite's string GATHER_ND: params of any rank, each index tuple picks a slice's strings.
TEST(Shape_GatherNd, StringSlicesAndElements) {
  const auto params = Strings({"a", "b", "c", "d", "e", "f"});
  struct Case {
    std::vector<int> indices_dims;
    std::vector<int32_t> indices;
    std::vector<int> out_dims;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {{2, 1}, {2, 0}, {2, 2}, {"e", "f", "a", "b"}},      // rows of a [3, 2] matrix
      {{3, 2}, {1, 1, 0, 0, 2, 1}, {3}, {"d", "a", "f"}},  // single strings
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddConstInput(TensorSpec{kTfLiteString, {3, 2}}, params.data(), params.size());
    const int ind = m.AddInput({kTfLiteInt32, c.indices_dims});
    const int out = m.AddOutput({kTfLiteString, {}});
    m.SetBuiltinOp(kTfLiteBuiltinGatherNd, RegNd());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<int32_t>(ind, c.indices);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(out), c.out_dims);
    EXPECT_EQ(ReadStrings(m.tensor(out)), c.want);
  }
  OpModel m;  // an index past its dimension fails at invoke
  m.AddConstInput(TensorSpec{kTfLiteString, {3, 2}}, params.data(), params.size());
  const int ind = m.AddInput({kTfLiteInt64, {1, 2}});
  m.AddOutput({kTfLiteString, {}});
  m.SetBuiltinOp(kTfLiteBuiltinGatherNd, RegNd());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int64_t>(ind, {0, 2});
  EXPECT_NE(m.Invoke(), kTfLiteOk);
  EXPECT_NE(m.error().find("GATHER_ND: index 2 out of range [0, 2)"), std::string::npos)
      << m.error();
}

}  // namespace
}  // namespace octet::shape_test
