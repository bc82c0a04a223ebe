// The hybrid (int8 filter, float activations) DEPTHWISE_CONV_2D on the quantized depthwise
// kernels' raw int32 mode, per node, on every kernel path this CPU runs: random nodes through
// the builtin registration must give the same float bits as Register_DEPTHWISE_CONV_2D_REF
// (exact integer sums, the reference's float finish) over batches, channels, depth
// multipliers, kernel sizes, strides, dilations, padding, bias, activations and inputs whose
// zero points sit anywhere in [-128, 127]; the reference stays pinned where it is asked for.
#include <gtest/gtest.h>

#include <cstring>
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
using testing::OptimizedPaths;
using Outcome = testing::NodeOutcome<float>;
namespace builtin = tflite::ops::builtin;

struct DwCase {
  std::vector<int> input;  // NHWC
  int kernel_h = 3, kernel_w = 3, multiplier = 1;
  int stride = 1, dilation = 1;
  TfLitePadding padding = kTfLitePaddingSame;
  TfLiteFusedActivation activation = kTfLiteActNone;
  bool per_channel = true;
  bool with_bias = true;
  float lo = -1.f, hi = 1.f;  // input range: where the zero point lands
  std::string Describe() const {
    std::string s = "in";
    for (int d : input) s += " " + std::to_string(d);
    return s + " k" + std::to_string(kernel_h) + "x" + std::to_string(kernel_w) + " dm" +
           std::to_string(multiplier) + " s" + std::to_string(stride) + " d" +
           std::to_string(dilation) + (padding == kTfLitePaddingSame ? " same" : " valid") +
           " act" + std::to_string(activation) + (per_channel ? " per-channel" : " per-tensor") +
           (with_bias ? " bias" : "") + " range [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]";
  }
};

size_t Count(const std::vector<int>& shape) {
  size_t n = 1;
  for (int d : shape) n *= static_cast<size_t>(d);
  return n;
}

// Builds and runs the node; with `resized`, invokes once, resizes the input to it and runs
// again (a re-prepare on the packing cache).
Outcome RunNode(const DwCase& c, bool reference, uint32_t seed,
                const std::vector<int>& resized = {}) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  std::uniform_real_distribution<float> in_range(c.lo, c.hi);
  std::uniform_real_distribution<float> scale(0.001f, 0.05f);
  const int channels = c.input[3] * c.multiplier;
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, c.input});
  const std::vector<int> filter = {1, c.kernel_h, c.kernel_w, channels};
  std::vector<int8_t> weights(Count(filter));
  for (int8_t& w : weights) w = static_cast<int8_t>(rng());
  weights[0] = -128;
  std::vector<float> scales(c.per_channel ? channels : 1);
  for (float& s : scales) s = scale(rng);
  m.AddConstInput({kTfLiteInt8, filter, scales, std::vector<int>(scales.size(), 0), 3},
                  weights.data(), weights.size());
  if (c.with_bias) {
    std::vector<float> bias(channels);
    for (float& b : bias) b = unit(rng);
    m.AddConstInput<float>({kTfLiteFloat32, {channels}}, bias);
  } else {
    m.AddNullInput();
  }
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  TfLiteDepthwiseConvParams p{};
  p.padding = c.padding;
  p.stride_width = p.stride_height = c.stride;
  p.dilation_width_factor = p.dilation_height_factor = c.dilation;
  p.depth_multiplier = c.multiplier;
  p.activation = c.activation;
  m.SetBuiltinOp(
      tflite::BuiltinOperator_DEPTHWISE_CONV_2D,
      reference ? builtin::Register_DEPTHWISE_CONV_2D_REF() : builtin::Register_DEPTHWISE_CONV_2D(),
      p);
  auto feed = [&](const std::vector<int>& shape) {
    std::vector<float> in(Count(shape));
    for (float& x : in) x = in_range(rng);
    m.SetInput(input, in);
  };
  Outcome first = testing::BuildAndRun<float>(m, output, [&] { feed(c.input); });
  if (resized.empty() || !first.error.empty()) return first;
  Outcome second;
  if (m.ResizeInput(input, resized) != kTfLiteOk || m.Invoke() != kTfLiteOk) {
    second.error = m.error();
    return second;
  }
  second.output = m.GetOutput<float>(output);
  second.kernel = GetNodeKernelName(m.interpreter()->primary_subgraph(), 0);
  return second;
}

DwCase RandomCase(int trial, std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  static const int kMultipliers[] = {1, 1, 1, 2, 3, 4};
  DwCase c;
  c.kernel_h = pick(1, 5);
  c.kernel_w = trial % 4 == 0 ? pick(1, 5) : c.kernel_h;
  c.multiplier = kMultipliers[rng() % 6];
  c.stride = pick(1, 2);
  c.dilation = trial % 6 == 0 ? 2 : 1;
  c.padding = trial % 2 ? kTfLitePaddingSame : kTfLitePaddingValid;
  c.activation =
      trial % 4 == 1 ? kTfLiteActRelu : (trial % 4 == 3 ? kTfLiteActRelu6 : kTfLiteActNone);
  c.per_channel = trial % 5 != 0;
  c.with_bias = trial % 3 != 0;
  // All-positive, all-negative and mixed inputs: zero points at -128, 127 and between.
  static const float kRanges[][2] = {{-1.f, 1.f}, {0.2f, 1.5f}, {-2.f, -0.3f}, {-0.2f, 3.f}};
  c.lo = kRanges[trial % 4][0];
  c.hi = kRanges[trial % 4][1];
  const int in_c = trial % 7 == 0 ? pick(1, 2) : pick(1, 70);
  c.input = {pick(1, 3), pick(1, 10) + (c.kernel_h - 1) * c.dilation,
             pick(1, 10) + (c.kernel_w - 1) * c.dilation, in_c};
  return c;
}

void ExpectSameBits(const Outcome& got, const Outcome& want, const std::string& what) {
  ASSERT_TRUE(got.error.empty()) << what << ": " << got.error;
  ASSERT_EQ(got.output.size(), want.output.size()) << what;
  ASSERT_EQ(std::memcmp(got.output.data(), want.output.data(), got.output.size() * sizeof(float)),
            0)
      << what << " (" << got.kernel << ")";
}

TEST(HybridDepthwisePaths, NodesGiveTheReferenceBitsOnEveryPath) {
  std::mt19937 rng(29);
  for (int trial = 0; trial < 90; ++trial) {
    const DwCase c = RandomCase(trial, rng);
    const uint32_t seed = 1300 + trial;
    const Outcome want = RunNode(c, true, seed);
    ASSERT_TRUE(want.error.empty()) << c.Describe() << ": " << want.error;
    EXPECT_EQ(want.kernel, "reference") << c.Describe();
    for (cpu::Isa isa : OptimizedPaths()) {
      IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      const Outcome got = RunNode(c, false, seed);
      EXPECT_EQ(got.kernel.substr(0, 3), "qdw") << c.Describe() << ": " << got.kernel;
      ExpectSameBits(got, want, c.Describe() + " on " + cpu::IsaName(isa));
      if (HasFatalFailure()) return;
    }
  }
}

// A resize re-prepares the node on its packing cache: still the reference's bits.
TEST(HybridDepthwisePaths, ResizedInputKeepsTheReferenceBits) {
  DwCase c;
  c.input = {1, 7, 6, 24};
  c.multiplier = 2;
  const std::vector<int> resized = {2, 9, 5, 24};
  const Outcome want = RunNode(c, true, 5, resized);
  ASSERT_TRUE(want.error.empty()) << want.error;
  ASSERT_EQ(want.output.size(), Count({2, 9, 5, 48}));
  for (cpu::Isa isa : OptimizedPaths()) {
    IsaScope scope(isa);
    ASSERT_TRUE(scope.ok);
    const Outcome got = RunNode(c, false, 5, resized);
    EXPECT_EQ(got.kernel.substr(0, 3), "qdw") << got.kernel;
    ExpectSameBits(got, want, std::string("resized on ") + cpu::IsaName(isa));
  }
}

// An all-zero image quantizes with scale 1 and zero point 0: bias (and the clamp) only.
TEST(HybridDepthwisePaths, ZeroImageGivesTheBias) {
  DwCase c;
  c.input = {2, 4, 4, 5};
  c.lo = c.hi = 0.f;
  const Outcome want = RunNode(c, true, 8);
  ASSERT_TRUE(want.error.empty()) << want.error;
  for (cpu::Isa isa : OptimizedPaths()) {
    IsaScope scope(isa);
    const Outcome got = RunNode(c, false, 8);
    ExpectSameBits(got, want, std::string("zero image on ") + cpu::IsaName(isa));
  }
}

// OCTET_ISA=reference and the _REF registration keep the reference kernel.
TEST(HybridDepthwisePaths, ReferenceStaysPinned) {
  DwCase c;
  c.input = {1, 5, 5, 16};
  {
    IsaScope scope(cpu::Isa::kReference);
    ASSERT_TRUE(scope.ok);
    EXPECT_EQ(RunNode(c, false, 3).kernel, "reference");
  }
  for (cpu::Isa isa : OptimizedPaths()) {
    IsaScope scope(isa);
    EXPECT_EQ(RunNode(c, true, 3).kernel, "reference") << cpu::IsaName(isa);
  }
}

}  // namespace
}  // namespace octet
