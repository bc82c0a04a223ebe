// CUMSUM against a naive per-element sum over the axis written in the test.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ops/shape/shape_ops.h"
#include "ops/shape/shape_test_util.h"

namespace octet::shape_test {
namespace {

using tflite::ops::builtin::Register_CUMSUM;

// out[idx] = sum of in over positions j along `axis` with j < idx (exclusive) or j <= idx,
// or j > / >= idx when reversed.
template <typename T>
std::vector<T> NaiveCumSum(const std::vector<T>& in, const std::vector<int>& dims, int axis,
                           bool exclusive, bool reverse) {
  std::vector<T> out(in.size());
  for (int64_t i = 0; i < Count(dims); ++i) {
    std::vector<int> idx = Unravel(i, dims);
    const int pos = idx[axis];
    T sum = T(0);
    for (int j = 0; j < dims[axis]; ++j) {
      const bool take =
          reverse ? (exclusive ? j > pos : j >= pos) : (exclusive ? j < pos : j <= pos);
      if (!take) continue;
      idx[axis] = j;
      sum += in[Ravel(idx, dims)];
    }
    out[i] = sum;
  }
  return out;
}

template <typename T>
void CheckCumSum(TfLiteType type, const std::vector<int>& dims, int axis, bool exclusive,
                 bool reverse, bool const_axis) {
  OpModel m;
  const int in = m.AddInput({type, dims});
  int axis_id = -1;
  if (const_axis) {
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {axis});
  } else {
    axis_id = m.AddInput({kTfLiteInt32, {1}});
  }
  const int out = m.AddOutput({type, {}});
  TfLiteCumsumParams p{};
  p.exclusive = exclusive;
  p.reverse = reverse;
  m.SetBuiltinOp(kTfLiteBuiltinCumsum, Register_CUMSUM(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  const std::vector<T> data = Iota<T>(Count(dims), T(1));
  m.SetInput(in, data);
  if (!const_axis) m.SetInput<int32_t>(axis_id, {axis});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), dims);
  const int norm = axis < 0 ? axis + static_cast<int>(dims.size()) : axis;
  EXPECT_EQ(m.GetOutput<T>(out), NaiveCumSum(data, dims, norm, exclusive, reverse))
      << "axis " << axis << " exclusive " << exclusive << " reverse " << reverse;
}

TEST(Shape_CumSum, AllAxesAndOptions) {
  for (int axis : {0, 1, 2, -1, -3}) {
    for (bool exclusive : {false, true}) {
      for (bool reverse : {false, true}) {
        CheckCumSum<float>(kTfLiteFloat32, {2, 3, 4}, axis, exclusive, reverse, true);
        CheckCumSum<int32_t>(kTfLiteInt32, {2, 3, 4}, axis, exclusive, reverse, axis != 1);
        CheckCumSum<int64_t>(kTfLiteInt64, {2, 3, 4}, axis, exclusive, reverse, true);
      }
    }
  }
}

TEST(Shape_CumSum, HandWorked) {
  OpModel m;
  const int in = m.AddInput({kTfLiteFloat32, {4}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {0});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  TfLiteCumsumParams p{};
  p.exclusive = true;
  p.reverse = true;
  m.SetBuiltinOp(kTfLiteBuiltinCumsum, Register_CUMSUM(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(in, {1, 2, 3, 4});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<float>(out), std::vector<float>({9, 7, 4, 0}));
}

TEST(Shape_CumSum, RefusesBadAxisAndTypes) {
  struct Case {
    TfLiteType type;
    std::vector<int> dims;
    TfLiteType axis_type;
    int axis;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteFloat32, {2, 3}, kTfLiteInt32, 2, "CUMSUM: axis 2 out of range for rank 2"},
      {kTfLiteFloat32, {2, 3}, kTfLiteInt32, -3, "CUMSUM: axis -3 out of range for rank 2"},
      {kTfLiteInt8, {2, 3}, kTfLiteInt32, 0, "CUMSUM: input type INT8 is not supported"},
      {kTfLiteFloat32, {}, kTfLiteInt32, 0, "CUMSUM: input must have rank >= 1"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.type, c.dims});
    m.AddConstInput<int32_t>({c.axis_type, {}}, {c.axis});
    m.AddOutput({c.type, {}});
    TfLiteCumsumParams p{};
    m.SetBuiltinOp(kTfLiteBuiltinCumsum, Register_CUMSUM(), p);
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << m.error();
  }
  // An int64 axis and a non-scalar axis are refused too.
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2}});
  m.AddConstInput<int64_t>({kTfLiteInt64, {}}, {0});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinCumsum, Register_CUMSUM(), TfLiteCumsumParams{});
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("CUMSUM: axis must be int32"), std::string::npos) << m.error();
  // A runtime axis out of range fails at invoke.
  OpModel r;
  r.AddInput({kTfLiteFloat32, {2}});
  const int axis = r.AddInput({kTfLiteInt32, {1}});
  r.AddOutput({kTfLiteFloat32, {}});
  r.SetBuiltinOp(kTfLiteBuiltinCumsum, Register_CUMSUM(), TfLiteCumsumParams{});
  ASSERT_EQ(r.Build(), kTfLiteOk) << r.error();
  r.SetInput<int32_t>(axis, {5});
  EXPECT_NE(r.Invoke(), kTfLiteOk);
  EXPECT_NE(r.error().find("CUMSUM: axis 5 out of range for rank 1"), std::string::npos)
      << r.error();
}

}  // namespace
}  // namespace octet::shape_test
