// RNN: float against the cell in double over several invokes (the hidden state carries),
// every fused activation, the hybrid path (int8 and uint8 weights, symmetric and asymmetric
// input quantization) against its exact integer semantics and against the float result
// within the quantization error, and prepare's one-line errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/rnn/rnn_test_util.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace tflite::ops::builtin {
TfLiteRegistration* Register_RNN();
}

namespace octet {
namespace {

using rnn_test::HybridCell;
using rnn_test::Lcg;
using rnn_test::Weights;
using testing::OpModel;
using testing::TensorSpec;

TfLiteRNNParams Params(TfLiteFusedActivation act, bool asymmetric = false) {
  TfLiteRNNParams p{};
  p.activation = act;
  p.asymmetric_quantize_inputs = asymmetric;
  return p;
}

struct FloatModel {
  OpModel m;
  int input = -1, state = -1, output = -1;
  FloatModel(const Weights& c, int batch, TfLiteFusedActivation act) {
    input = m.AddInput({kTfLiteFloat32, {batch, c.input}});
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {c.units, c.input}}, c.w);
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {c.units, c.units}}, c.r);
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {c.units}}, c.b);
    state = m.AddVariableInput({kTfLiteFloat32, {batch, c.units}});
    output = m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_RNN, tflite::ops::builtin::Register_RNN(), Params(act));
  }
};

TEST(Rnn_Rnn, FloatMatchesDoubleAcrossInvokes) {
  const Weights c = rnn_test::MakeWeights(4, 3, 0, 11);
  const int batch = 2;
  FloatModel f(c, batch, kTfLiteActTanh);
  ASSERT_EQ(f.m.Build(), kTfLiteOk) << f.m.error();
  EXPECT_EQ(f.m.GetShape(f.output), (std::vector<int>{batch, c.units}));
  std::vector<std::vector<double>> h(batch, std::vector<double>(c.units, 0.0));
  for (int step = 0; step < 4; ++step) {
    const auto x = Lcg(batch * c.input, 100 + step, -1.5f, 1.5f);
    f.m.SetInput(f.input, x);
    ASSERT_EQ(f.m.Invoke(), kTfLiteOk) << f.m.error();
    const auto out = f.m.GetOutput<float>(f.output);
    const auto st = f.m.GetOutput<float>(f.state);
    for (int b = 0; b < batch; ++b) {
      rnn_test::NaiveStep(c, kTfLiteActTanh, &x[b * c.input], nullptr, &h[b]);
      for (int u = 0; u < c.units; ++u) {
        EXPECT_NEAR(out[b * c.units + u], h[b][u], 1e-5) << step << " " << b << " " << u;
        EXPECT_EQ(st[b * c.units + u], out[b * c.units + u]);
      }
    }
  }
}

TEST(Rnn_Rnn, EveryActivation) {
  const Weights c = rnn_test::MakeWeights(5, 2, 0, 21, 2.f);
  for (TfLiteFusedActivation act :
       {kTfLiteActNone, kTfLiteActRelu, kTfLiteActReluN1To1, kTfLiteActRelu6, kTfLiteActTanh,
        kTfLiteActSignBit, kTfLiteActSigmoid}) {
    FloatModel f(c, 1, act);
    ASSERT_EQ(f.m.Build(), kTfLiteOk) << f.m.error();
    std::vector<double> h(c.units, 0.0);
    for (int step = 0; step < 2; ++step) {
      const auto x = Lcg(c.input, 30 + step, -3.f, 3.f);
      f.m.SetInput(f.input, x);
      ASSERT_EQ(f.m.Invoke(), kTfLiteOk);
      rnn_test::NaiveStep(c, act, x.data(), nullptr, &h);
      const auto out = f.m.GetOutput<float>(f.output);
      for (int u = 0; u < c.units; ++u) EXPECT_NEAR(out[u], h[u], 1e-5) << act << " " << u;
    }
  }
}

// A hand-worked step: W = [[1, 2]], R = [[0.5]], b = [0.25], no activation.
TEST(Rnn_Rnn, HandWorked) {
  Weights c;
  c.units = 1;
  c.input = 2;
  c.w = {1, 2};
  c.r = {0.5f};
  c.b = {0.25f};
  FloatModel f(c, 1, kTfLiteActNone);
  ASSERT_EQ(f.m.Build(), kTfLiteOk) << f.m.error();
  f.m.SetInput(f.input, std::vector<float>{1, 1});
  ASSERT_EQ(f.m.Invoke(), kTfLiteOk);
  EXPECT_EQ(f.m.GetOutput<float>(f.output), (std::vector<float>{3.25f}));
  f.m.SetInput(f.input, std::vector<float>{0, 0});
  ASSERT_EQ(f.m.Invoke(), kTfLiteOk);  // 0.25 + 0.5 * 3.25
  EXPECT_EQ(f.m.GetOutput<float>(f.output), (std::vector<float>{1.875f}));
}

struct HybridModel {
  OpModel m;
  int input = -1, state = -1, output = -1;
  HybridModel(const HybridCell& h, int batch, TfLiteFusedActivation act, bool asymmetric,
              TfLiteType type = kTfLiteInt8) {
    const Weights& c = h.f;
    input = m.AddInput({kTfLiteFloat32, {batch, c.input}});
    m.AddConstInput(TensorSpec{type, {c.units, c.input}, {h.w.scale}, {0}}, h.w.q);
    m.AddConstInput(TensorSpec{type, {c.units, c.units}, {h.r.scale}, {0}}, h.r.q);
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {c.units}}, c.b);
    state = m.AddVariableInput({kTfLiteFloat32, {batch, c.units}});
    output = m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_RNN, tflite::ops::builtin::Register_RNN(),
                   Params(act, asymmetric));
  }
};

void RunHybrid(bool asymmetric, TfLiteType type) {
  const Weights c = rnn_test::MakeWeights(6, 5, 0, 41);
  const HybridCell hc = rnn_test::MakeHybrid(c);
  Weights deq = c;  // the float cell on the dequantized weights
  deq.w = rnn_test::Dequantize(hc.w);
  deq.r = rnn_test::Dequantize(hc.r);
  const int batch = 3;
  HybridModel hm(hc, batch, kTfLiteActTanh, asymmetric, type);
  ASSERT_EQ(hm.m.Build(), kTfLiteOk) << hm.m.error();
  std::vector<std::vector<float>> h(batch, std::vector<float>(c.units, 0.f));
  std::vector<std::vector<double>> hf(batch, std::vector<double>(c.units, 0.0));
  for (int step = 0; step < 4; ++step) {
    // Step 0 has an all-zero batch row; asymmetric inputs are mostly positive.
    auto x = Lcg(batch * c.input, 200 + step, asymmetric ? -0.3f : -1.f, 1.f);
    if (step == 0) std::fill(x.begin(), x.begin() + c.input, 0.f);
    hm.m.SetInput(hm.input, x);
    ASSERT_EQ(hm.m.Invoke(), kTfLiteOk) << hm.m.error();
    const auto out = hm.m.GetOutput<float>(hm.output);
    for (int b = 0; b < batch; ++b) {
      rnn_test::HybridStep(hc, kTfLiteActTanh, asymmetric, &x[b * c.input], nullptr, &h[b]);
      rnn_test::NaiveStep(deq, kTfLiteActTanh, &x[b * c.input], nullptr, &hf[b]);
      for (int u = 0; u < c.units; ++u) {
        EXPECT_NEAR(out[b * c.units + u], h[b][u], 2e-6) << step << " " << b << " " << u;
        // Input quantization error: at most half a step of each operand row per product.
        EXPECT_NEAR(out[b * c.units + u], hf[b][u], 0.03) << step << " " << b << " " << u;
      }
    }
  }
}

TEST(Rnn_Rnn, HybridInt8Symmetric) { RunHybrid(false, kTfLiteInt8); }
TEST(Rnn_Rnn, HybridInt8Asymmetric) { RunHybrid(true, kTfLiteInt8); }
// uint8 weights hold int8 bytes (TFLite reads them as int8).
TEST(Rnn_Rnn, HybridUint8ReadsInt8Bytes) { RunHybrid(false, kTfLiteUInt8); }

TEST(Rnn_Rnn, AsymmetricDiffersFromSymmetric) {
  const Weights c = rnn_test::MakeWeights(4, 6, 0, 51);
  const HybridCell hc = rnn_test::MakeHybrid(c);
  std::vector<float> outs[2];
  for (int a = 0; a < 2; ++a) {
    HybridModel hm(hc, 1, kTfLiteActNone, a == 1);
    ASSERT_EQ(hm.m.Build(), kTfLiteOk);
    hm.m.SetInput(hm.input, Lcg(c.input, 5, 0.1f, 0.9f));
    ASSERT_EQ(hm.m.Invoke(), kTfLiteOk);
    outs[a] = hm.m.GetOutput<float>(hm.output);
  }
  EXPECT_NE(outs[0], outs[1]);
}

// Builds an RNN from specs and returns prepare's error text ("" when it succeeds).
std::string PrepareError(const TensorSpec& input, const TensorSpec& w, const TensorSpec& r,
                         const TensorSpec& b, const TensorSpec& state, bool variable = true,
                         TfLiteFusedActivation act = kTfLiteActTanh,
                         TfLiteType output_type = kTfLiteFloat32) {
  OpModel m;
  m.AddInput(input);
  auto add_const = [&](const TensorSpec& s) {
    size_t n = 1;
    for (int d : s.shape) n *= d;
    m.AddConstInput(s, std::vector<uint8_t>(n * TfLiteTypeGetSize(s.type), 0));
  };
  add_const(w);
  add_const(r);
  add_const(b);
  if (variable) {
    m.AddVariableInput(state);
  } else {
    m.AddInput(state);
  }
  m.AddOutput({output_type, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_RNN, tflite::ops::builtin::Register_RNN(), Params(act));
  return m.Build() == kTfLiteOk ? "" : m.error();
}

TEST(Rnn_Rnn, PrepareErrors) {
  const TensorSpec in{kTfLiteFloat32, {2, 3}};
  const TensorSpec w{kTfLiteFloat32, {4, 3}}, r{kTfLiteFloat32, {4, 4}}, b{kTfLiteFloat32, {4}};
  const TensorSpec st{kTfLiteFloat32, {2, 4}};
  EXPECT_EQ(PrepareError(in, w, r, b, st), "");
  auto has = [](const std::string& e, const char* what) {
    return e.find("RNN: ") != std::string::npos && e.find(what) != std::string::npos;
  };
  std::string e = PrepareError({kTfLiteInt8, {2, 3}}, w, r, b, st);
  EXPECT_TRUE(has(e, "input must be float32")) << e;
  e = PrepareError({kTfLiteFloat32, {2, 3, 1}}, w, r, b, st);
  EXPECT_TRUE(has(e, "input must be 2-D")) << e;
  e = PrepareError(in, {kTfLiteFloat32, {4, 2}}, r, b, st);
  EXPECT_TRUE(has(e, "input_weights (input 1) must be 2-D with 3 columns")) << e;
  e = PrepareError(in, w, {kTfLiteFloat32, {4, 3}}, b, st);
  EXPECT_TRUE(has(e, "recurrent_weights (input 2) must have shape [4, 4]")) << e;
  e = PrepareError(in, w, r, {kTfLiteFloat32, {3}}, st);
  EXPECT_TRUE(has(e, "bias (input 3) must have shape [4]")) << e;
  e = PrepareError(in, w, r, {kTfLiteInt32, {4}}, st);
  EXPECT_TRUE(has(e, "bias (input 3) must be float32")) << e;
  e = PrepareError(in, w, r, b, {kTfLiteFloat32, {1, 4}});
  EXPECT_TRUE(has(e, "hidden_state (input 4) must have shape [2, 4]")) << e;
  e = PrepareError(in, w, r, b, st, /*variable=*/false);
  EXPECT_TRUE(has(e, "must be a variable tensor")) << e;
  e = PrepareError(in, w, {kTfLiteInt8, {4, 4}, {0.1f}, {0}}, b, st);
  EXPECT_TRUE(has(e, "does not match")) << e;
  e = PrepareError(in, {kTfLiteInt32, {4, 3}}, {kTfLiteInt32, {4, 4}}, b, st);
  EXPECT_TRUE(has(e, "must be float32, or int8/uint8")) << e;
  e = PrepareError(in, {kTfLiteInt8, {4, 3}}, {kTfLiteInt8, {4, 4}, {0.1f}, {0}}, b, st);
  EXPECT_TRUE(has(e, "needs a quantization scale")) << e;
  e = PrepareError(in, {kTfLiteInt8, {4, 3}, {0.1f, 0.2f, 0.1f, 0.1f}, {0, 0, 0, 0}},
                   {kTfLiteInt8, {4, 4}, {0.1f}, {0}}, b, st);
  EXPECT_TRUE(has(e, "one scale per tensor")) << e;
  e = PrepareError(in, {kTfLiteInt8, {4, 3}, {0.1f}, {3}}, {kTfLiteInt8, {4, 4}, {0.1f}, {0}}, b,
                   st);
  EXPECT_TRUE(has(e, "must be symmetric")) << e;
  e = PrepareError(in, w, r, b, st, true, static_cast<TfLiteFusedActivation>(7));
  EXPECT_TRUE(has(e, "unsupported fused activation 7")) << e;
  e = PrepareError(in, w, r, b, st, true, kTfLiteActTanh, kTfLiteInt8);
  EXPECT_TRUE(has(e, "output must be float32")) << e;
}

TEST(Rnn_Rnn, VersionRange) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  for (int v = 1; v <= 3; ++v) EXPECT_NE(resolver.FindOp(tflite::BuiltinOperator_RNN, v), nullptr);
  EXPECT_EQ(resolver.FindOp(tflite::BuiltinOperator_RNN, 4), nullptr);
}

}  // namespace
}  // namespace octet
