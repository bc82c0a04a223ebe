#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace octet {
namespace {

using nn_test::Axis;
using testing::OpModel;

struct ConvCase {
  std::vector<int> input;   // N, H, W, C
  std::vector<int> filter;  // O, KH, KW, C / groups
  TfLitePadding padding = kTfLitePaddingValid;
  int stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  TfLiteFusedActivation activation = kTfLiteActNone;
  bool bias = true;
};

TfLiteConvParams Params(const ConvCase& c) {
  TfLiteConvParams p{};
  p.padding = c.padding;
  p.stride_height = c.stride_h;
  p.stride_width = c.stride_w;
  p.dilation_height_factor = c.dil_h;
  p.dilation_width_factor = c.dil_w;
  p.activation = c.activation;
  return p;
}

// Direct definition of the (grouped) convolution, in double.
std::vector<double> NaiveConv(const ConvCase& c, const std::vector<float>& in,
                              const std::vector<float>& w, const std::vector<float>& b,
                              std::vector<int>* shape) {
  const int n = c.input[0], h = c.input[1], wd = c.input[2], ch = c.input[3];
  const int oc = c.filter[0], kh = c.filter[1], kw = c.filter[2], fc = c.filter[3];
  auto axis = c.padding == kTfLitePaddingSame ? nn_test::SameAxis : nn_test::ValidAxis;
  const Axis ay = axis(h, kh, c.stride_h, c.dil_h), ax = axis(wd, kw, c.stride_w, c.dil_w);
  const int per_group = oc / (ch / fc);
  *shape = {n, ay.out, ax.out, oc};
  std::vector<double> out;
  for (int bi = 0; bi < n; ++bi)
    for (int y = 0; y < ay.out; ++y)
      for (int x = 0; x < ax.out; ++x)
        for (int o = 0; o < oc; ++o) {
          double acc = c.bias ? b[o] : 0.0;
          const int group = o / per_group;
          for (int i = 0; i < kh; ++i)
            for (int j = 0; j < kw; ++j)
              for (int k = 0; k < fc; ++k) {
                const int iy = y * c.stride_h - ay.pad + i * c.dil_h;
                const int ix = x * c.stride_w - ax.pad + j * c.dil_w;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                acc += static_cast<double>(in[((bi * h + iy) * wd + ix) * ch + group * fc + k]) *
                       w[((o * kh + i) * kw + j) * fc + k];
              }
          if (c.activation == kTfLiteActRelu) acc = std::max(acc, 0.0);
          if (c.activation == kTfLiteActRelu6) acc = std::min(std::max(acc, 0.0), 6.0);
          if (c.activation == kTfLiteActReluN1To1) acc = std::min(std::max(acc, -1.0), 1.0);
          out.push_back(acc);
        }
  return out;
}

void CheckAgainstNaive(const ConvCase& c) {
  const auto in = nn_test::Random(c.input[0] * c.input[1] * c.input[2] * c.input[3], 1);
  const auto w = nn_test::Random(c.filter[0] * c.filter[1] * c.filter[2] * c.filter[3], 2);
  const auto b = nn_test::Random(c.filter[0], 3);
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, c.input});
  m.AddConstInput({kTfLiteFloat32, c.filter}, w);
  if (c.bias) m.AddConstInput({kTfLiteFloat32, {c.filter[0]}}, b);
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D, tflite::ops::builtin::Register_CONV_2D(),
                 Params(c));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  std::vector<int> shape;
  const auto want = NaiveConv(c, in, w, b, &shape);
  EXPECT_EQ(m.GetShape(output), shape);
  nn_test::ExpectAllNear(m.GetOutput<float>(output), want);
}

TEST(Nn_Conv2D, HandWorkedValid) {
  // 3x3 image, 2x2 filter of ones plus a 2x2 filter picking the top-left cell.
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {1, 3, 3, 1}});
  m.AddConstInput<float>({kTfLiteFloat32, {2, 2, 2, 1}}, {1, 1, 1, 1, 1, 0, 0, 0});
  m.AddConstInput<float>({kTfLiteFloat32, {2}}, {0.5f, -1.f});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  ConvCase c;
  m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D, tflite::ops::builtin::Register_CONV_2D(),
                 Params(c));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(input, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), (std::vector<int>{1, 2, 2, 2}));
  EXPECT_EQ(m.GetOutput<float>(output),
            (std::vector<float>{12.5f, 0.f, 16.5f, 1.f, 24.5f, 3.f, 28.5f, 4.f}));
}

TEST(Nn_Conv2D, ValidMultiChannel) {
  ConvCase c;
  c.input = {2, 5, 6, 3};
  c.filter = {4, 3, 2, 3};
  CheckAgainstNaive(c);
}

TEST(Nn_Conv2D, SamePaddingStride2) {
  ConvCase c;
  c.input = {1, 7, 8, 2};
  c.filter = {3, 3, 3, 2};
  c.padding = kTfLitePaddingSame;
  c.stride_h = 2;
  c.stride_w = 2;
  CheckAgainstNaive(c);
}

TEST(Nn_Conv2D, SamePaddingEvenFilterAsymmetricStride) {
  ConvCase c;
  c.input = {1, 6, 5, 3};
  c.filter = {2, 4, 2, 3};
  c.padding = kTfLitePaddingSame;
  c.stride_h = 3;
  c.stride_w = 1;
  CheckAgainstNaive(c);
}

TEST(Nn_Conv2D, Dilation) {
  ConvCase c;
  c.input = {1, 9, 9, 2};
  c.filter = {2, 3, 3, 2};
  c.dil_h = 2;
  c.dil_w = 3;
  CheckAgainstNaive(c);
  c.padding = kTfLitePaddingSame;
  CheckAgainstNaive(c);
}

TEST(Nn_Conv2D, NoBiasAbsentOptionalInput) {
  // Bias slot present in the node but marked absent (-1), as converters write it.
  ConvCase c;
  c.input = {1, 4, 4, 2};
  c.filter = {3, 2, 2, 2};
  c.bias = false;
  const auto in = nn_test::Random(32, 1);
  const auto w = nn_test::Random(24, 2);
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, c.input});
  m.AddConstInput({kTfLiteFloat32, c.filter}, w);
  m.AddNullInput();
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D, tflite::ops::builtin::Register_CONV_2D(),
                 Params(c));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  std::vector<int> shape;
  nn_test::ExpectAllNear(m.GetOutput<float>(output), NaiveConv(c, in, w, {}, &shape));
  // Two inputs only (no bias slot at all).
  CheckAgainstNaive(c);
}

TEST(Nn_Conv2D, GroupedConvolution) {
  ConvCase c;
  c.input = {1, 5, 5, 6};
  c.filter = {4, 3, 3, 3};  // 2 groups of 3 input channels, 2 filters each
  c.padding = kTfLitePaddingSame;
  CheckAgainstNaive(c);
  c.filter = {6, 1, 1, 1};  // depthwise-like: 6 groups
  CheckAgainstNaive(c);
}

TEST(Nn_Conv2D, FusedActivations) {
  ConvCase c;
  c.input = {1, 4, 4, 3};
  c.filter = {5, 2, 2, 3};
  for (auto act : {kTfLiteActRelu, kTfLiteActRelu6, kTfLiteActReluN1To1}) {
    c.activation = act;
    CheckAgainstNaive(c);
  }
}

TEST(Nn_Conv2D, ExactFloatOrderMatchesReference) {
  // Values chosen so that float summation order matters: the reference kernel must add
  // filter positions (y, x) first, then channels, and the bias last. (The optimized kernels
  // start from the bias and use FMA, as TFLite's optimized kernels do; they are checked
  // against error bounds in tests/kernels/optimized/fgemm_test.cc.)
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {1, 1, 2, 2}});
  m.AddConstInput<float>({kTfLiteFloat32, {1, 1, 2, 2}}, {1, 1, 1, 1});
  m.AddConstInput<float>({kTfLiteFloat32, {1}}, {0.25f});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  ConvCase c;
  m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D, tflite::ops::builtin::Register_CONV_2D_REF(),
                 Params(c));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(input, {1e8f, 1.f, -1e8f, 1.f});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  // ((((0 + 1e8) + 1) + -1e8) + 1) = 1 in float (1e8 + 1 rounds to 1e8), then + 0.25.
  // Summing channels before positions would give 2.25.
  EXPECT_EQ(m.GetOutput<float>(output), std::vector<float>{1.25f});
}

// ---- validation ----------------------------------------------------------------------

struct BadCase {
  std::vector<int> input = {1, 4, 4, 2};
  std::vector<int> filter = {3, 2, 2, 2};
  std::vector<int> bias = {3};
  TfLiteType input_type = kTfLiteFloat32;
  TfLiteType filter_type = kTfLiteFloat32;
  TfLiteConvParams params = [] {
    TfLiteConvParams p{};
    p.padding = kTfLitePaddingValid;
    p.stride_height = p.stride_width = 1;
    p.dilation_height_factor = p.dilation_width_factor = 1;
    return p;
  }();
};

std::string BuildError(const BadCase& c) {
  OpModel m;
  m.AddInput({c.input_type, c.input});
  m.AddInput({c.filter_type, c.filter});
  if (!c.bias.empty()) m.AddInput({kTfLiteFloat32, c.bias});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D, tflite::ops::builtin::Register_CONV_2D(),
                 c.params);
  EXPECT_NE(m.Build(), kTfLiteOk);
  return m.error();
}

TEST(Nn_Conv2D, RejectsZeroStride) {
  BadCase c;
  c.params.stride_width = 0;
  EXPECT_NE(BuildError(c).find("CONV_2D: stride_width must be > 0, got 0"), std::string::npos);
}

TEST(Nn_Conv2D, RejectsZeroDilation) {
  BadCase c;
  c.params.dilation_height_factor = 0;
  EXPECT_NE(BuildError(c).find("CONV_2D: dilation_height_factor must be > 0"), std::string::npos);
}

TEST(Nn_Conv2D, RejectsBiasLength) {
  BadCase c;
  c.bias = {4};
  EXPECT_NE(BuildError(c).find("CONV_2D: bias has 4 elements, expected 3"), std::string::npos);
}

TEST(Nn_Conv2D, RejectsChannelMismatch) {
  BadCase c;
  c.filter = {3, 2, 2, 3};
  EXPECT_NE(BuildError(c).find("CONV_2D: input channels (2) must be a positive multiple"),
            std::string::npos);
}

TEST(Nn_Conv2D, RejectsGroupsNotDividingOutputs) {
  BadCase c;
  c.input = {1, 4, 4, 4};
  c.filter = {3, 2, 2, 2};  // 2 groups, 3 filters
  EXPECT_NE(BuildError(c).find("CONV_2D: output channels (3) must be a multiple"),
            std::string::npos);
}

TEST(Nn_Conv2D, RejectsEmptyOutput) {
  BadCase c;
  c.filter = {3, 5, 2, 2};  // taller than the 4-row image, VALID
  EXPECT_NE(BuildError(c).find("CONV_2D: output height must be > 0"), std::string::npos);
}

TEST(Nn_Conv2D, RejectsZeroFilterSize) {
  BadCase c;
  c.filter = {3, 0, 2, 2};
  EXPECT_NE(BuildError(c).find("CONV_2D: filter height must be > 0"), std::string::npos);
}

TEST(Nn_Conv2D, RejectsRank) {
  BadCase c;
  c.input = {4, 4, 2};
  EXPECT_NE(BuildError(c).find("CONV_2D: input must have 4 dimensions, got 3"), std::string::npos);
}

TEST(Nn_Conv2D, RejectsTypes) {
  BadCase c;
  c.input_type = kTfLiteInt32;
  EXPECT_NE(BuildError(c).find("CONV_2D: input type INT32 is not supported"), std::string::npos);
  BadCase h;
  h.filter_type = kTfLiteInt8;
  // INT8 filters run the hybrid kernel, which needs their quantization scales.
  EXPECT_NE(BuildError(h).find("CONV_2D: INT8 weights of a hybrid op need quantization scales"),
            std::string::npos);
}

TEST(Nn_Conv2D, RejectsPaddingAndActivation) {
  BadCase c;
  c.params.padding = kTfLitePaddingUnknown;
  EXPECT_NE(BuildError(c).find("CONV_2D: padding 0 is not SAME or VALID"), std::string::npos);
  BadCase a;
  a.params.activation = kTfLiteActTanh;
  EXPECT_NE(BuildError(a).find("CONV_2D: unsupported fused activation"), std::string::npos);
}

TEST(Nn_Conv2D, RejectsInputCount) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {1, 4, 4, 2}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D, tflite::ops::builtin::Register_CONV_2D(),
                 BadCase().params);
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("CONV_2D: expected 2 to 3 inputs, got 1"), std::string::npos);
}

}  // namespace
}  // namespace octet
