// BIDIRECTIONAL_SEQUENCE_RNN: forward and backward cells against the cell in double in both
// layouts, separate and merged outputs, the aux input cross-linked (its own size) and as the
// backward input, state across invokes, the hybrid path against its exact semantics (the
// time-major sequence runs once), and prepare's errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/rnn/rnn_test_util.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace tflite::ops::builtin {
TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_RNN();
}

namespace octet {
namespace {

using rnn_test::HybridCell;
using rnn_test::Lcg;
using rnn_test::Weights;
using testing::OpModel;
using testing::TensorSpec;

constexpr int kT = 3, kB = 2, kIn = 3;
enum class Aux { kNone, kCrossLinked, kBackwardInput };

struct Config {
  bool time_major = false;
  bool merge = false;
  Aux aux = Aux::kNone;
  int aux_size = 0;  // cross-linked only
  bool hybrid = false;
  bool asymmetric = false;
};

int64_t Row(bool time_major, int t, int b) {
  return time_major ? int64_t{t} * kB + b : int64_t{b} * kT + t;
}

std::vector<int> Shape(bool time_major, int last) {
  return time_major ? std::vector<int>{kT, kB, last} : std::vector<int>{kB, kT, last};
}

struct Model {
  OpModel m;
  int input = -1, aux = -1, fw_state = -1, bw_state = -1, fw_out = -1, bw_out = -1;
  Model(const Config& cfg, const Weights& fw, const Weights& bw) {
    const HybridCell hf = rnn_test::MakeHybrid(fw), hb = rnn_test::MakeHybrid(bw);
    input = m.AddInput({kTfLiteFloat32, Shape(cfg.time_major, kIn)});
    auto add_matrix = [&](const std::vector<float>& f, const rnn_test::QuantWeights& q, int rows,
                          int cols) {
      if (cfg.hybrid) {
        m.AddConstInput(TensorSpec{kTfLiteInt8, {rows, cols}, {q.scale}, {0}}, q.q);
      } else {
        m.AddConstInput(TensorSpec{kTfLiteFloat32, {rows, cols}}, f);
      }
    };
    int* states[] = {&fw_state, &bw_state};
    const HybridCell* cells[] = {&hf, &hb};
    for (int d = 0; d < 2; ++d) {
      const Weights& c = cells[d]->f;
      add_matrix(c.w, cells[d]->w, c.units, kIn);
      add_matrix(c.r, cells[d]->r, c.units, c.units);
      m.AddConstInput(TensorSpec{kTfLiteFloat32, {c.units}}, c.b);
      *states[d] = m.AddVariableInput({kTfLiteFloat32, {kB, c.units}});
    }
    if (cfg.aux == Aux::kNone) {
      m.AddNullInput();
    } else {
      aux = m.AddInput({kTfLiteFloat32,
                        Shape(cfg.time_major, cfg.aux == Aux::kCrossLinked ? cfg.aux_size : kIn)});
    }
    if (cfg.aux == Aux::kCrossLinked) {
      add_matrix(fw.a, hf.a, fw.units, cfg.aux_size);
      add_matrix(bw.a, hb.a, bw.units, cfg.aux_size);
    } else {
      m.AddNullInput();
      m.AddNullInput();
    }
    fw_out = m.AddOutput({kTfLiteFloat32, {}});
    if (!cfg.merge) bw_out = m.AddOutput({kTfLiteFloat32, {}});
    TfLiteBidirectionalSequenceRNNParams p{};
    p.time_major = cfg.time_major;
    p.activation = kTfLiteActTanh;
    p.merge_outputs = cfg.merge;
    p.asymmetric_quantize_inputs = cfg.asymmetric;
    m.SetBuiltinOp(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN,
                   tflite::ops::builtin::Register_BIDIRECTIONAL_SEQUENCE_RNN(), p);
  }
};

// Runs `invokes` invokes and checks both directions against the double (float) or exact
// hybrid model.
void Check(const Config& cfg, int invokes = 2) {
  const int aux_size = cfg.aux == Aux::kCrossLinked ? cfg.aux_size : 0;
  const Weights fw = rnn_test::MakeWeights(3, kIn, aux_size, 300);
  const Weights bw = rnn_test::MakeWeights(2, kIn, aux_size, 400);
  const HybridCell hf = rnn_test::MakeHybrid(fw), hb = rnn_test::MakeHybrid(bw);
  Model model(cfg, fw, bw);
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  const int merged = fw.units + bw.units;
  EXPECT_EQ(model.m.GetShape(model.fw_out), Shape(cfg.time_major, cfg.merge ? merged : fw.units));
  if (!cfg.merge) {
    EXPECT_EQ(model.m.GetShape(model.bw_out), Shape(cfg.time_major, bw.units));
  }

  std::vector<std::vector<double>> hfw(kB, std::vector<double>(fw.units, 0.0));
  std::vector<std::vector<double>> hbw(kB, std::vector<double>(bw.units, 0.0));
  std::vector<std::vector<float>> qfw(kB, std::vector<float>(fw.units, 0.f));
  std::vector<std::vector<float>> qbw(kB, std::vector<float>(bw.units, 0.f));
  const double tol = cfg.hybrid ? 2e-6 : 1e-5;
  for (int invoke = 0; invoke < invokes; ++invoke) {
    const auto x = Lcg(kT * kB * kIn, 500 + invoke, -1.f, 1.f);
    model.m.SetInput(model.input, x);
    const int aux_cols = cfg.aux == Aux::kCrossLinked ? aux_size : kIn;
    std::vector<float> ax;
    if (cfg.aux != Aux::kNone) {
      ax = Lcg(kT * kB * aux_cols, 600 + invoke, -1.f, 1.f);
      model.m.SetInput(model.aux, ax);
    }
    ASSERT_EQ(model.m.Invoke(), kTfLiteOk) << model.m.error();
    const auto out_f = model.m.GetOutput<float>(model.fw_out);
    const auto out_b = cfg.merge ? out_f : model.m.GetOutput<float>(model.bw_out);
    const int fw_stride = cfg.merge ? merged : fw.units;
    const int bw_stride = cfg.merge ? merged : bw.units;
    const int bw_offset = cfg.merge ? fw.units : 0;
    for (int b = 0; b < kB; ++b) {
      for (int k = 0; k < 2 * kT; ++k) {
        const bool backward = k >= kT;
        const int t = backward ? 2 * kT - 1 - k : k;
        const int64_t row = Row(cfg.time_major, t, b);
        const float* xin = &x[row * kIn];
        const float* aux_row = cfg.aux == Aux::kNone ? nullptr : &ax[row * aux_cols];
        const float* cell_in = (backward && cfg.aux == Aux::kBackwardInput) ? aux_row : xin;
        const float* cell_aux = cfg.aux == Aux::kCrossLinked ? aux_row : nullptr;
        const Weights& c = backward ? bw : fw;
        const float* got = backward ? &out_b[row * bw_stride + bw_offset] : &out_f[row * fw_stride];
        if (cfg.hybrid) {
          auto& h = backward ? qbw[b] : qfw[b];
          rnn_test::HybridStep(backward ? hb : hf, kTfLiteActTanh, cfg.asymmetric, cell_in,
                               cell_aux, &h);
          for (int u = 0; u < c.units; ++u) EXPECT_NEAR(got[u], h[u], tol) << invoke << k << b;
        } else {
          auto& h = backward ? hbw[b] : hfw[b];
          rnn_test::NaiveStep(c, kTfLiteActTanh, cell_in, cell_aux, &h);
          for (int u = 0; u < c.units; ++u) EXPECT_NEAR(got[u], h[u], tol) << invoke << k << b;
        }
      }
    }
  }
}

TEST(Rnn_BidirectionalSequenceRnn, FloatBatchMajor) { Check({false, false}); }
TEST(Rnn_BidirectionalSequenceRnn, FloatTimeMajor) { Check({true, false}); }
TEST(Rnn_BidirectionalSequenceRnn, FloatMergedBatchMajor) { Check({false, true}); }
TEST(Rnn_BidirectionalSequenceRnn, FloatMergedTimeMajor) { Check({true, true}); }
TEST(Rnn_BidirectionalSequenceRnn, CrossLinkedAuxTimeMajor) {
  Check({true, false, Aux::kCrossLinked, 5});
}
TEST(Rnn_BidirectionalSequenceRnn, CrossLinkedAuxBatchMajorMerged) {
  Check({false, true, Aux::kCrossLinked, 2});
}
TEST(Rnn_BidirectionalSequenceRnn, AuxAsBackwardInput) {
  Check({true, false, Aux::kBackwardInput});
  Check({false, true, Aux::kBackwardInput});
}
TEST(Rnn_BidirectionalSequenceRnn, HybridTimeMajor) { Check({true, false, Aux::kNone, 0, true}); }
TEST(Rnn_BidirectionalSequenceRnn, HybridBatchMajorMergedAsymmetric) {
  Check({false, true, Aux::kNone, 0, true, true});
}
TEST(Rnn_BidirectionalSequenceRnn, HybridCrossLinkedAux) {
  Check({true, true, Aux::kCrossLinked, 4, true, false});
}

// Prepare errors on the aux wiring and the output count.
TEST(Rnn_BidirectionalSequenceRnn, PrepareErrors) {
  auto build = [](bool fw_aux_w, bool bw_aux_w, bool aux, std::vector<int> aux_shape, bool merge,
                  int outputs) {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {kB, kT, kIn}});
    for (int d = 0; d < 2; ++d) {
      m.AddConstInput(TensorSpec{kTfLiteFloat32, {2, kIn}}, std::vector<float>(2 * kIn));
      m.AddConstInput(TensorSpec{kTfLiteFloat32, {2, 2}}, std::vector<float>(4));
      m.AddConstInput(TensorSpec{kTfLiteFloat32, {2}}, std::vector<float>(2));
      m.AddVariableInput({kTfLiteFloat32, {kB, 2}});
    }
    if (aux) {
      m.AddInput({kTfLiteFloat32, aux_shape});
    } else {
      m.AddNullInput();
    }
    for (bool w : {fw_aux_w, bw_aux_w}) {
      if (w) {
        m.AddConstInput(TensorSpec{kTfLiteFloat32, {2, 4}}, std::vector<float>(8));
      } else {
        m.AddNullInput();
      }
    }
    for (int k = 0; k < outputs; ++k) m.AddOutput({kTfLiteFloat32, {}});
    TfLiteBidirectionalSequenceRNNParams p{};
    p.merge_outputs = merge;
    m.SetBuiltinOp(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN,
                   tflite::ops::builtin::Register_BIDIRECTIONAL_SEQUENCE_RNN(), p);
    return m.Build() == kTfLiteOk ? std::string() : m.error();
  };
  EXPECT_EQ(build(false, false, false, {}, false, 2), "");
  EXPECT_EQ(build(true, true, true, {kB, kT, 4}, true, 1), "");
  EXPECT_EQ(build(false, false, true, {kB, kT, kIn}, false, 2), "");
  auto has = [](const std::string& e, const char* what) {
    return e.find("BIDIRECTIONAL_SEQUENCE_RNN: ") != std::string::npos &&
           e.find(what) != std::string::npos;
  };
  std::string e = build(true, false, true, {kB, kT, 4}, false, 2);
  EXPECT_TRUE(has(e, "both be given or both be absent")) << e;
  e = build(true, true, false, {}, false, 2);
  EXPECT_TRUE(has(e, "without an aux input")) << e;
  e = build(true, true, true, {kB, kT, 5}, false, 2);
  EXPECT_TRUE(has(e, "fw_aux_input_weights (input 10) must have shape [2, 5]")) << e;
  e = build(true, true, true, {kB, kT + 1, 4}, false, 2);
  EXPECT_TRUE(has(e, "input's first two dimensions")) << e;
  e = build(false, false, true, {kB, kT, kIn + 1}, false, 2);
  EXPECT_TRUE(has(e, "must have the input's shape")) << e;
  e = build(false, false, false, {}, true, 2);
  EXPECT_TRUE(has(e, "expected 1 output, got 2")) << e;
  e = build(false, false, false, {}, false, 1);
  EXPECT_TRUE(has(e, "expected 2 outputs, got 1")) << e;
}

TEST(Rnn_BidirectionalSequenceRnn, VersionRange) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  const auto op = tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_RNN;
  for (int v = 1; v <= 3; ++v) EXPECT_NE(resolver.FindOp(op, v), nullptr);
  EXPECT_EQ(resolver.FindOp(op, 4), nullptr);
}

}  // namespace
}  // namespace octet
