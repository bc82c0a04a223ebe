// Integer UNIDIRECTIONAL_SEQUENCE_LSTM: a hand-worked exact case (power-of-two scales,
// bias-only gates) over two invokes, int8 and int16 activations against a double LSTM on
// dequantized values (time- and batch-major, state carried across invokes), the int8 cell on
// every optimized kernel path (its FCs on the quantized GEMM) bit for bit against the reference
// loops over random shapes, zero points, weights and biases that wrap the int32 sums, and
// prepare's one-line errors.
#include "ops/nn/lstm_integer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "octet/kernel_info.h"
#include "ops/nn/nn_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/kernel_paths.h"
#include "util/op_model.h"

namespace octet {
namespace {

using testing::OpModel;
using testing::TensorSpec;

std::vector<float> Lcg(size_t n, uint32_t seed, float lo, float hi) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 11u;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = lo + (hi - lo) * static_cast<float>(s >> 8) / static_cast<float>(1u << 24);
  }
  return v;
}

template <typename T>
std::vector<T> Quantize(const std::vector<float>& v, float scale, int zp) {
  std::vector<T> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const double r = std::round(v[i] / scale) + zp;
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    const double lo = static_cast<double>(std::numeric_limits<T>::min());
    out[i] = static_cast<T>(std::min(hi, std::max(lo, r)));
  }
  return out;
}

TfLiteUnidirectionalSequenceLSTMParams Params(bool time_major, float cell_clip = 0.f) {
  TfLiteUnidirectionalSequenceLSTMParams p{};
  p.activation = kTfLiteActTanh;
  p.cell_clip = cell_clip;
  p.time_major = time_major;
  return p;
}

template <typename T>
constexpr TfLiteType TypeOf() {
  return std::is_same_v<T, int8_t> ? kTfLiteInt8 : kTfLiteInt16;
}

// Quantized LSTM description: weights already quantized (int8), biases (BiasT) with scale
// input_scale * weight_scale.
template <typename ActT>
struct QLstm {
  using BiasT = std::conditional_t<std::is_same_v<ActT, int8_t>, int32_t, int64_t>;
  int batch = 1, time = 1, n_input = 1, n_state = 1;
  bool time_major = true;
  float in_scale = 1, h_scale = 1, cell_scale = 1.f / 2048;
  int in_zp = 0, h_zp = 0;
  float w_scale[8] = {1, 1, 1, 1, 1, 1, 1, 1};  // inputs 1..8
  std::vector<int8_t> w[8];
  std::vector<BiasT> bias[4];  // inputs 12..15
  float cell_clip = 0.f;
  int input = -1, output = -1, hidden = -1, cell = -1;
  TfLiteRegistration* registration = ops::nn_integer::RegisterLstmInteger();

  // Index 9..11, 16, 17 (variants) absent; 20..23 absent.
  void Build(OpModel& m) {
    const TfLiteType act = TypeOf<ActT>();
    const TfLiteType bias_type = std::is_same_v<BiasT, int32_t> ? kTfLiteInt32 : kTfLiteInt64;
    const std::vector<int> in_shape = time_major ? std::vector<int>{time, batch, n_input}
                                                 : std::vector<int>{batch, time, n_input};
    input = m.AddInput({act, in_shape, {in_scale}, {in_zp}});
    for (int i = 0; i < 8; ++i) {
      const int cols = static_cast<int>(w[i].size()) / n_state;
      m.AddConstInput(TensorSpec{kTfLiteInt8, {n_state, cols}, {w_scale[i]}, {0}}, w[i]);
    }
    for (int i = 0; i < 3; ++i) m.AddNullInput();
    for (int g = 0; g < 4; ++g) {
      m.AddConstInput(TensorSpec{bias_type, {n_state}, {in_scale * w_scale[g]}, {0}}, bias[g]);
    }
    m.AddNullInput();
    m.AddNullInput();
    hidden = m.AddVariableInput({act, {batch, n_state}, {h_scale}, {h_zp}});
    cell = m.AddVariableInput({kTfLiteInt16, {batch, n_state}, {cell_scale}, {0}});
    for (int i = 0; i < 4; ++i) m.AddNullInput();
    output = m.AddOutput({act, {}, {h_scale}, {h_zp}});
    m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, registration,
                   Params(time_major, cell_clip));
  }
};

// Weights zero, so each gate is its bias: scales 2^-4 (input) x 2^-8 (weights) = 2^-12
// make the gate FC the identity on the bias. Biases 1.0, -1.0, 0.5, 0 (Q3.12) for the
// forget, input, cell and output gates give sigmoid 23956 and 8812, tanh 15143, sigmoid
// 16384 (Q0.15, from the interpolated table). Cell scale 2^-11, hidden scale 2^-7.
class LstmIntegerHandWorked : public ::testing::TestWithParam<bool> {};

// Run through the stand-alone registration and through the builtin LSTM, which
// dispatches int8 input to the integer kernel.
TEST_P(LstmIntegerHandWorked, BiasOnlyGates) {
  QLstm<int8_t> q;
  if (GetParam()) q.registration = tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM();
  q.time = 2;
  q.in_scale = 1.f / 16;
  q.h_scale = 1.f / 128;
  for (int i = 0; i < 8; ++i) {
    q.w_scale[i] = 1.f / 256;
    q.w[i] = {0};
  }
  q.bias[0] = {-4096};  // input gate (index 12): sigmoid(-1)
  q.bias[1] = {4096};   // forget gate: sigmoid(1)
  q.bias[2] = {2048};   // cell gate: tanh(0.5)
  q.bias[3] = {0};      // output gate: sigmoid(0)
  OpModel m;
  q.Build(m);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(q.output), (std::vector<int>{2, 1, 1}));
  m.SetInput(q.input, std::vector<int8_t>{5, -7});
  // Step 1: c = i*g = 8812*15143 -> 2^-19 -> 255; h = tanh(255/2048) = 4059 -> x 16384
  //   -> 2^-23 -> 8.  Step 2: c = 23956*255 -> 2^-15 -> 186, + 255 = 441; h -> 14.
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<int8_t>(q.output), (std::vector<int8_t>{8, 14}));
  EXPECT_EQ(m.GetOutput<int16_t>(q.cell), (std::vector<int16_t>{441}));
  // The states persist: c = 322 + 255 = 577 (h 18), then 422 + 255 = 677 (h 20).
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<int8_t>(q.output), (std::vector<int8_t>{18, 20}));
  EXPECT_EQ(m.GetOutput<int16_t>(q.cell), (std::vector<int16_t>{677}));
  EXPECT_EQ(m.GetOutput<int8_t>(q.hidden), (std::vector<int8_t>{20}));
}
INSTANTIATE_TEST_SUITE_P(Registrations, LstmIntegerHandWorked, ::testing::Bool());

// The standard LSTM in double on dequantized tensors.
struct NaiveLstm {
  int batch = 0, n_input = 0, n_state = 0;
  std::vector<double> w[8], bias[4];  // bias: input, forget, cell, output
  double cell_clip = 0;
  std::vector<double> h, c;

  static double Sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

  // One time step for batch row b.
  void Step(int b, const double* x, double* out) {
    double* hb = &h[b * n_state];
    double* cb = &c[b * n_state];
    std::vector<double> pre[4];
    for (int g = 0; g < 4; ++g) {
      pre[g].assign(n_state, 0);
      for (int j = 0; j < n_state; ++j) {
        double acc = bias[g][j];
        for (int k = 0; k < n_input; ++k) acc += w[g][j * n_input + k] * x[k];
        for (int k = 0; k < n_state; ++k) acc += w[4 + g][j * n_state + k] * hb[k];
        pre[g][j] = acc;
      }
    }
    for (int j = 0; j < n_state; ++j) {
      const double i = Sigmoid(pre[0][j]), f = Sigmoid(pre[1][j]), g = std::tanh(pre[2][j]);
      const double o = Sigmoid(pre[3][j]);
      cb[j] = f * cb[j] + i * g;
      if (cell_clip > 0) cb[j] = std::clamp(cb[j], -cell_clip, cell_clip);
      out[j] = o * std::tanh(cb[j]);
    }
    std::copy(out, out + n_state, hb);
  }
};

template <typename ActT>
void CompareWithDouble(bool time_major, float cell_clip) {
  QLstm<ActT> q;
  q.batch = 2;
  q.time = 4;
  q.n_input = 5;
  q.n_state = 3;
  q.time_major = time_major;
  q.cell_clip = cell_clip;
  const bool is8 = std::is_same_v<ActT, int8_t>;
  q.in_scale = is8 ? 0.02f : 0.0001f;
  q.in_zp = is8 ? 3 : 0;
  q.h_scale = is8 ? 1.f / 128 : 1.f / 32768;
  q.h_zp = is8 ? -2 : 0;
  q.cell_scale = 1.f / 4096;  // Q3.12
  NaiveLstm naive;
  naive.batch = q.batch;
  naive.n_input = q.n_input;
  naive.n_state = q.n_state;
  for (int i = 0; i < 8; ++i) {
    const int cols = i < 4 ? q.n_input : q.n_state;
    q.w_scale[i] = 0.005f + 0.001f * i;
    q.w[i] = Quantize<int8_t>(Lcg(q.n_state * cols, 30 + i, -0.6f, 0.6f), q.w_scale[i], 0);
    for (int8_t v : q.w[i]) naive.w[i].push_back(v * double{q.w_scale[i]});
  }
  for (int g = 0; g < 4; ++g) {
    const float bs = q.in_scale * q.w_scale[g];
    q.bias[g] = Quantize<typename QLstm<ActT>::BiasT>(Lcg(q.n_state, 50 + g, -0.5f, 0.5f), bs, 0);
    for (auto v : q.bias[g]) naive.bias[g].push_back(double(v) * bs);
  }
  naive.cell_clip = cell_clip;
  naive.h.assign(q.batch * q.n_state, 0);
  naive.c.assign(q.batch * q.n_state, 0);

  OpModel m;
  q.Build(m);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(q.hidden, std::vector<ActT>(q.batch * q.n_state, static_cast<ActT>(q.h_zp)));
  const double in_range = is8 ? 2.0 : 3.0;
  for (int invoke = 0; invoke < 3; ++invoke) {
    const auto xq = Quantize<ActT>(
        Lcg(q.batch * q.time * q.n_input, 70 + invoke, -in_range, in_range), q.in_scale, q.in_zp);
    m.SetInput(q.input, xq);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    const auto got = m.GetOutput<ActT>(q.output);
    std::vector<double> want(got.size());
    for (int b = 0; b < q.batch; ++b) {
      for (int t = 0; t < q.time; ++t) {
        const int row = time_major ? t * q.batch + b : b * q.time + t;
        std::vector<double> x(q.n_input);
        for (int k = 0; k < q.n_input; ++k) {
          x[k] = (double(xq[row * q.n_input + k]) - q.in_zp) * q.in_scale;
        }
        naive.Step(b, x.data(), &want[row * q.n_state]);
      }
    }
    // Batch rows are independent, so stepping the double model batch by batch matches
    // both layouts.
    const double tol_steps = is8 ? 2.0 : 12.0;  // int16 steps are 2^-15
    for (size_t i = 0; i < got.size(); ++i) {
      const double wq = std::round(want[i] / q.h_scale) + q.h_zp;
      EXPECT_LE(std::fabs(double(got[i]) - wq), tol_steps)
          << "invoke " << invoke << " index " << i << " want " << want[i];
    }
  }
}

TEST(LstmInteger, Int8TimeMajorMatchesDouble) { CompareWithDouble<int8_t>(true, 0.f); }
TEST(LstmInteger, Int8BatchMajorWithClipMatchesDouble) { CompareWithDouble<int8_t>(false, 0.3f); }
TEST(LstmInteger, Int16TimeMajorMatchesDouble) { CompareWithDouble<int16_t>(true, 0.f); }
TEST(LstmInteger, Int16BatchMajorMatchesDouble) { CompareWithDouble<int16_t>(false, 0.f); }

// ---- the GEMM form (optimized paths) against the reference loops, bit for bit ----

struct QRun {
  std::vector<int8_t> output, hidden;
  std::vector<int16_t> cell;
  std::string kernel;
};

// Two invokes (the states carry over) through `q`'s registration on the current path.
QRun RunTwice(QLstm<int8_t> q, const std::vector<int8_t>& x1, const std::vector<int8_t>& x2) {
  OpModel m;
  q.Build(m);
  QRun r;
  if (m.Build() != kTfLiteOk) {
    ADD_FAILURE() << m.error();
    return r;
  }
  r.kernel = GetNodeKernelName(m.interpreter()->primary_subgraph(), 0);
  m.SetInput(q.hidden, std::vector<int8_t>(size_t(q.batch) * q.n_state, int8_t(q.h_zp)));
  for (const auto* x : {&x1, &x2}) {
    m.SetInput(q.input, *x);
    if (m.Invoke() != kTfLiteOk) {
      ADD_FAILURE() << m.error();
      return r;
    }
  }
  r.output = m.GetOutput<int8_t>(q.output);
  r.hidden = m.GetOutput<int8_t>(q.hidden);
  r.cell = m.GetOutput<int16_t>(q.cell);
  return r;
}

TEST(LstmInteger, Int8GemmFormMatchesReferenceBitForBit) {
  std::mt19937 rng(77);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto unit = [&] { return std::uniform_real_distribution<float>(0.f, 1.f)(rng); };
  for (int trial = 0; trial < 80; ++trial) {
    QLstm<int8_t> q;
    q.batch = pick(1, 4);
    q.time = pick(1, 9);
    q.n_input = pick(1, 40);
    q.n_state = pick(1, 40);
    q.time_major = pick(0, 1) == 1;
    q.cell_clip = pick(0, 2) == 0 ? 0.4f : 0.f;
    const int zps[] = {-128, 127, 0, pick(-128, 127)};
    q.in_zp = zps[pick(0, 3)];
    q.h_zp = zps[pick(0, 3)];
    q.in_scale = 0.005f + 0.05f * unit();
    q.h_scale = 1.f / 128;
    q.cell_scale = 1.f / 2048;
    // Every fourth trial: biases near the int32 limits, so the reference's int32 sums wrap.
    const bool wrap = trial % 4 == 3;
    for (int i = 0; i < 8; ++i) {
      const int cols = i < 4 ? q.n_input : q.n_state;
      q.w_scale[i] = 0.002f + 0.02f * unit();
      q.w[i].resize(size_t(q.n_state) * cols);
      for (auto& v : q.w[i]) v = static_cast<int8_t>(pick(0, 3) == 0 ? -128 : pick(-128, 127));
    }
    for (int g = 0; g < 4; ++g) {
      q.bias[g].resize(q.n_state);
      for (auto& b : q.bias[g]) {
        b = wrap ? (pick(0, 1) ? std::numeric_limits<int32_t>::max() - pick(0, 5000)
                               : std::numeric_limits<int32_t>::min() + pick(0, 5000))
                 : pick(-20000, 20000);
      }
    }
    SCOPED_TRACE("trial " + std::to_string(trial) + ": batch " + std::to_string(q.batch) +
                 " time " + std::to_string(q.time) + " input " + std::to_string(q.n_input) +
                 " state " + std::to_string(q.n_state) +
                 (q.time_major ? " time-major" : " batch-major") + " zp " +
                 std::to_string(q.in_zp) + "/" + std::to_string(q.h_zp));
    std::vector<int8_t> x1(size_t(q.batch) * q.time * q.n_input), x2(x1.size());
    for (auto& v : x1) v = static_cast<int8_t>(pick(-128, 127));
    for (auto& v : x2) v = static_cast<int8_t>(pick(-128, 127));
    QRun want;
    {
      testing::IsaScope scope(cpu::Isa::kReference);
      want = RunTwice(q, x1, x2);
    }
    EXPECT_EQ(want.kernel, "reference");
    for (cpu::Isa isa : testing::OptimizedPaths()) {
      SCOPED_TRACE(cpu::IsaName(isa));
      testing::IsaScope scope(isa);
      const QRun got = RunTwice(q, x1, x2);
      EXPECT_NE(got.kernel, "reference");
      EXPECT_EQ(got.output, want.output);
      EXPECT_EQ(got.hidden, want.hidden);
      EXPECT_EQ(got.cell, want.cell);
      // The builtin dispatches int8 input here too; its pinned registration keeps the loops.
      QLstm<int8_t> pinned = q;
      pinned.registration = tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM_REF();
      const QRun ref = RunTwice(pinned, x1, x2);
      EXPECT_EQ(ref.kernel, "reference");
      EXPECT_EQ(ref.output, want.output);
      EXPECT_EQ(ref.cell, want.cell);
    }
  }
}

// ---- prepare errors ----

std::string PrepareError(void (*mutate)(QLstm<int8_t>&, OpModel&)) {
  QLstm<int8_t> q;
  q.n_input = 2;
  q.n_state = 2;
  for (int i = 0; i < 8; ++i) {
    q.w_scale[i] = 0.01f;
    q.w[i] = std::vector<int8_t>(4, 1);
  }
  for (int g = 0; g < 4; ++g) q.bias[g] = {0, 0};
  OpModel m;
  mutate(q, m);
  if (q.input < 0) q.Build(m);
  if (m.Build() == kTfLiteOk) return "";
  return m.error();
}

TEST(LstmIntegerPrepare, OneLineErrors) {
  auto expect = [](const std::string& e, const std::string& needle) {
    EXPECT_NE(e.find("UNIDIRECTIONAL_SEQUENCE_LSTM: "), std::string::npos) << e;
    EXPECT_NE(e.find(needle), std::string::npos) << e;
  };
  EXPECT_EQ(PrepareError([](QLstm<int8_t>&, OpModel&) {}), "");
  expect(PrepareError([](QLstm<int8_t>& q, OpModel&) { q.cell_scale = 0.0003f; }),
         "cell_state scale 0.0003 must be a power of two");
  expect(PrepareError([](QLstm<int8_t>& q, OpModel&) { q.w[5] = std::vector<int8_t>(6, 1); }),
         "recurrent_to_forget_weights must have shape [2, 2], got [2, 3]");
  expect(PrepareError([](QLstm<int8_t>& q, OpModel&) { q.w_scale[2] = 0.f; }),
         "must be finite and > 0");
}

// A NaN cell_clip cannot be quantized (float -> int16 of NaN is undefined): refused.
TEST(NonFiniteLstmInteger, NaNCellClipIsRefusedAndInfiniteClipSaturates) {
  const std::string e = PrepareError(
      [](QLstm<int8_t>& q, OpModel&) { q.cell_clip = std::numeric_limits<float>::quiet_NaN(); });
  EXPECT_NE(e.find("cell_clip must be >= 0, got nan"), std::string::npos) << e;
  EXPECT_EQ(PrepareError([](QLstm<int8_t>& q, OpModel&) {
              q.cell_clip = std::numeric_limits<float>::infinity();
            }),
            "");
}

}  // namespace
}  // namespace octet
