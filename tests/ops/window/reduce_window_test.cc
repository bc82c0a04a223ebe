// REDUCE_WINDOW (deprecated builtin 205) against a direct computation in the test: for every
// output coordinate, walk the window's coordinates in row-major order and fold the input
// elements at o * stride + k * dilation into the init value, for every reduce function and
// type; plus a hand-checked example, a whole model through the loader (ReduceWindowOptions)
// and validation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "ops/window/window_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "util/op_model.h"

namespace octet::window_test {
namespace {

using octet::testing::OpModel;
using tflite::ops::builtin::Register_REDUCE_WINDOW;

template <typename T>
T Fold(TfLiteReduceWindowFunction f, T a, T b) {
  switch (f) {
    case TfLiteReduceWindowFunctionAdd:
      return static_cast<T>(a + b);
    case TfLiteReduceWindowFunctionMul:
      return static_cast<T>(a * b);
    case TfLiteReduceWindowFunctionMin:
      return b < a ? b : a;
    case TfLiteReduceWindowFunctionMax:
      return b > a ? b : a;
    case TfLiteReduceWindowFunctionAll:
      return (a != 0 && b != 0) ? T(1) : T(0);
    default:
      return (a != 0 || b != 0) ? T(1) : T(0);
  }
}

// Decomposes a row-major flat index.
std::vector<int64_t> Coords(int64_t flat, const std::vector<int64_t>& dims) {
  std::vector<int64_t> c(dims.size());
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    c[d] = flat % dims[d];
    flat /= dims[d];
  }
  return c;
}

template <typename T>
std::vector<T> Naive(const std::vector<T>& in, const std::vector<int>& dims,
                     const std::vector<int64_t>& w, const std::vector<int64_t>& s,
                     const std::vector<int64_t>& dl, T init, TfLiteReduceWindowFunction f,
                     std::vector<int>* out_dims) {
  const size_t rank = dims.size();
  std::vector<int64_t> od(rank), wd(w.begin(), w.end());
  int64_t n_out = 1, n_win = 1;
  out_dims->clear();
  for (size_t i = 0; i < rank; ++i) {
    const int64_t span = (w[i] - 1) * dl[i] + 1;
    od[i] = dims[i] < span ? 0 : (dims[i] - span) / s[i] + 1;
    out_dims->push_back(static_cast<int>(od[i]));
    n_out *= od[i];
    n_win *= w[i];
  }
  std::vector<T> out(n_out);
  for (int64_t o = 0; o < n_out; ++o) {
    const std::vector<int64_t> oc = Coords(o, od);
    T acc = init;
    for (int64_t k = 0; k < n_win; ++k) {
      const std::vector<int64_t> kc = Coords(k, wd);
      int64_t flat = 0;
      for (size_t d = 0; d < rank; ++d) flat = flat * dims[d] + oc[d] * s[d] + kc[d] * dl[d];
      acc = Fold(f, acc, in[flat]);
    }
    out[o] = acc;
  }
  return out;
}

struct WindowSetup {
  std::vector<int> dims;
  std::vector<int64_t> window, strides, dilations;
};

template <typename T>
void Check(TfLiteType type, const WindowSetup& s, const std::vector<T>& data, T init,
           TfLiteReduceWindowFunction f) {
  std::vector<int> want_dims;
  const std::vector<T> want =
      Naive(data, s.dims, s.window, s.strides, s.dilations, init, f, &want_dims);
  const int rank = static_cast<int>(s.dims.size());
  OpModel m;
  const int in = m.AddInput({type, s.dims});
  m.AddConstInput<T>({type, {}}, {init});
  m.AddConstInput<int64_t>({kTfLiteInt64, {rank}}, s.window);
  m.AddConstInput<int64_t>({kTfLiteInt64, {rank}}, s.strides);
  m.AddConstInput<int64_t>({kTfLiteInt64, {rank}}, s.dilations);
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinReduceWindow, Register_REDUCE_WINDOW(), TfLiteReduceWindowParams{f});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(in, data);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), want_dims);
  EXPECT_EQ(m.GetOutput<T>(out), want) << "function " << static_cast<int>(f);
}

const TfLiteReduceWindowFunction kFunctions[] = {
    TfLiteReduceWindowFunctionAdd, TfLiteReduceWindowFunctionMul, TfLiteReduceWindowFunctionMin,
    TfLiteReduceWindowFunctionMax, TfLiteReduceWindowFunctionAll, TfLiteReduceWindowFunctionAny};

TEST(ReduceWindowOp, HandCheckedSum) {
  // 4x4 of 1..16, 2x2 windows, strides [2, 3], dilations [2, 3]: windows at (0,0) only in
  // columns (span 4 of 4) and rows 0..1 (span 3 of 4, stride 2: one), i.e. one output
  // 1 + 4 + 9 + 12 = 26, plus init 0.
  std::vector<float> data(16);
  for (int i = 0; i < 16; ++i) data[i] = static_cast<float>(i + 1);
  Check<float>(kTfLiteFloat32, {{4, 4}, {2, 2}, {2, 3}, {2, 3}}, data, 0.0f,
               TfLiteReduceWindowFunctionAdd);
  std::vector<int> dims;
  EXPECT_EQ(Naive<float>(data, {4, 4}, {2, 2}, {2, 3}, {2, 3}, 0.0f, TfLiteReduceWindowFunctionAdd,
                         &dims),
            (std::vector<float>{26.0f}));
}

TEST(ReduceWindowOp, MatchesDirectComputationForAllFunctionsAndTypes) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> rank_dist(1, 4), dim_dist(1, 6), w_dist(1, 3);
  for (int iter = 0; iter < 30; ++iter) {
    SCOPED_TRACE(iter);
    WindowSetup s;
    const int rank = rank_dist(rng);
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) {
      s.dims.push_back(dim_dist(rng));
      s.window.push_back(w_dist(rng));
      s.strides.push_back(w_dist(rng));
      s.dilations.push_back(w_dist(rng));
      n *= s.dims.back();
    }
    std::vector<float> f32(n);
    std::vector<double> f64(n);
    std::vector<int32_t> i32(n);
    std::vector<int64_t> i64(n);
    std::vector<int32_t> i32_unit(n);  // MUL inputs in {-1, 0, 1}: products stay in range
    std::vector<int64_t> i64_unit(n);
    std::vector<int8_t> i8(n), b8(n);
    std::vector<int16_t> i16(n);
    std::vector<uint8_t> u8(n);
    for (int64_t i = 0; i < n; ++i) {
      const int r = static_cast<int>(rng() % 9) - 4;
      f32[i] = r * 0.37f;
      f64[i] = r * 0.37;
      i32[i] = r;
      i64[i] = r * 1000003LL;
      i8[i] = static_cast<int8_t>(r);
      i16[i] = static_cast<int16_t>(r * 3);
      u8[i] = static_cast<uint8_t>(r + 4);
      b8[i] = r > 0 ? 1 : 0;
      i32_unit[i] = r % 2;
      i64_unit[i] = r % 2;
    }
    for (TfLiteReduceWindowFunction f : kFunctions) {
      const bool product = f == TfLiteReduceWindowFunctionMul;
      Check<float>(kTfLiteFloat32, s, f32, product ? 1.0f : 0.5f, f);
      Check<double>(kTfLiteFloat64, s, f64, product ? 1.0 : -0.25, f);
      Check<int32_t>(kTfLiteInt32, s, product ? i32_unit : i32, product ? 1 : 2, f);
      Check<int64_t>(kTfLiteInt64, s, product ? i64_unit : i64, product ? 1 : -3, f);
      // Narrow types compute in int and wrap when stored back, in both computations.
      Check<int16_t>(kTfLiteInt16, s, i16, product ? 1 : 0, f);
      Check<uint8_t>(kTfLiteUInt8, s, u8, product ? 1 : 0, f);
      Check<int8_t>(kTfLiteInt8, s, i8, product ? 1 : 0, f);
      if (f != TfLiteReduceWindowFunctionAdd && f != TfLiteReduceWindowFunctionMul) {
        Check<int8_t>(kTfLiteBool, s, b8, 1, f);
      }
    }
  }
}

TEST(ReduceWindowOp, NanHandlingOfMinAndMax) {
  // MAXIMUM is `acc >= x ? acc : x`: a NaN accumulator is replaced, a NaN element is taken.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpModel m;
  const int in = m.AddInput({kTfLiteFloat32, {4}});
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {-100.0f});
  m.AddConstInput<int64_t>({kTfLiteInt64, {1}}, {2});
  m.AddConstInput<int64_t>({kTfLiteInt64, {1}}, {2});
  m.AddConstInput<int64_t>({kTfLiteInt64, {1}}, {1});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinReduceWindow, Register_REDUCE_WINDOW(),
                 TfLiteReduceWindowParams{TfLiteReduceWindowFunctionMax});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(in, {nan, 3.0f, 5.0f, nan});
  ASSERT_EQ(m.Invoke(), kTfLiteOk);
  const std::vector<float> got = m.GetOutput<float>(out);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], 3.0f);          // max(max(-100, nan) = nan, 3) = 3
  EXPECT_TRUE(std::isnan(got[1]));  // max(max(-100, 5) = 5, nan) = nan
}

TEST(ReduceWindowOp, IntegerOverflowWraps) {
  OpModel m;
  const int in = m.AddInput({kTfLiteInt32, {2}});
  m.AddConstInput<int32_t>({kTfLiteInt32, {}}, {0});
  m.AddConstInput<int64_t>({kTfLiteInt64, {1}}, {2});
  m.AddConstInput<int64_t>({kTfLiteInt64, {1}}, {1});
  m.AddConstInput<int64_t>({kTfLiteInt64, {1}}, {1});
  const int out = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinReduceWindow, Register_REDUCE_WINDOW(),
                 TfLiteReduceWindowParams{TfLiteReduceWindowFunctionAdd});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(in, {INT32_MAX, 1});
  ASSERT_EQ(m.Invoke(), kTfLiteOk);
  EXPECT_EQ(m.GetOutput<int32_t>(out), (std::vector<int32_t>{INT32_MIN}));
}

TEST(ReduceWindowOp, WholeModelThroughTheLoader) {
  format::ModelBuilder b;
  const int code = b.AddOperatorCode(tflite::BuiltinOperator_REDUCE_WINDOW, 1);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {2, 3}, "in");
  const int init = b.AddConstTensor<float>(tflite::TensorType_FLOAT32, {}, {0.0f}, "init");
  const int w = b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {2}, {1, 2}, "w");
  const int s = b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {2}, {1, 1}, "s");
  const int d = b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {2}, {1, 1}, "d");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {2, 2}, "out");
  format::OperatorSpec op;
  op.opcode_index = code;
  op.inputs = {in, init, w, s, d};
  op.outputs = {out};
  op.options2 = {
      tflite::BuiltinOptions2_ReduceWindowOptions,
      tflite::CreateReduceWindowOptions(b.fbb(), tflite::ReduceWindowFunction_MAXIMUM).Union()};
  b.AddOperator(op);
  b.SetInputs({in});
  b.SetOutputs({out});
  const std::vector<uint8_t> bytes = b.Finish();
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size());
  ASSERT_NE(model, nullptr);
  tflite::MutableOpResolver resolver;
  ops::AddWindowBuiltins(&resolver);
  std::unique_ptr<tflite::Interpreter> interpreter;
  ASSERT_EQ(tflite::InterpreterBuilder(*model, resolver)(&interpreter), kTfLiteOk);
  ASSERT_EQ(interpreter->AllocateTensors(), kTfLiteOk);
  const std::vector<float> x = {1, 5, 2, -1, -3, -2};
  std::memcpy(interpreter->typed_input_tensor<float>(0), x.data(), x.size() * sizeof(float));
  ASSERT_EQ(interpreter->Invoke(), kTfLiteOk);
  const float* y = interpreter->typed_output_tensor<float>(0);
  EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{5, 5, 0, 0}));  // init 0 wins
}

void ExpectBuildError(OpModel& m, const std::string& message) {
  EXPECT_NE(m.Build(), kTfLiteOk) << "expected: " << message;
  EXPECT_NE(m.error().find(message), std::string::npos) << m.error();
}

TEST(ReduceWindowOp, RejectsBadInputs) {
  // Each case starts from a valid float [4] setup and breaks one thing.
  struct Case {
    TfLiteType in_type = kTfLiteFloat32;
    std::vector<int> in_shape = {4};
    TfLiteType init_type = kTfLiteFloat32;
    std::vector<int> init_shape = {};
    TfLiteType attr_type = kTfLiteInt64;
    std::vector<int64_t> window = {2}, strides = {1}, dilations = {1};
    bool const_attrs = true;
    TfLiteType out_type = kTfLiteFloat32;
    int function = TfLiteReduceWindowFunctionAdd;
    const char* message = "";
  };
  std::vector<Case> cases(12);
  cases[0].in_type = cases[0].init_type = cases[0].out_type = kTfLiteUInt16;
  cases[0].message = "input type UINT16 is not supported";
  cases[1].in_shape = {1, 1, 1, 1, 1, 1, 1};
  cases[1].message = "input rank must be in [1, 6], got 7";
  cases[2].out_type = kTfLiteInt32;
  cases[2].message = "output must be FLOAT32";
  cases[3].init_type = kTfLiteInt32;
  cases[3].message = "init value must be FLOAT32";
  cases[4].init_shape = {2};
  cases[4].message = "init value must have one element";
  cases[5].attr_type = kTfLiteInt32;
  cases[5].message = "window_shape must be INT64";
  cases[6].const_attrs = false;
  cases[6].message = "window_shape must be a constant";
  cases[7].window = {2, 2};
  cases[7].message = "window_shape must have shape [1]";
  cases[8].window = {0};
  cases[8].message = "window_shape[0] must be >= 1, got 0";
  cases[9].strides = {-2};
  cases[9].message = "window_strides[0] must be >= 1, got -2";
  cases[10].dilations = {0};
  cases[10].message = "window_dilations[0] must be >= 1, got 0";
  cases[11].function = TfLiteReduceWindowFunctionUnsupported;
  cases[11].message = "unsupported reduce_function 0";
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    OpModel m;
    m.AddInput({c.in_type, c.in_shape});
    m.AddInput({c.init_type, c.init_shape});
    for (const auto* attr : {&c.window, &c.strides, &c.dilations}) {
      const int n = static_cast<int>(attr->size());
      if (!c.const_attrs) {
        m.AddInput({c.attr_type, {n}});
      } else if (c.attr_type == kTfLiteInt64) {
        m.AddConstInput<int64_t>({kTfLiteInt64, {n}}, *attr);
      } else {
        m.AddConstInput<int32_t>({c.attr_type, {n}},
                                 std::vector<int32_t>(attr->begin(), attr->end()));
      }
    }
    m.AddOutput({c.out_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinReduceWindow, Register_REDUCE_WINDOW(),
                   TfLiteReduceWindowParams{static_cast<TfLiteReduceWindowFunction>(c.function)});
    ExpectBuildError(m, std::string("REDUCE_WINDOW: ") + c.message);
  }
  OpModel m;  // no options
  m.AddInput({kTfLiteFloat32, {4}});
  m.AddInput({kTfLiteFloat32, {}});
  for (int i = 0; i < 3; ++i) m.AddConstInput<int64_t>({kTfLiteInt64, {1}}, {1});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinReduceWindow, Register_REDUCE_WINDOW());
  ExpectBuildError(m, "REDUCE_WINDOW: builtin options are missing");
}

TEST(ReduceWindowOp, HugeWindowGivesEmptyOutput) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {3, 4}});
  m.AddConstInput<float>({kTfLiteFloat32, {}}, {0.0f});
  m.AddConstInput<int64_t>({kTfLiteInt64, {2}}, {INT64_MAX, 2});
  m.AddConstInput<int64_t>({kTfLiteInt64, {2}}, {1, 1});
  m.AddConstInput<int64_t>({kTfLiteInt64, {2}}, {INT64_MAX, 1});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinReduceWindow, Register_REDUCE_WINDOW(),
                 TfLiteReduceWindowParams{TfLiteReduceWindowFunctionAdd});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{0, 3}));
}

}  // namespace
}  // namespace octet::window_test
