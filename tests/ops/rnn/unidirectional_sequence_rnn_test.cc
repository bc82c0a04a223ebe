// UNIDIRECTIONAL_SEQUENCE_RNN: float in both layouts against the cell in double over two
// invokes (the state after the last step carries), the two layouts agreeing on transposed
// data, the hybrid path against its exact semantics (symmetric and asymmetric), and
// prepare's errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/rnn/rnn_test_util.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace tflite::ops::builtin {
TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_RNN();
}

namespace octet {
namespace {

using rnn_test::HybridCell;
using rnn_test::Lcg;
using rnn_test::Weights;
using testing::OpModel;
using testing::TensorSpec;

constexpr int kT = 4, kB = 2;

TfLiteSequenceRNNParams Params(bool time_major, TfLiteFusedActivation act,
                               bool asymmetric = false) {
  TfLiteSequenceRNNParams p{};
  p.time_major = time_major;
  p.activation = act;
  p.asymmetric_quantize_inputs = asymmetric;
  return p;
}

// Index of (t, b) rows in either layout.
int64_t Row(bool time_major, int t, int b) {
  return time_major ? int64_t{t} * kB + b : int64_t{b} * kT + t;
}

struct Model {
  OpModel m;
  int input = -1, state = -1, output = -1;
  // hybrid: weights quantized from `h`.
  Model(const Weights& c, const HybridCell* h, bool time_major, TfLiteFusedActivation act,
        bool asymmetric = false) {
    const std::vector<int> in_shape =
        time_major ? std::vector<int>{kT, kB, c.input} : std::vector<int>{kB, kT, c.input};
    input = m.AddInput({kTfLiteFloat32, in_shape});
    if (h) {
      m.AddConstInput(TensorSpec{kTfLiteInt8, {c.units, c.input}, {h->w.scale}, {0}}, h->w.q);
      m.AddConstInput(TensorSpec{kTfLiteInt8, {c.units, c.units}, {h->r.scale}, {0}}, h->r.q);
    } else {
      m.AddConstInput(TensorSpec{kTfLiteFloat32, {c.units, c.input}}, c.w);
      m.AddConstInput(TensorSpec{kTfLiteFloat32, {c.units, c.units}}, c.r);
    }
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {c.units}}, c.b);
    state = m.AddVariableInput({kTfLiteFloat32, {kB, c.units}});
    output = m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN,
                   tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_RNN(),
                   Params(time_major, act, asymmetric));
  }
};

void RunFloat(bool time_major) {
  const Weights c = rnn_test::MakeWeights(3, 2, 0, 7);
  Model f(c, nullptr, time_major, kTfLiteActTanh);
  ASSERT_EQ(f.m.Build(), kTfLiteOk) << f.m.error();
  EXPECT_EQ(f.m.GetShape(f.output),
            time_major ? (std::vector<int>{kT, kB, c.units}) : (std::vector<int>{kB, kT, c.units}));
  std::vector<std::vector<double>> h(kB, std::vector<double>(c.units, 0.0));
  for (int invoke = 0; invoke < 2; ++invoke) {
    const auto x = Lcg(kT * kB * c.input, 60 + invoke, -1.f, 1.f);
    f.m.SetInput(f.input, x);
    ASSERT_EQ(f.m.Invoke(), kTfLiteOk) << f.m.error();
    const auto out = f.m.GetOutput<float>(f.output);
    for (int t = 0; t < kT; ++t) {
      for (int b = 0; b < kB; ++b) {
        const int64_t row = Row(time_major, t, b);
        rnn_test::NaiveStep(c, kTfLiteActTanh, &x[row * c.input], nullptr, &h[b]);
        for (int u = 0; u < c.units; ++u) {
          EXPECT_NEAR(out[row * c.units + u], h[b][u], 1e-5) << invoke << " " << t << " " << b;
        }
      }
    }
    const auto st = f.m.GetOutput<float>(f.state);
    for (int b = 0; b < kB; ++b) {
      for (int u = 0; u < c.units; ++u) EXPECT_NEAR(st[b * c.units + u], h[b][u], 1e-5);
    }
  }
}

TEST(Rnn_UnidirectionalSequenceRnn, FloatTimeMajor) { RunFloat(true); }
TEST(Rnn_UnidirectionalSequenceRnn, FloatBatchMajor) { RunFloat(false); }

TEST(Rnn_UnidirectionalSequenceRnn, LayoutsAgreeOnTransposedData) {
  const Weights c = rnn_test::MakeWeights(5, 3, 0, 17);
  Model tm(c, nullptr, true, kTfLiteActRelu), bm(c, nullptr, false, kTfLiteActRelu);
  ASSERT_EQ(tm.m.Build(), kTfLiteOk);
  ASSERT_EQ(bm.m.Build(), kTfLiteOk);
  const auto x = Lcg(kT * kB * c.input, 3, -1.f, 1.f);  // time-major
  std::vector<float> xb(x.size());
  for (int t = 0; t < kT; ++t) {
    for (int b = 0; b < kB; ++b) {
      for (int k = 0; k < c.input; ++k) {
        xb[Row(false, t, b) * c.input + k] = x[Row(true, t, b) * c.input + k];
      }
    }
  }
  tm.m.SetInput(tm.input, x);
  bm.m.SetInput(bm.input, xb);
  ASSERT_EQ(tm.m.Invoke(), kTfLiteOk);
  ASSERT_EQ(bm.m.Invoke(), kTfLiteOk);
  const auto ot = tm.m.GetOutput<float>(tm.output), ob = bm.m.GetOutput<float>(bm.output);
  for (int t = 0; t < kT; ++t) {
    for (int b = 0; b < kB; ++b) {
      for (int u = 0; u < c.units; ++u) {
        EXPECT_EQ(ot[Row(true, t, b) * c.units + u], ob[Row(false, t, b) * c.units + u]);
      }
    }
  }
  EXPECT_EQ(tm.m.GetOutput<float>(tm.state), bm.m.GetOutput<float>(bm.state));
}

void RunHybrid(bool time_major, bool asymmetric) {
  const Weights c = rnn_test::MakeWeights(4, 6, 0, 27);
  const HybridCell hc = rnn_test::MakeHybrid(c);
  Model hm(c, &hc, time_major, kTfLiteActTanh, asymmetric);
  ASSERT_EQ(hm.m.Build(), kTfLiteOk) << hm.m.error();
  std::vector<std::vector<float>> h(kB, std::vector<float>(c.units, 0.f));
  for (int invoke = 0; invoke < 2; ++invoke) {
    const auto x = Lcg(kT * kB * c.input, 80 + invoke, -1.f, 1.f);
    hm.m.SetInput(hm.input, x);
    ASSERT_EQ(hm.m.Invoke(), kTfLiteOk) << hm.m.error();
    const auto out = hm.m.GetOutput<float>(hm.output);
    for (int t = 0; t < kT; ++t) {
      for (int b = 0; b < kB; ++b) {
        const int64_t row = Row(time_major, t, b);
        rnn_test::HybridStep(hc, kTfLiteActTanh, asymmetric, &x[row * c.input], nullptr, &h[b]);
        for (int u = 0; u < c.units; ++u) {
          EXPECT_NEAR(out[row * c.units + u], h[b][u], 2e-6) << invoke << " " << t << " " << b;
        }
      }
    }
  }
}

TEST(Rnn_UnidirectionalSequenceRnn, HybridTimeMajorSymmetric) { RunHybrid(true, false); }
TEST(Rnn_UnidirectionalSequenceRnn, HybridBatchMajorAsymmetric) { RunHybrid(false, true); }

TEST(Rnn_UnidirectionalSequenceRnn, PrepareErrors) {
  auto build = [](const std::vector<int>& in_shape, const std::vector<int>& state_shape,
                  bool time_major) {
    OpModel m;
    m.AddInput({kTfLiteFloat32, in_shape});
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {4, 3}}, std::vector<float>(12));
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {4, 4}}, std::vector<float>(16));
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {4}}, std::vector<float>(4));
    m.AddVariableInput({kTfLiteFloat32, state_shape});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN,
                   tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_RNN(),
                   Params(time_major, kTfLiteActNone));
    return m.Build() == kTfLiteOk ? std::string() : m.error();
  };
  EXPECT_EQ(build({5, 2, 3}, {2, 4}, true), "");
  EXPECT_EQ(build({2, 5, 3}, {2, 4}, false), "");
  std::string e = build({2, 3}, {2, 4}, true);
  EXPECT_NE(e.find("UNIDIRECTIONAL_SEQUENCE_RNN: input must be 3-D"), std::string::npos) << e;
  // time_major picks dimension 1 as the batch.
  e = build({2, 5, 3}, {2, 4}, true);
  EXPECT_NE(e.find("hidden_state (input 4) must have shape [5, 4]"), std::string::npos) << e;
  e = build({5, 2, 2}, {2, 4}, true);
  EXPECT_NE(e.find("input_weights (input 1) must be 2-D with 2 columns"), std::string::npos) << e;
}

TEST(Rnn_UnidirectionalSequenceRnn, VersionRange) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  const auto op = tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_RNN;
  for (int v = 1; v <= 3; ++v) EXPECT_NE(resolver.FindOp(op, v), nullptr);
  EXPECT_EQ(resolver.FindOp(op, 4), nullptr);
}

}  // namespace
}  // namespace octet
