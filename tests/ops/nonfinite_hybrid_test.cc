// Hybrid (int8 weights, float activations) ops fed NaN, infinities, huge values and
// denormals (docs/nonfinite.md), on every kernel path: the on-the-fly input quantization
// ignores NaN for the range and codes it as the lowest value, and an infinite element makes
// the row's scale infinite, so every output of that row is ±inf or NaN. Outputs must agree
// across paths; FULLY_CONNECTED is also checked against an expectation computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "nonfinite_util.h"
#include "ops/nn/nn_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::nonfinite_test {
namespace {

namespace builtin = tflite::ops::builtin;

std::vector<int8_t> Weights(size_t n, uint32_t seed) {
  std::vector<int8_t> w(n);
  for (auto& x : w) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<int8_t>(seed >> 24);
  }
  return w;
}

// Rows of `depth` values, each exercising one kind of special value.
std::vector<float> HybridRows(int depth) {
  std::vector<float> v;
  auto ordinary = [](int i) { return std::sin(0.7f * static_cast<float>(i)) * 3.f; };
  for (int r = 0; r < 7; ++r) {
    for (int i = 0; i < depth; ++i) {
      float x = ordinary(i + 13 * r);
      if (r == 0 && i % 9 == 4) x = kNaN;      // NaN among numbers
      if (r == 1 && i == depth - 2) x = kInf;  // +inf
      if (r == 2 && (i == 3 || i == depth - 1)) x = i == 3 ? -kInf : kNaN;
      if (r == 3 && i % 11 == 0) x = i % 22 == 0 ? 3e38f : -3e38f;  // huge
      if (r == 4) x = i % 4 == 0 ? 1e-40f : (i % 4 == 1 ? -1e-40f : (i % 4 == 2 ? 0.f : 1e-45f));
      if (r == 5) x = kNaN;  // all NaN
      v.push_back(x);
    }
  }
  return v;
}

testing::NodeOutcome<float> RunFc(const std::vector<float>& in, int rows, int depth, int units,
                                  bool asymmetric, bool per_channel, TfLiteFusedActivation act) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {rows, depth}});
  std::vector<float> scales(per_channel ? units : 1);
  for (size_t i = 0; i < scales.size(); ++i) scales[i] = 0.01f + 0.003f * static_cast<float>(i);
  m.AddConstInput(
      TensorSpec{kTfLiteInt8, {units, depth}, scales, std::vector<int>(scales.size(), 0), 0},
      Weights(static_cast<size_t>(units) * depth, 7));
  std::vector<float> bias(units);
  for (int o = 0; o < units; ++o) bias[o] = 0.25f * static_cast<float>(o) - 0.5f;
  m.AddConstInput<float>({kTfLiteFloat32, {units}}, bias);
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  TfLiteFullyConnectedParams p{};
  p.activation = act;
  p.asymmetric_quantize_inputs = asymmetric;
  m.SetBuiltinOp(tflite::BuiltinOperator_FULLY_CONNECTED, builtin::Register_FULLY_CONNECTED(), p);
  return testing::BuildAndRun<float>(m, output, [&] { m.SetInput(input, in); });
}

// The documented rule for one output, in double: `x` the row, `w` the unit's weights. The
// expected value and a tolerance (1.5 quantization steps per unit of sum |w|: rounding and
// the nudged zero point), or NaN / ±inf when the rule gives a non-finite output, or
// `any_nonfinite` where only that is asserted (an asymmetric row with an infinity).
struct Want {
  double value, tolerance;
  bool any_nonfinite = false;
};
Want ExpectedFc(const float* x, const int8_t* w, int depth, double wscale, double bias,
                bool asymmetric) {
  double lo = 0, hi = 0;
  bool has_inf = false;
  for (int i = 0; i < depth; ++i) {
    if (std::isinf(x[i])) has_inf = true;
    if (!std::isnan(x[i])) lo = std::min<double>(lo, x[i]), hi = std::max<double>(hi, x[i]);
  }
  if (lo == 0 && hi == 0) return {bias, 1e-6};  // all zero / NaN: codes 0, output = bias
  if (has_inf) {
    // Infinite scale, inverse 0: every finite x gets the zero point's code, ±inf and NaN the
    // lowest: dot * inf (NaN when the dot is 0).
    if (asymmetric) return {0, 0, true};
    double dot = 0;
    for (int i = 0; i < depth; ++i) {
      if (!std::isfinite(x[i])) dot += -127.0 * w[i];
    }
    return {dot * HUGE_VAL * wscale + bias, 0};
  }
  // NaN gets the lowest code, which stands for -max|x| (symmetric) or about the widened
  // minimum (asymmetric).
  const double nan_value = asymmetric ? lo : -std::max(-lo, hi);
  const double step = asymmetric ? (hi - lo) / 255 : std::max(-lo, hi) / 127;
  double sum = 0, abs_w = 0;
  for (int i = 0; i < depth; ++i) {
    sum += w[i] * (std::isnan(x[i]) ? nan_value : static_cast<double>(x[i]));
    abs_w += std::abs(w[i]);
  }
  return {sum * wscale + bias, 1.5 * (step * abs_w + 1e-30) * wscale + 1e-6};
}

void CheckFc(bool asymmetric, bool per_channel, TfLiteFusedActivation act) {
  const int rows = 7, depth = 70, units = 5;
  const std::vector<float> in = HybridRows(depth);
  const std::string what = std::string("FULLY_CONNECTED hybrid") +
                           (asymmetric ? " asymmetric" : " symmetric") +
                           (per_channel ? " per-channel" : "") + (act ? " relu" : "");
  const std::vector<float> got = SameOnEveryPath<float>(
      [&] { return RunFc(in, rows, depth, units, asymmetric, per_channel, act); }, what);
  ASSERT_EQ(got.size(), static_cast<size_t>(rows * units)) << what;
  const std::vector<int8_t> w = Weights(static_cast<size_t>(units) * depth, 7);
  for (int r = 0; r < rows; ++r) {
    for (int o = 0; o < units; ++o) {
      const float wscale = per_channel ? 0.01f + 0.003f * static_cast<float>(o) : 0.01f;
      Want want =
          ExpectedFc(&in[r * depth], &w[o * depth], depth, wscale, 0.25 * o - 0.5, asymmetric);
      // The fused activation clamps to [lowest, max] (NONE) or [0, max] (RELU) as TFLite's
      // float activation range: infinities become ±FLT_MAX, NaN stays NaN.
      const bool relu = act == kTfLiteActRelu;
      const double lo = relu ? 0.0 : -FLT_MAX;
      const float g = got[r * units + o];
      const std::string at = what + " row " + std::to_string(r) + " unit " + std::to_string(o);
      if (want.any_nonfinite) {
        EXPECT_TRUE(std::isnan(g) || std::fabs(g) == FLT_MAX || (relu && g == 0.f))
            << at << ": got " << g;
      } else if (std::isnan(want.value)) {
        EXPECT_TRUE(std::isnan(g)) << at << ": got " << g;
      } else if (std::fabs(want.value) > 1.5 * FLT_MAX) {
        EXPECT_EQ(g, std::max(lo, want.value > 0 ? double{FLT_MAX} : -double{FLT_MAX})) << at;
      } else if (std::fabs(want.value) < 0.5 * FLT_MAX) {
        EXPECT_NEAR(g, std::max(lo, want.value), want.tolerance) << at;
      }
    }
  }
}

TEST(NonFiniteHybrid, FullyConnectedSymmetric) {
  CheckFc(false, false, kTfLiteActNone);
  CheckFc(false, true, kTfLiteActRelu);
}

TEST(NonFiniteHybrid, FullyConnectedAsymmetric) {
  CheckFc(true, false, kTfLiteActNone);
  CheckFc(true, true, kTfLiteActRelu);
}

// Images [3, 5, 5, 8]: 0 ordinary with NaN and denormals, 1 with one +inf, 2 with 1e10.
std::vector<float> Images() {
  std::vector<float> v(3 * 5 * 5 * 8);
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::cos(0.37f * static_cast<float>(i));
  v[7] = kNaN;
  v[40] = 1e-40f;
  v[41] = -kNaN;
  v[200 + 77] = kInf;
  v[400 + 3] = 1e10f;
  v[400 + 150] = -1e10f;
  return v;
}

// NaN, ±inf, or an infinity the activation clamped to ±FLT_MAX.
bool Blown(float v) { return !std::isfinite(v) || std::fabs(v) == FLT_MAX; }

// Per image: every output of image 1 (which holds +inf) is blown; no other is.
void ExpectImageFiniteness(const std::vector<float>& out, const std::string& what) {
  ASSERT_FALSE(out.empty()) << what;
  const size_t per_image = out.size() / 3;
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(Blown(out[i]), i / per_image == 1) << what << " at " << i << ": " << out[i];
  }
}

void CheckConv(bool per_channel, bool depthwise) {
  const std::vector<float> in = Images();
  const std::string what = std::string(depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D") + " hybrid" +
                           (per_channel ? " per-channel" : "");
  const std::vector<float> got = SameOnEveryPath<float>(
      [&] {
        OpModel m;
        const int input = m.AddInput({kTfLiteFloat32, {3, 5, 5, 8}});
        const int channels = depthwise ? 8 : 6;
        const std::vector<int> filter =
            depthwise ? std::vector<int>{1, 3, 3, 8} : std::vector<int>{6, 3, 3, 8};
        std::vector<float> scales(per_channel ? channels : 1, 0.02f);
        m.AddConstInput(TensorSpec{kTfLiteInt8, filter, scales, std::vector<int>(scales.size(), 0),
                                   depthwise ? 3 : 0},
                        Weights(72 * (depthwise ? 1 : 6), 3));
        m.AddConstInput<float>({kTfLiteFloat32, {channels}}, std::vector<float>(channels, 0.1f));
        const int output = m.AddOutput({kTfLiteFloat32, {}});
        if (depthwise) {
          TfLiteDepthwiseConvParams p{};
          p.padding = kTfLitePaddingSame;
          p.stride_width = p.stride_height = 1;
          p.dilation_width_factor = p.dilation_height_factor = 1;
          p.depth_multiplier = 1;
          m.SetBuiltinOp(tflite::BuiltinOperator_DEPTHWISE_CONV_2D,
                         builtin::Register_DEPTHWISE_CONV_2D(), p);
        } else {
          TfLiteConvParams p{};
          p.padding = kTfLitePaddingSame;
          p.stride_width = p.stride_height = 1;
          p.dilation_width_factor = p.dilation_height_factor = 1;
          m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D, builtin::Register_CONV_2D(), p);
        }
        return testing::BuildAndRun<float>(m, output, [&] { m.SetInput(input, in); });
      },
      what);
  ExpectImageFiniteness(got, what);
}

TEST(NonFiniteHybrid, Conv2d) {
  CheckConv(false, false);
  CheckConv(true, false);
}

TEST(NonFiniteHybrid, DepthwiseConv2d) {
  CheckConv(false, true);
  CheckConv(true, true);
}

TEST(NonFiniteHybrid, BatchMatMul) {
  const std::vector<float> in = Images();  // as [3, 25, 8]: one matrix per image
  for (bool asymmetric : {false, true}) {
    const std::string what = std::string("BATCH_MATMUL hybrid") + (asymmetric ? " asym" : "");
    const std::vector<float> got = SameOnEveryPath<float>(
        [&] {
          OpModel m;
          const int lhs = m.AddInput({kTfLiteFloat32, {3, 25, 8}});
          m.AddConstInput(TensorSpec{kTfLiteInt8, {8, 12}, {0.05f}, {0}}, Weights(96, 11));
          const int output = m.AddOutput({kTfLiteFloat32, {}});
          TfLiteBatchMatMulParams p{};
          p.asymmetric_quantize_inputs = asymmetric;
          m.SetBuiltinOp(tflite::BuiltinOperator_BATCH_MATMUL, builtin::Register_BATCH_MATMUL(), p);
          return testing::BuildAndRun<float>(m, output, [&] { m.SetInput(lhs, in); });
        },
        what);
    // Rows are quantized one by one: only the row holding +inf (image 1, row 77 / 8 = 9) is
    // non-finite.
    ASSERT_EQ(got.size(), 3u * 25 * 12) << what;
    for (size_t i = 0; i < got.size(); ++i) {
      const bool inf_row = i / 12 == 25 + 9;
      EXPECT_EQ(Blown(got[i]), inf_row) << what << " at " << i << ": " << got[i];
    }
  }
}

TEST(NonFiniteHybrid, SvdfOverSeveralInvokes) {
  const int batch = 3, input_size = 40, filters = 4, memory = 3;
  std::vector<float> in(batch * input_size);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.3f * static_cast<float>(i));
  in[5] = kNaN;               // batch 0: NaN among numbers
  in[input_size + 7] = kInf;  // batch 1: +inf
  in[2 * input_size + 1] = 1e-40f;
  for (bool asymmetric : {false, true}) {
    const std::string what = std::string("SVDF hybrid") + (asymmetric ? " asym" : "");
    const std::vector<float> got = SameOnEveryPath<float>(
        [&] {
          OpModel m;
          const int input = m.AddInput({kTfLiteFloat32, {batch, input_size}});
          m.AddConstInput(TensorSpec{kTfLiteInt8, {filters, input_size}, {0.02f}, {0}},
                          Weights(filters * input_size, 5));
          m.AddConstInput(TensorSpec{kTfLiteInt8, {filters, memory}, {0.03f}, {0}},
                          Weights(filters * memory, 9));
          m.AddConstInput<float>({kTfLiteFloat32, {filters}}, std::vector<float>(filters, 0.1f));
          m.AddVariableInput({kTfLiteFloat32, {batch, memory * filters}});
          const int output = m.AddOutput({kTfLiteFloat32, {}});
          TfLiteSVDFParams p{};
          p.rank = 1;
          p.asymmetric_quantize_inputs = asymmetric;
          m.SetBuiltinOp(tflite::BuiltinOperator_SVDF, builtin::Register_SVDF(), p);
          return testing::BuildAndRun<float>(
              m, output, [&] { m.SetInput(input, in); }, /*invokes=*/3);
        },
        what);
    ASSERT_EQ(got.size(), static_cast<size_t>(batch * filters)) << what;
    for (int b = 0; b < batch; ++b) {
      for (int u = 0; u < filters; ++u) {
        EXPECT_EQ(Blown(got[b * filters + u]), b == 1) << what << " batch " << b;
      }
    }
  }
}

}  // namespace
}  // namespace octet::nonfinite_test
