// SCATTER_ND against hand-worked examples and a naive accumulate-per-index loop.
#include <cstdint>
#include <vector>

#include "index_test_util.h"

namespace octet::index_test {
namespace {

using tflite::ops::builtin::Register_SCATTER_ND;

// out = zeros(shape); out[indices[r], ...] += updates[r, ...].
template <typename T>
std::vector<T> NaiveScatter(const std::vector<int32_t>& indices, int rows, int depth,
                            const std::vector<T>& updates, const std::vector<int>& shape) {
  std::vector<T> out(Count(shape), T(0));
  int64_t slice = 1;
  for (size_t d = depth; d < shape.size(); ++d) slice *= shape[d];
  for (int r = 0; r < rows; ++r) {
    std::vector<int> idx(shape.size(), 0);
    for (int d = 0; d < depth; ++d) idx[d] = indices[r * depth + d];
    const int64_t base = Ravel(idx, shape);
    for (int64_t j = 0; j < slice; ++j) out[base + j] = out[base + j] + updates[r * slice + j];
  }
  return out;
}

template <typename T>
void Check(TfLiteType type, const std::vector<int>& indices_dims,
           const std::vector<int32_t>& indices, const std::vector<int>& updates_dims,
           const std::vector<T>& updates, const std::vector<int>& shape, bool const_shape) {
  OpModel m;
  const int ind = m.AddInput({kTfLiteInt32, indices_dims});
  const int upd = m.AddInput({type, updates_dims});
  int shp = -1;
  if (const_shape) {
    m.AddConstInput<int32_t>({kTfLiteInt32, {static_cast<int>(shape.size())}},
                             std::vector<int32_t>(shape.begin(), shape.end()));
  } else {
    shp = m.AddInput({kTfLiteInt32, {static_cast<int>(shape.size())}});
  }
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinScatterNd, Register_SCATTER_ND());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(IsDynamic(m, out), !const_shape);
  m.SetInput(ind, indices);
  m.SetInput(upd, updates);
  if (!const_shape) m.SetInput(shp, std::vector<int32_t>(shape.begin(), shape.end()));
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const int depth = indices_dims.back();
  const int rows =
      static_cast<int>(Count(std::vector<int>(indices_dims.begin(), indices_dims.end() - 1)));
  EXPECT_EQ(m.GetShape(out), shape);
  EXPECT_EQ(m.GetOutput<T>(out), NaiveScatter(indices, rows, depth, updates, shape));
}

TEST(Index_ScatterNd, HandWorked) {
  // The example of tf.scatter_nd's documentation.
  OpModel m;
  m.AddConstInput<int32_t>({kTfLiteInt32, {4, 1}}, {4, 3, 1, 7});
  m.AddConstInput<float>({kTfLiteFloat32, {4}}, {9, 10, 11, 12});
  m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {8});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinScatterNd, Register_SCATTER_ND());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<float>(out), std::vector<float>({0, 11, 0, 10, 9, 0, 0, 12}));
}

TEST(Index_ScatterNd, TypesSlicesDuplicatesAndDynamicShape) {
  for (bool const_shape : {true, false}) {
    // Rows of a [4, 3] matrix; row 1 is hit twice and accumulates.
    Check<float>(kTfLiteFloat32, {3, 1}, {1, 3, 1}, {3, 3}, {1, 2, 3, 4, 5, 6, 0.5f, 0.5f, 0.5f},
                 {4, 3}, const_shape);
    Check<int32_t>(kTfLiteInt32, {2, 2}, {0, 1, 2, 0}, {2, 2}, {7, 8, -1, -2}, {3, 2, 2},
                   const_shape);
    Check<int64_t>(kTfLiteInt64, {2, 2}, {1, 1, 1, 1}, {2}, {int64_t{1} << 40, 5}, {2, 2},
                   const_shape);
    Check<int8_t>(kTfLiteInt8, {2, 1, 1}, {0, 2}, {2, 1}, {-5, 100}, {3}, const_shape);
    Check<uint8_t>(kTfLiteUInt8, {1, 1}, {1}, {1, 2}, {9, 200}, {2, 2}, const_shape);
    Check<float>(kTfLiteFloat32, {0, 1}, {}, {0}, {}, {3}, const_shape);  // no updates: zeros
  }
}

TEST(Index_ScatterNd, BoolOrs) {
  OpModel m;
  const int ind = m.AddInput({kTfLiteInt32, {3, 1}});
  const int upd = m.AddInput({kTfLiteBool, {3}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {3});
  const int out = m.AddOutput({kTfLiteBool, {}});
  m.SetBuiltinOp(kTfLiteBuiltinScatterNd, Register_SCATTER_ND());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(ind, {0, 0, 2});
  m.SetInput<uint8_t>(upd, {1, 1, 0});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<uint8_t>(out), std::vector<uint8_t>({1, 0, 0}));
}

TEST(Index_ScatterNd, RefusesOutOfRangeIndices) {
  struct Case {
    std::vector<int32_t> indices;
    const char* message;
  };
  const Case cases[] = {
      {{0, 3}, "SCATTER_ND: index 3 (row 0, coordinate 1) out of range [0, 3)"},
      {{-1, 0}, "SCATTER_ND: index -1 (row 0, coordinate 0) out of range [0, 2)"},
      {{2, 0}, "SCATTER_ND: index 2 (row 0, coordinate 0) out of range [0, 2)"},
  };
  for (const Case& c : cases) {
    OpModel m;
    const int ind = m.AddInput({kTfLiteInt32, {1, 2}});
    const int upd = m.AddInput({kTfLiteFloat32, {1}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {2, 3});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinScatterNd, Register_SCATTER_ND());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput(ind, c.indices);
    m.SetInput<float>(upd, {1});
    ExpectInvokeError(m, c.message);
  }
}

TEST(Index_ScatterNd, RefusesBadShapes) {
  struct Case {
    TfLiteType indices_type, updates_type, out_type;
    std::vector<int> indices_dims, updates_dims, shape;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteInt64,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 1},
       {2},
       {4},
       "SCATTER_ND: indices must be INT32, got INT64"},
      {kTfLiteInt32,
       kTfLiteInt16,
       kTfLiteInt16,
       {2, 1},
       {2},
       {4},
       "SCATTER_ND: updates type INT16 is not supported"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteInt32,
       {2, 1},
       {2},
       {4},
       "SCATTER_ND: output type INT32 does not match input type FLOAT32"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 1},
       {3},
       {4},
       "SCATTER_ND: updates dim 0 is 3 but indices dim 0 is 2"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 1},
       {2, 5},
       {4, 3},
       "SCATTER_ND: updates dim 1 is 5 but shape[1] is 3"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 1},
       {2, 3},
       {4},
       "SCATTER_ND: updates must have rank 1"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 3},
       {2},
       {4, 4},
       "SCATTER_ND: indices address 3 dims but the shape has 2"},
      {kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 1},
       {2},
       {-4},
       "SCATTER_ND: shape[0] = -4 is negative"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.indices_type, c.indices_dims});
    m.AddInput({c.updates_type, c.updates_dims});
    m.AddConstInput<int32_t>({kTfLiteInt32, {static_cast<int>(c.shape.size())}},
                             std::vector<int32_t>(c.shape.begin(), c.shape.end()));
    m.AddOutput({c.out_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinScatterNd, Register_SCATTER_ND());
    ExpectBuildError(m, c.message);
  }
  // A runtime shape that disagrees with updates is refused at invoke.
  OpModel m;
  m.AddInput({kTfLiteInt32, {1, 1}});
  m.AddInput({kTfLiteFloat32, {1, 2}});
  const int shp = m.AddInput({kTfLiteInt32, {2}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinScatterNd, Register_SCATTER_ND());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(shp, {3, 5});
  ExpectInvokeError(m, "SCATTER_ND: updates dim 1 is 2 but shape[1] is 5");
}

}  // namespace
}  // namespace octet::index_test
