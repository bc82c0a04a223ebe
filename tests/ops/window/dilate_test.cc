// DILATE against a direct reading of its definition (out[i] = in[i / d] when every i % d == 0,
// the padding value otherwise) over random shapes, dilations and element sizes; the 3x3 by
// [2, 3] example of TFLite's kernel comment; the dynamic-dilations path and validation.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ops/window/window_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "util/op_model.h"

namespace octet::window_test {
namespace {

using octet::testing::OpModel;
using tflite::ops::builtin::Register_DILATE;

template <typename T>
std::vector<T> NaiveDilate(const std::vector<T>& in, const std::vector<int>& dims,
                           const std::vector<int>& dil, T pad, std::vector<int>* out_dims) {
  const int rank = static_cast<int>(dims.size());
  out_dims->clear();
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) {
    out_dims->push_back(dims[i] == 0 ? 0 : (dims[i] - 1) * dil[i] + 1);
    n *= out_dims->back();
  }
  std::vector<T> out(n);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t rem = flat, src = 0, src_stride = 1;
    bool hit = true;
    for (int d = rank - 1; d >= 0; --d) {
      const int64_t c = rem % (*out_dims)[d];
      rem /= (*out_dims)[d];
      if (c % dil[d] != 0) hit = false;
      src += (c / dil[d]) * src_stride;
      src_stride *= dims[d];
    }
    out[flat] = hit ? in[src] : pad;
  }
  return out;
}

TEST(DilateOp, KernelCommentExample) {
  OpModel m;
  const int in = m.AddInput({kTfLiteInt32, {3, 3}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {2, 3});
  m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {0});
  const int out = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinDilate, Register_DILATE());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(in, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{5, 7}));
  EXPECT_EQ(m.GetOutput<int32_t>(out),
            (std::vector<int32_t>{1, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 5,
                                  0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 8, 0, 0, 9}));
}

template <typename T>
void RandomCase(TfLiteType type, std::mt19937* rng, bool const_dilations) {
  std::uniform_int_distribution<int> rank_dist(1, 5), dim_dist(0, 4), dil_dist(1, 3);
  const int rank = rank_dist(*rng);
  std::vector<int> dims(rank), dil(rank);
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) {
    dims[i] = dim_dist(*rng) + (i == 0 ? 0 : 1);  // an occasional empty tensor
    dil[i] = dil_dist(*rng);
    n *= dims[i];
  }
  std::vector<T> data(n);
  for (auto& v : data) v = static_cast<T>((*rng)() % 100 + 1);
  const T pad = static_cast<T>(-7);
  std::vector<int> want_dims;
  const std::vector<T> want = NaiveDilate(data, dims, dil, pad, &want_dims);

  OpModel m;
  const int in = m.AddInput({type, dims});
  int dil_tensor = -1;
  if (const_dilations) {
    m.AddConstInput<int32_t>({kTfLiteInt32, {rank}}, dil);
  } else {
    dil_tensor = m.AddInput({kTfLiteInt32, {rank}});
  }
  m.AddConstInput<T>({type, {1}}, {pad});
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinDilate, Register_DILATE());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.tensor(out)->allocation_type == kTfLiteDynamic, !const_dilations);
  m.SetInput(in, data);
  if (!const_dilations) m.SetInput(dil_tensor, dil);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), want_dims);
  EXPECT_EQ(m.GetOutput<T>(out), want);
}

TEST(DilateOp, MatchesDefinitionOverRandomCases) {
  std::mt19937 rng(7);
  for (int i = 0; i < 40; ++i) {
    SCOPED_TRACE(i);
    RandomCase<float>(kTfLiteFloat32, &rng, i % 2 == 0);
    RandomCase<int8_t>(kTfLiteInt8, &rng, i % 3 == 0);
    RandomCase<int16_t>(kTfLiteInt16, &rng, true);
    RandomCase<int64_t>(kTfLiteInt64, &rng, false);
    RandomCase<double>(kTfLiteFloat64, &rng, true);
  }
}

void ExpectBuildError(OpModel& m, const std::string& message) {
  EXPECT_NE(m.Build(), kTfLiteOk) << "expected: " << message;
  EXPECT_NE(m.error().find(message), std::string::npos) << m.error();
}

TEST(DilateOp, RejectsBadInputs) {
  struct Case {
    TfLiteType in_type;
    std::vector<int> in_shape;
    TfLiteType dil_type;
    std::vector<int> dil_shape;
    TfLiteType pad_type;
    std::vector<int> pad_shape;
    TfLiteType out_type;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteString,
       {2},
       kTfLiteInt32,
       {1},
       kTfLiteString,
       {},
       kTfLiteString,
       "input type STRING is not supported"},
      {kTfLiteFloat32,
       {},
       kTfLiteInt32,
       {0},
       kTfLiteFloat32,
       {},
       kTfLiteFloat32,
       "input must have rank >= 1"},
      {kTfLiteFloat32,
       {2},
       kTfLiteInt32,
       {1},
       kTfLiteFloat32,
       {},
       kTfLiteInt32,
       "output must be FLOAT32"},
      {kTfLiteFloat32,
       {2},
       kTfLiteInt32,
       {1},
       kTfLiteInt8,
       {},
       kTfLiteFloat32,
       "padding value must be FLOAT32"},
      {kTfLiteFloat32,
       {2},
       kTfLiteInt32,
       {1},
       kTfLiteFloat32,
       {2},
       kTfLiteFloat32,
       "padding value must have one element, got 2"},
      {kTfLiteFloat32,
       {2},
       kTfLiteInt64,
       {1},
       kTfLiteFloat32,
       {},
       kTfLiteFloat32,
       "dilations must be INT32"},
      {kTfLiteFloat32,
       {2, 2},
       kTfLiteInt32,
       {1},
       kTfLiteFloat32,
       {},
       kTfLiteFloat32,
       "dilations must have shape [2]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    OpModel m;
    m.AddInput({c.in_type, c.in_shape});
    m.AddInput({c.dil_type, c.dil_shape});
    m.AddInput({c.pad_type, c.pad_shape});
    m.AddOutput({c.out_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinDilate, Register_DILATE());
    ExpectBuildError(m, std::string("DILATE: ") + c.message);
  }
  {
    OpModel m;  // constant dilations checked in prepare
    m.AddInput({kTfLiteFloat32, {2, 2}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {1, 0});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.0f});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinDilate, Register_DILATE());
    ExpectBuildError(m, "DILATE: dilations[1] must be >= 1, got 0");
  }
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {3, 3}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {2000000000, 2});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.0f});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinDilate, Register_DILATE());
    ExpectBuildError(m, "DILATE: dimension 0 dilated by 2000000000 is too large");
  }
  {
    OpModel m;  // dynamic dilations checked at invoke
    m.AddInput({kTfLiteFloat32, {2}});
    const int dil = m.AddInput({kTfLiteInt32, {1}});
    m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.0f});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinDilate, Register_DILATE());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<int32_t>(dil, {-5});
    EXPECT_NE(m.Invoke(), kTfLiteOk);
    EXPECT_NE(m.error().find("DILATE: dilations[0] must be >= 1, got -5"), std::string::npos)
        << m.error();
  }
}

}  // namespace
}  // namespace octet::window_test
