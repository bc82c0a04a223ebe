// STABLEHLO_PAD against the StableHLO spec's example, hand-checked crops, and a loop in the
// test that asks, for every output coordinate, which input element (if any) lands there:
// o = low + i * (interior + 1) for some 0 <= i < d. Random shapes and paddings (negative edge
// padding included) over several element sizes; a whole model through the loader
// (StablehloPadOptions); and validation.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "util/op_model.h"

namespace octet::stablehlo_test {
namespace {

using octet::testing::OpModel;
using tflite::ops::builtin::Register_STABLEHLO_PAD;

struct Padding {
  std::vector<int64_t> low, high, interior;
};

TfLiteStablehloPadParams Params(const Padding& p) {
  TfLiteStablehloPadParams params{};
  for (size_t i = 0; i < p.low.size(); ++i) {
    params.edge_padding_low[i] = p.low[i];
    params.edge_padding_high[i] = p.high[i];
    params.interior_padding[i] = p.interior[i];
  }
  return params;
}

template <typename T>
std::vector<T> Pad(TfLiteType type, const std::vector<int>& shape, const std::vector<T>& in,
                   T value, const Padding& p, std::vector<int>* out_shape) {
  OpModel m;
  const int x = m.AddInput({type, shape});
  const int v = m.AddInput({type, {}});
  const int out = m.AddOutput({type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinStablehloPad, Register_STABLEHLO_PAD(), Params(p));
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(x, in);
  m.SetInput(v, std::vector<T>{value});
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  *out_shape = m.GetShape(out);
  return m.GetOutput<T>(out);
}

TEST(StablehloPad, SpecExample) {
  std::vector<int> shape;
  const auto out =
      Pad<int64_t>(kTfLiteInt64, {2, 3}, {1, 2, 3, 4, 5, 6}, 0, {{0, 1}, {2, 1}, {1, 2}}, &shape);
  EXPECT_EQ(shape, (std::vector<int>{5, 9}));
  EXPECT_EQ(out, (std::vector<int64_t>{0, 1, 0, 0, 2, 0, 0, 3, 0,  //
                                       0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                       0, 4, 0, 0, 5, 0, 0, 6, 0,  //
                                       0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                       0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(StablehloPad, NegativeEdgePaddingCrops) {
  std::vector<int> shape;
  EXPECT_EQ(Pad<float>(kTfLiteFloat32, {5}, {1, 2, 3, 4, 5}, 9.f, {{-1}, {-2}, {0}}, &shape),
            (std::vector<float>{2, 3}));
  // 1 0 0 0 2 0 0 0 3 cropped by one at the front: 0 0 0 2 0 0 0 3.
  EXPECT_EQ(Pad<float>(kTfLiteFloat32, {3}, {1, 2, 3}, 0.f, {{-1}, {0}, {3}}, &shape),
            (std::vector<float>{0, 0, 0, 2, 0, 0, 0, 3}));
  // Cropping and padding at once: drop the first row, add a column of 7 on the right.
  EXPECT_EQ(Pad<int8_t>(kTfLiteInt8, {2, 2}, {1, 2, 3, 4}, 7, {{-1, 0}, {0, 1}, {0, 0}}, &shape),
            (std::vector<int8_t>{3, 4, 7}));
  EXPECT_EQ(shape, (std::vector<int>{1, 3}));
  // Everything cropped away: an empty output that keeps its other dimensions.
  EXPECT_TRUE(
      Pad<float>(kTfLiteFloat32, {2, 3}, {1, 2, 3, 4, 5, 6}, 0.f, {{-2, 0}, {0, 0}, {0, 0}}, &shape)
          .empty());
  EXPECT_EQ(shape, (std::vector<int>{0, 3}));
}

TEST(StablehloPad, EmptyInputIsAllPadding) {
  std::vector<int> shape;
  EXPECT_EQ(Pad<int32_t>(kTfLiteInt32, {0, 2}, {}, 5, {{1, 0}, {1, 1}, {0, 1}}, &shape),
            (std::vector<int32_t>(2 * 4, 5)));
  EXPECT_EQ(shape, (std::vector<int>{2, 4}));
}

template <typename T>
void RandomCases(TfLiteType type, uint32_t seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int checked = 0;
  while (checked < 60) {
    const int rank = uniform(1, 4);
    std::vector<int> dims(rank);
    Padding p;
    std::vector<int64_t> out_dims(rank);
    bool valid = true;
    for (int d = 0; d < rank; ++d) {
      dims[d] = uniform(0, 4);
      p.low.push_back(uniform(-3, 3));
      p.high.push_back(uniform(-3, 3));
      p.interior.push_back(uniform(0, 2));
      out_dims[d] = dims[d] + std::max(dims[d] - 1, 0) * p.interior[d] + p.low[d] + p.high[d];
      valid = valid && out_dims[d] >= 0;
    }
    if (!valid) continue;
    ++checked;
    int64_t n_in = 1, n_out = 1;
    for (int d = 0; d < rank; ++d) n_in *= dims[d], n_out *= out_dims[d];
    std::vector<T> in(n_in);
    for (int64_t i = 0; i < n_in; ++i) in[i] = static_cast<T>(i + 1);
    const T value = static_cast<T>(-1);
    std::vector<T> want(n_out);
    for (int64_t o = 0; o < n_out; ++o) {
      int64_t rest = o, in_index = 0, in_stride = 1;
      bool inside = true;
      for (int d = rank - 1; d >= 0; --d) {
        const int64_t c = rest % out_dims[d];
        rest /= out_dims[d];
        const int64_t t = c - p.low[d], step = p.interior[d] + 1;
        if (t < 0 || t % step != 0 || t / step >= dims[d]) inside = false;
        in_index += (inside ? t / step : 0) * in_stride;
        in_stride *= dims[d];
      }
      want[o] = inside ? in[in_index] : value;
    }
    std::vector<int> shape;
    EXPECT_EQ(Pad<T>(type, dims, in, value, p, &shape), want) << TfLiteTypeGetName(type);
    EXPECT_EQ(shape, std::vector<int>(out_dims.begin(), out_dims.end()));
  }
}

TEST(StablehloPad, RandomPaddingsMatchALoop) {
  RandomCases<float>(kTfLiteFloat32, 1);
  RandomCases<int8_t>(kTfLiteInt8, 2);
  RandomCases<int16_t>(kTfLiteInt16, 3);
  RandomCases<std::complex<double>>(kTfLiteComplex128, 4);  // 16-byte elements
}

TEST(StablehloPad, WholeModelThroughTheLoader) {
  format::ModelBuilder b;
  const int code = b.AddOperatorCode(tflite::BuiltinOperator_STABLEHLO_PAD, 1);
  const int in = b.AddTensor(tflite::TensorType_INT64, {2, 3}, "in");
  const int value = b.AddConstTensor<int64_t>(tflite::TensorType_INT64, {}, {0}, "value");
  const int out = b.AddTensor(tflite::TensorType_INT64, {5, 9}, "out");
  format::OperatorSpec op;
  op.opcode_index = code;
  op.inputs = {in, value};
  op.outputs = {out};
  const std::vector<int64_t> low = {0, 1}, high = {2, 1}, interior = {1, 2};
  op.options2 = {tflite::BuiltinOptions2_StablehloPadOptions,
                 tflite::CreateStablehloPadOptionsDirect(b.fbb(), &low, &high, &interior).Union()};
  b.AddOperator(op);
  b.SetInputs({in});
  b.SetOutputs({out});
  const std::vector<uint8_t> bytes = b.Finish();
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size());
  ASSERT_NE(model, nullptr);
  tflite::MutableOpResolver resolver;
  ops::AddStablehloBuiltins(&resolver);
  std::unique_ptr<tflite::Interpreter> interpreter;
  ASSERT_EQ(tflite::InterpreterBuilder(*model, resolver)(&interpreter), kTfLiteOk);
  ASSERT_EQ(interpreter->AllocateTensors(), kTfLiteOk);
  const std::vector<int64_t> x = {1, 2, 3, 4, 5, 6};
  std::memcpy(interpreter->typed_input_tensor<int64_t>(0), x.data(), x.size() * sizeof(int64_t));
  ASSERT_EQ(interpreter->Invoke(), kTfLiteOk);
  const int64_t* y = interpreter->typed_output_tensor<int64_t>(0);
  // Row 2 of the spec's result: 0, 4, 0, 0, 5, 0, 0, 6, 0.
  EXPECT_EQ(std::vector<int64_t>(y + 18, y + 27),
            (std::vector<int64_t>{0, 4, 0, 0, 5, 0, 0, 6, 0}));
  EXPECT_EQ(y[1], 1);
  EXPECT_EQ(y[44], 0);
}

TEST(StablehloPad, RejectsBadInputsAndOptions) {
  struct Case {
    TfLiteType in_type = kTfLiteFloat32, value_type = kTfLiteFloat32, out_type = kTfLiteFloat32;
    std::vector<int> in_shape = {2, 3}, value_shape = {};
    Padding padding = {{0, 0}, {0, 0}, {0, 0}};
    bool params = true;
    const char* message = "";
  };
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  std::vector<Case> cases(11);
  cases[0].padding.interior = {0, -1};
  cases[0].message = "interior_padding[1] must be >= 0, got -1";
  cases[1].padding.low = {0, -2};
  cases[1].padding.high = {0, -2};
  cases[1].message = "dimension 1: 3 + (3 - 1) * 0 + -2 + -2 is not a valid size";
  cases[2].padding.low = {kMax, 0};
  cases[2].message = "dimension 0:";  // overflows int64
  cases[3].padding.interior = {int64_t{1} << 40, 0};
  cases[3].message = "is not a valid size (0 to 2147483647)";
  cases[4].value_shape = {2};
  cases[4].message = "padding value must have one element, got 2";
  cases[5].value_type = kTfLiteInt32;
  cases[5].message = "padding value must be FLOAT32, got INT32";
  cases[6].out_type = kTfLiteInt8;
  cases[6].message = "output must be FLOAT32, got INT8";
  cases[7].in_shape = {};
  cases[7].message = "input rank must be in [1, 8], got 0";
  cases[8].in_shape = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  cases[8].message = "input rank must be in [1, 8], got 9";
  cases[9].params = false;
  cases[9].message = "STABLEHLO_PAD: builtin options are missing";
  cases[10].in_type = cases[10].value_type = cases[10].out_type = kTfLiteString;
  cases[10].message = "type STRING is not supported";
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.in_type, c.in_shape});
    m.AddInput({c.value_type, c.value_shape});
    m.AddOutput({c.out_type, {}});
    if (c.params) {
      m.SetBuiltinOp(kTfLiteBuiltinStablehloPad, Register_STABLEHLO_PAD(), Params(c.padding));
    } else {
      m.SetBuiltinOp(kTfLiteBuiltinStablehloPad, Register_STABLEHLO_PAD());
    }
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << c.message << " vs " << m.error();
  }
}

}  // namespace
}  // namespace octet::stablehlo_test
