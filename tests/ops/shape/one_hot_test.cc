// ONE_HOT against a naive per-output-element comparison written in the test.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ops/shape/shape_ops.h"
#include "ops/shape/shape_test_util.h"

namespace octet::shape_test {
namespace {

using tflite::ops::builtin::Register_ONE_HOT;

// out[..., d, ...] (d at `axis`) = indices[...] == d ? on : off.
template <typename T, typename I>
std::vector<T> NaiveOneHot(const std::vector<I>& indices, const std::vector<int>& dims, int depth,
                           int axis, T on, T off, std::vector<int>* out_dims) {
  *out_dims = dims;
  out_dims->insert(out_dims->begin() + axis, depth);
  std::vector<T> out(Count(*out_dims));
  for (int64_t i = 0; i < Count(*out_dims); ++i) {
    std::vector<int> idx = Unravel(i, *out_dims);
    const int d = idx[axis];
    idx.erase(idx.begin() + axis);
    out[i] = static_cast<int64_t>(indices[Ravel(idx, dims)]) == d ? on : off;
  }
  return out;
}

template <typename T, typename I>
void Check(TfLiteType type, TfLiteType index_type, const std::vector<int>& dims, int depth,
           int axis_param, T on, T off, bool const_depth) {
  std::vector<I> indices(Count(dims));
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<I>(int(i * 5) % 6 - 1);
  OpModel m;
  const int in = m.AddInput({index_type, dims});
  int depth_id = -1;
  if (const_depth) {
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {depth});
  } else {
    depth_id = m.AddInput({kTfLiteInt32, {}});
  }
  m.AddConstInput<T>({type, {}}, {on});
  m.AddConstInput<T>({type, {}}, {off});
  const int out = m.AddOutput({type, {}});
  TfLiteOneHotParams p{};
  p.axis = axis_param;
  m.SetBuiltinOp(kTfLiteBuiltinOneHot, Register_ONE_HOT(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(in, indices);
  if (!const_depth) m.SetInput<int32_t>(depth_id, {depth});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const int axis = axis_param == -1 ? static_cast<int>(dims.size()) : axis_param;
  std::vector<int> want_dims;
  const std::vector<T> want = NaiveOneHot(indices, dims, depth, axis, on, off, &want_dims);
  EXPECT_EQ(m.GetShape(out), want_dims);
  EXPECT_EQ(m.GetOutput<T>(out), want) << "axis " << axis_param << " depth " << depth;
}

TEST(Shape_OneHot, AxesTypesAndDynamicDepth) {
  for (int axis : {-1, 0, 1, 2}) {
    for (bool const_depth : {true, false}) {
      Check<float, int32_t>(kTfLiteFloat32, kTfLiteInt32, {2, 3}, 4, axis, 1.5f, -0.5f,
                            const_depth);
      Check<int32_t, int64_t>(kTfLiteInt32, kTfLiteInt64, {2, 3}, 3, axis, 7, 0, const_depth);
    }
  }
  Check<int64_t, int32_t>(kTfLiteInt64, kTfLiteInt32, {5}, 5, -1, int64_t{1} << 40, -1, true);
  Check<int8_t, int32_t>(kTfLiteInt8, kTfLiteInt32, {4}, 3, 0, 100, -100, true);
  Check<uint8_t, int32_t>(kTfLiteUInt8, kTfLiteInt32, {4}, 2, -1, 255, 1, true);
  Check<int16_t, int32_t>(kTfLiteInt16, kTfLiteInt32, {3}, 4, -1, 300, 0, true);
  Check<uint8_t, int32_t>(kTfLiteBool, kTfLiteInt32, {2, 2}, 3, 1, 1, 0, false);  // bool
  Check<float, int32_t>(kTfLiteFloat32, kTfLiteInt32, {3}, 0, -1, 1.0f, 0.0f, false);  // depth 0
}

TEST(Shape_OneHot, HandWorked) {
  OpModel m;
  const int in = m.AddInput({kTfLiteInt32, {3}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {3});
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {5.0f});
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.0f});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinOneHot, Register_ONE_HOT(), TfLiteOneHotParams{-1});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(in, {0, 2, 3});  // 3 is out of range: a row of off values
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), std::vector<int>({3, 3}));
  EXPECT_EQ(m.GetOutput<float>(out), std::vector<float>({5, 0, 0, 0, 0, 5, 0, 0, 0}));
}

TEST(Shape_OneHot, RefusesBadInputs) {
  struct Case {
    TfLiteType index_type, on_type, off_type;
    int depth, axis;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteFloat32, kTfLiteFloat32, kTfLiteFloat32, 3, -1,
       "ONE_HOT: indices must be int32 or int64"},
      {kTfLiteInt32, kTfLiteFloat32, kTfLiteInt32, 3, -1,
       "ONE_HOT: off_value type INT32 does not match"},
      {kTfLiteInt32, kTfLiteFloat32, kTfLiteFloat32, 3, 3, "ONE_HOT: axis 3 out of range [-1, 2]"},
      {kTfLiteInt32, kTfLiteFloat32, kTfLiteFloat32, 3, -2,
       "ONE_HOT: axis -2 out of range [-1, 2]"},
      {kTfLiteInt32, kTfLiteFloat32, kTfLiteFloat32, -1, -1,
       "ONE_HOT: depth must be non-negative, got -1"},
      {kTfLiteInt32, kTfLiteFloat64, kTfLiteFloat64, 3, -1,
       "ONE_HOT: on_value type FLOAT64 is not supported"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.index_type, {2, 2}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {c.depth});
    const uint64_t zero = 0;  // big enough for any value type
    m.AddConstInput({c.on_type, {}}, &zero, TfLiteTypeGetSize(c.on_type));
    m.AddConstInput({c.off_type, {}}, &zero, TfLiteTypeGetSize(c.off_type));
    m.AddOutput({c.on_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinOneHot, Register_ONE_HOT(), TfLiteOneHotParams{c.axis});
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << m.error();
  }
}

}  // namespace
}  // namespace octet::shape_test
