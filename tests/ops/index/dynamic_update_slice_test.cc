// DYNAMIC_UPDATE_SLICE against a per-element copy with the start clamped in the test.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "index_test_util.h"

namespace octet::index_test {
namespace {

using tflite::ops::builtin::Register_DYNAMIC_UPDATE_SLICE;

template <typename T>
std::vector<T> NaiveUpdate(const std::vector<T>& operand, const std::vector<int>& dims,
                           const std::vector<T>& update, const std::vector<int>& update_dims,
                           const std::vector<int64_t>& start) {
  std::vector<T> out = operand;
  std::vector<int64_t> s(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    s[d] = std::min<int64_t>(std::max<int64_t>(start[d], 0), dims[d] - update_dims[d]);
  }
  for (int64_t i = 0; i < Count(update_dims); ++i) {
    std::vector<int> idx = Unravel(i, update_dims);
    for (size_t d = 0; d < dims.size(); ++d) idx[d] += static_cast<int>(s[d]);
    out[Ravel(idx, dims)] = update[i];
  }
  return out;
}

template <typename T, typename I>
void Check(TfLiteType type, TfLiteType index_type, const std::vector<int>& dims,
           const std::vector<int>& update_dims, const std::vector<int64_t>& start) {
  std::vector<T> operand(Count(dims)), update(Count(update_dims));
  for (size_t i = 0; i < operand.size(); ++i) operand[i] = static_cast<T>(i % 7 + 1);
  for (size_t i = 0; i < update.size(); ++i) update[i] = static_cast<T>(100 - i % 50);
  OpModel m;
  const int op = m.AddInput({type, dims});
  const int up = m.AddInput({type, update_dims});
  const int st = m.AddInput({index_type, {static_cast<int>(dims.size())}});
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinDynamicUpdateSlice, Register_DYNAMIC_UPDATE_SLICE());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(op, operand);
  m.SetInput(up, update);
  m.SetInput(st, std::vector<I>(start.begin(), start.end()));
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), dims);
  EXPECT_EQ(m.GetOutput<T>(out), NaiveUpdate(operand, dims, update, update_dims, start));
}

TEST(Index_DynamicUpdateSlice, TypesRanksAndClamping) {
  Check<float, int32_t>(kTfLiteFloat32, kTfLiteInt32, {4, 5}, {2, 3}, {1, 1});
  Check<float, int64_t>(kTfLiteFloat32, kTfLiteInt64, {4, 5}, {2, 3}, {3, 4});    // clamped high
  Check<int32_t, int32_t>(kTfLiteInt32, kTfLiteInt32, {4, 5}, {2, 3}, {-3, -1});  // clamped low
  Check<int8_t, int32_t>(kTfLiteInt8, kTfLiteInt32, {2, 3, 4}, {1, 3, 2}, {1, 0, 1});
  Check<int16_t, int64_t>(kTfLiteInt16, kTfLiteInt64, {6}, {6}, {2});  // whole operand
  Check<int64_t, int32_t>(kTfLiteInt64, kTfLiteInt32, {3, 1, 2, 2}, {2, 1, 1, 2}, {2, 0, 1, 0});
  Check<uint8_t, int32_t>(kTfLiteBool, kTfLiteInt32, {3, 3}, {1, 1}, {1, 2});
  Check<double, int32_t>(kTfLiteFloat64, kTfLiteInt32, {2, 2}, {1, 2}, {1, 0});
  Check<float, int32_t>(kTfLiteFloat32, kTfLiteInt32, {3, 4}, {0, 2}, {1, 1});  // empty update
  Check<float, int64_t>(kTfLiteFloat32, kTfLiteInt64, {2, 3}, {1, 2},
                        {int64_t{1} << 40, -(int64_t{1} << 40)});  // far out: clamped
}

TEST(Index_DynamicUpdateSlice, HandWorked) {
  OpModel m;
  const int op = m.AddInput({kTfLiteFloat32, {3, 3}});
  const int up = m.AddInput({kTfLiteFloat32, {2, 1}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {1, 5});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinDynamicUpdateSlice, Register_DYNAMIC_UPDATE_SLICE());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(op, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  m.SetInput<float>(up, {-1, -2});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  // Column start 5 is clamped to 3 - 1 = 2.
  EXPECT_EQ(m.GetOutput<float>(out), std::vector<float>({1, 2, 3, 4, 5, -1, 7, 8, -2}));
}

TEST(Index_DynamicUpdateSlice, RefusesBadShapes) {
  struct Case {
    TfLiteType type, update_type, index_type;
    std::vector<int> dims, update_dims, start_dims;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteInt32,
       {2, 2},
       {1, 1},
       {2},
       "DYNAMIC_UPDATE_SLICE: update type INT32 does not match input type FLOAT32"},
      {kTfLiteFloat32,
       kTfLiteFloat32,
       kTfLiteFloat32,
       {2, 2},
       {1, 1},
       {2},
       "DYNAMIC_UPDATE_SLICE: start_indices must be int32 or int64, got FLOAT32"},
      {kTfLiteFloat32,
       kTfLiteFloat32,
       kTfLiteInt32,
       {2, 2},
       {1, 1},
       {3},
       "DYNAMIC_UPDATE_SLICE: start_indices must be a vector of 2"},
      {kTfLiteFloat32,
       kTfLiteFloat32,
       kTfLiteInt32,
       {2, 2},
       {1},
       {2},
       "DYNAMIC_UPDATE_SLICE: update rank 1 differs from operand rank 2"},
      {kTfLiteFloat32,
       kTfLiteFloat32,
       kTfLiteInt32,
       {2, 2},
       {1, 3},
       {2},
       "DYNAMIC_UPDATE_SLICE: update dim 1 is 3, larger than the operand's 2"},
      {kTfLiteString,
       kTfLiteString,
       kTfLiteInt32,
       {2},
       {1},
       {1},
       "DYNAMIC_UPDATE_SLICE: unsupported operand type STRING"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.type, c.dims});
    m.AddInput({c.update_type, c.update_dims});
    m.AddInput({c.index_type, c.start_dims});
    m.AddOutput({c.type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinDynamicUpdateSlice, Register_DYNAMIC_UPDATE_SLICE());
    ExpectBuildError(m, c.message);
  }
}

}  // namespace
}  // namespace octet::index_test
