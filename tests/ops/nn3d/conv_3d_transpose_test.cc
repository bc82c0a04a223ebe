// CONV_3D_TRANSPOSE: prepare's validation (with the message text), constant vs dynamic
// output_shape, hand-computed cases, and random shapes / strides / dilations / padding /
// bias / activations against a gather written from the definition.
#include <cstdint>
#include <string>
#include <vector>

#include "nn3d_test_util.h"

namespace octet::nn3d_test {
namespace {

using tflite::ops::builtin::Register_CONV_3D_TRANSPOSE;

TfLiteConv3DParams Options(TfLitePadding padding = kTfLitePaddingValid, int stride = 1,
                           int dilation = 1, TfLiteFusedActivation act = kTfLiteActNone) {
  TfLiteConv3DParams p{};
  p.padding = padding;
  p.stride_depth = p.stride_height = p.stride_width = stride;
  p.dilation_depth_factor = p.dilation_height_factor = p.dilation_width_factor = dilation;
  p.activation = act;
  return p;
}

// One CONV_3D_TRANSPOSE; output_shape is a constant unless `dynamic`. `bias` empty means
// no bias input.
struct Result {
  std::vector<int> dims;
  std::vector<float> values;
  bool dynamic = false;
};
Result RunTranspose(const std::vector<int32_t>& out_shape, const std::vector<int>& w_dims,
                    const std::vector<float>& w, const std::vector<int>& in_dims,
                    const std::vector<float>& in, const std::vector<float>& bias,
                    const TfLiteConv3DParams& params, bool dynamic = false) {
  OpModel m;
  int shape = -1;
  if (dynamic) {
    shape = m.AddInput({kTfLiteInt32, {5}});
  } else {
    m.AddConstInput<int32_t>({kTfLiteInt32, {5}}, out_shape);
  }
  m.AddConstInput<float>({kTfLiteFloat32, w_dims}, w);
  const int input = m.AddInput({kTfLiteFloat32, in_dims});
  if (!bias.empty()) {
    m.AddConstInput<float>({kTfLiteFloat32, {static_cast<int>(bias.size())}}, bias);
  }
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConv3dTranspose, Register_CONV_3D_TRANSPOSE(), params);
  Result r;
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  r.dynamic = IsDynamic(m, output);
  if (dynamic) m.SetInput(shape, out_shape);
  m.SetInput(input, in);
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  r.dims = m.GetShape(output);
  r.values = m.GetOutput<float>(output);
  return r;
}

TEST(Nn3d_Conv3DTranspose, HandComputed) {
  // Width only: input [1, 2], filter [1, 2, 3], stride 2. VALID, width 5: input 0 lands on
  // 0..2, input 1 on 2..4 -> [1, 2, 3+2, 4, 6].
  const std::vector<float> w = {1, 2, 3};
  for (bool dynamic : {false, true}) {
    Result r = RunTranspose({1, 1, 1, 5, 1}, {1, 1, 3, 1, 1}, w, {1, 1, 1, 2, 1}, {1, 2}, {},
                            Options(kTfLitePaddingValid, 2), dynamic);
    EXPECT_EQ(r.dynamic, dynamic);
    EXPECT_EQ(r.dims, std::vector<int>({1, 1, 1, 5, 1}));
    EXPECT_EQ(r.values, std::vector<float>({1, 2, 5, 4, 6}));
  }
  // SAME, width 4: total padding 1, all trailing -> the first four of the above.
  EXPECT_EQ(RunTranspose({1, 1, 1, 4, 1}, {1, 1, 3, 1, 1}, w, {1, 1, 1, 2, 1}, {1, 2}, {},
                         Options(kTfLitePaddingSame, 2))
                .values,
            std::vector<float>({1, 2, 5, 4}));
  // SAME, width 3: padding 1 leading, so origins -1 and 1 -> [2, 3+2, 4]. Then with input
  // [-1, 0.25], bias 0.5 and RELU_N1_TO_1.
  EXPECT_EQ(RunTranspose({1, 1, 1, 3, 1}, {1, 1, 3, 1, 1}, w, {1, 1, 1, 2, 1}, {1, 2}, {},
                         Options(kTfLitePaddingSame, 2))
                .values,
            std::vector<float>({2, 5, 4}));
  EXPECT_EQ(RunTranspose({1, 1, 1, 3, 1}, {1, 1, 3, 1, 1}, w, {1, 1, 1, 2, 1}, {-1, 0.25f}, {0.5f},
                         Options(kTfLitePaddingSame, 2, 1, kTfLiteActReluN1To1))
                .values,
            std::vector<float>({-1, -1, 1}));  // [-2, -2.5, 0.75] + 0.5, clamped
  // Two output channels, one input channel, a 1x1x1 filter: a per-channel scale.
  EXPECT_EQ(RunTranspose({2, 1, 1, 1, 2}, {1, 1, 1, 2, 1}, {3, -1}, {2, 1, 1, 1, 1}, {1, 2},
                         {10, 20}, Options())
                .values,
            std::vector<float>({13, 19, 16, 18}));
}

TEST(Nn3d_Conv3DTranspose, RandomAgainstDefinition) {
  Lcg rng(77);
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
      c.in[a] = rng.Int(1, 4);
      // Any output size whose forward convolution gives back the input size.
      const int eff = (c.filter[a] - 1) * c.dilation[a] + 1;
      const int lo = c.padding == kTfLitePaddingSame ? (c.in[a] - 1) * c.stride[a] + 1
                                                     : (c.in[a] - 1) * c.stride[a] + eff;
      c.out[a] = lo + rng.Int(0, c.stride[a] - 1);
      const Axis axis = ForwardAxis(c.padding, c.out[a], c.filter[a], c.stride[a], c.dilation[a]);
      ASSERT_EQ(axis.out, c.in[a]);
      c.pad[a] = axis.pad;
    }
    const std::vector<int> in_dims = {c.batches, c.in[0], c.in[1], c.in[2], c.in_c};
    const std::vector<int> w_dims = {c.filter[0], c.filter[1], c.filter[2], c.out_c, c.in_c};
    const auto in = rng.Floats(Count(in_dims));
    const auto w = rng.Floats(Count(w_dims));
    const auto bias = c.bias ? rng.Floats(c.out_c) : std::vector<float>{};
    const std::vector<int32_t> out_shape = {c.batches, c.out[0], c.out[1], c.out[2], c.out_c};
    const Result r =
        RunTranspose(out_shape, w_dims, w, in_dims, in, bias, Params(c), iter % 3 == 0);
    const std::string what = "case " + std::to_string(iter);
    ASSERT_EQ(r.dims, std::vector<int>(out_shape.begin(), out_shape.end())) << what;
    ExpectAllNear(r.values, NaiveConv3DTranspose(c, in, w, bias), what);
  }
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

TEST(Nn3d_Conv3DTranspose, MatchesTfliteGolden) {
  // SAME; strides (d, h, w) = (2, 1, 2); dilations (1, 2, 1); bias; no activation.
  TfLiteConv3DParams p = Options(kTfLitePaddingSame);
  p.stride_depth = p.stride_width = 2;
  p.dilation_height_factor = 2;
  const Result r = RunTranspose({2, 3, 2, 3, 2}, {2, 2, 2, 2, 2}, Golden(GoldenWeight, 32),
                                {2, 2, 2, 2, 2}, Golden(GoldenInput, 32), {0.25f, -0.5f}, p);
  EXPECT_EQ(r.dims, std::vector<int>({2, 3, 2, 3, 2}));
  const std::vector<float> tflite = {
      0.59375,  0.09375,  -0.53125, 0.1875,  0.9375,   -1.28125, -1.0625,  -0.1875,  2.1875,
      -2.21875, 0.0625,   -0.5625,  0.15625, -1.96875, 1.875,    -0.25,    0.15625,  0.78125,
      1.375,    0.21875,  -0.65625, 0.21875, 0.25,     0.03125,  0.90625,  -1.15625, 0.71875,
      -0.125,   0.71875,  -0.40625, 0.25,    -0.625,   0,        -0.46875, 1.375,    -1,
      0.6875,   -0.28125, -0.15625, 0.09375, -2.15625, -0.0625,  0.5,      0,        1,
      -0.3125,  -0.5,     -0.375,   0.15625, -1.21875, 0.9375,   -0.4375,  0.6875,   -0.0625,
      0.875,    -2.875,   0.5625,   0.0625,  0.8125,   0.125,    -2.1875,  0.0625,   0.5625,
      -2.875,   0.8125,   -0.78125, -0.3125, -0.4375,  0.9375,   -1.21875, 0.8125,   -0.8125};
  EXPECT_EQ(r.values, tflite);
}

// A model with the given specs (output_shape constant with `shape` values); Build must fail
// with `message`.
void ExpectRejected(const TensorSpec& shape_spec, const std::vector<int32_t>& shape,
                    const TensorSpec& filter, const TensorSpec& input, const TensorSpec* bias,
                    const TfLiteConv3DParams& params, const std::string& message,
                    TfLiteType output_type = kTfLiteFloat32) {
  OpModel m;
  if (shape_spec.type == kTfLiteInt32) {
    m.AddConstInput<int32_t>(shape_spec, shape);
  } else {
    m.AddInput(shape_spec);
  }
  m.AddInput(filter);
  m.AddInput(input);
  if (bias) m.AddInput(*bias);
  m.AddOutput({output_type, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConv3dTranspose, Register_CONV_3D_TRANSPOSE(), params);
  ExpectBuildError(m, message);
}

TEST(Nn3d_Conv3DTranspose, PrepareRejects) {
  const TensorSpec s5 = {kTfLiteInt32, {5}};
  const std::vector<int32_t> shape = {1, 4, 4, 4, 3};
  const TensorSpec w = {kTfLiteFloat32, {2, 2, 2, 3, 2}};
  const TensorSpec in = {kTfLiteFloat32, {1, 3, 3, 3, 2}};
  const auto ok = Options();  // VALID, stride 1: 4 -> 3 with a 2-wide filter
  ExpectRejected({kTfLiteInt32, {4}}, {1, 4, 4, 3}, w, in, nullptr, ok,
                 "CONV_3D_TRANSPOSE: output_shape must be a 1-D tensor of 5 elements");
  ExpectRejected({kTfLiteInt64, {5}}, {}, w, in, nullptr, ok,
                 "CONV_3D_TRANSPOSE: output_shape type INT64 is not INT32");
  ExpectRejected(s5, shape, w, {kTfLiteFloat32, {1, 3, 3, 2}}, nullptr, ok,
                 "CONV_3D_TRANSPOSE: input must have 5 dimensions, got 4");
  ExpectRejected(s5, shape, {kTfLiteFloat32, {2, 2, 3, 2}}, in, nullptr, ok,
                 "CONV_3D_TRANSPOSE: filter must have 5 dimensions, got 4");
  ExpectRejected(
      s5, shape, {kTfLiteFloat32, {2, 2, 2, 3, 5}}, in, nullptr, ok,
      "CONV_3D_TRANSPOSE: filter input channels (5, dimension 4) must equal input channels (2)");
  ExpectRejected(s5, shape, w, {kTfLiteInt8, {1, 3, 3, 3, 2}}, nullptr, ok,
                 "CONV_3D_TRANSPOSE: input type INT8 is not supported (only FLOAT32)");
  ExpectRejected(s5, shape, {kTfLiteInt8, {2, 2, 2, 3, 2}}, in, nullptr, ok,
                 "CONV_3D_TRANSPOSE: filter type INT8 is not supported (only FLOAT32)");
  ExpectRejected(s5, shape, w, in, nullptr, ok,
                 "CONV_3D_TRANSPOSE: output type INT32 is not supported (only FLOAT32)",
                 kTfLiteInt32);
  const TensorSpec bias2 = {kTfLiteFloat32, {2}};
  ExpectRejected(s5, shape, w, in, &bias2, ok,
                 "CONV_3D_TRANSPOSE: bias has 2 elements, expected 3 (filter output channels)");
  const TensorSpec bias_int = {kTfLiteInt32, {3}};
  ExpectRejected(s5, shape, w, in, &bias_int, ok,
                 "CONV_3D_TRANSPOSE: bias type INT32 is not supported");

  auto p = ok;
  p.stride_height = 0;
  ExpectRejected(s5, shape, w, in, nullptr, p,
                 "CONV_3D_TRANSPOSE: stride_height must be > 0, got 0");
  p = ok;
  p.dilation_width_factor = 0;
  ExpectRejected(s5, shape, w, in, nullptr, p,
                 "CONV_3D_TRANSPOSE: dilation_width_factor must be > 0, got 0");
  p = ok;
  p.activation = kTfLiteActSigmoid;
  ExpectRejected(s5, shape, w, in, nullptr, p, "CONV_3D_TRANSPOSE: unsupported fused activation");

  // output_shape against input / filter / stride / padding.
  ExpectRejected(s5, {2, 4, 4, 4, 3}, w, in, nullptr, ok,
                 "CONV_3D_TRANSPOSE: output_shape batch (2) must equal the input batch (1)");
  ExpectRejected(s5, {1, 4, 4, 4, 6}, w, in, nullptr, ok,
                 "CONV_3D_TRANSPOSE: output_shape channels (6) must equal the filter output "
                 "channels (3, dimension 3)");
  ExpectRejected(s5, {1, 4, 5, 4, 3}, w, in, nullptr, ok,
                 "CONV_3D_TRANSPOSE: output_shape height 5 does not match the input height 3: "
                 "with filter 2, stride 1, dilation 1 and VALID padding it maps to 4");
  ExpectRejected(s5, {1, 6, 6, 7, 3}, w, in, nullptr, Options(kTfLitePaddingSame, 2),
                 "CONV_3D_TRANSPOSE: output_shape width 7 does not match the input width 3");
  ExpectRejected(s5, {1, 0, 4, 4, 3}, w, in, nullptr, ok,
                 "CONV_3D_TRANSPOSE: output_shape depth must be > 0, got 0");
  // Sizes whose product overflows: stride 2^30 maps 2^30 back to 1.
  const int big = 1 << 30;
  ExpectRejected(s5, {1, big, big, big, 3}, w, {kTfLiteFloat32, {1, 1, 1, 1, 2}}, nullptr,
                 Options(kTfLitePaddingSame, big),
                 "CONV_3D_TRANSPOSE: output has too many elements");
}

TEST(Nn3d_Conv3DTranspose, DynamicOutputShapeCheckedAtInvoke) {
  OpModel m;
  const int shape = m.AddInput({kTfLiteInt32, {5}});
  m.AddConstInput<float>({kTfLiteFloat32, {1, 1, 3, 1, 1}}, {1, 2, 3});
  const int input = m.AddInput({kTfLiteFloat32, {1, 1, 1, 2, 1}});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConv3dTranspose, Register_CONV_3D_TRANSPOSE(),
                 Options(kTfLitePaddingSame, 2));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_TRUE(IsDynamic(m, output));
  m.SetInput<float>(input, {1, 2});
  // Width 5 maps back to 3 with SAME and stride 2, not the input's 2.
  m.SetInput<int32_t>(shape, {1, 1, 1, 5, 1});
  EXPECT_NE(m.Invoke(), kTfLiteOk);
  EXPECT_NE(m.error().find("output_shape width 5 does not match the input width 2"),
            std::string::npos)
      << m.error();
  // The same node then runs with a valid shape, and with another valid one.
  m.SetInput<int32_t>(shape, {1, 1, 1, 4, 1});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), std::vector<int>({1, 1, 1, 4, 1}));
  EXPECT_EQ(m.GetOutput<float>(output), std::vector<float>({1, 2, 5, 4}));
  m.SetInput<int32_t>(shape, {1, 1, 1, 3, 1});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<float>(output), std::vector<float>({2, 5, 4}));
}

}  // namespace
}  // namespace octet::nn3d_test
