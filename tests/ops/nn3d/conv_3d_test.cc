// CONV_3D: prepare's validation (with the message text), hand-computed cases, and random
// shapes / strides / dilations / padding / bias / activations against the definition.
#include <cstdint>
#include <string>
#include <vector>

#include "nn3d_test_util.h"

namespace octet::nn3d_test {
namespace {

using tflite::ops::builtin::Register_CONV_3D;

TfLiteConv3DParams Options(TfLitePadding padding = kTfLitePaddingValid, int stride = 1,
                           int dilation = 1, TfLiteFusedActivation act = kTfLiteActNone) {
  TfLiteConv3DParams p{};
  p.padding = padding;
  p.stride_depth = p.stride_height = p.stride_width = stride;
  p.dilation_depth_factor = p.dilation_height_factor = p.dilation_width_factor = dilation;
  p.activation = act;
  return p;
}

// Runs one CONV_3D; `bias` empty means no bias input (or an absent one when `null_bias`).
std::vector<float> RunConv3D(const std::vector<int>& in_dims, const std::vector<float>& in,
                             const std::vector<int>& w_dims, const std::vector<float>& w,
                             const std::vector<float>& bias, const TfLiteConv3DParams& params,
                             std::vector<int>* out_dims, bool const_filter = true,
                             bool null_bias = false) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, in_dims});
  int filter = -1;
  if (const_filter) {
    m.AddConstInput<float>({kTfLiteFloat32, w_dims}, w);
  } else {
    filter = m.AddInput({kTfLiteFloat32, w_dims});
  }
  if (!bias.empty()) {
    m.AddConstInput<float>({kTfLiteFloat32, {static_cast<int>(bias.size())}}, bias);
  } else if (null_bias) {
    m.AddNullInput();
  }
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConv3d, Register_CONV_3D(), params);
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  if (filter >= 0) m.SetInput(filter, w);
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  *out_dims = m.GetShape(output);
  return m.GetOutput<float>(output);
}

TEST(Nn3d_Conv3D, HandComputedValidCube) {
  // An all-ones 2x2x2 filter over 1..8 sums them: 36; the bias and RELU6 come after.
  std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> ones(8, 1.f);
  std::vector<int> dims;
  EXPECT_EQ(RunConv3D({1, 2, 2, 2, 1}, in, {2, 2, 2, 1, 1}, ones, {}, Options(), &dims),
            std::vector<float>({36}));
  EXPECT_EQ(dims, std::vector<int>({1, 1, 1, 1, 1}));
  EXPECT_EQ(RunConv3D({1, 2, 2, 2, 1}, in, {2, 2, 2, 1, 1}, ones, {-6}, Options(), &dims),
            std::vector<float>({30}));
  EXPECT_EQ(RunConv3D({1, 2, 2, 2, 1}, in, {2, 2, 2, 1, 1}, ones, {-6},
                      Options(kTfLitePaddingValid, 1, 1, kTfLiteActRelu6), &dims),
            std::vector<float>({6}));
}

TEST(Nn3d_Conv3D, HandComputedSameTwoChannels) {
  // Along width [1, 2, 3] with SAME (one cell of zero padding each side): channel 0 is
  // 1*x[w-1] + 2*x[w] + 3*x[w+1], channel 1 is x[w].
  const std::vector<float> w = {1, 0, 2, 1, 3, 0};  // [kw][cout], KD = KH = Cin = 1
  std::vector<int> dims;
  EXPECT_EQ(RunConv3D({1, 1, 1, 3, 1}, {1, 2, 3}, {1, 1, 3, 1, 2}, w, {},
                      Options(kTfLitePaddingSame), &dims),
            std::vector<float>({8, 1, 14, 2, 8, 3}));
  EXPECT_EQ(dims, std::vector<int>({1, 1, 1, 3, 2}));
  // Stride 2: windows centred on widths 0 and 2. Dilation 2 (padding 2 each side): taps
  // at w - 2, w, w + 2.
  EXPECT_EQ(RunConv3D({1, 1, 1, 3, 1}, {1, 2, 3}, {1, 1, 3, 1, 2}, w, {},
                      Options(kTfLitePaddingSame, 2), &dims),
            std::vector<float>({8, 1, 8, 3}));
  EXPECT_EQ(RunConv3D({1, 1, 1, 3, 1}, {1, 2, 3}, {1, 1, 3, 1, 2}, w, {},
                      Options(kTfLitePaddingSame, 1, 2), &dims),
            std::vector<float>({11, 1, 4, 2, 7, 3}));
}

TEST(Nn3d_Conv3D, RandomAgainstDefinition) {
  Lcg rng(2024);
  int checked = 0;
  for (int iter = 0; iter < 120; ++iter) {
    Case c;
    c.batches = rng.Int(1, 3);
    c.in_c = rng.Int(1, 3);
    c.out_c = rng.Int(1, 3);
    c.padding = iter % 2 ? kTfLitePaddingSame : kTfLitePaddingValid;
    c.act = kActivations[iter % 4];
    c.bias = (iter / 4) % 2 == 0;
    for (int a = 0; a < 3; ++a) {
      c.filter[a] = rng.Int(1, 3);
      c.stride[a] = rng.Int(1, 2);
      c.dilation[a] = rng.Int(1, 2);
      const int eff = (c.filter[a] - 1) * c.dilation[a] + 1;
      c.in[a] = rng.Int(c.padding == kTfLitePaddingValid ? eff : 1, 6);
      const Axis axis = ForwardAxis(c.padding, c.in[a], c.filter[a], c.stride[a], c.dilation[a]);
      c.out[a] = axis.out;
      c.pad[a] = axis.pad;
    }
    const std::vector<int> in_dims = {c.batches, c.in[0], c.in[1], c.in[2], c.in_c};
    const std::vector<int> w_dims = {c.filter[0], c.filter[1], c.filter[2], c.in_c, c.out_c};
    const auto in = rng.Floats(Count(in_dims));
    const auto w = rng.Floats(Count(w_dims));
    const auto bias = c.bias ? rng.Floats(c.out_c) : std::vector<float>{};
    std::vector<int> dims;
    const auto got =
        RunConv3D(in_dims, in, w_dims, w, bias, Params(c), &dims, iter % 3 != 0, iter % 5 == 0);
    const std::string what = "case " + std::to_string(iter);
    ASSERT_EQ(dims, std::vector<int>({c.batches, c.out[0], c.out[1], c.out[2], c.out_c})) << what;
    ExpectAllNear(got, NaiveConv3D(c, in, w, bias), what);
    ++checked;
  }
  EXPECT_EQ(checked, 120);
}

// Golden from TensorFlow Lite itself (the WASM build shipped in npm's @tensorflow/tfjs-tflite
// 0.0.1-alpha.10, run under node on a one-op model with these exact tensors). Inputs and
// weights are small dyadic fractions, so every sum is exact in float whatever the order.
float GoldenInput(int i) { return ((i * 37) % 17 - 8) / 8.0f; }
float GoldenWeight(int i) { return ((i * 11) % 13 - 6) / 4.0f; }
std::vector<float> Golden(float (*f)(int), int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = f(i);
  return v;
}

TEST(Nn3d_Conv3D, MatchesTfliteGolden) {
  // SAME; strides (d, h, w) = (1, 2, 1); dilations (1, 1, 2); bias; no activation.
  TfLiteConv3DParams p = Options(kTfLitePaddingSame);
  p.stride_height = 2;
  p.dilation_width_factor = 2;
  std::vector<int> dims;
  const auto got = RunConv3D({2, 2, 3, 3, 2}, Golden(GoldenInput, 72), {2, 2, 2, 2, 2},
                             Golden(GoldenWeight, 32), {0.5f, -0.25f}, p, &dims);
  EXPECT_EQ(dims, std::vector<int>({2, 2, 2, 3, 2}));
  const std::vector<float> tflite = {
      1.3125,   0.21875,  2.34375,  1.40625, -0.5625, -0.84375, 0.96875, 0.6875,
      0.5,      -4.25,    0.3125,   -1.1875, 0.375,   0.5,      -0.3125, -5.3125,
      0.9375,   -0.15625, -0.53125, 0.59375, 2.09375, -0.90625, 0.5,     0.40625,
      1.71875,  2.1875,   -0.53125, -0.6875, 2.53125, -0.65625, -0.25,   -3.3125,
      0.46875,  -1.34375, -1.15625, 1.46875, -0.5625, -4.28125, 1.59375, 0.59375,
      -0.46875, 1.5,      1.53125,  -0.4375, 0.40625, 0.78125,  1.53125, -1.65625};
  EXPECT_EQ(got, tflite);
}

// A model with the given input / filter / bias specs and options; Build must fail with
// `message`.
void ExpectRejected(const TensorSpec& input, const TensorSpec& filter, const TensorSpec* bias,
                    const TfLiteConv3DParams& params, const std::string& message,
                    TfLiteType output_type = kTfLiteFloat32) {
  OpModel m;
  m.AddInput(input);
  m.AddInput(filter);
  if (bias) m.AddInput(*bias);
  m.AddOutput({output_type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConv3d, Register_CONV_3D(), params);
  ExpectBuildError(m, message);
}

TEST(Nn3d_Conv3D, PrepareRejects) {
  const TensorSpec in = {kTfLiteFloat32, {1, 4, 4, 4, 2}};
  const TensorSpec w = {kTfLiteFloat32, {2, 2, 2, 2, 3}};
  const auto ok = Options();
  ExpectRejected({kTfLiteFloat32, {1, 4, 4, 2}}, w, nullptr, ok,
                 "CONV_3D: input must have 5 dimensions, got 4");
  ExpectRejected(in, {kTfLiteFloat32, {2, 2, 2, 3}}, nullptr, ok,
                 "CONV_3D: filter must have 5 dimensions, got 4");
  ExpectRejected(in, {kTfLiteFloat32, {2, 2, 2, 3, 3}}, nullptr, ok,
                 "CONV_3D: filter input channels (3, dimension 3) must equal input channels (2)");
  ExpectRejected({kTfLiteInt8, {1, 4, 4, 4, 2}}, w, nullptr, ok,
                 "CONV_3D: input type INT8 is not supported (only FLOAT32)");
  ExpectRejected(in, {kTfLiteInt32, {2, 2, 2, 2, 3}}, nullptr, ok,
                 "CONV_3D: filter type INT32 is not supported (only FLOAT32)");
  ExpectRejected(in, w, nullptr, ok, "CONV_3D: output type INT8 is not supported (only FLOAT32)",
                 kTfLiteInt8);
  const TensorSpec bias4 = {kTfLiteFloat32, {4}};
  ExpectRejected(in, w, &bias4, ok, "CONV_3D: bias has 4 elements, expected 3");
  const TensorSpec bias_int = {kTfLiteInt32, {3}};
  ExpectRejected(in, w, &bias_int, ok, "CONV_3D: bias type INT32 is not supported");
  ExpectRejected(in, {kTfLiteFloat32, {2, 0, 2, 2, 3}}, nullptr, ok,
                 "CONV_3D: filter depth, height and width must be > 0");

  auto p = ok;
  p.stride_depth = 0;
  ExpectRejected(in, w, nullptr, p, "CONV_3D: stride_depth must be > 0, got 0");
  p = ok;
  p.stride_width = -1;
  ExpectRejected(in, w, nullptr, p, "CONV_3D: stride_width must be > 0, got -1");
  p = ok;
  p.dilation_height_factor = 0;
  ExpectRejected(in, w, nullptr, p, "CONV_3D: dilation_height_factor must be > 0, got 0");
  p = ok;
  p.activation = kTfLiteActTanh;
  ExpectRejected(in, w, nullptr, p, "CONV_3D: unsupported fused activation");
  p = ok;
  p.padding = kTfLitePaddingUnknown;
  ExpectRejected(in, w, nullptr, p, "CONV_3D: padding 0 is not SAME or VALID");
  // VALID with a dilated filter wider than the image.
  ExpectRejected(in, w, nullptr, Options(kTfLitePaddingValid, 1, 5),
                 "CONV_3D: output depth would be -1: the dilated filter depth (6) exceeds the "
                 "input depth (4) with VALID padding");
  // A dilation whose window cannot be addressed with int coordinates.
  ExpectRejected(in, w, nullptr, Options(kTfLitePaddingSame, 1, INT32_MAX),
                 "CONV_3D: the convolution window along depth is too large");

  // Arity: one input, four inputs.
  OpModel one;
  one.AddInput(in);
  one.AddOutput({kTfLiteFloat32, {}});
  one.SetBuiltinOp(kTfLiteBuiltinConv3d, Register_CONV_3D(), ok);
  EXPECT_NE(one.Build(), kTfLiteOk);
  EXPECT_NE(one.error().find("CONV_3D"), std::string::npos) << one.error();
  // Missing options.
  OpModel no_params;
  no_params.AddInput(in);
  no_params.AddInput(w);
  no_params.AddOutput({kTfLiteFloat32, {}});
  no_params.SetBuiltinOp(kTfLiteBuiltinConv3d, Register_CONV_3D());
  ExpectBuildError(no_params, "CONV_3D: builtin options are missing");
}

TEST(Nn3d_Conv3D, EmptyBatchGivesEmptyOutput) {
  std::vector<int> dims;
  EXPECT_TRUE(
      RunConv3D({0, 2, 2, 2, 1}, {}, {1, 1, 1, 1, 2}, {1, 2}, {}, Options(), &dims).empty());
  EXPECT_EQ(dims, std::vector<int>({0, 2, 2, 2, 2}));
  // VALID with a filter one wider than the image: TFLite sizes the output 0, not an error.
  EXPECT_TRUE(
      RunConv3D({1, 1, 1, 1, 1}, {1}, {1, 1, 2, 1, 1}, {1, 1}, {}, Options(), &dims).empty());
  EXPECT_EQ(dims, std::vector<int>({1, 1, 1, 0, 1}));
}

TEST(Nn3d_Conv3D, ResizedInputRepreparesOutput) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {1, 2, 2, 2, 1}});
  m.AddConstInput<float>({kTfLiteFloat32, {1, 1, 1, 1, 1}}, {2.f});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConv3d, Register_CONV_3D(), Options());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  ASSERT_EQ(m.ResizeInput(input, {2, 1, 1, 3, 1}), kTfLiteOk);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  m.SetInput<float>(input, {1, 2, 3, 4, 5, 6});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), std::vector<int>({2, 1, 1, 3, 1}));
  EXPECT_EQ(m.GetOutput<float>(output), std::vector<float>({2, 4, 6, 8, 10, 12}));
}

}  // namespace
}  // namespace octet::nn3d_test
