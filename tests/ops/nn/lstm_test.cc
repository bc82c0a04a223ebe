// LSTM (the non-sequence builtin):
//  - FULL kernel, float: against the textbook equations in double (lstm_cell_test_util.h)
//    over CIFG, peephole, projection, layer norm and clipping, from random states, two
//    invokes (the states carry over);
//  - FULL kernel, float and hybrid: one LSTM step equals a one-step time-major
//    UNIDIRECTIONAL_SEQUENCE_LSTM with the same weights, bit for bit;
//  - BASIC kernel, float against the equations in double; uint8 against the float cell within
//    its quantization error, and a tiny case worked by hand;
//  - prepare's rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "ops/nn/lstm_cell_test_util.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace octet {
namespace {

using lstm_test::CellSpec;
using lstm_test::CellWeights;
using testing::OpModel;

struct Options {
  int n_batch = 2;
  bool inputs24 = true;
  float cell_clip = 0.f, proj_clip = 0.f;
  bool asymmetric = false;
};

struct Built {
  int input = -1, output = -1, h = -1, c = -1;
};

// An LSTM node (or, with `sequence`, a one-step time-major UNIDIRECTIONAL_SEQUENCE_LSTM).
Built BuildFull(OpModel& m, const CellSpec& s, const CellWeights& w, const Options& o,
                bool sequence = false) {
  Built b;
  const int n = o.inputs24 ? 24 : 20;
  for (int k = 0; k < n; ++k) {
    if (k == 0) {
      b.input = m.AddInput({kTfLiteFloat32, sequence ? std::vector<int>{1, o.n_batch, s.n_input}
                                                     : std::vector<int>{o.n_batch, s.n_input}});
    } else if (k == 18) {
      b.h = m.AddVariableInput({kTfLiteFloat32, {o.n_batch, s.n_output}});
    } else if (k == 19) {
      b.c = m.AddVariableInput({kTfLiteFloat32, {o.n_batch, s.n_cell}});
    } else {
      lstm_test::AddCellTensor(m, s, w, k);
    }
  }
  b.output = m.AddOutput({kTfLiteFloat32, {}});
  if (sequence) {
    TfLiteUnidirectionalSequenceLSTMParams p{};
    p.activation = kTfLiteActTanh;
    p.cell_clip = o.cell_clip;
    p.proj_clip = o.proj_clip;
    p.time_major = true;
    p.asymmetric_quantize_inputs = o.asymmetric;
    m.SetBuiltinOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
                   tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), p);
  } else {
    TfLiteLSTMParams p{};
    p.activation = kTfLiteActTanh;
    p.cell_clip = o.cell_clip;
    p.proj_clip = o.proj_clip;
    p.kernel_type = kTfLiteLSTMFullKernel;
    p.asymmetric_quantize_inputs = o.asymmetric;
    m.SetBuiltinOp(tflite::BuiltinOperator_LSTM, tflite::ops::builtin::Register_LSTM(), p);
  }
  return b;
}

// Two invokes from random states against NaiveStep.
void CheckAgainstEquations(const CellSpec& s, const Options& o) {
  const CellWeights w = lstm_test::MakeCell(s, 7);
  OpModel m;
  const Built b = BuildFull(m, s, w, o);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  const auto h0 = nn_test::Random(size_t(o.n_batch) * s.n_output, 3, -0.5f, 0.5f);
  const auto c0 = nn_test::Random(size_t(o.n_batch) * s.n_cell, 4, -1.f, 1.f);
  m.SetInput(b.h, h0);
  m.SetInput(b.c, c0);
  std::vector<double> h(h0.begin(), h0.end()), c(c0.begin(), c0.end());
  for (int call = 0; call < 2; ++call) {
    const auto x = nn_test::Random(size_t(o.n_batch) * s.n_input, 10 + call);
    m.SetInput(b.input, x);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    for (int r = 0; r < o.n_batch; ++r) {
      lstm_test::NaiveStep(s, w, o.cell_clip, o.proj_clip, &x[size_t(r) * s.n_input], {}, nullptr,
                           &h[size_t(r) * s.n_output], &c[size_t(r) * s.n_cell]);
    }
    EXPECT_EQ(m.GetShape(b.output), (std::vector<int>{o.n_batch, s.n_output}));
    nn_test::ExpectAllNear(m.GetOutput<float>(b.output), h, 2e-5, 1e-4);
    nn_test::ExpectAllNear(m.GetOutput<float>(b.h), h, 2e-5, 1e-4);
    nn_test::ExpectAllNear(m.GetOutput<float>(b.c), c, 2e-5, 1e-4);
  }
}

TEST(Nn_Lstm, FullFloatAgainstEquations) {
  CheckAgainstEquations({}, {});
  CellSpec s;
  s.cifg = s.peephole = true;
  Options o;
  o.cell_clip = 0.3f;
  o.inputs24 = false;
  CheckAgainstEquations(s, o);
  s = {};
  s.n_output = 2;
  s.projection = s.proj_bias = true;
  o = {};
  o.proj_clip = 0.1f;
  o.n_batch = 3;
  CheckAgainstEquations(s, o);
  s = {};
  s.layer_norm = s.peephole = true;
  CheckAgainstEquations(s, {});
  s.cifg = true;
  CheckAgainstEquations(s, {});
}

// One LSTM step == one time-major UNIDIRECTIONAL_SEQUENCE_LSTM step, bit for bit.
void CheckAgainstSequence(const CellSpec& s, const Options& o) {
  const CellWeights w = lstm_test::MakeCell(s, 11);
  OpModel single, seq;
  const Built a = BuildFull(single, s, w, o);
  const Built b = BuildFull(seq, s, w, o, true);
  ASSERT_EQ(single.Build(), kTfLiteOk) << single.error();
  ASSERT_EQ(seq.Build(), kTfLiteOk) << seq.error();
  const auto h0 = nn_test::Random(size_t(o.n_batch) * s.n_output, 5, -0.5f, 0.5f);
  const auto c0 = nn_test::Random(size_t(o.n_batch) * s.n_cell, 6, -1.f, 1.f);
  single.SetInput(a.h, h0);
  single.SetInput(a.c, c0);
  seq.SetInput(b.h, h0);
  seq.SetInput(b.c, c0);
  for (int call = 0; call < 3; ++call) {
    auto x = nn_test::Random(size_t(o.n_batch) * s.n_input, 20 + call);
    if (call == 2) std::fill(x.begin(), x.end(), 0.f);  // the all-zero input row shortcut
    single.SetInput(a.input, x);
    seq.SetInput(b.input, x);
    ASSERT_EQ(single.Invoke(), kTfLiteOk) << single.error();
    ASSERT_EQ(seq.Invoke(), kTfLiteOk) << seq.error();
    for (auto [ta, tb] : {std::pair{a.output, b.output}, {a.h, b.h}, {a.c, b.c}}) {
      const auto ga = single.GetOutput<float>(ta), gb = seq.GetOutput<float>(tb);
      ASSERT_EQ(ga.size(), gb.size());
      EXPECT_EQ(std::memcmp(ga.data(), gb.data(), ga.size() * sizeof(float)), 0)
          << "call " << call << " tensor " << ta;
    }
  }
}

TEST(Nn_Lstm, FullEqualsOneStepSequence) {
  for (bool hybrid : {false, true}) {
    SCOPED_TRACE(hybrid ? "hybrid" : "float");
    CellSpec s;
    s.hybrid = hybrid;
    CheckAgainstSequence(s, {});
    s.cifg = s.peephole = true;
    Options o;
    o.cell_clip = 0.4f;
    o.asymmetric = true;
    CheckAgainstSequence(s, o);
    s = {};
    s.hybrid = hybrid;
    s.n_output = 3;
    s.projection = s.proj_bias = true;
    s.layer_norm = true;
    o = {};
    o.proj_clip = 0.2f;
    o.n_batch = 3;
    CheckAgainstSequence(s, o);
  }
}

// Hybrid against the equations with the dequantized weights: loose (the inputs and output
// states are quantized to int8 per row).
TEST(Nn_Lstm, FullHybridNearEquations) {
  CellSpec s;
  s.hybrid = true;
  s.peephole = true;
  const CellWeights w = lstm_test::MakeCell(s, 13);
  Options o;
  OpModel m;
  const Built b = BuildFull(m, s, w, o);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  std::vector<double> h(size_t(o.n_batch) * s.n_output), c(size_t(o.n_batch) * s.n_cell);
  for (int call = 0; call < 2; ++call) {
    const auto x = nn_test::Random(size_t(o.n_batch) * s.n_input, 30 + call);
    m.SetInput(b.input, x);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    for (int r = 0; r < o.n_batch; ++r) {
      lstm_test::NaiveStep(s, w, 0.f, 0.f, &x[size_t(r) * s.n_input], {}, nullptr,
                           &h[size_t(r) * s.n_output], &c[size_t(r) * s.n_cell]);
    }
    nn_test::ExpectAllNear(m.GetOutput<float>(b.output), h, 0.02, 0.02);
  }
}

// ---- FULL validation ---------------------------------------------------------------------

std::string FullError(void (*mutate)(OpModel&, int k, const CellSpec&, const CellWeights&,
                                     TfLiteLSTMParams&, int* n_inputs)) {
  CellSpec s;
  const CellWeights w = lstm_test::MakeCell(s, 1);
  TfLiteLSTMParams p{};
  p.activation = kTfLiteActTanh;
  OpModel m;
  int n = 24;
  mutate(m, -1, s, w, p, &n);
  for (int k = 0; k < n; ++k) mutate(m, k, s, w, p, &n);
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_LSTM, tflite::ops::builtin::Register_LSTM(), p);
  EXPECT_NE(m.Build(), kTfLiteOk);
  return m.error();
}

// The default tensor k of a valid node.
void Default(OpModel& m, int k, const CellSpec& s, const CellWeights& w) {
  if (k == 0) {
    m.AddInput({kTfLiteFloat32, {2, s.n_input}});
  } else if (k == 18 || k == 19) {
    m.AddVariableInput({kTfLiteFloat32, {2, 4}});
  } else {
    lstm_test::AddCellTensor(m, s, w, k);
  }
}

TEST(Nn_Lstm, FullRejections) {
  using P = TfLiteLSTMParams;
  auto has = [](const std::string& e, const char* what) {
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P&, int* n) {
        *n = 21;
        if (k >= 0) Default(m, k, s, w);
      }),
      "LSTM: expected 20 or 24 inputs, got 21");
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P&, int*) {
        if (k == 0) {
          m.AddInput({kTfLiteFloat32, {1, 2, s.n_input}});
        } else if (k > 0) {
          Default(m, k, s, w);
        }
      }),
      "LSTM: input must have 2 dimensions, got 3");
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P&, int*) {
        if (k == 0) {
          m.AddInput({kTfLiteInt8, {2, s.n_input}, {0.1f}, {0}});
        } else if (k > 0) {
          Default(m, k, s, w);
        }
      }),
      "the integer LSTM needs the converter's 5 intermediate tensors");
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P&, int*) {
        if (k == 19) {
          m.AddInput({kTfLiteFloat32, {2, 4}});
        } else if (k >= 0) {
          Default(m, k, s, w);
        }
      }),
      "LSTM: cell_state (input 19) must be a variable tensor");
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P&, int*) {
        if (k == 18) {
          m.AddNullInput();
        } else if (k >= 0) {
          Default(m, k, s, w);
        }
      }),
      "LSTM: output_state (input 18) is required");
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P&, int*) {
        if (k == 18) {
          m.AddVariableInput({kTfLiteFloat32, {3, 4}});
        } else if (k >= 0) {
          Default(m, k, s, w);
        }
      }),
      "output_state has 12 elements, expected batch 2 x output 4");
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P&, int*) {
        if (k == 7) {
          m.AddConstInput({kTfLiteFloat32, {4, 3}}, std::vector<float>(12));
        } else if (k >= 0) {
          Default(m, k, s, w);
        }
      }),
      "LSTM: recurrent_to_cell_weights must have shape [4, 4], got [4, 3]");
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P&, int*) {
        if (k == 3) {
          m.AddConstInput({kTfLiteInt32, {4, 3}}, std::vector<int32_t>(12));
        } else if (k >= 0) {
          Default(m, k, s, w);
        }
      }),
      "input_to_cell_weights must be FLOAT32 like input_to_output_weights");
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P& p, int*) {
        p.cell_clip = -1.f;
        if (k >= 0) Default(m, k, s, w);
      }),
      "LSTM: cell_clip must be >= 0");
  has(FullError([](OpModel& m, int k, const CellSpec& s, const CellWeights& w, P& p, int*) {
        p.activation = kTfLiteActSignBit;
        if (k >= 0) Default(m, k, s, w);
      }),
      "LSTM: activation");
}

// ---- BASIC kernel --------------------------------------------------------------------------

struct BasicBuilt {
  int input = -1, prev_activation = -1, prev_state = -1;
  int output = -1, state = -1, concat = -1, activ = -1;
};

TfLiteLSTMParams BasicParams() {
  TfLiteLSTMParams p{};
  p.activation = kTfLiteActTanh;
  p.kernel_type = kTfLiteLSTMBasicKernel;
  return p;
}

BasicBuilt BuildBasicFloat(OpModel& m, int batch, int in_depth, int depth,
                           const std::vector<float>& weights, const std::vector<float>& bias) {
  BasicBuilt b;
  b.input = m.AddInput({kTfLiteFloat32, {batch, in_depth}});
  b.prev_activation = m.AddInput({kTfLiteFloat32, {batch, depth}});
  m.AddConstInput({kTfLiteFloat32, {4 * depth, in_depth + depth}}, weights);
  m.AddConstInput({kTfLiteFloat32, {4 * depth}}, bias);
  b.prev_state = m.AddInput({kTfLiteFloat32, {batch, depth}});
  b.output = m.AddOutput({kTfLiteFloat32, {}});
  b.state = m.AddOutput({kTfLiteFloat32, {}});
  b.concat = m.AddOutput({kTfLiteFloat32, {}});
  b.activ = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_LSTM, tflite::ops::builtin::Register_LSTM(),
                 BasicParams());
  return b;
}

// The quantized cell's tensors: activations uint8 (scale 1/128, zero point 128), state int16
// Q4.11 (scale 2^-11), bias int32 at `bias_scale`.
BasicBuilt BuildBasicQuant(OpModel& m, int batch, int in_depth, int depth,
                           const std::vector<uint8_t>& weights, float weights_scale, int weights_zp,
                           const std::vector<int32_t>& bias, float bias_scale,
                           float state_scale = 1.f / 2048) {
  BasicBuilt b;
  const float act = 1.f / 128;
  b.input = m.AddInput({kTfLiteUInt8, {batch, in_depth}, {act}, {128}});
  b.prev_activation = m.AddInput({kTfLiteUInt8, {batch, depth}, {act}, {128}});
  m.AddConstInput({kTfLiteUInt8, {4 * depth, in_depth + depth}, {weights_scale}, {weights_zp}},
                  weights);
  m.AddConstInput({kTfLiteInt32, {4 * depth}, {bias_scale}, {0}}, bias);
  b.prev_state = m.AddInput({kTfLiteInt16, {batch, depth}, {state_scale}, {0}});
  b.output = m.AddOutput({kTfLiteUInt8, {}, {act}, {128}});
  b.state = m.AddOutput({kTfLiteInt16, {}, {state_scale}, {0}});
  b.concat = m.AddOutput({kTfLiteUInt8, {}, {act}, {128}});
  b.activ = m.AddOutput({kTfLiteInt16, {}, {1.f / 4096}, {0}});
  m.SetBuiltinOp(tflite::BuiltinOperator_LSTM, tflite::ops::builtin::Register_LSTM(),
                 BasicParams());
  return b;
}

// The basic cell in double: z = W [x, h] + b; gates in the order input, modulation (tanh),
// forget, output; c' = sig(i) tanh(g) + sig(f) c; h' = sig(o) tanh(c'). `clamp8` clamps the
// pre-activations to the quantized kernel's [-8, 8] range.
void NaiveBasic(int batch, int in_depth, int depth, const std::vector<double>& x,
                const std::vector<double>& h, const std::vector<double>& w,
                const std::vector<double>& bias, const std::vector<double>& c, bool clamp8,
                std::vector<double>* z, std::vector<double>* c_out, std::vector<double>* h_out) {
  const int total = in_depth + depth;
  z->assign(size_t(batch) * 4 * depth, 0.0);
  c_out->assign(size_t(batch) * depth, 0.0);
  h_out->assign(size_t(batch) * depth, 0.0);
  for (int b = 0; b < batch; ++b) {
    for (int r = 0; r < 4 * depth; ++r) {
      double acc = bias[r];
      for (int d = 0; d < total; ++d) {
        const double v = d < in_depth ? x[b * in_depth + d] : h[b * depth + d - in_depth];
        acc += w[r * total + d] * v;
      }
      if (clamp8) acc = std::clamp(acc, -8.0, 8.0);
      (*z)[b * 4 * depth + r] = acc;
    }
    for (int j = 0; j < depth; ++j) {
      const double* zb = &(*z)[b * 4 * depth];
      const double i = lstm_test::Sigmoid(zb[j]);
      const double g = std::tanh(zb[depth + j]);
      const double f = lstm_test::Sigmoid(zb[2 * depth + j]);
      const double o = lstm_test::Sigmoid(zb[3 * depth + j]);
      const double cn = i * g + f * c[b * depth + j];
      (*c_out)[b * depth + j] = cn;
      (*h_out)[b * depth + j] = o * std::tanh(clamp8 ? std::clamp(cn, -8.0, 8.0) : cn);
    }
  }
}

TEST(Nn_LstmBasic, FloatAgainstEquations) {
  const int batch = 2, in_depth = 3, depth = 2;
  const auto w = nn_test::Random(size_t(4 * depth) * (in_depth + depth), 1, -0.8f, 0.8f);
  const auto bias = nn_test::Random(4 * depth, 2, -0.5f, 0.5f);
  OpModel m;
  const BasicBuilt b = BuildBasicFloat(m, batch, in_depth, depth, w, bias);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  const auto x = nn_test::Random(batch * in_depth, 3);
  const auto h = nn_test::Random(batch * depth, 4);
  const auto c = nn_test::Random(batch * depth, 5, -2.f, 2.f);
  m.SetInput(b.input, x);
  m.SetInput(b.prev_activation, h);
  m.SetInput(b.prev_state, c);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  std::vector<double> z, c_out, h_out;
  NaiveBasic(batch, in_depth, depth, nn_test::ToDouble(x), nn_test::ToDouble(h),
             nn_test::ToDouble(w), nn_test::ToDouble(bias), nn_test::ToDouble(c), false, &z, &c_out,
             &h_out);
  EXPECT_EQ(m.GetShape(b.output), (std::vector<int>{batch, depth}));
  EXPECT_EQ(m.GetShape(b.concat), (std::vector<int>{batch, in_depth + depth}));
  EXPECT_EQ(m.GetShape(b.activ), (std::vector<int>{batch, 4 * depth}));
  nn_test::ExpectAllNear(m.GetOutput<float>(b.activ), z, 1e-5, 1e-5);
  nn_test::ExpectAllNear(m.GetOutput<float>(b.state), c_out, 1e-5, 1e-5);
  nn_test::ExpectAllNear(m.GetOutput<float>(b.output), h_out, 1e-5, 1e-5);
  // concat_temp = [input, prev_activation] per row.
  const auto cat = m.GetOutput<float>(b.concat);
  for (int r = 0; r < batch; ++r) {
    for (int d = 0; d < in_depth; ++d) EXPECT_EQ(cat[r * 5 + d], x[r * in_depth + d]);
    for (int d = 0; d < depth; ++d) EXPECT_EQ(cat[r * 5 + in_depth + d], h[r * depth + d]);
  }
}

// uint8 against the double cell on the dequantized values: activation_temp within one Q3.12
// step plus the multiplier's rounding, state and output within their quantization error.
TEST(Nn_LstmBasic, QuantizedNearFloat) {
  const int batch = 3, in_depth = 4, depth = 3, total = in_depth + depth;
  const float ws = 0.02f;
  const int wzp = 120;
  const float bs = ws / 128;  // input scale x weights scale
  std::vector<uint8_t> w(size_t(4 * depth) * total);
  std::vector<int32_t> bias(4 * depth);
  uint32_t seed = 99;
  auto next = [&]() { return seed = seed * 1664525u + 1013904223u, seed >> 8; };
  for (auto& v : w) v = static_cast<uint8_t>(next() % 256);
  for (auto& v : bias) v = static_cast<int32_t>(next() % 20001) - 10000;
  OpModel m;
  const BasicBuilt b = BuildBasicQuant(m, batch, in_depth, depth, w, ws, wzp, bias, bs);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  std::vector<uint8_t> x(batch * in_depth), h(batch * depth);
  std::vector<int16_t> c(batch * depth);
  for (auto& v : x) v = static_cast<uint8_t>(next() % 256);
  for (auto& v : h) v = static_cast<uint8_t>(next() % 256);
  for (auto& v : c) v = static_cast<int16_t>(static_cast<int>(next() % 16001) - 8000);
  m.SetInput(b.input, x);
  m.SetInput(b.prev_activation, h);
  m.SetInput(b.prev_state, c);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();

  std::vector<double> xd, hd, wd, bd, cd;
  for (auto v : x) xd.push_back((v - 128) / 128.0);
  for (auto v : h) hd.push_back((v - 128) / 128.0);
  for (auto v : w) wd.push_back((v - wzp) * double{ws});
  for (auto v : bias) bd.push_back(v * double{bs});
  for (auto v : c) cd.push_back(v / 2048.0);
  std::vector<double> z, c_out, h_out;
  NaiveBasic(batch, in_depth, depth, xd, hd, wd, bd, cd, true, &z, &c_out, &h_out);
  const auto activ = m.GetOutput<int16_t>(b.activ);
  const auto state = m.GetOutput<int16_t>(b.state);
  const auto out = m.GetOutput<uint8_t>(b.output);
  ASSERT_EQ(activ.size(), z.size());
  for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(activ[i] / 4096.0, z[i], 1.5 / 4096) << i;
  ASSERT_EQ(state.size(), c_out.size());
  for (size_t i = 0; i < c_out.size(); ++i) {
    EXPECT_NEAR(state[i] / 2048.0, c_out[i], 4e-3) << i;
    EXPECT_NEAR((out[i] - 128) / 128.0, h_out[i], 1.5 / 128 + 2e-3) << i;
  }
  // concat_temp holds the raw codes.
  const auto cat = m.GetOutput<uint8_t>(b.concat);
  for (int r = 0; r < batch; ++r) {
    for (int d = 0; d < in_depth; ++d) EXPECT_EQ(cat[r * total + d], x[r * in_depth + d]);
    for (int d = 0; d < depth; ++d) EXPECT_EQ(cat[r * total + in_depth + d], h[r * depth + d]);
  }
}

// One cell, worked by hand. Bias scale 2^-12 makes the accumulator multiplier exactly 1, so
// activation_temp is the integer accumulator: x = 192 - 128 = 64 (0.5), prev h = 0;
//   input gate  = 0 + 64 * (144 - 128) = 1024  (0.25 in Q3.12)
//   modulation  = 0 + 64 * (160 - 128) = 2048  (0.5)
//   forget gate = 4096 + 0             = 4096  (1.0)
//   output gate = -2048 + 0            = -2048 (-0.5)
// prev c = 4096 (2.0 in Q4.11): c' = sig(0.25) tanh(0.5) + sig(1) * 2
//   = 0.5621765 * 0.4621172 + 0.7310586 * 2 = 1.7219086 -> 3526.47 in Q4.11;
// h' = sig(-0.5) tanh(1.7219086) = 0.3775407 * 0.9380913 = 0.3541680 -> 45.33 -> code 173.
TEST(Nn_LstmBasic, QuantizedHandWorked) {
  const std::vector<uint8_t> w = {144, 128, 160, 128, 128, 128, 128, 128};  // [4, 2]
  const std::vector<int32_t> bias = {0, 0, 4096, -2048};
  OpModel m;
  const BasicBuilt b = BuildBasicQuant(m, 1, 1, 1, w, 1.f / 32, 128, bias, 1.f / 4096);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(b.input, std::vector<uint8_t>{192});
  m.SetInput(b.prev_activation, std::vector<uint8_t>{128});
  m.SetInput(b.prev_state, std::vector<int16_t>{4096});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<int16_t>(b.activ), (std::vector<int16_t>{1024, 2048, 4096, -2048}));
  EXPECT_EQ(m.GetOutput<uint8_t>(b.concat), (std::vector<uint8_t>{192, 128}));
  const auto state = m.GetOutput<int16_t>(b.state);
  ASSERT_EQ(state.size(), 1u);
  EXPECT_NEAR(state[0], 3526.47, 2.0);  // the fixed-point sigmoid/tanh are within a few LSB
  EXPECT_EQ(m.GetOutput<uint8_t>(b.output), (std::vector<uint8_t>{173}));

  // All-zero pre-activations: sig(0) = 0.5 and tanh(0) = 0 exactly, so c' = 0.5 c exactly:
  // 4096 -> 2048 (bias 0 everywhere, x = 0).
  OpModel z;
  const BasicBuilt bz = BuildBasicQuant(z, 1, 1, 1, w, 1.f / 32, 128, {0, 0, 0, 0}, 1.f / 4096);
  ASSERT_EQ(z.Build(), kTfLiteOk) << z.error();
  z.SetInput(bz.input, std::vector<uint8_t>{128});
  z.SetInput(bz.prev_activation, std::vector<uint8_t>{128});
  z.SetInput(bz.prev_state, std::vector<int16_t>{4096});
  ASSERT_EQ(z.Invoke(), kTfLiteOk) << z.error();
  EXPECT_EQ(z.GetOutput<int16_t>(bz.state), (std::vector<int16_t>{2048}));
  // h' = 0.5 * tanh(1.0) = 0.3807971 -> 48.74 -> code 177.
  EXPECT_EQ(z.GetOutput<uint8_t>(bz.output), (std::vector<uint8_t>{177}));
}

TEST(Nn_LstmBasic, Rejections) {
  const std::vector<uint8_t> w(8, 128);
  const std::vector<int32_t> bias(4, 0);
  {  // the state must be Q4.11
    OpModel m;
    BuildBasicQuant(m, 1, 1, 1, w, 1.f / 32, 128, bias, 1.f / 4096, 1.f / 1024);
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("LSTM: only a state with 4 integer bits"), std::string::npos)
        << m.error();
  }
  {
    OpModel m;
    BuildBasicQuant(m, 1, 1, 1, w, 1.f / 32, 128, bias, 1.f / 4096, 0.001f);
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("state_out scale must be a power of two"), std::string::npos)
        << m.error();
  }
  {  // weights with the wrong shape
    OpModel m;
    m.AddInput({kTfLiteFloat32, {1, 2}});
    m.AddInput({kTfLiteFloat32, {1, 3}});
    m.AddConstInput({kTfLiteFloat32, {12, 4}}, std::vector<float>(48));
    m.AddConstInput({kTfLiteFloat32, {12}}, std::vector<float>(12));
    m.AddInput({kTfLiteFloat32, {1, 3}});
    for (int i = 0; i < 4; ++i) m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_LSTM, tflite::ops::builtin::Register_LSTM(),
                   BasicParams());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("LSTM: weights must have shape [12, 5], got [12, 4]"),
              std::string::npos)
        << m.error();
  }
  {  // a float bias with uint8 input
    OpModel m;
    m.AddInput({kTfLiteUInt8, {1, 1}, {1.f / 128}, {128}});
    m.AddInput({kTfLiteUInt8, {1, 1}, {1.f / 128}, {128}});
    m.AddConstInput({kTfLiteUInt8, {4, 2}, {0.1f}, {128}}, w);
    m.AddConstInput({kTfLiteFloat32, {4}}, std::vector<float>(4));
    m.AddInput({kTfLiteInt16, {1, 1}, {1.f / 2048}, {0}});
    m.AddOutput({kTfLiteUInt8, {}, {1.f / 128}, {128}});
    m.AddOutput({kTfLiteInt16, {}, {1.f / 2048}, {0}});
    m.AddOutput({kTfLiteUInt8, {}, {1.f / 128}, {128}});
    m.AddOutput({kTfLiteInt16, {}, {1.f / 4096}, {0}});
    m.SetBuiltinOp(tflite::BuiltinOperator_LSTM, tflite::ops::builtin::Register_LSTM(),
                   BasicParams());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("LSTM: biases must be INT32 with UINT8 input, got FLOAT32"),
              std::string::npos)
        << m.error();
  }
  {  // four inputs, three outputs
    OpModel m;
    m.AddInput({kTfLiteFloat32, {1, 2}});
    m.AddInput({kTfLiteFloat32, {1, 3}});
    m.AddConstInput({kTfLiteFloat32, {12, 5}}, std::vector<float>(60));
    m.AddConstInput({kTfLiteFloat32, {12}}, std::vector<float>(12));
    for (int i = 0; i < 3; ++i) m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_LSTM, tflite::ops::builtin::Register_LSTM(),
                   BasicParams());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("LSTM: the basic kernel takes 5 inputs, got 4"), std::string::npos)
        << m.error();
  }
}

}  // namespace
}  // namespace octet
