// Hybrid TRANSPOSE_CONV (float input, int8 weights per-tensor or per-channel): against the
// float op run on the dequantized weights, within the error of quantizing the input to int8;
// and, on inputs that quantize exactly, bit-for-bit against TFLite's hybrid arithmetic
// (each int32 product times the weight scale times the input scale, summed in float in the
// scatter's order) written out here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ops/nn/transpose_conv_test_util.h"

namespace octet {
namespace {

using tc_test::Geometry;
using testing::OpModel;

struct HybridData {
  std::vector<float> input;
  std::vector<int8_t> weights;
  std::vector<float> scales;  // 1 or oc
  std::vector<float> bias;    // empty: none
};

// Runs TRANSPOSE_CONV with int8 weights (hybrid) or with the weights dequantized (float).
std::vector<float> RunOp(const Geometry& g, const HybridData& d, TfLiteFusedActivation act,
                         bool hybrid, bool dynamic_shape) {
  OpModel m;
  const std::vector<int32_t> out_shape = {g.n, g.oh, g.ow, g.oc};
  const int shape = dynamic_shape ? m.AddInput({kTfLiteInt32, {4}})
                                  : m.AddConstInput({kTfLiteInt32, {4}}, out_shape);
  const std::vector<int> dims = {g.oc, g.kh, g.kw, g.c};
  if (hybrid) {
    m.AddConstInput({kTfLiteInt8, dims, d.scales, std::vector<int>(d.scales.size(), 0), 0},
                    d.weights);
  } else {
    std::vector<float> w(d.weights.size());
    const int64_t per_channel = g.FilterSize() / g.oc;
    for (size_t i = 0; i < w.size(); ++i) {
      w[i] = d.weights[i] * d.scales[d.scales.size() == 1 ? 0 : i / per_channel];
    }
    m.AddConstInput({kTfLiteFloat32, dims}, w);
  }
  const int input = m.AddInput({kTfLiteFloat32, {g.n, g.h, g.w, g.c}});
  if (!d.bias.empty()) m.AddConstInput({kTfLiteFloat32, {g.oc}}, d.bias);
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  tc_test::SetTransposeConv(&m, tc_test::Params(g, act));
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, d.input);
  if (dynamic_shape) m.SetInput(shape, out_shape);
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), (std::vector<int>{g.n, g.oh, g.ow, g.oc}));
  return m.GetOutput<float>(output);
}

HybridData RandomData(const Geometry& g, bool per_channel, bool bias, std::mt19937& rng) {
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  HybridData d;
  d.input.resize(g.InputSize());
  const int64_t per_batch = g.InputSize() / g.n;
  for (int64_t i = 0; i < g.InputSize(); ++i) {
    // Batches of different ranges and an offset, so the zero points differ.
    const int b = static_cast<int>(i / per_batch);
    d.input[i] = (b + 1) * 0.7f * unit(rng) + 0.3f * b;
  }
  d.weights.resize(g.FilterSize());
  for (auto& w : d.weights) w = static_cast<int8_t>(static_cast<int>(rng() % 255) - 127);
  d.scales.resize(per_channel ? g.oc : 1);
  for (auto& s : d.scales) s = 0.001f + 0.02f * (unit(rng) + 1.f);
  if (bias) {
    d.bias.resize(g.oc);
    for (auto& b : d.bias) b = unit(rng);
  }
  return d;
}

TEST(Nn_TransposeConvHybrid, MatchesFloatOpWithinInputQuantizationError) {
  std::mt19937 rng(505);
  for (int trial = 0; trial < 60; ++trial) {
    const Geometry g = tc_test::RandomGeometry(rng);
    const bool per_channel = trial % 2 == 0;
    const TfLiteFusedActivation act = trial % 4 == 1 ? kTfLiteActRelu : kTfLiteActNone;
    const HybridData d = RandomData(g, per_channel, trial % 3 != 0, rng);
    SCOPED_TRACE("trial " + std::to_string(trial) + (per_channel ? " per-channel" : ""));
    const std::vector<float> got = RunOp(g, d, act, /*hybrid=*/true, trial % 5 == 0);
    const std::vector<float> want = RunOp(g, d, act, /*hybrid=*/false, false);
    ASSERT_EQ(got.size(), want.size());

    // Asymmetric int8 quantization of batch b has step (max(0, hi) - min(0, lo)) / 255, so
    // each input moves by at most half of it; an output moves by Σ |w| times that.
    const int64_t per_batch = g.InputSize() / g.n;
    std::vector<double> half_step(g.n);
    for (int b = 0; b < g.n; ++b) {
      const auto first = d.input.begin() + b * per_batch;
      const auto [lo, hi] = std::minmax_element(first, first + per_batch);
      half_step[b] = (std::max(0.f, *hi) - std::min(0.f, *lo)) / 255.0 / 2;
    }
    std::vector<double> bound(got.size(), 0.0), magnitude(got.size(), 0.0);
    tc_test::ForEachProduct(g, [&](int64_t i, int64_t k, int64_t o, int oc) {
      const double w = std::fabs(d.weights[k] * double{d.scales[per_channel ? oc : 0]});
      bound[o] += w * half_step[i / per_batch];
      magnitude[o] += w * std::fabs(d.input[i]);
    });
    for (size_t o = 0; o < got.size(); ++o) {
      const double tolerance = bound[o] * 1.001 + 1e-5 * (magnitude[o] + 1.0);
      ASSERT_NEAR(got[o], want[o], tolerance) << "at output " << o;
    }
  }
}

TEST(Nn_TransposeConvHybrid, ExactlyTFLiteArithmeticOnExactlyQuantizedInputs) {
  std::mt19937 rng(606);
  for (int trial = 0; trial < 30; ++trial) {
    const Geometry g = tc_test::RandomGeometry(rng);
    const bool per_channel = trial % 2 == 1;
    HybridData d = RandomData(g, per_channel, trial % 3 != 1, rng);
    // Inputs code * step with codes -128 and 127 present: TFLite's asymmetric quantization
    // then has zero point 0, scale (max - min) / 255 (in double, rounded to float) and gives
    // back exactly the codes. A step that is not a power of two makes the rounding of
    // (acc * weight_scale) * input_scale visible.
    const int64_t per_batch = g.InputSize() / g.n;
    if (per_batch < 2) continue;  // cannot hold both ends of the range
    const float step = 0.0031f * (trial + 1);
    const float lo = -128 * step, hi = 127 * step;
    const float input_scale = static_cast<float>((double{hi} - double{lo}) / 255.0);
    std::vector<int> codes(g.InputSize());
    for (int64_t i = 0; i < g.InputSize(); ++i) {
      const int64_t j = i % per_batch;
      codes[i] = j == 0 ? -128 : j == 1 ? 127 : static_cast<int>(rng() % 256) - 128;
      d.input[i] = codes[i] * step;
    }
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::vector<float> got = RunOp(g, d, kTfLiteActNone, /*hybrid=*/true, false);

    std::vector<float> want(g.OutputSize(), 0.f);
    tc_test::ForEachProduct(g, [&](int64_t i, int64_t k, int64_t o, int oc) {
      const int32_t acc = codes[i] * int32_t{d.weights[k]};
      float term = static_cast<float>(acc) * d.scales[per_channel ? oc : 0];
      term = term * input_scale;
      want[o] += term;
    });
    if (!d.bias.empty()) {
      for (int64_t o = 0; o < g.OutputSize(); ++o) want[o] += d.bias[o % g.oc];
    }
    ASSERT_EQ(got.size(), want.size());
    for (size_t o = 0; o < got.size(); ++o) ASSERT_EQ(got[o], want[o]) << "at output " << o;
  }
}

}  // namespace
}  // namespace octet
