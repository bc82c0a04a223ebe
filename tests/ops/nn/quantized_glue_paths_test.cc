// The quantized weighted glue's variant choice, per node, on every kernel path this CPU runs:
// random single-node CONV_2D / DEPTHWISE_CONV_2D graphs through the builtin registration must
// give the bytes of the same graph on the *_REF registration. The micro-kernels have their own
// differential tests (tests/kernels/optimized); these cover what the glue adds on top — which
// kernel a node gets and how its weights are rearranged for it (a one-channel depthwise runs
// as a convolution on the GEMM kernel).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "octet/kernel_info.h"
#include "ops/nn/nn_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/kernel_paths.h"
#include "util/node_outcome.h"
#include "util/op_model.h"

namespace octet {
namespace {

using testing::IsaScope;
using testing::OpModel;
using Outcome = testing::NodeOutcome<uint8_t>;
using testing::OptimizedPaths;
using testing::TensorSpec;

struct DepthwiseCase {
  bool is_signed = true;
  int batches = 1, in_h = 1, in_w = 1, in_c = 1, multiplier = 1;
  int kernel_h = 1, kernel_w = 1, stride = 1, dilation = 1;
  TfLitePadding padding = kTfLitePaddingSame;
  TfLiteFusedActivation activation = kTfLiteActNone;
  bool per_channel = true;
  int input_zero_point = 0, output_zero_point = 0, weight_zero_point = 0;
};

Outcome RunDepthwise(const DepthwiseCase& c, const TfLiteRegistration* registration,
                     uint32_t seed) {
  const int channels = c.in_c * c.multiplier;
  const TfLiteType type = c.is_signed ? kTfLiteInt8 : kTfLiteUInt8;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> scale(0.002f, 0.05f);
  const float input_scale = scale(rng);
  std::vector<float> weight_scales(c.per_channel ? channels : 1);
  for (float& s : weight_scales) s = scale(rng);

  OpModel m;
  const int input =
      m.AddInput({type, {c.batches, c.in_h, c.in_w, c.in_c}, {input_scale}, {c.input_zero_point}});
  std::vector<uint8_t> weights(static_cast<size_t>(c.kernel_h) * c.kernel_w * channels);
  for (uint8_t& w : weights) w = static_cast<uint8_t>(rng());
  if (c.is_signed) weights[0] = 0x80;  // -128: the value a saturating pair sum would break
  m.AddConstInput({type,
                   {1, c.kernel_h, c.kernel_w, channels},
                   weight_scales,
                   std::vector<int>(weight_scales.size(), c.weight_zero_point),
                   3},
                  weights.data(), weights.size());
  std::vector<int32_t> bias(channels);
  std::vector<float> bias_scales;
  for (int i = 0; i < channels; ++i) {
    bias[i] = static_cast<int32_t>(rng() % 20001) - 10000;
    if (c.per_channel || i == 0) bias_scales.push_back(input_scale * weight_scales[i]);
  }
  m.AddConstInput<int32_t>(
      {kTfLiteInt32, {channels}, bias_scales, std::vector<int>(bias_scales.size(), 0), 0}, bias);
  const int output =
      m.AddOutput({type, {}, {input_scale * 40.f * scale(rng)}, {c.output_zero_point}});
  TfLiteDepthwiseConvParams p{};
  p.padding = c.padding;
  p.stride_width = p.stride_height = c.stride;
  p.dilation_width_factor = p.dilation_height_factor = c.dilation;
  p.depth_multiplier = c.multiplier;
  p.activation = c.activation;
  m.SetBuiltinOp(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, registration, p);
  return testing::BuildAndRun<uint8_t>(m, output, [&] {
    std::vector<uint8_t> in(static_cast<size_t>(c.batches) * c.in_h * c.in_w * c.in_c);
    for (uint8_t& v : in) v = static_cast<uint8_t>(rng());
    m.SetInput(input, in);
  });
}

std::string Describe(const DepthwiseCase& c) {
  return std::string(c.is_signed ? "int8" : "uint8") + " in " + std::to_string(c.batches) + "x" +
         std::to_string(c.in_h) + "x" + std::to_string(c.in_w) + "x" + std::to_string(c.in_c) +
         " dm " + std::to_string(c.multiplier) + " k " + std::to_string(c.kernel_h) + "x" +
         std::to_string(c.kernel_w) + " s" + std::to_string(c.stride) + " d" +
         std::to_string(c.dilation) + (c.padding == kTfLitePaddingSame ? " SAME" : " VALID");
}

// Random depthwise nodes, most with one input channel (the GEMM route) and some with more.
TEST(QuantizedGluePaths, DepthwiseNodesMatchTheReferenceOnEveryPath) {
  std::mt19937 rng(77);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  int gemm_routed = 0;
  for (int trial = 0; trial < 60; ++trial) {
    DepthwiseCase c;
    c.is_signed = trial % 4 != 3;
    c.batches = pick(1, 2);
    c.in_h = pick(1, 19);
    c.in_w = pick(1, 17);
    c.in_c = trial % 3 == 2 ? pick(2, 9) : 1;
    c.multiplier = trial % 5 == 0 ? 1 : pick(2, 70);
    c.kernel_h = pick(1, 10);
    c.kernel_w = pick(1, 8);
    c.stride = pick(1, 2);
    c.dilation = trial % 7 == 0 ? 2 : 1;
    c.padding = trial % 2 ? kTfLitePaddingSame : kTfLitePaddingValid;
    if (c.padding == kTfLitePaddingValid) {
      c.in_h += (c.kernel_h - 1) * c.dilation;
      c.in_w += (c.kernel_w - 1) * c.dilation;
    }
    c.activation = trial % 3 == 0 ? kTfLiteActRelu6 : kTfLiteActNone;
    c.per_channel = c.is_signed && trial % 2 == 0;
    const int lo = c.is_signed ? -128 : 0, hi = c.is_signed ? 127 : 255;
    c.input_zero_point = trial % 6 == 0 ? lo : trial % 6 == 1 ? hi : pick(lo, hi);
    c.output_zero_point = pick(lo, hi);
    c.weight_zero_point = c.is_signed ? 0 : pick(0, 255);
    const uint32_t seed = 1000 + trial;
    const Outcome want =
        RunDepthwise(c, tflite::ops::builtin::Register_DEPTHWISE_CONV_2D_REF(), seed);
    ASSERT_TRUE(want.error.empty()) << Describe(c) << ": " << want.error;
    for (cpu::Isa isa : OptimizedPaths()) {
      IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      const Outcome got = RunDepthwise(c, tflite::ops::builtin::Register_DEPTHWISE_CONV_2D(), seed);
      ASSERT_TRUE(got.error.empty()) << Describe(c) << ": " << got.error;
      ASSERT_EQ(got.output, want.output)
          << Describe(c) << " on " << cpu::IsaName(isa) << " (" << got.kernel << ")";
      if (c.in_c == 1 && c.multiplier > 1) {
        EXPECT_NE(got.kernel.find("qgemm"), std::string::npos) << Describe(c) << ": " << got.kernel;
        ++gemm_routed;
      }
    }
  }
  EXPECT_GT(gemm_routed, 0);
}

// Convolutions with few output pixels (classifier heads: a 1x1 CONV_2D on a 1x1 image, and
// small KxK ones) take the byte-weight GEMM kernel, as batch-1 FULLY_CONNECTED does: the
// weights are read once, so their size is the cost. Same bytes as the reference on every path.
Outcome RunSmallConv(bool is_signed, int in_hw, int in_c, int kernel, int out_c, int filter_zp,
                     const TfLiteRegistration* registration, uint32_t seed) {
  const TfLiteType type = is_signed ? kTfLiteInt8 : kTfLiteUInt8;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> scale(0.002f, 0.05f);
  const float input_scale = scale(rng);
  const std::vector<float> weight_scales(is_signed ? out_c : 1, scale(rng));
  OpModel m;
  const int input_zp = is_signed ? -128 + static_cast<int>(rng() % 256) : 255;
  const int input = m.AddInput({type, {1, in_hw, in_hw, in_c}, {input_scale}, {input_zp}});
  std::vector<uint8_t> weights(static_cast<size_t>(out_c) * kernel * kernel * in_c);
  for (uint8_t& w : weights) w = static_cast<uint8_t>(rng());
  weights[0] = is_signed ? 0x80 : 0;
  m.AddConstInput({type,
                   {out_c, kernel, kernel, in_c},
                   weight_scales,
                   std::vector<int>(weight_scales.size(), filter_zp),
                   0},
                  weights.data(), weights.size());
  std::vector<int32_t> bias(out_c);
  for (int32_t& b : bias) b = static_cast<int32_t>(rng() % 20001) - 10000;
  std::vector<float> bias_scales;
  for (float w : weight_scales) bias_scales.push_back(input_scale * w);
  m.AddConstInput<int32_t>(
      {kTfLiteInt32, {out_c}, bias_scales, std::vector<int>(bias_scales.size(), 0), 0}, bias);
  const int output =
      m.AddOutput({type, {}, {input_scale * 30.f * scale(rng)}, {is_signed ? 3 : 128}});
  TfLiteConvParams p{};
  p.padding = kTfLitePaddingSame;
  p.stride_width = p.stride_height = 1;
  p.dilation_width_factor = p.dilation_height_factor = 1;
  m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D, registration, p);
  return testing::BuildAndRun<uint8_t>(m, output, [&] {
    std::vector<uint8_t> in(static_cast<size_t>(in_hw) * in_hw * in_c);
    for (uint8_t& v : in) v = static_cast<uint8_t>(rng());
    m.SetInput(input, in);
  });
}

TEST(QuantizedGluePaths, FewPixelConvolutionsTakeByteWeightsAndMatchTheReference) {
  struct Case {
    bool is_signed;
    int in_hw, in_c, kernel, out_c, filter_zp;
  };
  const Case cases[] = {{true, 1, 1024, 1, 1001, 0}, {false, 1, 1024, 1, 1001, 131},
                        {false, 1, 37, 1, 9, 255},   {true, 2, 20, 3, 40, 0},
                        {false, 2, 9, 3, 17, 0},     {true, 2, 16, 1, 24, 0}};
  uint32_t seed = 500;
  for (const Case& c : cases) {
    ++seed;
    const std::string what = std::string(c.is_signed ? "int8" : "uint8") + " " +
                             std::to_string(c.in_hw) + "x" + std::to_string(c.in_hw) + "x" +
                             std::to_string(c.in_c) + " k" + std::to_string(c.kernel) + " -> " +
                             std::to_string(c.out_c);
    const Outcome want = RunSmallConv(c.is_signed, c.in_hw, c.in_c, c.kernel, c.out_c, c.filter_zp,
                                      tflite::ops::builtin::Register_CONV_2D_REF(), seed);
    ASSERT_TRUE(want.error.empty()) << what << ": " << want.error;
    for (cpu::Isa isa : OptimizedPaths()) {
      IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      const Outcome got = RunSmallConv(c.is_signed, c.in_hw, c.in_c, c.kernel, c.out_c, c.filter_zp,
                                       tflite::ops::builtin::Register_CONV_2D(), seed);
      ASSERT_TRUE(got.error.empty()) << what << ": " << got.error;
      ASSERT_EQ(got.output, want.output)
          << what << " on " << cpu::IsaName(isa) << " (" << got.kernel << ")";
      if (isa == cpu::Isa::kAvx2) {
        EXPECT_NE(got.kernel.find("_w8"), std::string::npos) << what << ": " << got.kernel;
      }
    }
  }
}

}  // namespace
}  // namespace octet
