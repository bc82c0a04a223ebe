// BIDIRECTIONAL_SEQUENCE_LSTM:
//  - float and hybrid: equal, bit for bit, to two UNIDIRECTIONAL_SEQUENCE_LSTM runs composed
//    (forward over the input; backward over the time-reversed input, its output reversed
//    back), with merge_outputs on and off, time-major and batch-major, from random states
//    over two invokes; also with the aux input as the backward cell's input;
//  - the same for long float sequences on every kernel path (the GEMM form's chunks);
//  - float with aux input weights against the textbook equations in double;
//  - prepare's rejections.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "ops/nn/lstm_cell_test_util.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/kernel_paths.h"
#include "util/op_model.h"

namespace octet {
namespace {

using lstm_test::CellSpec;
using lstm_test::CellWeights;
using testing::OpModel;

enum class Aux { kNone, kBackwardInput, kWeights };

struct Options {
  int max_time = 3, n_batch = 2;
  bool time_major = true, merge = false, asymmetric = false;
  float cell_clip = 0.f, proj_clip = 0.f;
  Aux aux = Aux::kNone;
  int n_aux = 2;
};

std::vector<int> SeqShape(const Options& o, int width) {
  return o.time_major ? std::vector<int>{o.max_time, o.n_batch, width}
                      : std::vector<int>{o.n_batch, o.max_time, width};
}

struct BidiBuilt {
  int input = -1, aux_input = -1, fw_output = -1, bw_output = -1;
  int state[4] = {-1, -1, -1, -1};  // fw h, fw c, bw h, bw c
};

TfLiteBidirectionalSequenceLSTMParams Params(const Options& o) {
  TfLiteBidirectionalSequenceLSTMParams p{};
  p.activation = kTfLiteActTanh;
  p.cell_clip = o.cell_clip;
  p.proj_clip = o.proj_clip;
  p.merge_outputs = o.merge;
  p.time_major = o.time_major;
  p.asymmetric_quantize_inputs = o.asymmetric;
  return p;
}

// The node; `skip` (an input index) is left out, `replace` adds something else in its place.
BidiBuilt BuildBidi(OpModel& m, const CellSpec& fs, const CellWeights& fw, const CellSpec& bs,
                    const CellWeights& bw, const Options& o,
                    const lstm_test::AuxWeights* fw_aux = nullptr,
                    const lstm_test::AuxWeights* bw_aux = nullptr) {
  BidiBuilt b;
  b.input = m.AddInput({kTfLiteFloat32, SeqShape(o, fs.n_input)});
  for (int k = 1; k <= 17; ++k) lstm_test::AddCellTensor(m, fs, fw, k);
  for (int k = 1; k <= 17; ++k) lstm_test::AddCellTensor(m, bs, bw, k);
  b.state[0] = m.AddVariableInput({kTfLiteFloat32, {o.n_batch, fs.n_output}});
  b.state[1] = m.AddVariableInput({kTfLiteFloat32, {o.n_batch, fs.n_cell}});
  b.state[2] = m.AddVariableInput({kTfLiteFloat32, {o.n_batch, bs.n_output}});
  b.state[3] = m.AddVariableInput({kTfLiteFloat32, {o.n_batch, bs.n_cell}});
  if (o.aux == Aux::kNone) {
    m.AddNullInput();
  } else {
    b.aux_input = m.AddInput({kTfLiteFloat32, SeqShape(o, o.n_aux)});
  }
  for (const lstm_test::AuxWeights* a : {fw_aux, bw_aux}) {
    for (int g = 0; g < 4; ++g) {
      if (a && a->gate.count(g)) {
        m.AddConstInput({kTfLiteFloat32, {fs.n_cell, a->n_aux}}, a->gate.at(g));
      } else {
        m.AddNullInput();
      }
    }
  }
  b.fw_output = m.AddOutput({kTfLiteFloat32, {}});
  if (!o.merge) b.bw_output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM,
                 tflite::ops::builtin::Register_BIDIRECTIONAL_SEQUENCE_LSTM(), Params(o));
  return b;
}

struct UniBuilt {
  int input = -1, output = -1, h = -1, c = -1;
};

UniBuilt BuildUni(OpModel& m, const CellSpec& s, const CellWeights& w, const Options& o) {
  UniBuilt b;
  b.input = m.AddInput({kTfLiteFloat32, SeqShape(o, s.n_input)});
  for (int k = 1; k <= 17; ++k) lstm_test::AddCellTensor(m, s, w, k);
  b.h = m.AddVariableInput({kTfLiteFloat32, {o.n_batch, s.n_output}});
  b.c = m.AddVariableInput({kTfLiteFloat32, {o.n_batch, s.n_cell}});
  b.output = m.AddOutput({kTfLiteFloat32, {}});
  TfLiteUnidirectionalSequenceLSTMParams p{};
  p.activation = kTfLiteActTanh;
  p.cell_clip = o.cell_clip;
  p.proj_clip = o.proj_clip;
  p.time_major = o.time_major;
  p.asymmetric_quantize_inputs = o.asymmetric;
  m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
                 tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), p);
  return b;
}

// Row (t, b) of a sequence laid out as the options say.
size_t Row(const Options& o, int t, int b) {
  return o.time_major ? size_t(t) * o.n_batch + b : size_t(b) * o.max_time + t;
}

std::vector<float> ReverseTime(const Options& o, const std::vector<float>& v, int width) {
  std::vector<float> r(v.size());
  for (int t = 0; t < o.max_time; ++t) {
    for (int b = 0; b < o.n_batch; ++b) {
      std::copy_n(&v[Row(o, t, b) * width], width, &r[Row(o, o.max_time - 1 - t, b) * width]);
    }
  }
  return r;
}

void ExpectSameBits(const std::vector<float>& got, const std::vector<float>& want,
                    const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(std::memcmp(&got[i], &want[i], sizeof(float)), 0)
        << what << " at " << i << ": " << got[i] << " vs " << want[i];
  }
}

// The bidirectional node against a forward and a backward unidirectional run.
void CheckComposition(const CellSpec& fs, const CellSpec& bs_in, const Options& o) {
  CellSpec bs = bs_in;
  if (o.aux == Aux::kBackwardInput) bs.n_input = o.n_aux;
  const CellWeights fw = lstm_test::MakeCell(fs, 21), bw = lstm_test::MakeCell(bs, 22);
  OpModel bidi, fwd, bwd;
  const BidiBuilt b = BuildBidi(bidi, fs, fw, bs, bw, o);
  const UniBuilt f = BuildUni(fwd, fs, fw, o);
  const UniBuilt r = BuildUni(bwd, bs, bw, o);
  ASSERT_EQ(bidi.Build(), kTfLiteOk) << bidi.error();
  ASSERT_EQ(fwd.Build(), kTfLiteOk) << fwd.error();
  ASSERT_EQ(bwd.Build(), kTfLiteOk) << bwd.error();
  // Random starting states, the same in both.
  const int sizes[4] = {fs.n_output, fs.n_cell, bs.n_output, bs.n_cell};
  const int uni_state[4] = {f.h, f.c, r.h, r.c};
  for (int i = 0; i < 4; ++i) {
    const auto v = nn_test::Random(size_t(o.n_batch) * sizes[i], 40 + i, -0.5f, 0.5f);
    bidi.SetInput(b.state[i], v);
    (i < 2 ? fwd : bwd).SetInput(uni_state[i], v);
  }
  const int n_fw = fs.n_output, n_bw = bs.n_output;
  const size_t rows = size_t(o.max_time) * o.n_batch;
  for (int call = 0; call < 2; ++call) {
    const auto x = nn_test::Random(rows * fs.n_input, 50 + call);
    bidi.SetInput(b.input, x);
    fwd.SetInput(f.input, x);
    std::vector<float> bw_x = x;
    if (o.aux == Aux::kBackwardInput) {
      bw_x = nn_test::Random(rows * o.n_aux, 60 + call);
      bidi.SetInput(b.aux_input, bw_x);
    }
    bwd.SetInput(r.input, ReverseTime(o, bw_x, bs.n_input));
    ASSERT_EQ(bidi.Invoke(), kTfLiteOk) << bidi.error();
    ASSERT_EQ(fwd.Invoke(), kTfLiteOk) << fwd.error();
    ASSERT_EQ(bwd.Invoke(), kTfLiteOk) << bwd.error();
    const auto want_fw = fwd.GetOutput<float>(f.output);
    const auto want_bw = ReverseTime(o, bwd.GetOutput<float>(r.output), n_bw);
    if (o.merge) {
      EXPECT_EQ(bidi.GetShape(b.fw_output), SeqShape(o, n_fw + n_bw));
      std::vector<float> want(rows * (n_fw + n_bw));
      for (size_t row = 0; row < rows; ++row) {
        std::copy_n(&want_fw[row * n_fw], n_fw, &want[row * (n_fw + n_bw)]);
        std::copy_n(&want_bw[row * n_bw], n_bw, &want[row * (n_fw + n_bw) + n_fw]);
      }
      ExpectSameBits(bidi.GetOutput<float>(b.fw_output), want, "merged output");
    } else {
      EXPECT_EQ(bidi.GetShape(b.fw_output), SeqShape(o, n_fw));
      EXPECT_EQ(bidi.GetShape(b.bw_output), SeqShape(o, n_bw));
      ExpectSameBits(bidi.GetOutput<float>(b.fw_output), want_fw, "fw output");
      ExpectSameBits(bidi.GetOutput<float>(b.bw_output), want_bw, "bw output");
    }
    ExpectSameBits(bidi.GetOutput<float>(b.state[0]), fwd.GetOutput<float>(f.h), "fw h");
    ExpectSameBits(bidi.GetOutput<float>(b.state[1]), fwd.GetOutput<float>(f.c), "fw c");
    ExpectSameBits(bidi.GetOutput<float>(b.state[2]), bwd.GetOutput<float>(r.h), "bw h");
    ExpectSameBits(bidi.GetOutput<float>(b.state[3]), bwd.GetOutput<float>(r.c), "bw c");
  }
}

void CheckAllLayouts(const CellSpec& fs, const CellSpec& bs, Options o) {
  for (bool time_major : {true, false}) {
    for (bool merge : {false, true}) {
      SCOPED_TRACE(std::string(time_major ? "time-major" : "batch-major") +
                   (merge ? ", merged" : ", separate"));
      o.time_major = time_major;
      o.merge = merge;
      CheckComposition(fs, bs, o);
    }
  }
}

TEST(Nn_BidirectionalSequenceLstm, FloatEqualsTwoUnidirectional) {
  CellSpec fs, bs;
  CheckAllLayouts(fs, bs, {});
  // Different options per direction: CIFG + peephole forward, projection backward.
  fs.cifg = fs.peephole = true;
  bs.projection = bs.proj_bias = true;
  bs.n_output = 3;
  Options o;
  o.cell_clip = 0.5f;
  o.proj_clip = 0.3f;
  o.max_time = 4;
  o.n_batch = 3;
  CheckAllLayouts(fs, bs, o);
}

TEST(Nn_BidirectionalSequenceLstm, FloatLongSequencesOnEveryPath) {
  // Long enough for the GEMM form's input products to come in several chunks (64 rows), which
  // the backward cell takes from the end; on the reference path too.
  std::vector<cpu::Isa> paths = testing::OptimizedPaths();
  paths.push_back(cpu::Isa::kReference);
  for (cpu::Isa isa : paths) {
    SCOPED_TRACE(cpu::IsaName(isa));
    testing::IsaScope scope(isa);
    ASSERT_TRUE(scope.ok);
    CellSpec fs, bs;
    fs.n_cell = fs.n_output = 9;
    bs.n_cell = 7;
    bs.projection = bs.proj_bias = true;
    bs.n_output = 5;
    Options o;
    o.max_time = 70;
    o.n_batch = 2;
    CheckAllLayouts(fs, bs, o);
    o.max_time = 131;
    o.n_batch = 1;
    CheckAllLayouts(fs, bs, o);
  }
}

TEST(Nn_BidirectionalSequenceLstm, HybridEqualsTwoUnidirectional) {
  CellSpec fs, bs;
  fs.hybrid = bs.hybrid = true;
  CheckAllLayouts(fs, bs, {});
  fs.peephole = true;
  bs.cifg = true;
  bs.projection = true;
  bs.n_output = 2;
  Options o;
  o.asymmetric = true;
  o.cell_clip = 0.4f;
  CheckAllLayouts(fs, bs, o);
}

TEST(Nn_BidirectionalSequenceLstm, AuxInputFeedsBackwardCell) {
  for (bool hybrid : {false, true}) {
    SCOPED_TRACE(hybrid ? "hybrid" : "float");
    CellSpec fs, bs;
    fs.hybrid = bs.hybrid = hybrid;
    Options o;
    o.aux = Aux::kBackwardInput;
    o.n_aux = 5;
    CheckAllLayouts(fs, bs, o);
  }
}

// Aux weights: each gate also adds A_g a_t; against the equations in double.
TEST(Nn_BidirectionalSequenceLstm, FloatAuxWeightsAgainstEquations) {
  for (bool cifg : {false, true}) {
    for (bool time_major : {true, false}) {
      SCOPED_TRACE(std::string(cifg ? "cifg " : "") + (time_major ? "time-major" : "batch"));
      CellSpec s;
      s.cifg = cifg;
      s.peephole = true;
      Options o;
      o.aux = Aux::kWeights;
      o.n_aux = 3;
      o.time_major = time_major;
      o.merge = true;
      const CellWeights fw = lstm_test::MakeCell(s, 31), bw = lstm_test::MakeCell(s, 32);
      lstm_test::AuxWeights fa, ba;
      fa.n_aux = ba.n_aux = o.n_aux;
      for (int g = cifg ? 1 : 0; g < 4; ++g) {
        fa.gate[g] = nn_test::Random(size_t(s.n_cell) * o.n_aux, 70 + g, -0.5f, 0.5f);
        ba.gate[g] = nn_test::Random(size_t(s.n_cell) * o.n_aux, 80 + g, -0.5f, 0.5f);
      }
      OpModel m;
      const BidiBuilt b = BuildBidi(m, s, fw, s, bw, o, &fa, &ba);
      ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
      const size_t rows = size_t(o.max_time) * o.n_batch;
      const auto x = nn_test::Random(rows * s.n_input, 90);
      const auto a = nn_test::Random(rows * o.n_aux, 91);
      m.SetInput(b.input, x);
      m.SetInput(b.aux_input, a);
      ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
      const int width = 2 * s.n_output;
      std::vector<double> want(rows * width);
      for (int dir = 0; dir < 2; ++dir) {
        for (int bi = 0; bi < o.n_batch; ++bi) {
          std::vector<double> h(s.n_output), c(s.n_cell);
          for (int i = 0; i < o.max_time; ++i) {
            const int t = dir == 0 ? i : o.max_time - 1 - i;
            const size_t row = Row(o, t, bi);
            lstm_test::NaiveStep(s, dir == 0 ? fw : bw, 0.f, 0.f, &x[row * s.n_input],
                                 dir == 0 ? fa : ba, &a[row * o.n_aux], h.data(), c.data());
            std::copy(h.begin(), h.end(), &want[row * width + dir * s.n_output]);
          }
        }
      }
      nn_test::ExpectAllNear(m.GetOutput<float>(b.fw_output), want, 2e-5, 1e-4);
    }
  }
}

// ---- validation ----------------------------------------------------------------------------

std::string BuildError(OpModel& m) {
  EXPECT_NE(m.Build(), kTfLiteOk);
  return m.error();
}

TEST(Nn_BidirectionalSequenceLstm, Rejections) {
  CellSpec s;
  const CellWeights w = lstm_test::MakeCell(s, 1);
  auto has = [](const std::string& e, const char* what) {
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  {  // merge_outputs off needs two outputs
    OpModel m;
    Options o;
    BuildBidi(m, s, w, s, w, o);
    Options merged = o;
    merged.merge = true;
    m.SetBuiltinOp(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM,
                   tflite::ops::builtin::Register_BIDIRECTIONAL_SEQUENCE_LSTM(), Params(merged));
    has(BuildError(m), "BIDIRECTIONAL_SEQUENCE_LSTM: expected 1 output(s) with merge_outputs on");
  }
  {  // 47 inputs
    OpModel m;
    m.AddInput({kTfLiteFloat32, {3, 2, 3}});
    for (int i = 1; i < 47; ++i) m.AddNullInput();
    m.AddOutput({kTfLiteFloat32, {}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM,
                   tflite::ops::builtin::Register_BIDIRECTIONAL_SEQUENCE_LSTM(), Params({}));
    has(BuildError(m), "expected 48 inputs, got 47");
  }
  {  // float forward, hybrid backward
    CellSpec hs = s;
    hs.hybrid = true;
    OpModel m;
    BuildBidi(m, s, w, hs, lstm_test::MakeCell(hs, 2), {});
    has(BuildError(m), "forward and backward weights must have the same type");
  }
  {  // a backward weight of the wrong shape names the direction
    CellSpec bs = s;
    bs.n_input = 2;
    OpModel m;
    BuildBidi(m, s, w, bs, lstm_test::MakeCell(bs, 3), {});
    has(BuildError(m), "bw_input_to_forget_weights must have shape [4, 3], got [4, 2]");
  }
  {  // aux weights without an aux input
    lstm_test::AuxWeights a;
    a.n_aux = 2;
    for (int g = 0; g < 4; ++g) a.gate[g] = std::vector<float>(8);
    OpModel m;
    BuildBidi(m, s, w, s, w, {}, &a, &a);
    has(BuildError(m), "aux input weights need aux_input (input 39)");
  }
  {  // aux weights for one gate missing
    lstm_test::AuxWeights a, partial;
    a.n_aux = partial.n_aux = 2;
    for (int g = 0; g < 4; ++g) a.gate[g] = std::vector<float>(8);
    partial = a;
    partial.gate.erase(2);
    Options o;
    o.aux = Aux::kWeights;
    OpModel m;
    BuildBidi(m, s, w, s, w, o, &a, &partial);
    has(BuildError(m), "bw_aux_input_to_cell_weights (input 46) is required with aux weights");
  }
  {  // aux weights in a hybrid node
    CellSpec hs = s;
    hs.hybrid = true;
    const CellWeights hw = lstm_test::MakeCell(hs, 4);
    lstm_test::AuxWeights a;
    a.n_aux = 2;
    for (int g = 0; g < 4; ++g) a.gate[g] = std::vector<float>(8);
    Options o;
    o.aux = Aux::kWeights;
    OpModel m;
    BuildBidi(m, hs, hw, hs, hw, o, &a, &a);
    // Hybrid nodes take int8 aux weights (bidirectional_lstm_aux_golden_test.cc); float ones
    // in a hybrid node are refused by name.
    has(BuildError(m),
        "fw_aux_input_to_input_weights must be INT8 like the cell's weights, got FLOAT32");
  }
  {  // a backward state that is not a variable tensor
    OpModel m;
    m.AddInput({kTfLiteFloat32, {3, 2, 3}});
    for (int k = 1; k <= 17; ++k) lstm_test::AddCellTensor(m, s, w, k);
    for (int k = 1; k <= 17; ++k) lstm_test::AddCellTensor(m, s, w, k);
    m.AddVariableInput({kTfLiteFloat32, {2, 4}});
    m.AddVariableInput({kTfLiteFloat32, {2, 4}});
    m.AddInput({kTfLiteFloat32, {2, 4}});
    m.AddVariableInput({kTfLiteFloat32, {2, 4}});
    for (int i = 39; i < 48; ++i) m.AddNullInput();
    m.AddOutput({kTfLiteFloat32, {}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM,
                   tflite::ops::builtin::Register_BIDIRECTIONAL_SEQUENCE_LSTM(), Params({}));
    has(BuildError(m), "bw_output_state (input 37) must be a variable tensor");
  }
  {  // input of the wrong rank
    OpModel m;
    m.AddInput({kTfLiteFloat32, {6, 3}});
    for (int i = 1; i < 48; ++i) m.AddNullInput();
    m.AddOutput({kTfLiteFloat32, {}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_BIDIRECTIONAL_SEQUENCE_LSTM,
                   tflite::ops::builtin::Register_BIDIRECTIONAL_SEQUENCE_LSTM(), Params({}));
    has(BuildError(m), "BIDIRECTIONAL_SEQUENCE_LSTM: input must have 3 dimensions, got 2");
  }
}

}  // namespace
}  // namespace octet
