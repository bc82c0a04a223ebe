// SPARSE_TO_DENSE against a dense tensor filled by a plain loop in the test.
#include <cstdint>
#include <vector>

#include "index_test_util.h"

namespace octet::index_test {
namespace {

using tflite::ops::builtin::Register_SPARSE_TO_DENSE;

// default everywhere, then values in index order (a later duplicate overwrites).
template <typename T>
std::vector<T> NaiveDense(const std::vector<int64_t>& indices, int depth,
                          const std::vector<int>& shape, const std::vector<T>& values, T def) {
  std::vector<T> out(Count(shape), def);
  const size_t rows = indices.size() / depth;
  for (size_t r = 0; r < rows; ++r) {
    std::vector<int> idx(indices.begin() + r * depth, indices.begin() + (r + 1) * depth);
    out[Ravel(idx, shape)] = values.size() == 1 ? values[0] : values[r];
  }
  return out;
}

template <typename T, typename I>
void Check(TfLiteType type, TfLiteType index_type, const std::vector<int>& indices_dims,
           const std::vector<I>& indices, const std::vector<int>& shape,
           const std::vector<int>& values_dims, const std::vector<T>& values, T def,
           bool const_shape) {
  OpModel m;
  const int ind = m.AddInput({index_type, indices_dims});
  int shp = -1;
  const std::vector<I> shape_values(shape.begin(), shape.end());
  if (const_shape) {
    m.AddConstInput<I>({index_type, {static_cast<int>(shape.size())}}, shape_values);
  } else {
    shp = m.AddInput({index_type, {static_cast<int>(shape.size())}});
  }
  const int val = m.AddInput({type, values_dims});
  m.AddConstInput<T>({type, {}}, {def});
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinSparseToDense, Register_SPARSE_TO_DENSE(),
                 TfLiteSparseToDenseParams{false});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(IsDynamic(m, out), !const_shape);
  m.SetInput(ind, indices);
  if (!const_shape) m.SetInput(shp, shape_values);
  m.SetInput(val, values);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), shape);
  const std::vector<int64_t> wide(indices.begin(), indices.end());
  EXPECT_EQ(m.GetOutput<T>(out),
            NaiveDense(wide, static_cast<int>(shape.size()), shape, values, def));
}

TEST(Index_SparseToDense, RanksTypesAndDynamicShape) {
  for (bool c : {true, false}) {
    // 1-D indices into a vector.
    Check<float, int32_t>(kTfLiteFloat32, kTfLiteInt32, {3}, {0, 4, 2}, {6}, {3}, {1.5f, 2, 3},
                          -1.0f, c);
    // [n, 3] tuples, int64 indices, a repeated index (the last value wins).
    Check<int32_t, int64_t>(kTfLiteInt32, kTfLiteInt64, {3, 3}, {0, 1, 2, 1, 0, 0, 0, 1, 2},
                            {2, 2, 3}, {3}, {7, 8, 9}, 0, c);
    // A scalar value for every index.
    Check<int64_t, int32_t>(kTfLiteInt64, kTfLiteInt32, {2, 2}, {1, 1, 0, 0}, {2, 3}, {},
                            {int64_t{1} << 40}, int64_t{5}, c);
    Check<int8_t, int32_t>(kTfLiteInt8, kTfLiteInt32, {2, 4}, {0, 0, 0, 1, 1, 1, 1, 0},
                           {2, 2, 2, 2}, {2}, {-128, 127}, int8_t{3}, c);
    Check<uint8_t, int32_t>(kTfLiteUInt8, kTfLiteInt32, {}, {2}, {4}, {}, {200}, uint8_t{1}, c);
    Check<float, int32_t>(kTfLiteFloat32, kTfLiteInt32, {0, 2}, {}, {2, 2}, {0}, {}, 0.25f, c);
  }
}

TEST(Index_SparseToDense, HandWorked) {
  OpModel m;
  m.AddConstInput<int32_t>({kTfLiteInt32, {2, 2}}, {0, 1, 2, 0});
  m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {3, 2});
  m.AddConstInput<float>({kTfLiteFloat32, {2}}, {4, 5});
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {-1});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinSparseToDense, Register_SPARSE_TO_DENSE(),
                 TfLiteSparseToDenseParams{true});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<float>(out), std::vector<float>({-1, 4, -1, -1, 5, -1}));
}

TEST(Index_SparseToDense, RefusesOutOfRangeIndices) {
  struct Case {
    std::vector<int32_t> indices;
    const char* message;
  };
  const Case cases[] = {
      {{0, 0, 3, 0}, "SPARSE_TO_DENSE: index 3 (entry 1, coordinate 0) out of range [0, 3)"},
      {{0, -1, 1, 1}, "SPARSE_TO_DENSE: index -1 (entry 0, coordinate 1) out of range [0, 2)"},
      {{0, 2, 1, 1}, "SPARSE_TO_DENSE: index 2 (entry 0, coordinate 1) out of range [0, 2)"},
  };
  for (const Case& c : cases) {
    OpModel m;
    const int ind = m.AddInput({kTfLiteInt32, {2, 2}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {3, 2});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {1});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSparseToDense, Register_SPARSE_TO_DENSE(),
                   TfLiteSparseToDenseParams{false});
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput(ind, c.indices);
    ExpectInvokeError(m, c.message);
  }
  // A negative runtime dim is refused when the output is sized.
  OpModel m;
  m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {0});
  const int shp = m.AddInput({kTfLiteInt32, {1}});
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {1});
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {0});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinSparseToDense, Register_SPARSE_TO_DENSE(),
                 TfLiteSparseToDenseParams{false});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(shp, {-2});
  ExpectInvokeError(m, "SPARSE_TO_DENSE: output_shape[0] = -2 is out of range");
}

TEST(Index_SparseToDense, RefusesBadShapes) {
  struct Case {
    TfLiteType index_type, values_type, default_type;
    std::vector<int> indices_dims;
    int out_rank;
    std::vector<int> values_dims;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteFloat32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2},
       1,
       {2},
       "SPARSE_TO_DENSE: indices must be int32 or int64, got FLOAT32"},
      {kTfLiteInt32,
       kTfLiteInt16,
       kTfLiteInt16,
       {2},
       1,
       {2},
       "SPARSE_TO_DENSE: values type INT16 is not supported"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteInt32,
       {2},
       1,
       {2},
       "SPARSE_TO_DENSE: default_value type INT32 does not match input type FLOAT32"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 2, 1},
       1,
       {2},
       "SPARSE_TO_DENSE: indices must have rank 0, 1 or 2, got 3"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 3},
       2,
       {2},
       "SPARSE_TO_DENSE: indices give 3 coordinates but output_shape has 2 dims"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2},
       2,
       {2},
       "SPARSE_TO_DENSE: indices give 1 coordinates but output_shape has 2 dims"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 5},
       5,
       {2},
       "SPARSE_TO_DENSE: the output may have at most 4 dims, got 5"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {3},
       1,
       {2},
       "SPARSE_TO_DENSE: 2 values for 3 indices"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2},
       1,
       {2, 1},
       "SPARSE_TO_DENSE: values must be a scalar or a vector, got rank 2"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.index_type, c.indices_dims});
    m.AddConstInput<int32_t>({kTfLiteInt32, {c.out_rank}}, std::vector<int32_t>(c.out_rank, 4));
    m.AddInput({c.values_type, c.values_dims});
    const int64_t zero = 0;
    m.AddConstInput({c.default_type, {}}, &zero, TfLiteTypeGetSize(c.default_type));
    m.AddOutput({c.values_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSparseToDense, Register_SPARSE_TO_DENSE(),
                   TfLiteSparseToDenseParams{false});
    ExpectBuildError(m, c.message);
  }
}

}  // namespace
}  // namespace octet::index_test
