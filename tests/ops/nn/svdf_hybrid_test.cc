// Hybrid SVDF (float input/state/output, int8 weights_feature and weights_time):
//  - the reference kernel and the op (reference path) against an independent computation of
//    TFLite's hybrid math: inputs quantized per batch row as TFLite does (symmetric, or
//    asymmetric with a zero point), exact integer dot products and zero-point corrections,
//    then everything else in double, over several invokes (the state persists);
//  - hand-worked cases whose quantized values and integer sums are computed by hand;
//  - the op on every optimized kernel path against the reference path, bit for bit (outputs
//    and state), over random shapes and options;
//  - prepare's one-line rejections.
#include "kernels/reference/svdf_hybrid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "octet/kernel_info.h"
#include "ops/nn/hybrid_recurrent_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/kernel_paths.h"
#include "util/op_model.h"

namespace tflite::ops::builtin {
TfLiteRegistration* Register_SVDF();
}

namespace octet {
namespace {

using hybrid_test::QuantizeRow;
using hybrid_test::RowQuant;
using testing::IsaScope;
using testing::OpModel;
using testing::TensorSpec;

// ---- an independent model of TFLite's hybrid SVDF ----

struct Config {
  int batch = 2, input_size = 5, num_filters = 6, rank = 2, memory = 3;
  bool asymmetric = false, bias = true;
  TfLiteFusedActivation activation = kTfLiteActNone;
  int units() const { return num_filters / rank; }
};

struct Weights {
  std::vector<int8_t> feature, time;
  float feature_scale = 0.f, time_scale = 0.f;
  std::vector<float> bias;
};

Weights MakeWeights(const Config& c, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> scale(0.002f, 0.05f), unit(-1.f, 1.f);
  Weights w;
  w.feature.resize(size_t(c.num_filters) * c.input_size);
  w.time.resize(size_t(c.num_filters) * c.memory);
  for (auto& v : w.feature) v = static_cast<int8_t>(rng());
  for (auto& v : w.time) v = static_cast<int8_t>(rng());
  w.feature[0] = -128;
  w.feature_scale = scale(rng);
  w.time_scale = scale(rng) * 20;
  if (c.bias) {
    w.bias.resize(c.units());
    for (auto& b : w.bias) b = unit(rng);
  }
  return w;
}

double Activate(TfLiteFusedActivation a, double v) {
  switch (a) {
    case kTfLiteActRelu:
      return std::max(0.0, v);
    case kTfLiteActTanh:
      return std::tanh(v);
    case kTfLiteActSigmoid:
      return 1.0 / (1.0 + std::exp(-v));
    default:
      return v;
  }
}

// History per batch and filter (oldest first), feature outputs from exact integer sums.
struct TruthSvdf {
  Config c;
  Weights w;
  std::vector<std::deque<double>> history;

  TruthSvdf(const Config& config, const Weights& weights) : c(config), w(weights) {
    history.assign(size_t(c.batch) * c.num_filters, std::deque<double>(c.memory, 0.0));
  }

  std::vector<double> Step(const std::vector<float>& x) {
    std::vector<double> out(size_t(c.batch) * c.units());
    for (int b = 0; b < c.batch; ++b) {
      const RowQuant r = QuantizeRow(x.data() + b * c.input_size, c.input_size, c.asymmetric);
      for (int f = 0; f < c.num_filters; ++f) {
        int64_t dot = 0, sum = 0;
        for (int i = 0; i < c.input_size; ++i) {
          dot += int64_t{w.feature[f * c.input_size + i]} * r.q[i];
          sum += w.feature[f * c.input_size + i];
        }
        dot -= sum * r.zero_point;
        auto& h = history[b * c.num_filters + f];
        h.pop_front();
        h.push_back(static_cast<double>(dot) * r.scale * w.feature_scale);
      }
      for (int u = 0; u < c.units(); ++u) {
        double v = c.bias ? w.bias[u] : 0.0;
        for (int k = 0; k < c.rank; ++k) {
          const int f = u * c.rank + k;
          for (int m = 0; m < c.memory; ++m) {
            v += static_cast<double>(w.time[f * c.memory + m]) * w.time_scale *
                 history[b * c.num_filters + f][m];
          }
        }
        out[b * c.units() + u] = Activate(c.activation, v);
      }
    }
    return out;
  }
};

// Step inputs: random rows, with an all-zero invoke and an all-zero row mixed in.
std::vector<float> StepInput(const Config& c, int step, std::mt19937& rng, float shift) {
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  std::vector<float> x(size_t(c.batch) * c.input_size);
  if (step == 2) return x;
  for (auto& v : x) v = unit(rng) * 2.f + shift;
  if (step == 3) std::fill(x.begin(), x.begin() + c.input_size, 0.f);
  return x;
}

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], 2e-5 + 2e-5 * std::fabs(want[i])) << what << " at " << i;
  }
}

// The node: input 0, int8 weights 1 and 2 (one scale each), float bias 3, float state 4.
struct SvdfNode {
  OpModel m;
  int input = -1, state = -1, output = -1;
  SvdfNode(const Config& c, const Weights& w) {
    input = m.AddInput({kTfLiteFloat32, {c.batch, c.input_size}});
    m.AddConstInput(TensorSpec{kTfLiteInt8, {c.num_filters, c.input_size}, {w.feature_scale}, {0}},
                    w.feature);
    m.AddConstInput(TensorSpec{kTfLiteInt8, {c.num_filters, c.memory}, {w.time_scale}, {0}},
                    w.time);
    if (c.bias) {
      m.AddConstInput(TensorSpec{kTfLiteFloat32, {c.units()}}, w.bias);
    } else {
      m.AddNullInput();
    }
    state = m.AddVariableInput({kTfLiteFloat32, {c.batch, c.memory * c.num_filters}});
    output = m.AddOutput({kTfLiteFloat32, {}});
    TfLiteSVDFParams p{};
    p.rank = c.rank;
    p.activation = c.activation;
    p.asymmetric_quantize_inputs = c.asymmetric;
    m.SetBuiltinOp(tflite::BuiltinOperator_SVDF, tflite::ops::builtin::Register_SVDF(), p);
  }
};

// ---- the reference kernel against the model ----

TEST(SvdfHybridReference, MatchesTfliteHybridMathOverSeveralInvokes) {
  for (bool asymmetric : {false, true}) {
    for (int rank : {1, 3}) {
      Config c;
      c.asymmetric = asymmetric;
      c.rank = rank;
      c.num_filters = 6;
      c.activation = rank == 1 ? kTfLiteActRelu : kTfLiteActNone;
      const Weights w = MakeWeights(c, 7 + rank);
      std::vector<int32_t> row_sums(c.num_filters);
      reference::HybridRowSums(w.feature.data(), c.num_filters, c.input_size, row_sums.data());
      std::vector<float> time(w.time.size());
      reference::DequantizeSvdfWeightsTime(w.time.data(), time.size(), w.time_scale, time.data());
      reference::SvdfShape s;
      s.batch = c.batch, s.input_size = c.input_size, s.num_filters = c.num_filters;
      s.rank = c.rank, s.memory_size = c.memory;
      std::vector<int8_t> q(size_t(c.batch) * c.input_size);
      std::vector<float> scales(c.batch), filters(size_t(c.batch) * c.num_filters);
      std::vector<int32_t> zps(c.batch), dots(filters.size());
      const reference::SvdfHybridScratch scratch{q.data(), scales.data(), zps.data(), dots.data(),
                                                 filters.data()};
      std::vector<float> state(s.state_size()), out(size_t(c.batch) * c.units());
      const reference::SvdfHybridPlainDots plain{w.feature.data(), c.num_filters, c.input_size};
      TruthSvdf truth(c, w);
      std::mt19937 rng(3);
      for (int step = 0; step < 6; ++step) {
        const auto x = StepInput(c, step, rng, asymmetric ? 0.6f : 0.f);
        reference::SvdfHybrid(s, c.asymmetric, x.data(), plain, w.feature_scale, row_sums.data(),
                              time.data(), c.bias ? w.bias.data() : nullptr,
                              c.activation == kTfLiteActRelu ? reference::FusedActivation::kRelu
                                                             : reference::FusedActivation::kNone,
                              state.data(), scratch, out.data());
        ExpectNear(out, truth.Step(x), "reference kernel");
      }
      // The state holds the feature history, newest last.
      for (size_t k = 0; k < state.size(); ++k) {
        EXPECT_NEAR(state[k], truth.history[k / c.memory][k % c.memory], 1e-5);
      }
    }
  }
}

TEST(SvdfHybridReference, OpOnTheReferencePathMatchesTheModel) {
  IsaScope scope(cpu::Isa::kReference);
  ASSERT_TRUE(scope.ok);
  for (bool asymmetric : {false, true}) {
    Config c;
    c.batch = 3, c.input_size = 7, c.num_filters = 4, c.rank = 2, c.memory = 4;
    c.asymmetric = asymmetric;
    c.activation = kTfLiteActTanh;
    const Weights w = MakeWeights(c, 21);
    SvdfNode node(c, w);
    ASSERT_EQ(node.m.Build(), kTfLiteOk) << node.m.error();
    EXPECT_STREQ(GetNodeKernelName(node.m.interpreter()->primary_subgraph(), 0), "reference");
    TruthSvdf truth(c, w);
    std::mt19937 rng(5);
    for (int step = 0; step < 6; ++step) {
      const auto x = StepInput(c, step, rng, asymmetric ? -0.5f : 0.f);
      node.m.SetInput(node.input, x);
      ASSERT_EQ(node.m.Invoke(), kTfLiteOk) << node.m.error();
      ExpectNear(node.m.GetOutput<float>(node.output), truth.Step(x), "op");
    }
  }
}

// ---- hand-worked cases ----

// weights_feature [[1, 2], [-1, 3]] scale 0.5; weights_time [[2, 4], [-2, 1]] scale 0.25
// (dequantized [[0.5, 1], [-0.5, 0.25]]); bias [0.5, -0.25]; rank 1, memory 2; input [2, -1].
std::vector<float> HandWorked(bool asymmetric) {
  Config c;
  c.batch = 1, c.input_size = 2, c.num_filters = 2, c.rank = 1, c.memory = 2;
  c.asymmetric = asymmetric;
  Weights w;
  w.feature = {1, 2, -1, 3};
  w.time = {2, 4, -2, 1};
  w.feature_scale = 0.5f;
  w.time_scale = 0.25f;
  w.bias = {0.5f, -0.25f};
  SvdfNode node(c, w);
  EXPECT_EQ(node.m.Build(), kTfLiteOk) << node.m.error();
  node.m.SetInput(node.input, std::vector<float>{2.f, -1.f});
  EXPECT_EQ(node.m.Invoke(), kTfLiteOk) << node.m.error();
  return node.m.GetOutput<float>(node.output);
}

TEST(SvdfHybridHandWorked, Symmetric) {
  for (cpu::Isa isa : cpu::kAllIsas) {
    if (!cpu::CpuSupports(isa)) continue;
    IsaScope scope(isa);
    // Scale 2/127, 127/2 = 63.5 per unit: q = [127, round(-63.5) = -64].
    // Filter sums: 1*127 + 2*-64 = -1 and -127 + 3*-64 = -319, times (2/127) * 0.5 = 1/127.
    // Only the newest memory slot is filled: out = bias + w_time[f][1] * filter.
    const auto out = HandWorked(false);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_NEAR(out[0], 0.5 + 1.0 * (-1.0 / 127.0), 1e-6) << cpu::IsaName(isa);
    EXPECT_NEAR(out[1], -0.25 + 0.25 * (-319.0 / 127.0), 1e-6) << cpu::IsaName(isa);
  }
}

TEST(SvdfHybridHandWorked, Asymmetric) {
  for (cpu::Isa isa : cpu::kAllIsas) {
    if (!cpu::CpuSupports(isa)) continue;
    IsaScope scope(isa);
    // Range [-1, 2]: scale 3/255 = 1/85, zero point -128 + 85 = -43, q = [127, -128].
    // Sums: 127 - 256 = -129 and -127 - 384 = -511; row sums 3 and 2; corrected:
    // -129 - 3*-43 = 0 and -511 - 2*-43 = -425; times (1/85) * 0.5: 0 and -2.5.
    const auto out = HandWorked(true);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_NEAR(out[0], 0.5, 1e-6) << cpu::IsaName(isa);
    EXPECT_NEAR(out[1], -0.25 + 0.25 * -2.5, 1e-6) << cpu::IsaName(isa);
  }
}

// ---- optimized paths against the reference path ----

struct PathRun {
  std::vector<float> outputs;  // every invoke's output, then the final state
  std::string kernel, error;
};

PathRun RunNode(const Config& c, uint32_t seed, float shift) {
  PathRun r;
  const Weights w = MakeWeights(c, seed);
  SvdfNode node(c, w);
  if (node.m.Build() != kTfLiteOk) {
    r.error = node.m.error();
    return r;
  }
  r.kernel = GetNodeKernelName(node.m.interpreter()->primary_subgraph(), 0);
  std::mt19937 rng(seed + 1);
  for (int step = 0; step < 5; ++step) {
    node.m.SetInput(node.input, StepInput(c, step, rng, shift));
    if (node.m.Invoke() != kTfLiteOk) {
      r.error = node.m.error();
      return r;
    }
    const auto out = node.m.GetOutput<float>(node.output);
    r.outputs.insert(r.outputs.end(), out.begin(), out.end());
  }
  const auto state = node.m.GetOutput<float>(node.state);
  r.outputs.insert(r.outputs.end(), state.begin(), state.end());
  return r;
}

TEST(SvdfHybridPaths, OptimizedPathsGiveTheReferenceBits) {
  std::mt19937 rng(29);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  const TfLiteFusedActivation acts[] = {kTfLiteActNone, kTfLiteActRelu, kTfLiteActTanh,
                                        kTfLiteActSigmoid};
  for (int trial = 0; trial < 40; ++trial) {
    Config c;
    c.batch = pick(1, 4);
    c.input_size = trial % 7 == 0 ? pick(100, 300) : pick(1, 40);
    c.rank = pick(1, 3);
    c.num_filters = c.rank * pick(1, 24);
    c.memory = pick(1, 6);
    c.asymmetric = trial % 2 == 1;
    c.bias = trial % 3 != 0;
    c.activation = acts[trial % 4];
    const float shift = trial % 3 == 0 ? 0.f : (trial % 3 == 1 ? 0.8f : -1.3f);
    const std::string what = "trial " + std::to_string(trial) + " b" + std::to_string(c.batch) +
                             " in" + std::to_string(c.input_size) + " f" +
                             std::to_string(c.num_filters) + " r" + std::to_string(c.rank) + " m" +
                             std::to_string(c.memory) + (c.asymmetric ? " asym" : "");
    PathRun want;
    {
      IsaScope scope(cpu::Isa::kReference);
      ASSERT_TRUE(scope.ok);
      want = RunNode(c, 100 + trial, shift);
    }
    ASSERT_TRUE(want.error.empty()) << what << ": " << want.error;
    EXPECT_EQ(want.kernel, "reference") << what;
    for (cpu::Isa isa : testing::OptimizedPaths()) {
      IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      const PathRun got = RunNode(c, 100 + trial, shift);
      ASSERT_TRUE(got.error.empty()) << what << ": " << got.error;
      EXPECT_EQ(got.kernel.substr(0, 5), "qgemm") << what << ": " << got.kernel;
      ASSERT_EQ(got.outputs.size(), want.outputs.size()) << what;
      EXPECT_EQ(
          std::memcmp(got.outputs.data(), want.outputs.data(), got.outputs.size() * sizeof(float)),
          0)
          << what << " on " << cpu::IsaName(isa) << " (" << got.kernel << ")";
    }
  }
}

// ---- prepare errors ----

struct Bad {
  TfLiteType feature_type = kTfLiteInt8, time_type = kTfLiteInt8, state_type = kTfLiteFloat32;
  std::vector<float> feature_scales = {0.1f};
  std::vector<int> feature_zero_points = {0};
  bool feature_constant = true;
  float time_scale = 0.1f;
  TfLiteType bias_type = kTfLiteFloat32;
};

std::string PrepareError(const Bad& b) {
  const int filters = 2, input_size = 3, memory = 2;
  OpModel m;
  m.AddInput({kTfLiteFloat32, {1, input_size}});
  const TensorSpec feature{
      b.feature_type, {filters, input_size}, b.feature_scales, b.feature_zero_points};
  if (b.feature_constant) {
    m.AddConstInput(feature, std::vector<int8_t>(filters * input_size, 1));
  } else {
    m.AddInput(feature);
  }
  if (b.time_type == kTfLiteFloat32) {
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {filters, memory}},
                    std::vector<float>(filters * memory, 1.f));
  } else {
    m.AddConstInput(TensorSpec{b.time_type, {filters, memory}, {b.time_scale}, {0}},
                    std::vector<int8_t>(filters * memory, 1));
  }
  if (b.bias_type == kTfLiteFloat32) {
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {filters}}, std::vector<float>(filters, 0.f));
  } else {
    m.AddConstInput(TensorSpec{kTfLiteInt32, {filters}, {0.01f}, {0}},
                    std::vector<int32_t>(filters, 0));
  }
  m.AddVariableInput({b.state_type, {1, filters * memory}, {0.1f}, {0}});
  m.AddOutput({kTfLiteFloat32, {}});
  TfLiteSVDFParams p{};
  p.rank = 1;
  p.activation = kTfLiteActNone;
  m.SetBuiltinOp(tflite::BuiltinOperator_SVDF, tflite::ops::builtin::Register_SVDF(), p);
  if (m.Build() == kTfLiteOk) return "";
  return m.error();
}

TEST(SvdfHybridPrepare, RejectsBadConfigurationsWithOneLine) {
  auto expect = [](const Bad& b, const std::string& needle) {
    // The kernel's own report is one line, first, naming the op.
    const std::string e = PrepareError(b);
    const std::string first = e.substr(0, e.find('\n'));
    EXPECT_EQ(first.rfind("SVDF: ", 0), 0u) << e;
    EXPECT_NE(first.find(needle), std::string::npos) << e;
  };
  EXPECT_EQ(PrepareError({}), "");
  Bad b;
  b.time_type = kTfLiteFloat32;
  expect(b, "hybrid SVDF needs int8 weights_time like weights_feature, got FLOAT32");
  b = {};
  b.feature_type = kTfLiteUInt8;
  expect(b, "weights_feature must be float32, or int8 for a hybrid SVDF");
  b = {};
  b.feature_scales = {0.1f, 0.2f};
  b.feature_zero_points = {0, 0};
  expect(b, "weights_feature has 2 different scales");
  b = {};
  b.feature_zero_points = {3};
  expect(b, "must be symmetric");
  b = {};
  b.time_scale = 0.f;
  expect(b, "weights_time scale must be finite and > 0");
  b = {};
  b.feature_constant = false;
  expect(b, "hybrid SVDF needs constant weights_feature and weights_time");
  b = {};
  b.state_type = kTfLiteInt16;
  expect(b, "activation_state must be FLOAT32");
  b = {};
  b.bias_type = kTfLiteInt32;
  expect(b, "bias must be FLOAT32");
}

}  // namespace
}  // namespace octet
