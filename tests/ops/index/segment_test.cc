// SEGMENT_SUM and UNSORTED_SEGMENT_{SUM,PROD,MAX,MIN} against per-segment loops written in
// the test (identities for empty segments, negative ids dropped).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "index_test_util.h"

namespace octet::index_test {
namespace {

using tflite::ops::builtin::Register_SEGMENT_SUM;
using tflite::ops::builtin::Register_UNSORTED_SEGMENT_MAX;
using tflite::ops::builtin::Register_UNSORTED_SEGMENT_MIN;
using tflite::ops::builtin::Register_UNSORTED_SEGMENT_PROD;
using tflite::ops::builtin::Register_UNSORTED_SEGMENT_SUM;

TEST(Index_SegmentSum, HandWorked) {
  for (bool constant : {true, false}) {
    OpModel m;
    int data = -1, ids = -1;
    const std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
    const std::vector<int32_t> seg = {0, 0, 1, 2};
    if (constant) {
      m.AddConstInput<float>({kTfLiteFloat32, {4, 2}}, values);
      m.AddConstInput<int32_t>({kTfLiteInt32, {4}}, seg);
    } else {
      data = m.AddInput({kTfLiteFloat32, {4, 2}});
      ids = m.AddInput({kTfLiteInt32, {4}});
    }
    const int out = m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSegmentSum, Register_SEGMENT_SUM());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    EXPECT_EQ(IsDynamic(m, out), !constant);
    if (!constant) {
      m.SetInput(data, values);
      m.SetInput(ids, seg);
    }
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(out), std::vector<int>({3, 2}));
    EXPECT_EQ(m.GetOutput<float>(out), std::vector<float>({4, 6, 5, 6, 7, 8}));
  }
}

TEST(Index_SegmentSum, Int32WrapsAndEmpty) {
  OpModel m;
  const int data = m.AddInput({kTfLiteInt32, {3}});
  const int ids = m.AddInput({kTfLiteInt32, {3}});
  const int out = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinSegmentSum, Register_SEGMENT_SUM());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(data, {std::numeric_limits<int32_t>::max(), 1, -7});
  m.SetInput<int32_t>(ids, {0, 0, 1});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<int32_t>(out),
            std::vector<int32_t>({std::numeric_limits<int32_t>::min(), -7}));
  // No rows: no segments.
  OpModel e;
  const int edata = e.AddInput({kTfLiteInt32, {0}});
  e.AddInput({kTfLiteInt32, {0}});
  const int eout = e.AddOutput({kTfLiteInt32, {}});
  e.SetBuiltinOp(kTfLiteBuiltinSegmentSum, Register_SEGMENT_SUM());
  ASSERT_EQ(e.Build(), kTfLiteOk) << e.error();
  (void)edata;
  ASSERT_EQ(e.Invoke(), kTfLiteOk) << e.error();
  EXPECT_EQ(e.GetShape(eout), std::vector<int>({0}));
}

TEST(Index_SegmentSum, RefusesBadIds) {
  struct Case {
    std::vector<int32_t> ids;
    const char* message;
  };
  const Case cases[] = {
      {{1, 1, 2}, "SEGMENT_SUM: segment_ids[0] must be 0, got 1"},
      {{0, 2, 2},
       "SEGMENT_SUM: segment_ids must be sorted and step by at most 1: segment_ids[1] = 2"},
      {{0, 1, 0}, "segment_ids[2] = 0 follows 1"},
      {{0, -1, 0}, "segment_ids[1] = -1 follows 0"},
  };
  for (const Case& c : cases) {
    OpModel m;  // constant ids: refused in prepare
    m.AddInput({kTfLiteFloat32, {3}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {3}}, c.ids);
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSegmentSum, Register_SEGMENT_SUM());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();  // data is not constant: sized at invoke
    ExpectInvokeError(m, c.message);
    OpModel k;
    k.AddConstInput<float>({kTfLiteFloat32, {3}}, {1, 2, 3});
    k.AddConstInput<int32_t>({kTfLiteInt32, {3}}, c.ids);
    k.AddOutput({kTfLiteFloat32, {}});
    k.SetBuiltinOp(kTfLiteBuiltinSegmentSum, Register_SEGMENT_SUM());
    ExpectBuildError(k, c.message);
  }
  struct Shape {
    TfLiteType data_type, ids_type;
    std::vector<int> data_dims, ids_dims;
    const char* message;
  };
  const Shape shapes[] = {
      {kTfLiteInt64, kTfLiteInt32, {3}, {3}, "SEGMENT_SUM: data type INT64 is not supported"},
      {kTfLiteFloat32, kTfLiteInt64, {3}, {3}, "SEGMENT_SUM: segment_ids must be INT32, got INT64"},
      {kTfLiteFloat32, kTfLiteInt32, {3}, {2}, "SEGMENT_SUM: 2 segment_ids for 3 data rows"},
      {kTfLiteFloat32, kTfLiteInt32, {3, 2}, {3, 2}, "SEGMENT_SUM: segment_ids must be a vector"},
      {kTfLiteFloat32, kTfLiteInt32, {}, {1}, "SEGMENT_SUM: data must have rank >= 1"},
  };
  for (const Shape& c : shapes) {
    OpModel m;
    m.AddInput({c.data_type, c.data_dims});
    m.AddInput({c.ids_type, c.ids_dims});
    m.AddOutput({c.data_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinSegmentSum, Register_SEGMENT_SUM());
    ExpectBuildError(m, c.message);
  }
}

enum class Kind { kSum, kProd, kMax, kMin };

const TfLiteRegistration* RegistrationOf(Kind kind, int* code) {
  switch (kind) {
    case Kind::kSum:
      *code = kTfLiteBuiltinUnsortedSegmentSum;
      return Register_UNSORTED_SEGMENT_SUM();
    case Kind::kProd:
      *code = kTfLiteBuiltinUnsortedSegmentProd;
      return Register_UNSORTED_SEGMENT_PROD();
    case Kind::kMax:
      *code = kTfLiteBuiltinUnsortedSegmentMax;
      return Register_UNSORTED_SEGMENT_MAX();
    default:
      *code = kTfLiteBuiltinUnsortedSegmentMin;
      return Register_UNSORTED_SEGMENT_MIN();
  }
}

// For each segment s and inner position j: the reduction over the slices whose id is s,
// starting from the identity.
template <typename T>
std::vector<T> NaiveUnsorted(Kind kind, const std::vector<T>& data, const std::vector<int32_t>& ids,
                             int64_t inner, int segments) {
  std::vector<T> out;
  for (int s = 0; s < segments; ++s) {
    for (int64_t j = 0; j < inner; ++j) {
      T acc = kind == Kind::kSum    ? T(0)
              : kind == Kind::kProd ? T(1)
              : kind == Kind::kMax  ? std::numeric_limits<T>::lowest()
                                    : std::numeric_limits<T>::max();
      for (size_t r = 0; r < ids.size(); ++r) {
        if (ids[r] != s) continue;
        const T v = data[r * inner + j];
        if (kind == Kind::kSum) acc = acc + v;
        if (kind == Kind::kProd) acc = acc * v;
        if (kind == Kind::kMax) acc = std::max(acc, v);
        if (kind == Kind::kMin) acc = std::min(acc, v);
      }
      out.push_back(acc);
    }
  }
  return out;
}

template <typename T>
void CheckUnsorted(Kind kind, TfLiteType type, const std::vector<int>& data_dims,
                   const std::vector<T>& data, const std::vector<int>& ids_dims,
                   const std::vector<int32_t>& ids, int segments, bool constant) {
  OpModel m;
  const int d = m.AddInput({type, data_dims});
  int id = -1, num = -1;
  if (constant) {
    m.AddConstInput<int32_t>({kTfLiteInt32, ids_dims}, ids);
    m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {segments});
  } else {
    id = m.AddInput({kTfLiteInt32, ids_dims});
    num = m.AddInput({kTfLiteInt32, {1}});
  }
  const int out = m.AddOutput({type, {}});
  int code = 0;
  const TfLiteRegistration* reg = RegistrationOf(kind, &code);
  m.SetBuiltinOp(code, reg);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(IsDynamic(m, out), !constant);
  m.SetInput(d, data);
  if (!constant) {
    m.SetInput(id, ids);
    m.SetInput<int32_t>(num, {segments});
  }
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  std::vector<int> want_dims = {segments};
  for (size_t i = ids_dims.size(); i < data_dims.size(); ++i) want_dims.push_back(data_dims[i]);
  EXPECT_EQ(m.GetShape(out), want_dims);
  const int64_t inner = Count(want_dims) / std::max(segments, 1);
  EXPECT_EQ(m.GetOutput<T>(out),
            NaiveUnsorted(kind, data, ids, segments == 0 ? 0 : inner, segments))
      << "kind " << static_cast<int>(kind);
}

TEST(Index_UnsortedSegment, AllReductionsAndTypes) {
  for (Kind kind : {Kind::kSum, Kind::kProd, Kind::kMax, Kind::kMin}) {
    for (bool constant : {true, false}) {
      // Segment 2 is empty (identity); id -1 drops its row.
      CheckUnsorted<float>(kind, kTfLiteFloat32, {5, 2}, {1, 2, -3, 4, 0.5f, 6, 7, -8, 2, 2}, {5},
                           {0, 3, 0, -1, 1}, 4, constant);
      CheckUnsorted<int32_t>(kind, kTfLiteInt32, {4}, {3, -2, 5, 7}, {4}, {1, 1, 0, 1}, 3,
                             constant);
      // segment_ids covering two leading dims of data.
      CheckUnsorted<int32_t>(kind, kTfLiteInt32, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}, {2, 2},
                             {1, 0, 1, 1}, 2, constant);
      CheckUnsorted<float>(kind, kTfLiteFloat32, {0, 3}, {}, {0}, {}, 2, constant);  // no rows
      CheckUnsorted<float>(kind, kTfLiteFloat32, {2}, {1, 2}, {2}, {-1, -1}, 0, constant);
    }
  }
}

TEST(Index_UnsortedSegment, HandWorkedMaxWithNaNAndEmpty) {
  OpModel m;
  const int d = m.AddInput({kTfLiteFloat32, {4}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {4}}, {0, 0, 0, 2});
  m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {3});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinUnsortedSegmentMax, Register_UNSORTED_SEGMENT_MAX());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  // A NaN row never compares greater, so the running maximum keeps the numbers (as TFLite's
  // std::max does).
  m.SetInput<float>(d, {1, std::numeric_limits<float>::quiet_NaN(), 3, -2});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<float>(out),
            std::vector<float>({3, std::numeric_limits<float>::lowest(), -2}));
}

TEST(Index_UnsortedSegment, RefusesBadInputs) {
  for (Kind kind : {Kind::kSum, Kind::kProd, Kind::kMax, Kind::kMin}) {
    int code = 0;
    const TfLiteRegistration* reg = RegistrationOf(kind, &code);
    const std::string name = kind == Kind::kSum    ? "UNSORTED_SEGMENT_SUM"
                             : kind == Kind::kProd ? "UNSORTED_SEGMENT_PROD"
                             : kind == Kind::kMax  ? "UNSORTED_SEGMENT_MAX"
                                                   : "UNSORTED_SEGMENT_MIN";
    {  // id >= num_segments, constant: refused in prepare
      OpModel m;
      m.AddInput({kTfLiteFloat32, {3}});
      m.AddConstInput<int32_t>({kTfLiteInt32, {3}}, {0, 5, 1});
      m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {3});
      m.AddOutput({kTfLiteFloat32, {}});
      m.SetBuiltinOp(code, reg);
      ExpectBuildError(m, name + ": segment_ids[1] = 5 is not below num_segments 3");
    }
    {  // the same at invoke
      OpModel m;
      m.AddInput({kTfLiteInt32, {2}});
      const int ids = m.AddInput({kTfLiteInt32, {2}});
      const int num = m.AddInput({kTfLiteInt32, {}});
      m.AddOutput({kTfLiteInt32, {}});
      m.SetBuiltinOp(code, reg);
      ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
      m.SetInput<int32_t>(ids, {0, 2});
      m.SetInput<int32_t>(num, {2});
      ExpectInvokeError(m, name + ": segment_ids[1] = 2 is not below num_segments 2");
      m.SetInput<int32_t>(ids, {0, 0});
      m.SetInput<int32_t>(num, {-1});
      ExpectInvokeError(m, name + ": num_segments must be non-negative, got -1");
    }
    struct Case {
      TfLiteType data_type, ids_type, num_type;
      std::vector<int> data_dims, ids_dims, num_dims;
      std::string message;
    };
    const Case cases[] = {
        {kTfLiteInt8, kTfLiteInt32, kTfLiteInt32, {2}, {2}, {}, "data type INT8 is not supported"},
        {kTfLiteFloat32, kTfLiteInt64, kTfLiteInt32, {2}, {2}, {}, "segment_ids must be INT32"},
        {kTfLiteFloat32, kTfLiteInt32, kTfLiteInt64, {2}, {2}, {}, "num_segments must be INT32"},
        {kTfLiteFloat32,
         kTfLiteInt32,
         kTfLiteInt32,
         {2},
         {3},
         {},
         "segment_ids dim 0 is 3 but data dim 0 is 2"},
        {kTfLiteFloat32,
         kTfLiteInt32,
         kTfLiteInt32,
         {2},
         {2, 1},
         {},
         "segment_ids rank 2 must be in [1, data rank 1]"},
        {kTfLiteFloat32,
         kTfLiteInt32,
         kTfLiteInt32,
         {2},
         {2},
         {2},
         "num_segments must have shape [] or [1]"},
    };
    for (const Case& c : cases) {
      OpModel m;
      m.AddInput({c.data_type, c.data_dims});
      m.AddInput({c.ids_type, c.ids_dims});
      m.AddInput({c.num_type, c.num_dims});
      m.AddOutput({c.data_type, {}});
      m.SetBuiltinOp(code, reg);
      ExpectBuildError(m, name + ": " + c.message);
    }
  }
}

}  // namespace
}  // namespace octet::index_test
