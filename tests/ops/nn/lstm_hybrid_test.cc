// Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM (float activations and states, int8 weight matrices and
// peephole weights):
//  - the op on the reference path against an independent double computation of TFLite's
//    hybrid step (each input and output-state row quantized as TFLite does, exact integer
//    dot products and zero-point corrections, the rest in double), one step from random
//    states and whole sequences, over CIFG, peephole, projection, layer norm, clipping,
//    asymmetric inputs and time/batch-major layouts;
//  - hand-worked single steps whose quantized inputs and integer sums are computed by hand;
//  - the op on every optimized kernel path against the reference path, bit for bit (outputs
//    and both states), over random shapes and options;
//  - prepare's one-line rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "octet/kernel_info.h"
#include "ops/nn/hybrid_recurrent_test_util.h"
#include "ops/nn/nn_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/kernel_paths.h"
#include "util/op_model.h"

namespace octet {
namespace {

using hybrid_test::QuantizeRow;
using hybrid_test::RowQuant;
using testing::IsaScope;
using testing::OpModel;
using testing::TensorSpec;

struct Spec {
  int n_batch = 2, max_time = 3, n_input = 3, n_cell = 4, n_output = 4;
  bool time_major = true, cifg = false, peephole = false, projection = false, proj_bias = false,
       layer_norm = false, asymmetric = false, full_24_inputs = true;
  float cell_clip = 0.f, proj_clip = 0.f;
};

// TFLite input indices: int8 weight matrices 1-8 and 16, peephole 9-11; float biases 12-15,
// projection bias 17, layer norm 20-23.
struct Weights {
  std::map<int, std::vector<int8_t>> q;
  std::map<int, float> scale;
  std::map<int, std::vector<float>> f;
};

std::vector<int> Shape(const Spec& s, int index) {
  if (index >= 1 && index <= 4) return {s.n_cell, s.n_input};
  if (index >= 5 && index <= 8) return {s.n_cell, s.n_output};
  if (index == 16) return {s.n_output, s.n_cell};
  if (index == 17) return {s.n_output};
  return {s.n_cell};
}

Weights MakeWeights(const Spec& s, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> scale(0.002f, 0.02f), unit(-1.f, 1.f);
  Weights w;
  auto add_q = [&](int index, float scale_factor) {
    const auto shape = Shape(s, index);
    std::vector<int8_t> v(size_t(shape[0]) * (shape.size() > 1 ? shape[1] : 1));
    for (auto& x : v) x = static_cast<int8_t>(rng());
    w.q[index] = v;
    w.scale[index] = scale(rng) * scale_factor;
  };
  auto add_f = [&](int index, float lo, float hi) {
    std::vector<float> v(size_t(Shape(s, index)[0]));
    for (auto& x : v) x = lo + (hi - lo) * (unit(rng) + 1.f) / 2.f;
    w.f[index] = v;
  };
  for (int g = s.cifg ? 1 : 0; g < 4; ++g) {
    add_q(1 + g, 1.f);
    add_q(5 + g, 1.f);
    add_f(12 + g, -0.5f, 0.5f);
    if (s.layer_norm) add_f(20 + g, 0.5f, 1.5f);
  }
  if (s.peephole) {
    if (!s.cifg) add_q(9, 1.f);
    add_q(10, 1.f), add_q(11, 1.f);
  }
  if (s.projection) add_q(16, 1.f);
  if (s.proj_bias) add_f(17, -0.2f, 0.2f);
  return w;
}

TfLiteUnidirectionalSequenceLSTMParams Params(const Spec& s) {
  TfLiteUnidirectionalSequenceLSTMParams p{};
  p.activation = kTfLiteActTanh;
  p.cell_clip = s.cell_clip;
  p.proj_clip = s.proj_clip;
  p.time_major = s.time_major;
  p.asymmetric_quantize_inputs = s.asymmetric;
  return p;
}

struct LstmNode {
  OpModel m;
  int input = -1, output_state = -1, cell_state = -1, output = -1;
  LstmNode(const Spec& s, const Weights& w) {
    const int n_inputs = s.full_24_inputs ? 24 : 20;
    for (int i = 0; i < n_inputs; ++i) {
      if (i == 0) {
        input = m.AddInput(
            {kTfLiteFloat32, s.time_major ? std::vector<int>{s.max_time, s.n_batch, s.n_input}
                                          : std::vector<int>{s.n_batch, s.max_time, s.n_input}});
      } else if (i == 18) {
        output_state = m.AddVariableInput({kTfLiteFloat32, {s.n_batch, s.n_output}});
      } else if (i == 19) {
        cell_state = m.AddVariableInput({kTfLiteFloat32, {s.n_batch, s.n_cell}});
      } else if (w.q.count(i)) {
        m.AddConstInput(TensorSpec{kTfLiteInt8, Shape(s, i), {w.scale.at(i)}, {0}}, w.q.at(i));
      } else if (w.f.count(i)) {
        m.AddConstInput(TensorSpec{kTfLiteFloat32, Shape(s, i)}, w.f.at(i));
      } else {
        m.AddNullInput();
      }
    }
    output = m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
                   tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), Params(s));
  }
  void SetStates(const std::vector<float>& h, const std::vector<float>& c) {
    std::memcpy(m.tensor(output_state)->data.f, h.data(), h.size() * sizeof(float));
    std::memcpy(m.tensor(cell_state)->data.f, c.data(), c.size() * sizeof(float));
  }
};

// ---- an independent model of TFLite's hybrid step, in double ----

double Sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

struct TruthLstm {
  const Spec& s;
  const Weights& w;
  std::vector<double> h, c;  // [n_batch, n_output], [n_batch, n_cell]

  TruthLstm(const Spec& spec, const Weights& weights)
      : s(spec), w(weights), h(size_t(s.n_batch) * s.n_output), c(size_t(s.n_batch) * s.n_cell) {}

  // Σ_k W[j, k] * x[k] from the quantized row, corrected and scaled back.
  double Product(int index, int j, int cols, const RowQuant& r) const {
    const auto& m = w.q.at(index);
    int64_t dot = 0, sum = 0;
    for (int k = 0; k < cols; ++k) {
      dot += int64_t{m[size_t(j) * cols + k]} * r.q[k];
      sum += m[size_t(j) * cols + k];
    }
    return static_cast<double>(dot - sum * r.zero_point) * r.scale * w.scale.at(index);
  }

  std::vector<double> Gate(int g, const RowQuant& x, const RowQuant& hq, const double* cb,
                           bool tanh_gate) const {
    std::vector<double> v(s.n_cell);
    for (int j = 0; j < s.n_cell; ++j) {
      v[j] = Product(1 + g, j, s.n_input, x) + Product(5 + g, j, s.n_output, hq);
      const int peep = g == 0 ? 9 : g == 1 ? 10 : g == 3 ? 11 : -1;
      if (s.peephole && peep >= 0)
        v[j] += static_cast<double>(w.q.at(peep)[j]) * w.scale.at(peep) * cb[j];
      if (!s.layer_norm) v[j] += w.f.at(12 + g)[j];
    }
    if (s.layer_norm) {
      double mean = 0, var = 0;
      for (double x : v) mean += x / s.n_cell;
      for (double x : v) var += (x - mean) * (x - mean) / s.n_cell;
      for (int j = 0; j < s.n_cell; ++j) {
        v[j] = (v[j] - mean) / std::sqrt(var + 1e-8) * w.f.at(20 + g)[j] + w.f.at(12 + g)[j];
      }
    }
    for (double& x : v) x = tanh_gate ? std::tanh(x) : Sigmoid(x);
    return v;
  }

  // One step of batch row b with input row x; returns the new output state.
  std::vector<double> Step(int b, const float* x) {
    const RowQuant xq = QuantizeRow(x, s.n_input, s.asymmetric);
    std::vector<float> hf(h.begin() + b * s.n_output, h.begin() + (b + 1) * s.n_output);
    const RowQuant hq = QuantizeRow(hf.data(), s.n_output, s.asymmetric);
    double* cb = c.data() + b * s.n_cell;
    const auto f = Gate(1, xq, hq, cb, false);
    const auto g = Gate(2, xq, hq, cb, true);
    const auto i = s.cifg ? std::vector<double>() : Gate(0, xq, hq, cb, false);
    for (int j = 0; j < s.n_cell; ++j) {
      cb[j] = f[j] * cb[j] + g[j] * (s.cifg ? 1.0 - f[j] : i[j]);
      if (s.cell_clip > 0) cb[j] = std::clamp(cb[j], -double{s.cell_clip}, double{s.cell_clip});
    }
    const auto o = Gate(3, xq, hq, cb, false);
    std::vector<double> hidden(s.n_cell);
    for (int j = 0; j < s.n_cell; ++j) hidden[j] = o[j] * std::tanh(cb[j]);
    double* hb = h.data() + b * s.n_output;
    if (!s.projection) {
      std::copy(hidden.begin(), hidden.end(), hb);
    } else {
      const std::vector<float> hidden_f(hidden.begin(), hidden.end());
      const RowQuant pq = QuantizeRow(hidden_f.data(), s.n_cell, s.asymmetric);
      for (int k = 0; k < s.n_output; ++k) {
        hb[k] = (s.proj_bias ? w.f.at(17)[k] : 0.0) + Product(16, k, s.n_cell, pq);
        if (s.proj_clip > 0) hb[k] = std::clamp(hb[k], -double{s.proj_clip}, double{s.proj_clip});
      }
    }
    return std::vector<double>(hb, hb + s.n_output);
  }

  // The whole input tensor (layout per s.time_major); returns the output tensor.
  std::vector<double> Sequence(const std::vector<float>& in) {
    std::vector<double> out(size_t(s.max_time) * s.n_batch * s.n_output);
    for (int t = 0; t < s.max_time; ++t) {
      for (int b = 0; b < s.n_batch; ++b) {
        const size_t row = s.time_major ? size_t(t) * s.n_batch + b : size_t(b) * s.max_time + t;
        const auto hb = Step(b, in.data() + row * s.n_input);
        std::copy(hb.begin(), hb.end(), out.begin() + row * s.n_output);
      }
    }
    return out;
  }
};

std::vector<float> RandomVector(size_t n, std::mt19937& rng, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want, double tol,
                const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], tol * (1 + std::fabs(want[i]))) << what << " at " << i;
  }
}

std::string Describe(const Spec& s) {
  std::string d = "b" + std::to_string(s.n_batch) + " t" + std::to_string(s.max_time) + " in" +
                  std::to_string(s.n_input) + " cell" + std::to_string(s.n_cell) + " out" +
                  std::to_string(s.n_output);
  if (!s.time_major) d += " batch-major";
  if (s.cifg) d += " cifg";
  if (s.peephole) d += " peephole";
  if (s.projection) d += s.proj_bias ? " projection+bias" : " projection";
  if (s.layer_norm) d += " layer-norm";
  if (s.asymmetric) d += " asym";
  if (s.cell_clip > 0) d += " cell-clip";
  if (s.proj_clip > 0) d += " proj-clip";
  if (!s.full_24_inputs) d += " 20-inputs";
  return d;
}

// The variants the model tests cover.
std::vector<Spec> Variants() {
  std::vector<Spec> v;
  for (int k = 0; k < 12; ++k) {
    Spec s;
    s.n_input = 5, s.n_cell = 6, s.n_output = 6;
    s.asymmetric = k % 2 == 1;
    s.time_major = k % 3 != 2;
    s.cifg = k == 2 || k == 3 || k == 9;
    s.peephole = k >= 4 && k <= 7;
    s.layer_norm = k == 6 || k == 7 || k == 9 || k == 11;
    s.projection = k >= 8;
    s.proj_bias = k == 8 || k == 11;
    if (s.projection) s.n_output = 4;
    s.cell_clip = k == 5 ? 0.6f : 0.f;
    s.proj_clip = k == 10 ? 0.15f : 0.f;
    s.full_24_inputs = s.layer_norm || k % 4 != 0;
    v.push_back(s);
  }
  return v;
}

TEST(LstmHybridReference, OneStepFromRandomStatesMatchesTfliteHybridMath) {
  IsaScope scope(cpu::Isa::kReference);
  ASSERT_TRUE(scope.ok);
  for (Spec s : Variants()) {
    s.max_time = 1;
    const Weights w = MakeWeights(s, 11);
    LstmNode node(s, w);
    ASSERT_EQ(node.m.Build(), kTfLiteOk) << Describe(s) << ": " << node.m.error();
    EXPECT_STREQ(GetNodeKernelName(node.m.interpreter()->primary_subgraph(), 0), "reference");
    std::mt19937 rng(12);
    const auto h0 = RandomVector(size_t(s.n_batch) * s.n_output, rng, -0.8f, 0.8f);
    const auto c0 = RandomVector(size_t(s.n_batch) * s.n_cell, rng, -1.5f, 1.5f);
    const auto in = RandomVector(size_t(s.n_batch) * s.n_input, rng, -1.f, 1.5f);
    node.SetStates(h0, c0);
    node.m.SetInput(node.input, in);
    ASSERT_EQ(node.m.Invoke(), kTfLiteOk) << node.m.error();
    TruthLstm truth(s, w);
    truth.h.assign(h0.begin(), h0.end());
    truth.c.assign(c0.begin(), c0.end());
    ExpectNear(node.m.GetOutput<float>(node.output), truth.Sequence(in), 2e-6, Describe(s));
    ExpectNear(node.m.GetOutput<float>(node.cell_state), truth.c, 2e-6, Describe(s) + " cell");
  }
}

TEST(LstmHybridReference, SequencesMatchTfliteHybridMath) {
  IsaScope scope(cpu::Isa::kReference);
  ASSERT_TRUE(scope.ok);
  for (Spec s : Variants()) {
    s.max_time = 4;
    const Weights w = MakeWeights(s, 23);
    LstmNode node(s, w);
    ASSERT_EQ(node.m.Build(), kTfLiteOk) << Describe(s) << ": " << node.m.error();
    TruthLstm truth(s, w);
    std::mt19937 rng(24);
    for (int invoke = 0; invoke < 2; ++invoke) {
      const auto in = RandomVector(size_t(s.max_time) * s.n_batch * s.n_input, rng, -1.f, 1.f);
      node.m.SetInput(node.input, in);
      ASSERT_EQ(node.m.Invoke(), kTfLiteOk) << node.m.error();
      // Later steps re-quantize float states that differ from the model's in the last bits,
      // which can move one quantized value by one step: hence the looser bound.
      ExpectNear(node.m.GetOutput<float>(node.output), truth.Sequence(in), 1e-4,
                 Describe(s) + " invoke " + std::to_string(invoke));
    }
  }
}

// ---- hand-worked steps ----

// n_input 2, n_cell = n_output 1, zero states, input [2, -1]. Input weights (scale): input gate
// [1, 2] (0.5), forget [-1, 3] (0.5), cell [2, 1] (0.25), output [0, 1] (1); biases 0.1, 0.2,
// -0.3, 0.4. The zero output state skips the recurrent products.
std::vector<float> HandWorked(bool asymmetric, bool cifg) {
  Spec s;
  s.n_batch = 1, s.max_time = 1, s.n_input = 2, s.n_cell = 1, s.n_output = 1;
  s.asymmetric = asymmetric;
  s.cifg = cifg;
  Weights w;
  const int8_t rows[4][2] = {{1, 2}, {-1, 3}, {2, 1}, {0, 1}};
  const float scales[4] = {0.5f, 0.5f, 0.25f, 1.f};
  const float biases[4] = {0.1f, 0.2f, -0.3f, 0.4f};
  for (int g = cifg ? 1 : 0; g < 4; ++g) {
    w.q[1 + g] = {rows[g][0], rows[g][1]};
    w.scale[1 + g] = scales[g];
    w.q[5 + g] = {7};
    w.scale[5 + g] = 1.f;
    w.f[12 + g] = {biases[g]};
  }
  LstmNode node(s, w);
  EXPECT_EQ(node.m.Build(), kTfLiteOk) << node.m.error();
  node.m.SetInput(node.input, std::vector<float>{2.f, -1.f});
  EXPECT_EQ(node.m.Invoke(), kTfLiteOk) << node.m.error();
  return node.m.GetOutput<float>(node.output);
}

double HandOutput(const double pre[4], bool cifg) {
  const double f = Sigmoid(0.2 + pre[1]), g = std::tanh(-0.3 + pre[2]);
  const double i = cifg ? 1.0 - f : Sigmoid(0.1 + pre[0]);
  return Sigmoid(0.4 + pre[3]) * std::tanh(i * g);
}

TEST(LstmHybridHandWorked, SymmetricAndAsymmetric) {
  // Symmetric: scale 2/127 (127/2 = 63.5 per unit), q = [127, -64]. Sums: input 127 - 128 =
  // -1, forget -127 - 192 = -319, cell 254 - 64 = 190, output -64; times (2/127) * scale.
  const double sym[4] = {-1 * 1.0 / 127, -319 * 1.0 / 127, 190 * 0.5 / 127, -64 * 2.0 / 127};
  // Asymmetric: range [-1, 2], scale 1/85, zero point -43, q = [127, -128]; row sums 3, 2, 3, 1.
  // Corrected sums: -129 + 129 = 0, -511 + 86 = -425, 126 + 129 = 255, -128 + 43 = -85; times
  // (1/85) * scale: 0, -2.5, 0.75, -1 (the float products exactly).
  const double asym[4] = {0.0, -2.5, 0.75, -1.0};
  for (cpu::Isa isa : cpu::kAllIsas) {
    if (!cpu::CpuSupports(isa)) continue;
    IsaScope scope(isa);
    for (bool cifg : {false, true}) {
      const auto a = HandWorked(false, cifg);
      ASSERT_EQ(a.size(), 1u);
      EXPECT_NEAR(a[0], HandOutput(sym, cifg), 1e-6) << cpu::IsaName(isa) << " cifg " << cifg;
      const auto b = HandWorked(true, cifg);
      ASSERT_EQ(b.size(), 1u);
      EXPECT_NEAR(b[0], HandOutput(asym, cifg), 1e-6) << cpu::IsaName(isa) << " cifg " << cifg;
    }
  }
}

// ---- optimized paths against the reference path ----

struct PathRun {
  std::vector<float> outputs;  // every invoke's output, then both final states
  std::string kernel, error;
};

PathRun RunNode(const Spec& s, uint32_t seed) {
  PathRun r;
  const Weights w = MakeWeights(s, seed);
  LstmNode node(s, w);
  if (node.m.Build() != kTfLiteOk) {
    r.error = node.m.error();
    return r;
  }
  r.kernel = GetNodeKernelName(node.m.interpreter()->primary_subgraph(), 0);
  std::mt19937 rng(seed + 1);
  for (int invoke = 0; invoke < 2; ++invoke) {
    auto in = RandomVector(size_t(s.max_time) * s.n_batch * s.n_input, rng, -1.2f, 1.f);
    // An all-zero step (time-major: every row of step 1; batch-major: the first sequence's
    // second step) exercises the skipped input products.
    if (s.max_time > 1) {
      const size_t first = s.time_major ? size_t(s.n_batch) : 1;
      const size_t count = s.time_major ? size_t(s.n_batch) : 1;
      std::fill(in.begin() + first * s.n_input, in.begin() + (first + count) * s.n_input, 0.f);
    }
    node.m.SetInput(node.input, in);
    if (node.m.Invoke() != kTfLiteOk) {
      r.error = node.m.error();
      return r;
    }
    const auto out = node.m.GetOutput<float>(node.output);
    r.outputs.insert(r.outputs.end(), out.begin(), out.end());
  }
  for (int t : {node.output_state, node.cell_state}) {
    const auto v = node.m.GetOutput<float>(t);
    r.outputs.insert(r.outputs.end(), v.begin(), v.end());
  }
  return r;
}

TEST(LstmHybridPaths, OptimizedPathsGiveTheReferenceBits) {
  std::mt19937 rng(31);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  for (int trial = 0; trial < 48; ++trial) {
    Spec s;
    s.n_batch = pick(1, 3);
    s.max_time = pick(1, 5);
    s.n_input = trial % 8 == 0 ? pick(60, 200) : pick(1, 24);
    s.n_cell = pick(1, 40);
    s.time_major = trial % 2 == 0;
    s.asymmetric = trial % 4 >= 2;
    s.cifg = trial % 3 == 1;
    s.peephole = trial % 5 >= 3;
    s.layer_norm = trial % 7 >= 4;
    s.projection = trial % 3 == 2 || trial % 11 == 0;
    s.proj_bias = s.projection && trial % 2 == 1;
    s.n_output = s.projection ? pick(1, 30) : s.n_cell;
    s.cell_clip = trial % 6 == 5 ? 0.5f : 0.f;
    s.proj_clip = s.projection && trial % 4 == 1 ? 0.2f : 0.f;
    s.full_24_inputs = s.layer_norm || trial % 5 != 0;
    const std::string what = "trial " + std::to_string(trial) + " " + Describe(s);
    PathRun want;
    {
      IsaScope scope(cpu::Isa::kReference);
      ASSERT_TRUE(scope.ok);
      want = RunNode(s, 200 + trial);
    }
    ASSERT_TRUE(want.error.empty()) << what << ": " << want.error;
    EXPECT_EQ(want.kernel, "reference") << what;
    for (cpu::Isa isa : testing::OptimizedPaths()) {
      IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      const PathRun got = RunNode(s, 200 + trial);
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

// Builds a hybrid node after `edit` changes its weights and returns prepare's first report.
template <typename Edit>
std::string PrepareError(Edit edit) {
  Spec s;
  s.peephole = true;
  s.projection = true;
  s.n_output = 3;
  Weights w = MakeWeights(s, 5);
  std::map<int, TfLiteType> types;  // overrides
  std::map<int, std::vector<float>> scales;
  std::map<int, std::vector<int>> zero_points;
  bool variable_input = false;
  edit(w, types, scales, zero_points, variable_input);
  OpModel m;
  for (int i = 0; i < 24; ++i) {
    if (i == 0) {
      m.AddInput({kTfLiteFloat32, {s.max_time, s.n_batch, s.n_input}});
    } else if (i == 18 || i == 19) {
      m.AddVariableInput({kTfLiteFloat32, {s.n_batch, i == 18 ? s.n_output : s.n_cell}});
    } else if (w.q.count(i)) {
      TensorSpec spec{types.count(i) ? types[i] : kTfLiteInt8, Shape(s, i), {w.scale.at(i)}, {0}};
      if (scales.count(i)) spec.scales = scales[i];
      if (zero_points.count(i)) spec.zero_points = zero_points[i];
      if (spec.zero_points.size() != spec.scales.size())
        spec.zero_points.resize(spec.scales.size());
      if (spec.type == kTfLiteFloat32) {
        m.AddConstInput(TensorSpec{kTfLiteFloat32, Shape(s, i)},
                        std::vector<float>(w.q.at(i).size(), 0.f));
      } else if (variable_input && i == 2) {
        m.AddInput(spec);
      } else {
        m.AddConstInput(spec, w.q.at(i));
      }
    } else if (w.f.count(i)) {
      if (types.count(i)) {
        m.AddConstInput(TensorSpec{types[i], Shape(s, i), {0.1f}, {0}},
                        std::vector<int8_t>(w.f.at(i).size(), 0));
      } else {
        m.AddConstInput(TensorSpec{kTfLiteFloat32, Shape(s, i)}, w.f.at(i));
      }
    } else {
      m.AddNullInput();
    }
  }
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
                 tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), Params(s));
  if (m.Build() == kTfLiteOk) return "";
  return m.error().substr(0, m.error().find('\n'));
}

TEST(LstmHybridPrepare, RejectsBadConfigurationsWithOneLine) {
  using T = std::map<int, TfLiteType>;
  using S = std::map<int, std::vector<float>>;
  using Z = std::map<int, std::vector<int>>;
  auto expect = [](const std::string& e, const std::string& needle) {
    EXPECT_EQ(e.rfind("UNIDIRECTIONAL_SEQUENCE_LSTM: ", 0), 0u) << e;
    EXPECT_NE(e.find(needle), std::string::npos) << e;
  };
  EXPECT_EQ(PrepareError([](Weights&, T&, S&, Z&, bool&) {}), "");
  expect(PrepareError([](Weights&, T& t, S&, Z&, bool&) { t[6] = kTfLiteFloat32; }),
         "recurrent_to_forget_weights must be INT8 like input_to_output_weights");
  expect(PrepareError([](Weights&, T& t, S&, Z&, bool&) { t[10] = kTfLiteFloat32; }),
         "cell_to_forget_weights must be INT8");
  expect(PrepareError([](Weights&, T& t, S&, Z&, bool&) { t[4] = kTfLiteUInt8; }),
         "input_to_output_weights type UINT8 is not supported");
  expect(PrepareError([](Weights&, T& t, S&, Z&, bool&) { t[13] = kTfLiteInt8; }),
         "forget_gate_bias must be FLOAT32, got INT8");
  expect(PrepareError([](Weights&, T&, S& s, Z&, bool&) {
           s[3] = {0.1f, 0.2f, 0.1f, 0.1f};
         }),
         "input_to_cell_weights has 4 different scales");
  expect(PrepareError([](Weights&, T&, S&, Z& z, bool&) { z[7] = {2}; }), "must be symmetric");
  expect(PrepareError([](Weights&, T&, S& s, Z&, bool&) { s[16] = {-0.5f}; }),
         "projection_weights scale must be finite and > 0");
  expect(PrepareError([](Weights&, T&, S&, Z&, bool& v) { v = true; }),
         "input_to_forget_weights must be constant in a hybrid LSTM");
}

}  // namespace
}  // namespace octet
