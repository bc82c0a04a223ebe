// The hybrid (int8 weights, float activations) CONV_2D and FULLY_CONNECTED on the quantized
// GEMM kernels, per node, on every kernel path this CPU runs: random nodes through the builtin
// registration must give the same float bits as the *_REF registration (the integer sums are
// exact and the float finish repeats the reference's), with per-tensor and per-channel
// weights, symmetric and asymmetric inputs, padding, strides, dilation and batches.
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
using Outcome = testing::NodeOutcome<float>;
using testing::OptimizedPaths;
namespace builtin = tflite::ops::builtin;

struct HybridCase {
  bool conv = true;
  std::vector<int> input, filter;
  int channels = 1;
  bool per_channel = false;
  bool asymmetric = false;  // FULLY_CONNECTED's option (convolutions follow per_channel)
  bool with_bias = true;
  int stride = 1, dilation = 1;
  TfLitePadding padding = kTfLitePaddingSame;
  TfLiteFusedActivation activation = kTfLiteActNone;
  float input_shift = 0.f;  // inputs in [-1, 1] + shift: zero points away from the middle
  std::string Describe() const {
    std::string s = conv ? "conv in" : "fc in";
    for (int d : input) s += " " + std::to_string(d);
    s += " filter";
    for (int d : filter) s += " " + std::to_string(d);
    return s + (per_channel ? " per-channel" : " per-tensor") + (asymmetric ? " asym" : "") + " s" +
           std::to_string(stride) + " d" + std::to_string(dilation);
  }
};

size_t Count(const std::vector<int>& shape) {
  size_t n = 1;
  for (int d : shape) n *= static_cast<size_t>(d);
  return n;
}

Outcome RunNode(const HybridCase& c, bool reference, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  std::uniform_real_distribution<float> scale(0.001f, 0.05f);
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, c.input});
  std::vector<int8_t> weights(Count(c.filter));
  for (int8_t& w : weights) w = static_cast<int8_t>(rng());
  weights[0] = -128;
  std::vector<float> scales(c.per_channel ? c.channels : 1);
  for (float& s : scales) s = scale(rng);
  m.AddConstInput({kTfLiteInt8, c.filter, scales, std::vector<int>(scales.size(), 0), 0},
                  weights.data(), weights.size());
  if (c.with_bias) {
    std::vector<float> bias(c.channels);
    for (float& b : bias) b = unit(rng);
    m.AddConstInput<float>({kTfLiteFloat32, {c.channels}}, bias);
  } else {
    m.AddNullInput();
  }
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  if (c.conv) {
    TfLiteConvParams p{};
    p.padding = c.padding;
    p.stride_width = p.stride_height = c.stride;
    p.dilation_width_factor = p.dilation_height_factor = c.dilation;
    p.activation = c.activation;
    m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D,
                   reference ? builtin::Register_CONV_2D_REF() : builtin::Register_CONV_2D(), p);
  } else {
    TfLiteFullyConnectedParams p{};
    p.activation = c.activation;
    p.asymmetric_quantize_inputs = c.asymmetric;
    m.SetBuiltinOp(
        tflite::BuiltinOperator_FULLY_CONNECTED,
        reference ? builtin::Register_FULLY_CONNECTED_REF() : builtin::Register_FULLY_CONNECTED(),
        p);
  }
  return testing::BuildAndRun<float>(m, output, [&] {
    std::vector<float> in(Count(c.input));
    for (float& x : in) x = unit(rng) + c.input_shift;
    m.SetInput(input, in);
  });
}

HybridCase RandomCase(int trial, std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  HybridCase c;
  c.conv = trial % 3 != 2;
  c.per_channel = trial % 2 == 0;
  c.asymmetric = !c.conv && trial % 4 == 2;
  c.with_bias = trial % 5 != 0;
  c.activation = trial % 4 == 1 ? kTfLiteActRelu : kTfLiteActNone;
  c.input_shift = trial % 3 == 0 ? 0.f : (trial % 3 == 1 ? 0.7f : -0.4f);
  c.channels = pick(1, 70);
  if (c.conv) {
    c.stride = pick(1, 2);
    c.dilation = trial % 7 == 0 ? 2 : 1;
    c.padding = trial % 2 ? kTfLitePaddingSame : kTfLitePaddingValid;
    const int kh = pick(1, 5), kw = pick(1, 4), in_c = pick(1, 40);
    c.input = {pick(1, 2), pick(1, 12) + (kh - 1) * c.dilation, pick(1, 12) + (kw - 1) * c.dilation,
               in_c};
    c.filter = {c.channels, kh, kw, in_c};
  } else {
    const int depth = pick(1, 400);
    c.input = {pick(1, 5), depth};
    c.filter = {c.channels, depth};
  }
  return c;
}

TEST(HybridGluePaths, NodesGiveTheReferenceBitsOnEveryPath) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 80; ++trial) {
    const HybridCase c = RandomCase(trial, rng);
    const uint32_t seed = 900 + trial;
    const Outcome want = RunNode(c, true, seed);
    ASSERT_TRUE(want.error.empty()) << c.Describe() << ": " << want.error;
    for (cpu::Isa isa : OptimizedPaths()) {
      IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      const Outcome got = RunNode(c, false, seed);
      ASSERT_TRUE(got.error.empty()) << c.Describe() << ": " << got.error;
      EXPECT_EQ(got.kernel.substr(0, 5), "qgemm") << c.Describe() << ": " << got.kernel;
      ASSERT_EQ(got.output.size(), want.output.size()) << c.Describe();
      ASSERT_EQ(
          std::memcmp(got.output.data(), want.output.data(), got.output.size() * sizeof(float)), 0)
          << c.Describe() << " on " << cpu::IsaName(isa) << " (" << got.kernel << ")";
    }
  }
}

}  // namespace
}  // namespace octet
