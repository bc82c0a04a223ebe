// TOPK_V2 against a stable descending sort of each row written in the test.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "index_test_util.h"

namespace octet::index_test {
namespace {

using tflite::ops::builtin::Register_TOPK_V2;

// Each row sorted by value, largest first; std::stable_sort keeps equal values in input order.
template <typename T>
void NaiveTopK(const std::vector<T>& data, int row, int k, std::vector<T>* values,
               std::vector<int32_t>* indices) {
  values->clear();
  indices->clear();
  for (size_t start = 0; start < data.size(); start += row) {
    std::vector<int32_t> order(row);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int32_t a, int32_t b) { return data[start + a] > data[start + b]; });
    for (int i = 0; i < k; ++i) {
      indices->push_back(order[i]);
      values->push_back(data[start + order[i]]);
    }
  }
}

template <typename T>
void Check(TfLiteType type, const std::vector<int>& dims, const std::vector<T>& data, int k,
           bool const_k) {
  OpModel m;
  const int in = m.AddInput({type, dims});
  int k_id = -1;
  if (const_k) {
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {k});
  } else {
    k_id = m.AddInput({kTfLiteInt32, {}});
  }
  const int values = m.AddOutput({type, {}});
  const int indices = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinTopkV2, Register_TOPK_V2());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(IsDynamic(m, values), !const_k);
  m.SetInput(in, data);
  if (!const_k) m.SetInput<int32_t>(k_id, {k});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  std::vector<T> want_values;
  std::vector<int32_t> want_indices;
  NaiveTopK(data, dims.back(), k, &want_values, &want_indices);
  std::vector<int> want_dims = dims;
  want_dims.back() = k;
  EXPECT_EQ(m.GetShape(values), want_dims);
  EXPECT_EQ(m.GetShape(indices), want_dims);
  EXPECT_EQ(m.GetOutput<T>(values), want_values) << "k " << k;
  EXPECT_EQ(m.GetOutput<int32_t>(indices), want_indices) << "k " << k;
}

TEST(Index_TopKV2, EveryTypeWithTies) {
  for (bool const_k : {true, false}) {
    for (int k : {0, 1, 3, 6}) {
      Check<float>(kTfLiteFloat32, {2, 6}, {1.5f, -2, 1.5f, 7, 0, 1.5f, 3, 3, 3, 3, -1, 4}, k,
                   const_k);
      Check<int32_t>(kTfLiteInt32, {2, 6}, {5, 5, 1, 9, 9, -3, 0, 0, 0, 0, 0, 0}, k, const_k);
    }
  }
  Check<uint8_t>(kTfLiteUInt8, {5}, {200, 3, 200, 255, 0}, 4, true);
  Check<int8_t>(kTfLiteInt8, {2, 2, 3}, {-128, 127, 0, 5, 5, 5, -1, -2, -1, 3, 2, 1}, 2, true);
  Check<int16_t>(kTfLiteInt16, {4}, {-300, 300, 300, 0}, 3, false);
  Check<int64_t>(kTfLiteInt64, {3}, {int64_t{1} << 40, -(int64_t{1} << 40), int64_t{1} << 40}, 2,
                 true);
  Check<float>(kTfLiteFloat32, {0, 4}, {}, 2, true);  // no rows
}

TEST(Index_TopKV2, HandWorkedTies) {
  OpModel m;
  const int in = m.AddInput({kTfLiteFloat32, {5}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {3});
  const int values = m.AddOutput({kTfLiteFloat32, {}});
  const int indices = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinTopkV2, Register_TOPK_V2());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(in, {2, 7, 2, 7, 2});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<float>(values), std::vector<float>({7, 7, 2}));
  EXPECT_EQ(m.GetOutput<int32_t>(indices), std::vector<int32_t>({1, 3, 0}));
}

// NaN ranks above every number; the numbers keep their usual order behind it.
TEST(Index_TopKV2, NaNRanksFirst) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpModel m;
  const int in = m.AddInput({kTfLiteFloat32, {6}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {6});
  const int values = m.AddOutput({kTfLiteFloat32, {}});
  const int indices = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinTopkV2, Register_TOPK_V2());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(in, {1, nan, 3, -std::numeric_limits<float>::infinity(), nan, 2});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<int32_t>(indices), std::vector<int32_t>({1, 4, 2, 5, 0, 3}));
  const std::vector<float> v = m.GetOutput<float>(values);
  ASSERT_EQ(v.size(), 6u);
  EXPECT_TRUE(std::isnan(v[0]) && std::isnan(v[1]));
  EXPECT_EQ(std::vector<float>(v.begin() + 2, v.end()),
            std::vector<float>({3, 2, 1, -std::numeric_limits<float>::infinity()}));
}

// Version 3: k and the index output may be int16.
TEST(Index_TopKV2, Int16KAndIndices) {
  OpModel m;
  const int in = m.AddInput({kTfLiteInt32, {2, 3}});
  const int k = m.AddInput({kTfLiteInt16, {}});
  const int values = m.AddOutput({kTfLiteInt32, {}});
  const int indices = m.AddOutput({kTfLiteInt16, {}});
  m.SetBuiltinOp(kTfLiteBuiltinTopkV2, Register_TOPK_V2());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(in, {4, 8, 6, 1, 1, 2});
  m.SetInput<int16_t>(k, {2});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(values), std::vector<int>({2, 2}));
  EXPECT_EQ(m.GetOutput<int32_t>(values), std::vector<int32_t>({8, 6, 2, 1}));
  EXPECT_EQ(m.GetOutput<int16_t>(indices), std::vector<int16_t>({1, 2, 2, 0}));
}

TEST(Index_TopKV2, RefusesBadInputs) {
  struct Case {
    TfLiteType type, k_type, values_type, indices_type;
    std::vector<int> dims;
    int k;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteInt32,
       {2, 3},
       4,
       "TOPK_V2: k = 4 is outside [0, 3]"},
      {kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteInt32,
       {3},
       -1,
       "TOPK_V2: k = -1 is outside [0, 3]"},
      {kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteInt32,
       {},
       0,
       "TOPK_V2: input must have rank >= 1"},
      {kTfLiteBool,
       kTfLiteInt32,
       kTfLiteBool,
       kTfLiteInt32,
       {3},
       1,
       "TOPK_V2: input type BOOL is not supported"},
      {kTfLiteFloat32,
       kTfLiteInt64,
       kTfLiteFloat32,
       kTfLiteInt32,
       {3},
       1,
       "TOPK_V2: k type INT64 is not supported"},
      {kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteInt32,
       kTfLiteInt32,
       {3},
       1,
       "TOPK_V2: values output type INT32 does not match input type FLOAT32"},
      {kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteInt64,
       {3},
       1,
       "TOPK_V2: indices output type INT64 is not supported"},
      {kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteFloat32,
       kTfLiteInt16,
       {40000},
       1,
       "TOPK_V2: int16 indices cannot address a last dimension of 40000"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.type, c.dims});
    const int64_t k64 = c.k;
    if (c.k_type == kTfLiteInt64) {
      m.AddConstInput({c.k_type, {}}, &k64, sizeof(k64));
    } else {
      m.AddConstInput<int32_t>({c.k_type, {}}, {c.k});
    }
    m.AddOutput({c.values_type, {}});
    m.AddOutput({c.indices_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinTopkV2, Register_TOPK_V2());
    ExpectBuildError(m, c.message);
  }
  // A runtime k out of range is refused at invoke.
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2}});
  const int k = m.AddInput({kTfLiteInt32, {}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinTopkV2, Register_TOPK_V2());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(k, {3});
  ExpectInvokeError(m, "TOPK_V2: k = 3 is outside [0, 2]");
}

}  // namespace
}  // namespace octet::index_test
