// UNIQUE against a first-appearance scan written in the test, and BUCKETIZE against a
// count of boundaries <= each value.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "index_test_util.h"

namespace octet::index_test {
namespace {

using tflite::ops::builtin::Register_BUCKETIZE;
using tflite::ops::builtin::Register_UNIQUE;

// values in order of first appearance (linear search), index of each element's value.
template <typename T, typename I>
void NaiveUnique(const std::vector<T>& in, std::vector<T>* values, std::vector<I>* index) {
  values->clear();
  index->clear();
  for (const T& v : in) {
    size_t j = 0;
    while (j < values->size() && !((*values)[j] == v)) ++j;
    if (j == values->size()) values->push_back(v);
    index->push_back(static_cast<I>(j));
  }
}

template <typename T, typename I>
void CheckUnique(TfLiteType type, TfLiteType index_type, const std::vector<T>& in) {
  OpModel m;
  const int input = m.AddInput({type, {static_cast<int>(in.size())}});
  const int values = m.AddOutput({type, {}});
  const int index = m.AddOutput({index_type, {}});
  TfLiteUniqueParams p{};
  p.index_out_type = index_type;
  m.SetBuiltinOp(kTfLiteBuiltinUnique, Register_UNIQUE(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_TRUE(IsDynamic(m, values));
  m.SetInput(input, in);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  std::vector<T> want_values;
  std::vector<I> want_index;
  NaiveUnique(in, &want_values, &want_index);
  EXPECT_EQ(m.GetShape(values), std::vector<int>({static_cast<int>(want_values.size())}));
  EXPECT_EQ(m.GetOutput<T>(values), want_values);
  EXPECT_EQ(m.GetShape(index), std::vector<int>({static_cast<int>(in.size())}));
  EXPECT_EQ(m.GetOutput<I>(index), want_index);
}

TEST(Index_Unique, DuplicatesEveryTypeBothIndexTypes) {
  CheckUnique<float, int32_t>(kTfLiteFloat32, kTfLiteInt32, {3, 1, 3, 2.5f, 1, -7, 2.5f});
  CheckUnique<float, int64_t>(kTfLiteFloat32, kTfLiteInt64, {0.5f, 0.5f});
  CheckUnique<int8_t, int32_t>(kTfLiteInt8, kTfLiteInt32, {-128, 127, -128, 0, 127});
  CheckUnique<uint8_t, int64_t>(kTfLiteUInt8, kTfLiteInt64, {255, 0, 255, 1});
  CheckUnique<int16_t, int32_t>(kTfLiteInt16, kTfLiteInt32, {300, -300, 300});
  CheckUnique<int32_t, int32_t>(kTfLiteInt32, kTfLiteInt32, {9, 8, 7, 9, 8, 7, 6});
  CheckUnique<int64_t, int64_t>(kTfLiteInt64, kTfLiteInt64,
                                {int64_t{1} << 40, 1, int64_t{1} << 40});
  CheckUnique<int32_t, int32_t>(kTfLiteInt32, kTfLiteInt32, {});  // empty
}

TEST(Index_Unique, HandWorkedAndSpecialFloats) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {6}});
  const int values = m.AddOutput({kTfLiteFloat32, {}});
  const int index = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinUnique, Register_UNIQUE(), TfLiteUniqueParams{kTfLiteInt32});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // -0.0 and 0.0 are one value (the first kept); the NaNs are one value.
  m.SetInput<float>(input, {nan, -0.0f, 4, 0.0f, nan, 4});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const std::vector<float> v = m.GetOutput<float>(values);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_TRUE(v[1] == 0.0f && std::signbit(v[1]));
  EXPECT_EQ(v[2], 4.0f);
  EXPECT_EQ(m.GetOutput<int32_t>(index), std::vector<int32_t>({0, 1, 2, 1, 0, 2}));
}

TEST(Index_Unique, RefusesBadInputs) {
  struct Case {
    TfLiteType type, values_type, index_type, option;
    std::vector<int> dims;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteFloat32,
       kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteInt32,
       {2, 2},
       "UNIQUE: input must be a vector, got rank 2"},
      {kTfLiteBool,
       kTfLiteBool,
       kTfLiteInt32,
       kTfLiteInt32,
       {2},
       "UNIQUE: input type BOOL is not supported"},
      {kTfLiteFloat32,
       kTfLiteFloat32,
       kTfLiteInt16,
       kTfLiteInt16,
       {2},
       "UNIQUE: idx_out_type must be int32 or int64, got INT16"},
      {kTfLiteFloat32,
       kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteInt64,
       {2},
       "UNIQUE: index output must be INT64, got INT32"},
      {kTfLiteFloat32,
       kTfLiteInt32,
       kTfLiteInt32,
       kTfLiteInt32,
       {2},
       "UNIQUE: values output type INT32 does not match input type FLOAT32"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.type, c.dims});
    m.AddOutput({c.values_type, {}});
    m.AddOutput({c.index_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinUnique, Register_UNIQUE(), TfLiteUniqueParams{c.option});
    ExpectBuildError(m, c.message);
  }
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinUnique, Register_UNIQUE());
  ExpectBuildError(m, "UNIQUE: builtin options are missing");
}

// Number of boundaries b with b <= v (compared in double, which holds every test value).
template <typename T>
std::vector<int32_t> NaiveBucketize(const std::vector<T>& in, const std::vector<float>& b) {
  std::vector<int32_t> out;
  for (const T& v : in) {
    int32_t n = 0;
    for (float x : b) n += static_cast<double>(x) <= static_cast<double>(v) ? 1 : 0;
    out.push_back(n);
  }
  return out;
}

template <typename T>
void CheckBucketize(TfLiteType type, const std::vector<int>& dims, const std::vector<T>& in,
                    const std::vector<float>& boundaries) {
  OpModel m;
  const int input = m.AddInput({type, dims});
  const int out = m.AddOutput({kTfLiteInt32, {}});
  TfLiteBucketizeParams p{};
  p.num_boundaries = static_cast<int>(boundaries.size());
  p.boundaries = boundaries.data();  // the test's vector outlives the model
  m.SetBuiltinOp(kTfLiteBuiltinBucketize, Register_BUCKETIZE(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), dims);
  EXPECT_EQ(m.GetOutput<int32_t>(out), NaiveBucketize(in, boundaries));
}

TEST(Index_Bucketize, EveryTypeAndEdges) {
  const std::vector<float> b = {0, 10, 10, 100};  // a repeated boundary is allowed
  CheckBucketize<float>(kTfLiteFloat32, {2, 3}, {-5, 0, 9.99f, 10, 50, 1e6f}, b);
  CheckBucketize<double>(kTfLiteFloat64, {4}, {-0.0, 100.0, 99.999999, 1e300}, b);
  CheckBucketize<int32_t>(kTfLiteInt32, {5}, {-1, 0, 10, 11, 100}, b);
  CheckBucketize<int64_t>(kTfLiteInt64, {3}, {int64_t{1} << 40, -(int64_t{1} << 40), 5}, b);
  CheckBucketize<float>(kTfLiteFloat32, {3}, {-1, 0, 1}, {});  // no boundaries: all 0
  CheckBucketize<int32_t>(kTfLiteInt32, {0}, {}, b);           // empty input
}

TEST(Index_Bucketize, HandWorkedAndNaN) {
  const std::vector<float> b = {0, 10, 100};
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {6}});
  const int out = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinBucketize, Register_BUCKETIZE(), TfLiteBucketizeParams{3, b.data()});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(input, {-5, 10000, 150, 10, 5, std::numeric_limits<float>::quiet_NaN()});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  // (The documented TF example, plus NaN, which is below no boundary: past the last.)
  EXPECT_EQ(m.GetOutput<int32_t>(out), std::vector<int32_t>({0, 3, 3, 2, 1, 3}));
}

TEST(Index_Bucketize, RefusesBadInputs) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  struct Case {
    TfLiteType type, out_type;
    std::vector<float> boundaries;
    const char* message;
  };
  const std::vector<Case> cases = {
      {kTfLiteFloat32, kTfLiteInt32, {1, 0}, "BUCKETIZE: boundaries must be sorted"},
      {kTfLiteFloat32, kTfLiteInt32, {0, nan, 2}, "BUCKETIZE: boundaries[1] is NaN"},
      {kTfLiteInt8, kTfLiteInt32, {0}, "BUCKETIZE: input type INT8 is not supported"},
      {kTfLiteFloat32, kTfLiteInt64, {0}, "BUCKETIZE: output must be INT32, got INT64"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.type, {2}});
    m.AddOutput({c.out_type, {}});
    m.SetBuiltinOp(
        kTfLiteBuiltinBucketize, Register_BUCKETIZE(),
        TfLiteBucketizeParams{static_cast<int>(c.boundaries.size()), c.boundaries.data()});
    ExpectBuildError(m, c.message);
  }
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2}});
  m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinBucketize, Register_BUCKETIZE(), TfLiteBucketizeParams{2, nullptr});
  ExpectBuildError(m, "BUCKETIZE: the boundaries are missing");
}

}  // namespace
}  // namespace octet::index_test
