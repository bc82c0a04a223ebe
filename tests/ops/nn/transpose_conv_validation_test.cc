// TRANSPOSE_CONV prepare-time validation of the quantized and hybrid kernels and of the
// geometry TFLite checks (the output's forward convolution must give back the input): each
// bad model is refused with one clear line, never a crash.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ops/nn/transpose_conv_test_util.h"

namespace octet {
namespace {

using testing::OpModel;
using testing::TensorSpec;

// A 1x2x2x3 int8 input, [2,3,3,3] int8 weights, int32 bias, output [1,4,4,2] (stride 2
// SAME): a valid model each test breaks in one place.
struct Model {
  std::vector<int32_t> out_shape = {1, 4, 4, 2};
  bool dynamic_shape = false;
  TensorSpec input{kTfLiteInt8, {1, 2, 2, 3}, {0.05f}, {3}};
  TensorSpec weights{kTfLiteInt8, {2, 3, 3, 3}, {0.01f}, {0}};
  bool bias = true;
  TensorSpec bias_spec{kTfLiteInt32, {2}, {0.0005f}, {0}};
  TensorSpec output{kTfLiteInt8, {}, {0.1f}, {-2}};
  TfLiteTransposeConvParams params = [] {
    TfLiteTransposeConvParams p{};
    p.padding = kTfLitePaddingSame;
    p.stride_height = p.stride_width = 2;
    p.quantized_bias_type = kTfLiteFloat32;
    return p;
  }();

  // Build's error, or Invoke's when the build succeeds; "" when both do.
  std::string Error() const {
    OpModel m;
    const int shape =
        dynamic_shape
            ? m.AddInput({kTfLiteInt32, {static_cast<int>(out_shape.size())}})
            : m.AddConstInput({kTfLiteInt32, {static_cast<int>(out_shape.size())}}, out_shape);
    int64_t filter = 1;
    for (int d : weights.shape) filter *= d;
    m.AddConstInput(weights, std::vector<uint8_t>(filter * TypeBytes(weights.type), 1));
    m.AddInput(input);
    if (bias) {
      m.AddConstInput(bias_spec,
                      std::vector<uint8_t>(bias_spec.shape[0] * TypeBytes(bias_spec.type), 0));
    }
    m.AddOutput(output);
    tc_test::SetTransposeConv(&m, params);
    if (m.Build() != kTfLiteOk) return m.error().empty() ? "(no message)" : m.error();
    if (dynamic_shape) m.SetInput(shape, out_shape);
    if (m.Invoke() != kTfLiteOk) return m.error().empty() ? "(no message)" : m.error();
    return "";
  }
  static int TypeBytes(TfLiteType t) {
    return t == kTfLiteInt64                          ? 8
           : t == kTfLiteFloat32 || t == kTfLiteInt32 ? 4
           : t == kTfLiteInt16                        ? 2
                                                      : 1;
  }
};

void ExpectError(const Model& m, const std::string& want) {
  const std::string got = m.Error();
  EXPECT_NE(got.find(want), std::string::npos) << "got: " << got << "\nwant: " << want;
}

TEST(Nn_TransposeConvValidation, TheBaseModelsAreValid) {
  Model m;
  EXPECT_EQ(m.Error(), "");
  m.dynamic_shape = true;
  EXPECT_EQ(m.Error(), "");
  Model hybrid;
  hybrid.input = {kTfLiteFloat32, {1, 2, 2, 3}};
  hybrid.output = {kTfLiteFloat32, {}};
  hybrid.bias_spec = {kTfLiteFloat32, {2}};
  EXPECT_EQ(hybrid.Error(), "");
}

TEST(Nn_TransposeConvValidation, ZeroPoints) {
  Model m;
  m.weights.zero_points = {1};
  ExpectError(m, "TRANSPOSE_CONV: INT8 weights '' must be symmetric (zero_point 0)");
  Model i16;
  i16.input = {kTfLiteInt16, {1, 2, 2, 3}, {0.05f}, {0}};
  i16.output = {kTfLiteInt16, {}, {0.1f}, {0}};
  i16.bias_spec.type = kTfLiteInt64;
  EXPECT_EQ(i16.Error(), "");
  i16.input.zero_points = {4};
  ExpectError(i16, "TRANSPOSE_CONV: input '' is int16 and must have zero_point 0, has 4");
  i16.input.zero_points = {0};
  i16.output.zero_points = {-1};
  ExpectError(i16, "TRANSPOSE_CONV: output '' is int16 and must have zero_point 0, has -1");
  Model bias;
  bias.bias_spec.zero_points = {5};
  ExpectError(bias, "zero_point[0] = 5 must be 0");
  Model range;
  range.input.zero_points = {300};
  ExpectError(range, "TRANSPOSE_CONV: input '' zero_point[0] = 300 is outside");
}

TEST(Nn_TransposeConvValidation, PerAxisQuantization) {
  Model count;
  count.weights.scales = {0.01f, 0.02f, 0.03f};
  count.weights.zero_points = {0, 0, 0};
  ExpectError(count, "TRANSPOSE_CONV: weights '' have 3 per-axis scales for 2 channels");
  Model dim;
  dim.weights.shape = {2, 3, 3, 2};
  dim.input.shape = {1, 2, 2, 2};
  dim.weights.scales = {0.01f, 0.02f};
  dim.weights.zero_points = {0, 0};
  dim.weights.quantized_dimension = 3;
  dim.bias = false;
  ExpectError(dim, "TRANSPOSE_CONV: weights '' are quantized along dimension 3, expected 0");
  Model u8;
  u8.input = {kTfLiteUInt8, {1, 2, 2, 3}, {0.05f}, {128}};
  u8.output = {kTfLiteUInt8, {}, {0.1f}, {120}};
  u8.weights = {kTfLiteUInt8, {2, 3, 3, 3}, {0.01f, 0.01f}, {120, 130}};
  ExpectError(u8, "uint8 weights '' must be quantized per-tensor, have 2 scales");
  Model hybrid;
  hybrid.input = {kTfLiteFloat32, {1, 2, 2, 3}};
  hybrid.output = {kTfLiteFloat32, {}};
  hybrid.bias = false;
  hybrid.weights.scales = {0.01f, 0.02f, 0.03f};
  hybrid.weights.zero_points = {0, 0, 0};
  ExpectError(hybrid, "TRANSPOSE_CONV: INT8 weights have 3 scales; expected 1 or 2 along dim");
  hybrid.weights.scales = {0.01f};
  hybrid.weights.zero_points = {7};
  ExpectError(hybrid, "TRANSPOSE_CONV: INT8 weights of a hybrid op must be symmetric");
  Model none;
  none.weights.scales = {};
  none.weights.zero_points = {};
  ExpectError(none, "TRANSPOSE_CONV: weights '' (INT8) has no quantization parameters");
}

TEST(Nn_TransposeConvValidation, BiasTypeAndScale) {
  Model wide;
  wide.bias_spec.type = kTfLiteInt64;
  ExpectError(wide, "TRANSPOSE_CONV: bias type INT64 does not fit INT8 input (needs INT32)");
  Model scale;
  scale.bias_spec.scales = {0.001f};
  ExpectError(scale, "bias '' scale[0] = 0.001 must equal input_scale * weight_scale = 0.0005");
  Model count;
  count.bias_spec.shape = {3};
  ExpectError(count, "TRANSPOSE_CONV: bias has 3 elements, expected 2 (output channels)");
  Model i16;
  i16.input = {kTfLiteInt16, {1, 2, 2, 3}, {0.05f}, {0}};
  i16.output = {kTfLiteInt16, {}, {0.1f}, {0}};
  i16.params.quantized_bias_type = kTfLiteInt32;
  i16.bias_spec.type = kTfLiteInt64;
  ExpectError(i16, "TRANSPOSE_CONV: bias type INT64 does not match quantized_bias_type INT32");
  i16.params.quantized_bias_type = kTfLiteInt8;
  ExpectError(i16, "TRANSPOSE_CONV: quantized_bias_type INT8 must be INT32 or INT64");
  i16.params.quantized_bias_type = kTfLiteInt64;
  i16.bias_spec.type = kTfLiteInt16;
  ExpectError(i16, "TRANSPOSE_CONV: bias type INT16 does not match quantized_bias_type INT64");
  Model hybrid;
  hybrid.input = {kTfLiteFloat32, {1, 2, 2, 3}};
  hybrid.output = {kTfLiteFloat32, {}};
  ExpectError(hybrid, "TRANSPOSE_CONV: bias");  // an INT32 bias with float input
}

TEST(Nn_TransposeConvValidation, TypeCombinations) {
  Model u8w;
  u8w.input = {kTfLiteUInt8, {1, 2, 2, 3}, {0.05f}, {128}};
  u8w.output = {kTfLiteUInt8, {}, {0.1f}, {120}};
  ExpectError(u8w, "TRANSPOSE_CONV: UINT8 input needs UINT8 weights, got INT8");
  Model out;
  out.output = {kTfLiteInt16, {}, {0.1f}, {0}};
  ExpectError(out, "TRANSPOSE_CONV: output type INT16 must match the quantized input type INT8");
  Model float_u8;
  float_u8.input = {kTfLiteFloat32, {1, 2, 2, 3}};
  float_u8.output = {kTfLiteFloat32, {}};
  float_u8.bias = false;
  float_u8.weights = {kTfLiteUInt8, {2, 3, 3, 3}, {0.01f}, {128}};
  ExpectError(float_u8, "TRANSPOSE_CONV: FLOAT32 input needs FLOAT32 or INT8 (hybrid) weights");
  Model i32;
  i32.input = {kTfLiteInt32, {1, 2, 2, 3}};
  ExpectError(i32, "TRANSPOSE_CONV: input type INT32 is not FLOAT32, UINT8, INT8 or INT16");
  Model hybrid_out;
  hybrid_out.input = {kTfLiteFloat32, {1, 2, 2, 3}};
  hybrid_out.bias = false;
  ExpectError(hybrid_out, "TRANSPOSE_CONV: output");  // int8 output of a float op
  Model tanh;
  tanh.params.activation = kTfLiteActTanh;
  ExpectError(tanh, "TRANSPOSE_CONV: unsupported fused activation");
}

TEST(Nn_TransposeConvValidation, Shapes) {
  Model height;
  height.out_shape = {1, 5, 4, 2};  // SAME stride 2 maps 5 rows to 3, not 2
  ExpectError(height, "TRANSPOSE_CONV: output height 5 does not fit input height 2: SAME padding");
  Model width;
  width.params.padding = kTfLitePaddingValid;
  width.out_shape = {1, 5, 4, 2};  // VALID k3 s2: 5 rows -> 2 fits, 4 columns -> 1 does not
  ExpectError(width, "TRANSPOSE_CONV: output width 4 does not fit input width 2: VALID padding");
  width.out_shape = {1, 5, 6, 2};
  EXPECT_EQ(width.Error(), "");
  Model dynamic;
  dynamic.dynamic_shape = true;
  dynamic.out_shape = {1, 4, 9, 2};
  ExpectError(dynamic, "TRANSPOSE_CONV: output width 9 does not fit input width 2");
  dynamic.out_shape = {2, 4, 4, 2};
  ExpectError(dynamic, "TRANSPOSE_CONV: output batch (2) must equal input batch (1)");
  Model channels;
  channels.out_shape = {1, 4, 4, 3};
  ExpectError(channels, "TRANSPOSE_CONV: output channels (3) must equal");
  Model in_channels;
  in_channels.input.shape = {1, 2, 2, 4};
  ExpectError(in_channels, "TRANSPOSE_CONV: weights input channels (3) must equal input channels");
  Model empty;
  empty.input.shape = {1, 0, 2, 3};
  ExpectError(empty, "TRANSPOSE_CONV: input height, width and channels must be > 0");
  Model rank;
  rank.weights.shape = {2, 3, 3};
  ExpectError(rank, "TRANSPOSE_CONV: weights");
  Model stride;
  stride.params.stride_width = 40000;
  ExpectError(stride, "TRANSPOSE_CONV: strides must be <= 32767, got 2 and 40000");
  Model shape_rank;
  shape_rank.out_shape = {1, 4, 4};
  ExpectError(shape_rank, "TRANSPOSE_CONV: output_shape must be a 1-D tensor of 4 elements");
}

}  // namespace
}  // namespace octet
