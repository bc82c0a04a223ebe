// The full-integer LSTM variants TFLite runs and TFLite Micro does not (CIFG, peephole,
// projection with and without bias, layer norm, clipping), in UNIDIRECTIONAL_SEQUENCE_LSTM
// and in the non-sequence LSTM op, against outputs of TFLite 2.12 itself: each model below is
// built in code, written out (set OCTET_LSTM_INT_DUMP=DIR to get DIR/<case>.tflite and its
// raw int8 input) and run by TFLite's WASM build under node, two invokes in a row (the states
// carry over); the golden bytes are the int8 output of both invokes as it printed them. Also
// prepare's one-line refusals.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/int8_model_runs.h"

namespace octet {
namespace {

using format::ModelBuilder;
using format::QuantParams;
using format::TensorSpec;

struct Lcg {
  uint32_t state;
  uint32_t Next() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  }
  int32_t Int(int32_t lo, int32_t hi) {  // in [lo, hi]
    return lo + static_cast<int32_t>(Next() % static_cast<uint32_t>(hi - lo + 1));
  }
};

// One node input (or intermediate, or the output) before serialization; tests may edit it.
struct Slot {
  bool present = false;
  TensorSpec spec;
  std::vector<uint8_t> data;  // empty: no buffer (graph input, state, intermediate)
};

struct Case {
  const char* name = "";
  bool lstm_op = false;  // LSTM: one step over [batch, input]; else the sequence op
  bool time_major = true;
  int max_time = 3, n_batch = 2, n_input = 5, n_cell = 4, n_output = 4;
  bool cifg = false, peephole = false, projection = false, projection_bias = false;
  bool layer_norm = false;
  float cell_clip = 0.f, proj_clip = 0.f;
  int cell_scale_power = -11;
  int64_t hidden_zp = 3, state_zp = -5;
  float in_scale = 0.03f;
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType_TANH;
  std::function<void(std::vector<Slot>& in, std::vector<Slot>& inter)> tweak;
};

template <typename T>
std::vector<uint8_t> Raw(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v.data());
  return std::vector<uint8_t>(p, p + v.size() * sizeof(T));
}

Slot Quantized(tflite::TensorType type, std::vector<int32_t> shape, float scale, int64_t zp) {
  Slot s;
  s.present = true;
  s.spec.type = type;
  s.spec.shape = std::move(shape);
  s.spec.quantization = QuantParams{{scale}, {zp}};
  return s;
}

std::vector<int32_t> InputShape(const Case& c, int width) {
  if (c.lstm_op) return {c.n_batch, width};
  return c.time_major ? std::vector<int32_t>{c.max_time, c.n_batch, width}
                      : std::vector<int32_t>{c.n_batch, c.max_time, width};
}

// The 24 inputs and 5 intermediates of a node as TFLite's quantizer lays them out: int8
// weights, int16 peephole and layer norm coefficients, int32 biases, an int16 cell state.
void MakeSlots(const Case& c, std::vector<Slot>* in, std::vector<Slot>* inter) {
  Lcg rng{4242u};
  in->assign(24, Slot{});
  const float in_scale = c.in_scale;
  const float state_scale = c.projection ? 0.02f : 1.f / 128;
  (*in)[0] = Quantized(tflite::TensorType_INT8, InputShape(c, c.n_input), in_scale, -4);
  for (int k = 1; k <= 8; ++k) {
    if (c.cifg && (k == 1 || k == 5)) continue;
    const int cols = k <= 4 ? c.n_input : c.n_output;
    Slot s = Quantized(tflite::TensorType_INT8, {c.n_cell, cols}, 0.004f + 0.0005f * k, 0);
    std::vector<int8_t> v(static_cast<size_t>(c.n_cell) * cols);
    for (auto& x : v) x = static_cast<int8_t>(rng.Int(-127, 127));
    s.data = Raw(v);
    (*in)[k] = s;
  }
  for (int k = 9; k <= 11 && c.peephole; ++k) {
    if (c.cifg && k == 9) continue;
    Slot s = Quantized(tflite::TensorType_INT16, {c.n_cell}, 0.6f / 32768 + 1e-6f * k, 0);
    std::vector<int16_t> v(c.n_cell);
    for (auto& x : v) x = static_cast<int16_t>(rng.Int(-30000, 30000));
    s.data = Raw(v);
    (*in)[k] = s;
  }
  for (int k = 12; k <= 15; ++k) {
    if (c.cifg && k == 12) continue;
    Slot s = Quantized(tflite::TensorType_INT32, {c.n_cell}, in_scale * 0.004f, 0);
    std::vector<int32_t> v(c.n_cell);
    const int32_t range = c.layer_norm ? (1 << 23) : 3000;
    for (auto& x : v) x = rng.Int(-range, range);
    s.data = Raw(v);
    (*in)[k] = s;
  }
  if (c.projection) {
    Slot w = Quantized(tflite::TensorType_INT8, {c.n_output, c.n_cell}, 0.012f, 0);
    std::vector<int8_t> v(static_cast<size_t>(c.n_output) * c.n_cell);
    for (auto& x : v) x = static_cast<int8_t>(rng.Int(-127, 127));
    w.data = Raw(v);
    (*in)[16] = w;
    if (c.projection_bias) {
      Slot b = Quantized(tflite::TensorType_INT32, {c.n_output}, 0.012f / 128, 0);
      std::vector<int32_t> bv(c.n_output);
      for (auto& x : bv) x = rng.Int(-4000, 4000);
      b.data = Raw(bv);
      (*in)[17] = b;
    }
  }
  (*in)[18] = Quantized(tflite::TensorType_INT8, {c.n_batch, c.n_output}, state_scale, c.state_zp);
  (*in)[18].spec.is_variable = true;
  (*in)[19] = Quantized(tflite::TensorType_INT16, {c.n_batch, c.n_cell},
                        static_cast<float>(std::ldexp(1.0, c.cell_scale_power)), 0);
  (*in)[19].spec.is_variable = true;
  for (int k = 20; k <= 23 && c.layer_norm; ++k) {
    if (c.cifg && k == 20) continue;
    Slot s = Quantized(tflite::TensorType_INT16, {c.n_cell}, 1.f / 16384 + 2e-6f * k, 0);
    std::vector<int16_t> v(c.n_cell);
    for (auto& x : v) x = static_cast<int16_t>(rng.Int(8000, 24000));
    s.data = Raw(v);
    (*in)[k] = s;
  }
  inter->clear();
  for (int i = 0; i < 4; ++i) {
    // Without layer norm TFLite ignores these scales (it uses 2^-12).
    inter->push_back(
        Quantized(tflite::TensorType_INT16, {}, c.layer_norm ? 0.0009f + 0.0002f * i : 0.01f, 0));
  }
  inter->push_back(Quantized(tflite::TensorType_INT8, {}, 1.f / 120, c.hidden_zp));
}

std::vector<uint8_t> BuildModel(const Case& c) {
  std::vector<Slot> in, inter;
  MakeSlots(c, &in, &inter);
  if (c.tweak) c.tweak(in, inter);
  ModelBuilder b;
  std::vector<int32_t> inputs, intermediates;
  for (size_t k = 0; k < in.size(); ++k) {
    if (!in[k].present) {
      inputs.push_back(-1);
      continue;
    }
    TensorSpec spec = in[k].spec;
    spec.name = "in" + std::to_string(k);
    if (!in[k].data.empty()) spec.buffer = static_cast<uint32_t>(b.AddBuffer(in[k].data));
    inputs.push_back(b.AddTensor(spec));
  }
  for (size_t i = 0; i < inter.size(); ++i) {
    TensorSpec spec = inter[i].spec;
    spec.name = "inter" + std::to_string(i);
    intermediates.push_back(b.AddTensor(spec));
  }
  const int output = b.AddQuantizedTensor(tflite::TensorType_INT8, InputShape(c, c.n_output),
                                          "output", {in[18].spec.quantization->scale[0]},
                                          {in[18].spec.quantization->zero_point[0]});
  format::OperatorSpec op;
  op.inputs = inputs;
  op.outputs = {output};
  op.intermediates = intermediates;
  if (c.lstm_op) {
    op.opcode_index = static_cast<uint32_t>(b.AddOperatorCode(tflite::BuiltinOperator_LSTM, 4));
    op.options.type = tflite::BuiltinOptions_LSTMOptions;
    op.options.offset =
        tflite::CreateLSTMOptions(b.fbb(), c.activation, c.cell_clip, c.proj_clip).Union();
  } else {
    op.opcode_index = static_cast<uint32_t>(
        b.AddOperatorCode(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, 3));
    op.options.type = tflite::BuiltinOptions_UnidirectionalSequenceLSTMOptions;
    op.options.offset = tflite::CreateUnidirectionalSequenceLSTMOptions(
                            b.fbb(), c.activation, c.cell_clip, c.proj_clip, c.time_major)
                            .Union();
  }
  b.AddOperator(op);
  b.SetInputs({inputs[0]});
  b.SetOutputs({output});
  return b.Finish();
}

std::vector<int8_t> MakeInput(const Case& c) {
  Lcg rng{777u};
  const size_t n = static_cast<size_t>(c.lstm_op ? 1 : c.max_time) * c.n_batch * c.n_input;
  std::vector<int8_t> x(n);
  for (auto& v : x) v = static_cast<int8_t>(rng.Int(-128, 127));
  return x;
}


using RunResult = testing::Int8ModelRuns;

RunResult RunOctet(const Case& c) {
  return testing::RunTwiceOnInt8Input(BuildModel(c), MakeInput(c), "OCTET_LSTM_INT_DUMP", c.name);
}

void ExpectGolden(const Case& c, const std::string& invoke1, const std::string& invoke2) {
  SCOPED_TRACE(c.name);
  testing::ExpectInt8Goldens(RunOctet(c), invoke1, invoke2);
}

// ---- goldens: TFLite 2.12 (WASM build) output bytes, invoke 1 and invoke 2 ----

Case Cifg() {
  Case c;
  c.name = "cifg";
  c.cifg = true;
  return c;
}
Case Peephole() {
  Case c;
  c.name = "peephole_batch_major";
  c.time_major = false;
  c.peephole = true;
  return c;
}
Case ProjectionNoBias() {
  Case c;
  c.name = "projection_no_bias";
  c.projection = true;
  c.n_output = 3;
  return c;
}
Case ProjectionBias() {
  Case c;
  c.name = "projection_bias";
  c.projection = c.projection_bias = true;
  c.n_output = 3;
  c.max_time = 5;
  return c;
}
Case LayerNorm() {
  Case c;
  c.name = "layer_norm_batch_major";
  c.time_major = false;
  c.layer_norm = true;
  return c;
}
// With projection TFLite runs the peephole products over n_output (3) of the 8 cells per
// batch row: batch 2 time-major shows it.
Case AllFour() {
  Case c;
  c.name = "all_four";
  c.cifg = c.peephole = c.projection = c.projection_bias = c.layer_norm = true;
  c.n_cell = 8;
  c.n_output = 3;
  return c;
}
Case AllFourBatchMajor() {
  Case c = AllFour();
  c.name = "all_four_batch_major_6_cells";
  c.time_major = false;
  c.n_batch = 3;
  c.n_cell = 6;
  return c;
}
Case Clips() {
  Case c;
  c.name = "clips";
  c.peephole = c.projection = c.projection_bias = true;
  c.n_output = 3;
  c.cell_clip = 0.25f;
  c.proj_clip = 0.3f;
  c.cell_scale_power = -12;
  return c;
}
Case LstmOpStandard() {
  Case c;
  c.name = "lstm_op_standard";
  c.lstm_op = true;
  c.n_batch = 3;
  return c;
}
Case LstmOpLayerNorm() {
  Case c;
  c.name = "lstm_op_layer_norm";
  c.lstm_op = true;
  c.layer_norm = true;
  return c;
}

// TFLite's integer kernel ignores the cell activation (always tanh); TFLite Micro's refuses
// RELU, so this standard LSTM runs TFLite's kernel.
Case StandardReluActivation() {
  Case c;
  c.name = "standard_relu_activation";
  c.activation = tflite::ActivationFunctionType_RELU;
  return c;
}
// One cell: the layer norm's variance is always 0 and TFLite takes the variance guard.
Case LayerNormOneCell() {
  Case c;
  c.name = "layer_norm_one_cell";
  c.layer_norm = true;
  c.n_cell = c.n_output = 1;
  return c;
}
// A large input scale saturates the gate pre-activations and the cell.
Case Saturating() {
  Case c = AllFour();
  c.name = "saturating";
  c.cifg = false;
  c.in_scale = 3.f;
  c.cell_scale_power = -15;
  return c;
}

TEST(LstmIntegerFullGolden, Cifg) {
  ExpectGolden(Cifg(), "1a02f8f90c4126f80f17f925bb1a171c1cfde934e80739f4",
               "4002c713f1403ff63418c725b61b27221afde534e6ff46f3");
}
TEST(LstmIntegerFullGolden, PeepholeBatchMajor) {
  ExpectGolden(Peephole(), "21ed091303fc49f94106070506f5011418baf952e2000107",
               "2a010c15020358f7400b040507f5001a1abaf954e3010108");
}
TEST(LstmIntegerFullGolden, ProjectionNoBias) {
  ExpectGolden(ProjectionNoBias(), "20dd0af9e90018e438fef90209fe4804f000",
               "19ec37e8df0d09f85104f1f812f647fef1fe");
}
TEST(LstmIntegerFullGolden, ProjectionBiasFiveSteps) {
  ExpectGolden(ProjectionBias(), "13e8fcecf3f20ded28f6fdeefc0737e800e33bceeae618ede325dbd21bf9",
               "fbfc06e4fbf81ae61cfef7e50ff722e601e342c8dee61aeddf1cddd01cf9");
}
TEST(LstmIntegerFullGolden, LayerNormBatchMajor) {
  ExpectGolden(LayerNorm(), "10f904ddfafe3be0fce70bdd08d8fafa03b5ff39c31001f6",
               "0eca04d1f7de39e6f9dd0bdf06def9f8ffb8ff39c21301f5");
}
TEST(LstmIntegerFullGolden, AllFourTimeMajor) {
  ExpectGolden(AllFour(), "e31415061434d4fbffe00622070a13053928",
               "f0060e113a3cdf0400d00d09090413f93d10");
}
TEST(LstmIntegerFullGolden, AllFourBatchMajor) {
  ExpectGolden(AllFourBatchMajor(), "f616cec124d9f621dadb050fd7fef2f116d1d30debbb090fded744",
               "d116dfbd25d9f01fdcd80204d7f9f6f418d00706dacfef21e2d244");
}
TEST(LstmIntegerFullGolden, CellAndProjectionClips) {
  ExpectGolden(Clips(), "f108f2f1090ff107f5f1ff03f102f1f1fa0f",
               "f108f1f1080ff108f4f1ff03f102f2f1fa0f");
}
TEST(LstmIntegerFullGolden, LstmOpStandard) {
  ExpectGolden(LstmOpStandard(), "25e50af8030319f848040d00", "30d80ff503072ef5410918ff");
}
TEST(LstmIntegerFullGolden, LstmOpLayerNorm) {
  ExpectGolden(LstmOpLayerNorm(), "10f904ddf80119e3", "12f604c9f60428df");
}

TEST(LstmIntegerFullGolden, StandardReluActivation) {
  ExpectGolden(StandardReluActivation(), "25e50af8030319f8460612fd040305fd33ca00481b1010e3",
               "31c30a28020d53f344020f17020d07fb34c3ff4f1d1013e1");
}
TEST(LstmIntegerFullGolden, LayerNormOneCell) {
  ExpectGolden(LayerNormOneCell(), "f7f7f5f5f4f4", "f3f3f3f3f3f3");
}
TEST(LstmIntegerFullGolden, Saturating) {
  ExpectGolden(Saturating(), "07cb2d2a0fc8d9f31623e806f9dd222fd716",
               "fdcb493d26b2d4eb1f2ce9fef9dc222fd716");
}

// Extreme weights, biases and coefficients (every product and sum at its limit) must stay
// defined (the sanitizer builds check) and the projection clip must still hold.
TEST(LstmIntegerFullHostile, ExtremeValuesStayInTheClip) {
  Case c = AllFour();
  c.name = "extreme";
  c.cifg = false;
  c.proj_clip = 0.1f;  // 5 steps of the output scale 0.02
  c.tweak = [](std::vector<Slot>& in, std::vector<Slot>&) {
    for (size_t k = 1; k < in.size(); ++k) {
      Slot& s = in[k];
      if (!s.present || s.data.empty()) continue;
      const size_t width = s.spec.type == tflite::TensorType_INT8    ? 1
                           : s.spec.type == tflite::TensorType_INT16 ? 2
                                                                     : 4;
      for (size_t i = 0; i < s.data.size(); i += width) {
        const bool low = (i / width) % 2 == 0;
        for (size_t b = 0; b < width; ++b) {  // 0x80.. (minimum) or 0x7f.. (maximum)
          const bool top = b + 1 == width;
          s.data[i + b] = low ? (top ? 0x80 : 0x00) : (top ? 0x7f : 0xff);
        }
      }
    }
  };
  const RunResult r = RunOctet(c);
  ASSERT_EQ(r.status, kTfLiteOk) << r.log;
  ASSERT_FALSE(r.values.empty());
  for (int8_t v : r.values) {
    EXPECT_LE(v, 5);
    EXPECT_GE(v, -5);
  }
}

// ---- prepare's refusals ----

std::string PrepareError(Case c) {
  const RunResult r = RunOctet(c);
  return r.status == kTfLiteOk ? "" : r.log;
}

Case Refusal(std::function<void(std::vector<Slot>&, std::vector<Slot>&)> tweak,
             bool layer_norm = false) {
  Case c;
  c.name = "refusal";
  c.peephole = true;
  c.projection = true;
  c.n_output = 3;
  c.layer_norm = layer_norm;
  c.tweak = std::move(tweak);
  return c;
}

void ExpectError(const Case& c, const std::string& needle) {
  const std::string e = PrepareError(c);
  EXPECT_NE(e.find("UNIDIRECTIONAL_SEQUENCE_LSTM: "), std::string::npos) << e;
  EXPECT_NE(e.find(needle), std::string::npos) << e;
}

using Slots = std::vector<Slot>;

// A constant slot with another type or shape (zero data of the matching size).
void Retype(Slot& s, tflite::TensorType type, std::vector<int32_t> shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  const size_t width = type == tflite::TensorType_INT8    ? 1
                       : type == tflite::TensorType_INT16 ? 2
                       : type == tflite::TensorType_INT64 ? 8
                                                          : 4;
  s.spec.type = type;
  s.spec.shape = std::move(shape);
  s.data.assign(n * width, 0);
}

TEST(LstmIntegerFullPrepare, Intermediates) {
  EXPECT_EQ(PrepareError(Refusal(nullptr)), "");
  ExpectError(Refusal([](Slots&, Slots& it) { it.pop_back(); }), "5 intermediate tensors");
  ExpectError(Refusal([](Slots&, Slots& it) { it.resize(12, it[0]); }), "8x8_8");
  ExpectError(Refusal([](Slots&, Slots& it) {
                it[4].spec.type = tflite::TensorType_INT16;
                it[4].spec.quantization->zero_point = {300};
              }),
              "intermediate 4 zero point 300 is outside [-128, 127]");
  ExpectError(Refusal([](Slots&, Slots& it) { it[1].spec.quantization->scale = {0.f}; }, true),
              "intermediate 1 scale must be finite and > 0");
  ExpectError(Refusal([](Slots&, Slots& it) { it[4].spec.quantization.reset(); }),
              "intermediate 4 must be quantized per-tensor");
}

TEST(LstmIntegerFullPrepare, VariantGroups) {
  ExpectError(Refusal([](Slots& in, Slots&) { in[1].present = false; }), "CIFG is all or none");
  ExpectError(Refusal([](Slots& in, Slots&) { in[10].present = false; }),
              "peephole weights must be all present");
  ExpectError(Refusal([](Slots& in, Slots&) {
                in[17] = in[12];
                in[16].present = false;
              }),
              "projection_bias needs projection_weights");
  ExpectError(Refusal([](Slots& in, Slots&) { in[22].present = false; }, true),
              "cell_layer_norm_coefficients is missing");
  Case no_projection = Refusal([](Slots& in, Slots&) { in[16].present = false; });
  ExpectError(no_projection, "without projection the output size (3) must equal the cell size");
  Case wide = Refusal(nullptr);
  wide.n_output = 5;
  ExpectError(wide, "peephole with projection needs output size (5) <= cell size (4)");
}

TEST(LstmIntegerFullPrepare, TypesShapesAndScales) {
  ExpectError(
      Refusal([](Slots& in, Slots&) { Retype(in[21], tflite::TensorType_INT8, {4}); }, true),
      "forget_layer_norm_coefficients must be INT16, got INT8");
  ExpectError(Refusal([](Slots& in, Slots&) { Retype(in[10], tflite::TensorType_INT16, {3}); }),
              "cell_to_forget_weights must have shape [4], got [3]");
  ExpectError(Refusal([](Slots& in, Slots&) { Retype(in[11], tflite::TensorType_INT8, {4}); }),
              "cell_to_output_weights must be INT16");
  ExpectError(Refusal([](Slots& in, Slots&) { Retype(in[13], tflite::TensorType_INT64, {4}); }),
              "forget_gate_bias must be INT32");
  ExpectError(Refusal([](Slots& in, Slots&) {
                Retype(in[16], tflite::TensorType_INT8, {4, 4});
              }),
              "projection_weights must have shape [3, 4], got [4, 4]");
  ExpectError(Refusal([](Slots& in, Slots&) { in[19].spec.quantization->scale = {1.f / 256}; }),
              "must be a power of two in [2^-15, 2^-9]");
  ExpectError(Refusal([](Slots& in, Slots&) { in[19].spec.quantization->scale = {0.0003f}; }),
              "must be a power of two");
  ExpectError(Refusal([](Slots& in, Slots&) {
                in[2].spec.quantization = QuantParams{{0.01f, 0.02f, 0.01f, 0.01f}, {0, 0, 0, 0}};
              }),
              "input_to_forget_weights must be quantized per-tensor");
  // A variable tensor is not constant: its row sums cannot be folded at prepare.
  ExpectError(Refusal([](Slots& in, Slots&) {
                in[2].data.clear();
                in[2].spec.is_variable = true;
              }),
              "input_to_forget_weights must be a constant tensor");
  ExpectError(Refusal([](Slots& in, Slots&) {
                in[19].spec.is_variable = false;
                in[19].data.assign(2 * 4 * 2, 0);
              }),
              "must be variable tensors");
}

TEST(LstmIntegerFullPrepare, LstmOpRefusesInt16Input) {
  Case c;
  c.name = "lstm_int16";
  c.lstm_op = true;
  c.tweak = [](Slots& in, Slots&) { in[0].spec.type = tflite::TensorType_INT16; };
  const std::string e = PrepareError(c);
  EXPECT_NE(e.find("LSTM: input must be FLOAT32 (float or hybrid LSTM) or INT8"), std::string::npos)
      << e;
}

}  // namespace
}  // namespace octet
