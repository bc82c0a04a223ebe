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

using testing::OpModel;

struct TcCase {
  std::vector<int> input;   // N, H, W, C
  std::vector<int> filter;  // O, KH, KW, C
  std::vector<int> output;  // N, OH, OW, O
  TfLitePadding padding = kTfLitePaddingSame;
  int stride_h = 1, stride_w = 1;
  TfLiteFusedActivation activation = kTfLiteActNone;
  bool bias = false;
};

TfLiteTransposeConvParams Params(const TcCase& c) {
  TfLiteTransposeConvParams p{};
  p.padding = c.padding;
  p.stride_height = c.stride_h;
  p.stride_width = c.stride_w;
  p.activation = c.activation;
  return p;
}

// Output cell (oy, ox) receives input (iy, ix) through filter tap (oy - iy*s + pad, ...).
std::vector<double> Naive(const TcCase& c, const std::vector<float>& in,
                          const std::vector<float>& w, const std::vector<float>& b) {
  const int n = c.input[0], h = c.input[1], wd = c.input[2], ch = c.input[3];
  const int kh = c.filter[1], kw = c.filter[2];
  const int oh = c.output[1], ow = c.output[2], oc = c.output[3];
  auto pad = [&](int out, int k, int s) {
    if (c.padding == kTfLitePaddingValid) return 0;
    const int conv_out = (out + s - 1) / s;
    return std::max(0, (conv_out - 1) * s + k - out) / 2;
  };
  const int ph = pad(oh, kh, c.stride_h), pw = pad(ow, kw, c.stride_w);
  std::vector<double> out;
  for (int bi = 0; bi < n; ++bi)
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x)
        for (int o = 0; o < oc; ++o) {
          double acc = c.bias ? b[o] : 0.0;
          for (int iy = 0; iy < h; ++iy)
            for (int ix = 0; ix < wd; ++ix) {
              const int fy = y - (iy * c.stride_h - ph), fx = x - (ix * c.stride_w - pw);
              if (fy < 0 || fy >= kh || fx < 0 || fx >= kw) continue;
              for (int k = 0; k < ch; ++k) {
                acc += double{in[((bi * h + iy) * wd + ix) * ch + k]} *
                       w[((o * kh + fy) * kw + fx) * ch + k];
              }
            }
          if (c.activation == kTfLiteActRelu) acc = std::max(acc, 0.0);
          out.push_back(acc);
        }
  return out;
}

std::vector<float> RunTc(const TcCase& c, const std::vector<float>& in, const std::vector<float>& w,
                         const std::vector<float>& b, bool const_shape = true) {
  OpModel m;
  const int shape = const_shape ? m.AddConstInput({kTfLiteInt32, {4}}, c.output)
                                : m.AddInput({kTfLiteInt32, {4}});
  m.AddConstInput({kTfLiteFloat32, c.filter}, w);
  const int input = m.AddInput({kTfLiteFloat32, c.input});
  if (c.bias) m.AddConstInput({kTfLiteFloat32, {c.filter[0]}}, b);
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_TRANSPOSE_CONV,
                 tflite::ops::builtin::Register_TRANSPOSE_CONV(), Params(c));
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  if (!const_shape) m.SetInput(shape, c.output);
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), c.output);
  return m.GetOutput<float>(output);
}

TEST(Nn_TransposeConv, HandWorkedSame) {
  TcCase c;
  c.input = {1, 4, 4, 1};
  c.filter = {1, 3, 3, 1};
  c.output = {1, 4, 4, 1};
  std::vector<float> in(16), w(9);
  for (int i = 0; i < 16; ++i) in[i] = i + 1;
  for (int i = 0; i < 9; ++i) w[i] = i + 1;
  // Stride 1 SAME equals a correlation with the 180-degree rotated filter.
  EXPECT_EQ(RunTc(c, in, w, {}), (std::vector<float>{29, 62, 83, 75, 99, 192, 237, 198, 207, 372,
                                                     417, 330, 263, 446, 485, 365}));
}

TEST(Nn_TransposeConv, StridesPaddingBiasActivation) {
  TcCase c;
  c.input = {2, 3, 4, 3};
  c.filter = {2, 3, 2, 3};
  c.output = {2, 6, 8, 2};
  c.stride_h = 2;
  c.stride_w = 2;
  c.bias = true;
  const auto in = nn_test::Random(2 * 3 * 4 * 3, 81), w = nn_test::Random(2 * 3 * 2 * 3, 82);
  const auto b = nn_test::Random(2, 83);
  nn_test::ExpectAllNear(RunTc(c, in, w, b), Naive(c, in, w, b));
  c.padding = kTfLitePaddingValid;
  c.output = {2, 7, 8, 2};
  c.activation = kTfLiteActRelu;
  nn_test::ExpectAllNear(RunTc(c, in, w, b), Naive(c, in, w, b));
  c.stride_h = 3;
  c.stride_w = 1;
  c.output = {2, 9, 4, 2};  // stride 1 SAME keeps the input width (TFLite checks it)
  c.padding = kTfLitePaddingSame;
  nn_test::ExpectAllNear(RunTc(c, in, w, b, /*const_shape=*/false), Naive(c, in, w, b));
}

TEST(Nn_TransposeConv, Rejections) {
  auto error = [](std::vector<int32_t> out_shape, std::vector<int> filter, std::vector<int> input,
                  TfLiteTransposeConvParams p) {
    OpModel m;
    m.AddConstInput({kTfLiteInt32, {static_cast<int>(out_shape.size())}}, out_shape);
    m.AddInput({kTfLiteFloat32, filter});
    m.AddInput({kTfLiteFloat32, input});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_TRANSPOSE_CONV,
                   tflite::ops::builtin::Register_TRANSPOSE_CONV(), p);
    EXPECT_NE(m.Build(), kTfLiteOk);
    return m.error();
  };
  TcCase c;
  const auto good = Params(c);
  EXPECT_NE(error({1, 4, 4, 2}, {2, 3, 3, 3}, {1, 2, 2, 1}, good)
                .find("TRANSPOSE_CONV: weights input channels (3) must equal input channels (1)"),
            std::string::npos);
  EXPECT_NE(error({1, 4, 4, 3}, {2, 3, 3, 1}, {1, 2, 2, 1}, good)
                .find("TRANSPOSE_CONV: output channels (3) must equal"),
            std::string::npos);
  EXPECT_NE(error({1, 0, 4, 2}, {2, 3, 3, 1}, {1, 2, 2, 1}, good)
                .find("TRANSPOSE_CONV: output height and width must be > 0"),
            std::string::npos);
  EXPECT_NE(error({1, 4, 4}, {2, 3, 3, 1}, {1, 2, 2, 1}, good)
                .find("TRANSPOSE_CONV: output_shape must be a 1-D tensor of 4 elements"),
            std::string::npos);
  auto p = good;
  p.stride_width = 0;
  EXPECT_NE(error({1, 4, 4, 2}, {2, 3, 3, 1}, {1, 2, 2, 1}, p)
                .find("TRANSPOSE_CONV: stride_width must be > 0, got 0"),
            std::string::npos);
}

}  // namespace
}  // namespace octet
