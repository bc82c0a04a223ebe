#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "octet/kernel_info.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/kernel_paths.h"
#include "util/op_model.h"

namespace octet {
namespace {

using testing::IsaScope;
using testing::OpModel;

struct Spec {
  int n_batch = 2, max_time = 3, n_input = 3, n_cell = 4, n_output = 4;
  bool time_major = true;
  bool cifg = false, peephole = false, projection = false, proj_bias = false, layer_norm = false;
  bool full_24_inputs = true;
  float cell_clip = 0.f, proj_clip = 0.f;
};

// Weight tensors by TFLite input index; absent ones are not in the map.
std::map<int, std::vector<float>> MakeWeights(const Spec& s) {
  std::map<int, std::vector<float>> w;
  uint32_t seed = 100;
  auto add = [&](int index, int n) { w[index] = nn_test::Random(n, seed++, -0.6f, 0.6f); };
  const int ci = s.n_cell * s.n_input, co = s.n_cell * s.n_output;
  if (!s.cifg) add(1, ci);
  add(2, ci), add(3, ci), add(4, ci);
  if (!s.cifg) add(5, co);
  add(6, co), add(7, co), add(8, co);
  if (s.peephole) {
    if (!s.cifg) add(9, s.n_cell);
    add(10, s.n_cell), add(11, s.n_cell);
  }
  if (!s.cifg) add(12, s.n_cell);
  add(13, s.n_cell), add(14, s.n_cell), add(15, s.n_cell);
  if (s.projection) add(16, s.n_output * s.n_cell);
  if (s.proj_bias) add(17, s.n_output);
  if (s.layer_norm) {
    if (!s.cifg) add(20, s.n_cell);
    add(21, s.n_cell), add(22, s.n_cell), add(23, s.n_cell);
  }
  return w;
}

std::vector<int> WeightShape(const Spec& s, int index) {
  if (index <= 4) return {s.n_cell, s.n_input};
  if (index <= 8) return {s.n_cell, s.n_output};
  if (index == 16) return {s.n_output, s.n_cell};
  if (index == 17) return {s.n_output};
  return {s.n_cell};
}

// The textbook LSTM equations in double; h and c carry the state between calls.
struct NaiveLstm {
  const Spec& s;
  std::map<int, std::vector<float>>& w;
  std::vector<double> h, c;

  NaiveLstm(const Spec& spec, std::map<int, std::vector<float>>& weights)
      : s(spec),
        w(weights),
        h(spec.n_batch * spec.n_output, 0.0),
        c(spec.n_batch * spec.n_cell, 0.0) {}

  static double Sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

  // Pre-activation of a gate for one batch row.
  std::vector<double> Gate(int wx, int wh, int peep, int ln, int bias, const float* x,
                           const double* hb, const double* cb) {
    std::vector<double> g(s.n_cell);
    for (int j = 0; j < s.n_cell; ++j) {
      double acc = 0;
      for (int k = 0; k < s.n_input; ++k) acc += double{w[wx][j * s.n_input + k]} * x[k];
      for (int k = 0; k < s.n_output; ++k) acc += double{w[wh][j * s.n_output + k]} * hb[k];
      if (s.peephole && peep >= 0) acc += double{w[peep][j]} * cb[j];
      g[j] = acc;
    }
    if (s.layer_norm) {
      double mean = 0, var = 0;
      for (double v : g) mean += v;
      mean /= s.n_cell;
      for (double v : g) var += (v - mean) * (v - mean);
      var /= s.n_cell;
      for (int j = 0; j < s.n_cell; ++j) {
        g[j] = (g[j] - mean) / std::sqrt(var + 1e-8) * w[ln][j] + w[bias][j];
      }
    } else {
      for (int j = 0; j < s.n_cell; ++j) g[j] += w[bias][j];
    }
    return g;
  }

  // input laid out per spec.time_major; returns output in the same layout.
  std::vector<double> Run(const std::vector<float>& input) {
    std::vector<double> out(size_t(s.max_time) * s.n_batch * s.n_output);
    for (int t = 0; t < s.max_time; ++t) {
      for (int b = 0; b < s.n_batch; ++b) {
        const int row = s.time_major ? t * s.n_batch + b : b * s.max_time + t;
        const float* x = &input[size_t(row) * s.n_input];
        double* hb = &h[b * s.n_output];
        double* cb = &c[b * s.n_cell];
        const auto f = Gate(2, 6, 10, 21, 13, x, hb, cb);
        const auto g = Gate(3, 7, -1, 22, 14, x, hb, cb);
        std::vector<double> i(s.n_cell);
        if (!s.cifg) i = Gate(1, 5, 9, 20, 12, x, hb, cb);
        for (int j = 0; j < s.n_cell; ++j) {
          const double ig = s.cifg ? 1 - Sigmoid(f[j]) : Sigmoid(i[j]);
          cb[j] = Sigmoid(f[j]) * cb[j] + ig * std::tanh(g[j]);
          if (s.cell_clip > 0) cb[j] = std::clamp(cb[j], -double{s.cell_clip}, double{s.cell_clip});
        }
        const auto o = Gate(4, 8, 11, 23, 15, x, hb, cb);
        std::vector<double> hidden(s.n_cell);
        for (int j = 0; j < s.n_cell; ++j) hidden[j] = Sigmoid(o[j]) * std::tanh(cb[j]);
        for (int k = 0; k < s.n_output; ++k) {
          double v = hidden[k];
          if (s.projection) {
            v = s.proj_bias ? w[17][k] : 0.0;
            for (int j = 0; j < s.n_cell; ++j) v += double{w[16][k * s.n_cell + j]} * hidden[j];
            if (s.proj_clip > 0) v = std::clamp(v, -double{s.proj_clip}, double{s.proj_clip});
          }
          hb[k] = v;
          out[size_t(row) * s.n_output + k] = v;
        }
      }
    }
    return out;
  }
};

TfLiteUnidirectionalSequenceLSTMParams Params(const Spec& s) {
  TfLiteUnidirectionalSequenceLSTMParams p{};
  p.activation = kTfLiteActTanh;
  p.cell_clip = s.cell_clip;
  p.proj_clip = s.proj_clip;
  p.time_major = s.time_major;
  return p;
}

struct Built {
  int input = -1, output = -1, output_state = -1, cell_state = -1;
};

Built BuildModel(OpModel& m, const Spec& s, const std::map<int, std::vector<float>>& w) {
  Built b;
  const std::vector<int> in_shape = s.time_major
                                        ? std::vector<int>{s.max_time, s.n_batch, s.n_input}
                                        : std::vector<int>{s.n_batch, s.max_time, s.n_input};
  const int n_inputs = s.full_24_inputs ? 24 : 20;
  for (int i = 0; i < n_inputs; ++i) {
    if (i == 0) {
      b.input = m.AddInput({kTfLiteFloat32, in_shape});
    } else if (i == 18) {
      b.output_state = m.AddVariableInput({kTfLiteFloat32, {s.n_batch, s.n_output}});
    } else if (i == 19) {
      b.cell_state = m.AddVariableInput({kTfLiteFloat32, {s.n_batch, s.n_cell}});
    } else if (w.count(i)) {
      m.AddConstInput({kTfLiteFloat32, WeightShape(s, i)}, w.at(i));
    } else {
      m.AddNullInput();
    }
  }
  b.output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
                 tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), Params(s));
  return b;
}

// Runs two invokes (the states must carry over) and compares both with the naive model, on
// the reference path and on every optimized path the CPU runs (the GEMM form).
void CheckOnPath(const Spec& s) {
  auto w = MakeWeights(s);
  OpModel m;
  const Built b = BuildModel(m, s, w);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  NaiveLstm naive(s, w);
  const int n = s.max_time * s.n_batch * s.n_input;
  for (int call = 0; call < 2; ++call) {
    const auto in = nn_test::Random(n, 70 + call, -1.f, 1.f);
    m.SetInput(b.input, in);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    const auto want = naive.Run(in);
    EXPECT_EQ(m.GetShape(b.output),
              (s.time_major ? std::vector<int>{s.max_time, s.n_batch, s.n_output}
                            : std::vector<int>{s.n_batch, s.max_time, s.n_output}));
    nn_test::ExpectAllNear(m.GetOutput<float>(b.output), want, 2e-5, 1e-4);
    nn_test::ExpectAllNear(m.GetOutput<float>(b.output_state), naive.h, 2e-5, 1e-4);
    nn_test::ExpectAllNear(m.GetOutput<float>(b.cell_state), naive.c, 2e-5, 1e-4);
  }
}

void Check(const Spec& s) {
  std::vector<cpu::Isa> paths = testing::OptimizedPaths();
  paths.push_back(cpu::Isa::kReference);
  for (cpu::Isa isa : paths) {
    SCOPED_TRACE(cpu::IsaName(isa));
    IsaScope scope(isa);
    ASSERT_TRUE(scope.ok);
    CheckOnPath(s);
  }
}

TEST(Nn_UnidirectionalSequenceLstm, BasicTimeMajor) { Check(Spec{}); }

TEST(Nn_UnidirectionalSequenceLstm, BatchMajorTwentyInputs) {
  // The MNIST model's form: batch-major, no peephole/projection/layer norm.
  Spec s;
  s.time_major = false;
  s.full_24_inputs = false;
  s.n_batch = 3;
  s.max_time = 4;
  s.n_input = 5;
  s.n_cell = s.n_output = 6;
  Check(s);
}

TEST(Nn_UnidirectionalSequenceLstm, CifgPeepholeClip) {
  Spec s;
  s.cifg = true;
  s.peephole = true;
  s.cell_clip = 0.3f;
  Check(s);
  s.cifg = false;
  s.time_major = false;
  Check(s);
}

TEST(Nn_UnidirectionalSequenceLstm, ProjectionWithBiasAndClip) {
  Spec s;
  s.projection = true;
  s.proj_bias = true;
  s.n_output = 2;
  s.proj_clip = 0.1f;
  Check(s);
  s.proj_bias = false;
  s.proj_clip = 0.f;
  s.time_major = false;
  Check(s);
}

TEST(Nn_UnidirectionalSequenceLstm, LayerNorm) {
  Spec s;
  s.layer_norm = true;
  s.peephole = true;
  Check(s);
  s.cifg = true;
  Check(s);
}

// ---- the GEMM form (optimized paths) against the reference loops ----

struct PathRun {
  std::vector<float> output, output_state, cell_state;
  std::string kernel;
};

// Two invokes from zero states on the current path; the second's results.
PathRun RunOnPath(const Spec& s, const std::map<int, std::vector<float>>& w,
                  const std::vector<float>& in1, const std::vector<float>& in2,
                  TfLiteRegistration* registration) {
  OpModel m;
  const Built b = BuildModel(m, s, w);
  m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, registration, Params(s));
  PathRun r;
  if (m.Build() != kTfLiteOk) {
    ADD_FAILURE() << m.error();
    return r;
  }
  r.kernel = GetNodeKernelName(m.interpreter()->primary_subgraph(), 0);
  for (const auto* in : {&in1, &in2}) {
    m.SetInput(b.input, *in);
    if (m.Invoke() != kTfLiteOk) {
      ADD_FAILURE() << m.error();
      return r;
    }
  }
  r.output = m.GetOutput<float>(b.output);
  r.output_state = m.GetOutput<float>(b.output_state);
  r.cell_state = m.GetOutput<float>(b.cell_state);
  return r;
}

void ExpectClose(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    // Sums of a few hundred products ordered differently, through sigmoid/tanh (slope <= 1).
    ASSERT_NEAR(got[i], want[i], 2e-6f + 2e-5f * std::fabs(want[i])) << what << " [" << i << "]";
  }
}

TEST(Nn_UnidirectionalSequenceLstm, GemmFormMatchesReferenceOverRandomCells) {
  std::mt19937 rng(2026);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 60; ++trial) {
    Spec s;
    s.time_major = pick(0, 1) == 1;
    s.n_batch = pick(1, 5);
    // Long sequences cross the input products' chunks (64 rows), forwards.
    s.max_time = trial % 10 == 0 ? pick(60, 140) : pick(1, 12);
    s.n_input = pick(1, 40);
    s.n_cell = pick(1, 40);
    s.cifg = pick(0, 3) == 0;
    s.peephole = pick(0, 2) == 0;
    s.layer_norm = pick(0, 3) == 0;
    s.full_24_inputs = s.layer_norm || pick(0, 1) == 1;
    s.projection = pick(0, 2) == 0;
    s.proj_bias = s.projection && pick(0, 1) == 1;
    s.n_output = s.projection ? pick(1, 40) : s.n_cell;
    s.cell_clip = pick(0, 2) == 0 ? 0.5f : 0.f;
    s.proj_clip = s.projection && pick(0, 2) == 0 ? 0.3f : 0.f;
    SCOPED_TRACE("trial " + std::to_string(trial) + ": batch " + std::to_string(s.n_batch) +
                 " time " + std::to_string(s.max_time) + " input " + std::to_string(s.n_input) +
                 " cell " + std::to_string(s.n_cell) + " output " + std::to_string(s.n_output) +
                 (s.time_major ? " time-major" : " batch-major") + (s.cifg ? " cifg" : "") +
                 (s.peephole ? " peephole" : "") + (s.layer_norm ? " layer-norm" : "") +
                 (s.projection ? " projection" : ""));
    const auto w = MakeWeights(s);
    const int n = s.max_time * s.n_batch * s.n_input;
    const auto in1 = nn_test::Random(n, 500 + trial, -1.f, 1.f);
    const auto in2 = nn_test::Random(n, 900 + trial, -1.f, 1.f);
    PathRun want;
    {
      IsaScope scope(cpu::Isa::kReference);
      want =
          RunOnPath(s, w, in1, in2, tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM());
    }
    EXPECT_EQ(want.kernel, "reference");
    for (cpu::Isa isa : testing::OptimizedPaths()) {
      SCOPED_TRACE(cpu::IsaName(isa));
      IsaScope scope(isa);
      const PathRun got =
          RunOnPath(s, w, in1, in2, tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM());
      EXPECT_NE(got.kernel, "reference");
      ExpectClose(got.output, want.output, "output");
      ExpectClose(got.output_state, want.output_state, "output_state");
      ExpectClose(got.cell_state, want.cell_state, "cell_state");
      // The pinned registration keeps the reference loops, bit for bit, on any path.
      const PathRun pinned = RunOnPath(
          s, w, in1, in2, tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM_REF());
      EXPECT_EQ(pinned.kernel, "reference");
      EXPECT_EQ(pinned.output, want.output);
      EXPECT_EQ(pinned.cell_state, want.cell_state);
    }
  }
}

// ---- validation ----------------------------------------------------------------------

std::string BuildError(
    Spec s, const std::function<void(std::map<int, std::vector<float>>&,
                                     TfLiteUnidirectionalSequenceLSTMParams&, Spec&)>& mutate) {
  auto w = MakeWeights(s);
  auto p = Params(s);
  mutate(w, p, s);
  OpModel m;
  BuildModel(m, s, w);
  m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
                 tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), p);
  EXPECT_NE(m.Build(), kTfLiteOk);
  return m.error();
}

TEST(Nn_UnidirectionalSequenceLstm, Rejections) {
  using W = std::map<int, std::vector<float>>;
  using P = TfLiteUnidirectionalSequenceLSTMParams;
  EXPECT_NE(BuildError({}, [](W&, P& p, Spec&) { p.cell_clip = -1.f; })
                .find("UNIDIRECTIONAL_SEQUENCE_LSTM: cell_clip must be >= 0"),
            std::string::npos);
  EXPECT_NE(BuildError({}, [](W& w, P&, Spec&) { w.erase(5); })
                .find("must be all present or all absent (CIFG)"),
            std::string::npos);
  EXPECT_NE(BuildError({}, [](W& w, P&, Spec&) { w.erase(13); })
                .find("UNIDIRECTIONAL_SEQUENCE_LSTM: forget_gate_bias (input 13) is required"),
            std::string::npos);
  EXPECT_NE(BuildError({}, [](W& w, P&, Spec&) { w[10] = std::vector<float>(4, 0.f); })
                .find("peephole weights"),
            std::string::npos);
  EXPECT_NE(BuildError({}, [](W& w, P&, Spec&) { w[17] = std::vector<float>(4, 0.f); })
                .find("projection_bias needs projection_weights"),
            std::string::npos);
  EXPECT_NE(BuildError({}, [](W&, P& p, Spec&) { p.activation = kTfLiteActSignBit; })
                .find("UNIDIRECTIONAL_SEQUENCE_LSTM: activation"),
            std::string::npos);
}

TEST(Nn_UnidirectionalSequenceLstm, RejectsShapesAndState) {
  // Wrong weight shape.
  {
    Spec s;
    auto w = MakeWeights(s);
    OpModel m;
    for (int i = 0; i < 24; ++i) {
      if (i == 0) {
        m.AddInput({kTfLiteFloat32, {3, 2, 3}});
      } else if (i == 18 || i == 19) {
        m.AddVariableInput({kTfLiteFloat32, {2, 4}});
      } else if (i == 3) {
        m.AddConstInput({kTfLiteFloat32, {4, 2}}, std::vector<float>(8, 0.f));
      } else if (w.count(i)) {
        m.AddConstInput({kTfLiteFloat32, WeightShape(s, i)}, w.at(i));
      } else {
        m.AddNullInput();
      }
    }
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
                   tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), Params(s));
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("UNIDIRECTIONAL_SEQUENCE_LSTM: input_to_cell_weights must have shape "
                             "[4, 3], got [4, 2]"),
              std::string::npos)
        << m.error();
  }
  // A state that is not a variable tensor.
  {
    Spec s;
    auto w = MakeWeights(s);
    OpModel m;
    for (int i = 0; i < 24; ++i) {
      if (i == 0 || i == 18) {
        m.AddInput({kTfLiteFloat32, i == 0 ? std::vector<int>{3, 2, 3} : std::vector<int>{2, 4}});
      } else if (i == 19) {
        m.AddVariableInput({kTfLiteFloat32, {2, 4}});
      } else if (w.count(i)) {
        m.AddConstInput({kTfLiteFloat32, WeightShape(s, i)}, w.at(i));
      } else {
        m.AddNullInput();
      }
    }
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
                   tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), Params(s));
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("output_state (input 18) must be a variable tensor"),
              std::string::npos)
        << m.error();
  }
}

}  // namespace
}  // namespace octet
