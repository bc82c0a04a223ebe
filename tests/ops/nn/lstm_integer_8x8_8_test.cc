// The LSTM op's 8x8_8 integer form (12 intermediate tensors, int8 gate matmul outputs, int16
// cell state at 2^-15) against TFLite 2.12 itself: each model below is built in code, written
// out (set OCTET_LSTM_8X8_8_DUMP=DIR to get DIR/<case>.tflite and its raw int8 input) and run
// by TFLite 2.12's WASM build under node, invoked twice in a row on the same input (the
// states carry over); the golden bytes are the int8 output of both invokes as it printed
// them. Also prepare's one-line refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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

// A small deterministic generator for weights and inputs.
struct Rng {
  uint32_t state;
  int32_t Int(int32_t lo, int32_t hi) {  // in [lo, hi]
    state = state * 22695477u + 1u;
    return lo + static_cast<int32_t>((state >> 7) % static_cast<uint32_t>(hi - lo + 1));
  }
};

// A node input or intermediate before serialization; tests may edit it.
struct Tensor {
  bool present = false;
  TensorSpec spec;
  std::vector<uint8_t> data;  // empty: no buffer
};

using Tensors = std::vector<Tensor>;

struct Case {
  const char* name = "";
  bool sequence = false;  // UNIDIRECTIONAL_SEQUENCE_LSTM [time, batch, input] instead of LSTM
  int n_batch = 2, n_input = 5, n_cell = 4, n_output = 3;
  bool cifg = true, peephole = false;
  float cell_clip = 0.f, proj_clip = 0.f;
  float in_scale = 0.03f;
  uint32_t seed = 88u;
  std::function<void(Tensors& in, Tensors& inter)> tweak;
};

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v.data());
  return std::vector<uint8_t>(p, p + v.size() * sizeof(T));
}

Tensor Make(tflite::TensorType type, std::vector<int32_t> shape, float scale, int64_t zp) {
  Tensor s;
  s.present = true;
  s.spec.type = type;
  s.spec.shape = std::move(shape);
  s.spec.quantization = QuantParams{{scale}, {zp}};
  return s;
}

template <typename T>
Tensor Constant(tflite::TensorType type, std::vector<int32_t> shape, float scale, Rng& rng,
                int32_t lo, int32_t hi) {
  Tensor s = Make(type, shape, scale, 0);
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rng.Int(lo, hi));
  s.data = Bytes(v);
  return s;
}

// The 24 inputs and 12 intermediates: int8 weights, int16 peephole (unused by TFLite's step)
// and layer norm coefficients, int32 biases, projection with bias, int16 cell state at 2^-15.
void MakeTensors(const Case& c, Tensors* in, Tensors* inter) {
  Rng rng{c.seed};
  in->assign(24, Tensor{});
  const std::vector<int32_t> in_shape = c.sequence ? std::vector<int32_t>{1, c.n_batch, c.n_input}
                                                   : std::vector<int32_t>{c.n_batch, c.n_input};
  (*in)[0] = Make(tflite::TensorType_INT8, in_shape, c.in_scale, -4);
  for (int k = 1; k <= 8; ++k) {
    if (c.cifg && (k == 1 || k == 5)) continue;
    const int cols = k <= 4 ? c.n_input : c.n_output;
    (*in)[k] = Constant<int8_t>(tflite::TensorType_INT8, {c.n_cell, cols}, 0.004f + 0.0006f * k,
                                rng, -127, 127);
  }
  for (int k = 9; k <= 11 && c.peephole; ++k) {
    if (c.cifg && k == 9) continue;
    (*in)[k] =
        Constant<int16_t>(tflite::TensorType_INT16, {c.n_cell}, 0.5f / 32768, rng, -30000, 30000);
  }
  for (int k = 12; k <= 15; ++k) {
    if (c.cifg && k == 12) continue;
    (*in)[k] =
        Constant<int32_t>(tflite::TensorType_INT32, {c.n_cell}, 1e-5f, rng, -(1 << 23), 1 << 23);
  }
  (*in)[16] =
      Constant<int8_t>(tflite::TensorType_INT8, {c.n_output, c.n_cell}, 0.012f, rng, -127, 127);
  (*in)[17] = Constant<int32_t>(tflite::TensorType_INT32, {c.n_output}, 0.012f / 32768, rng,
                                -(1 << 20), 1 << 20);
  (*in)[18] = Make(tflite::TensorType_INT8, {c.n_batch, c.n_output}, 0.02f, -5);
  (*in)[18].spec.is_variable = true;
  (*in)[19] = Make(tflite::TensorType_INT16, {c.n_batch, c.n_cell}, 1.f / 32768, 0);
  (*in)[19].spec.is_variable = true;
  for (int k = 20; k <= 23; ++k) {
    if (c.cifg && k == 20) continue;
    (*in)[k] = Constant<int16_t>(tflite::TensorType_INT16, {c.n_cell}, 1.f / 16384 + 3e-6f * k, rng,
                                 8000, 24000);
  }
  // Per gate (input, forget, cell, output): the sum, input x weights, output_state x weights.
  inter->clear();
  const int64_t zps[12] = {0, 2, -3, 1, 3, -2, -1, 1, -3, 2, 2, 5};
  for (int i = 0; i < 12; ++i) {
    const float scale = i % 3 == 0 ? 0.03f + 0.002f * i : i % 3 == 1 ? 0.02f + 0.001f * i : 0.05f;
    inter->push_back(Make(tflite::TensorType_INT8, {}, scale, zps[i]));
  }
}

std::vector<uint8_t> BuildModel(const Case& c) {
  Tensors in, inter;
  MakeTensors(c, &in, &inter);
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
  std::vector<int32_t> out_shape = in[0].spec.shape;
  out_shape.back() = c.n_output;
  const int output =
      b.AddQuantizedTensor(tflite::TensorType_INT8, out_shape, "output", {0.02f}, {-5});
  format::OperatorSpec op;
  op.inputs = inputs;
  op.outputs = {output};
  op.intermediates = intermediates;
  if (c.sequence) {
    op.opcode_index = static_cast<uint32_t>(
        b.AddOperatorCode(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, 3));
    op.options.type = tflite::BuiltinOptions_UnidirectionalSequenceLSTMOptions;
    op.options.offset =
        tflite::CreateUnidirectionalSequenceLSTMOptions(
            b.fbb(), tflite::ActivationFunctionType_TANH, c.cell_clip, c.proj_clip, true)
            .Union();
  } else {
    op.opcode_index = static_cast<uint32_t>(b.AddOperatorCode(tflite::BuiltinOperator_LSTM, 4));
    op.options.type = tflite::BuiltinOptions_LSTMOptions;
    op.options.offset = tflite::CreateLSTMOptions(b.fbb(), tflite::ActivationFunctionType_TANH,
                                                  c.cell_clip, c.proj_clip)
                            .Union();
  }
  b.AddOperator(op);
  b.SetInputs({inputs[0]});
  b.SetOutputs({output});
  return b.Finish();
}

std::vector<int8_t> MakeInput(const Case& c) {
  Rng rng{c.seed * 7u + 1u};
  std::vector<int8_t> x(static_cast<size_t>(c.n_batch) * c.n_input);
  for (auto& v : x) v = static_cast<int8_t>(rng.Int(-128, 127));
  return x;
}

using RunResult = testing::Int8ModelRuns;

RunResult RunModel(const Case& c) {
  return testing::RunTwiceOnInt8Input(BuildModel(c), MakeInput(c), "OCTET_LSTM_8X8_8_DUMP", c.name);
}

void ExpectGolden(const Case& c, const std::string& invoke1, const std::string& invoke2) {
  SCOPED_TRACE(c.name);
  testing::ExpectInt8Goldens(RunModel(c), invoke1, invoke2);
}

// ---- goldens: TFLite 2.12 (WASM build) output bytes, invoke 1 and invoke 2 ----

Case Cifg() {
  Case c;
  c.name = "cifg";
  return c;
}
// The input gate's tensors are checked but TFLite's 8x8_8 step never reads them.
Case Standard() {
  Case c;
  c.name = "standard";
  c.cifg = false;
  c.seed = 5u;
  return c;
}
// Likewise the peephole weights.
Case Peephole() {
  Case c;
  c.name = "peephole";
  c.peephole = true;
  c.seed = 17u;
  return c;
}
Case StandardPeephole() {
  Case c;
  c.name = "standard_peephole";
  c.cifg = false;
  c.peephole = true;
  c.seed = 23u;
  return c;
}
Case WideBatch() {
  Case c;
  c.name = "batch_4_cells_8";
  c.n_batch = 4;
  c.n_cell = 8;
  c.n_output = 6;
  c.n_input = 7;
  c.seed = 31u;
  return c;
}
Case Clips() {
  Case c;
  c.name = "clips";
  c.cell_clip = 0.3f;
  c.proj_clip = 0.4f;
  c.seed = 41u;
  return c;
}
// TFLite applies the cell clip only when it is below 1.
Case CellClipAboveOne() {
  Case c;
  c.name = "cell_clip_above_one";
  c.cell_clip = 1.5f;
  c.seed = 41u;
  return c;
}
// One cell: every gate's variance is 0 and the layer norm takes its 1e-8 floor.
Case OneCell() {
  Case c;
  c.name = "one_cell";
  c.n_cell = 1;
  c.n_output = 2;
  c.seed = 53u;
  return c;
}
// A large input scale saturates the int8 matmul outputs and the gate sums.
Case Saturating() {
  Case c;
  c.name = "saturating";
  c.in_scale = 4.f;
  c.n_batch = 3;
  c.seed = 61u;
  return c;
}

TEST(LstmInteger8x8_8Golden, Cifg) { ExpectGolden(Cifg(), "ebe7fc0cf5f5", "e3e2f40ff8f7"); }
TEST(LstmInteger8x8_8Golden, StandardIgnoresTheInputGate) {
  ExpectGolden(Standard(), "1d1b16caf0d7", "2b2212cbf1d4");
}
TEST(LstmInteger8x8_8Golden, PeepholeIgnored) {
  ExpectGolden(Peephole(), "f1f5e1fc1620", "f1f2dcf72129");
}
TEST(LstmInteger8x8_8Golden, StandardPeephole) {
  ExpectGolden(StandardPeephole(), "b8ca04cd1d1c", "b3baffc51d1e");
}
TEST(LstmInteger8x8_8Golden, Batch4Cells8) {
  ExpectGolden(WideBatch(), "d4ce02ed1108fcf0f0eee6fffe291ccce5eae802f4ee3029",
               "e1d601e618f204f5f6dfdefa114129c4ece6ec09f4ee4033");
}
TEST(LstmInteger8x8_8Golden, CellAndProjectionClips) {
  ExpectGolden(Clips(), "ececfeecf20c", "ececfbecf20a");
}
TEST(LstmInteger8x8_8Golden, CellClipAboveOneIsIgnored) {
  ExpectGolden(CellClipAboveOne(), "cbd6fecced15", "d4caddccee13");
}
TEST(LstmInteger8x8_8Golden, OneCellZeroVariance) {
  ExpectGolden(OneCell(), "f307f307", "f409f409");
}
TEST(LstmInteger8x8_8Golden, Saturating) {
  ExpectGolden(Saturating(), "e8fb06d5f533e1010f", "def807d7f436da0317");
}

// ---- prepare's refusals ----

std::string PrepareError(std::function<void(Tensors&, Tensors&)> tweak) {
  Case c;
  c.name = "refusal";
  c.cifg = false;
  c.peephole = true;
  c.tweak = std::move(tweak);
  const RunResult r = RunModel(c);
  return r.status == kTfLiteOk ? "" : r.log;
}

void ExpectError(std::function<void(Tensors&, Tensors&)> tweak, const std::string& needle) {
  const std::string e = PrepareError(std::move(tweak));
  EXPECT_NE(e.find("LSTM: "), std::string::npos) << e;
  EXPECT_NE(e.find(needle), std::string::npos) << e;
}

// A constant tensor with another type or shape (zero data of the matching size).
void Retype(Tensor& s, tflite::TensorType type, std::vector<int32_t> shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  const size_t width = type == tflite::TensorType_INT8    ? 1
                       : type == tflite::TensorType_INT16 ? 2
                                                          : 4;
  s.spec.type = type;
  s.spec.shape = std::move(shape);
  s.data.assign(n * width, 0);
}

TEST(LstmInteger8x8_8Prepare, Intermediates) {
  EXPECT_EQ(PrepareError(nullptr), "");
  // 11 intermediates: neither form.
  ExpectError([](Tensors&, Tensors& it) { it.pop_back(); }, "5 intermediate tensors");
  ExpectError([](Tensors&, Tensors& it) { it[5].spec.quantization->scale = {0.f}; },
              "intermediate 5 scale must be finite and > 0");
  ExpectError([](Tensors&, Tensors& it) { it[7].spec.quantization.reset(); },
              "intermediate 7 must be quantized per-tensor");
  // The loader refuses an int8 zero point of 300; an int16 intermediate reaches prepare.
  ExpectError(
      [](Tensors&, Tensors& it) {
        it[4].spec.type = tflite::TensorType_INT16;
        it[4].spec.quantization->zero_point = {300};
      },
      "intermediate 4 zero point 300 is outside [-128, 127]");
  // input x weights / gate sum = 2^40: beyond the requantization's shifts.
  ExpectError([](Tensors&, Tensors& it) { it[10].spec.quantization->scale = {3e10f}; },
              "is not representable");
}

TEST(LstmInteger8x8_8Prepare, WhatTheKernelAlwaysApplies) {
  ExpectError(
      [](Tensors& in, Tensors&) {
        for (int k = 20; k <= 23; ++k) in[k].present = false;
      },
      "needs layer norm coefficients");
  ExpectError([](Tensors& in, Tensors&) { in[17].present = false; },
              "needs projection_weights and projection_bias");
  ExpectError([](Tensors& in, Tensors&) { in[20].present = false; },
              "input_layer_norm_coefficients must be present");
}

TEST(LstmInteger8x8_8Prepare, TypesShapesAndScales) {
  ExpectError(
      [](Tensors& in, Tensors&) {
        Retype(in[19], tflite::TensorType_INT8, {2, 4});
      },
      "cell_state must be INT16, got INT8");
  ExpectError([](Tensors& in, Tensors&) { in[19].spec.quantization->scale = {1.f / 2048}; },
              "cell_state scale must be 2^-15");
  ExpectError([](Tensors& in, Tensors&) { Retype(in[10], tflite::TensorType_INT8, {4}); },
              "cell_to_forget_weights must be INT16, got INT8");
  ExpectError(
      [](Tensors& in, Tensors&) {
        Retype(in[2], tflite::TensorType_INT16, {4, 5});
      },
      "input_to_forget_weights must be INT8, got INT16");
  ExpectError(
      [](Tensors& in, Tensors&) {
        Retype(in[16], tflite::TensorType_INT8, {4, 4});
      },
      "projection_weights must have shape [3, 4], got [4, 4]");
  ExpectError([](Tensors& in, Tensors&) { in[9].present = false; },
              "peephole weights must be all present");
  ExpectError(
      [](Tensors& in, Tensors&) {
        in[3].spec.quantization = QuantParams{{0.01f, 0.02f, 0.01f, 0.01f}, {0, 0, 0, 0}};
      },
      "input_to_cell_weights must be quantized per-tensor");
}

// TFLite's unidirectional kernel never reaches the 8x8_8 form (TFLite 2.12's WASM build
// fails to prepare this model too), so the sequence op keeps refusing it.
TEST(LstmInteger8x8_8Prepare, SequenceOpRefusesIt) {
  Case c;
  c.name = "sequence";
  c.sequence = true;
  const RunResult r = RunModel(c);
  EXPECT_NE(r.status, kTfLiteOk);
  EXPECT_NE(r.log.find("UNIDIRECTIONAL_SEQUENCE_LSTM: "), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("8x8_8"), std::string::npos) << r.log;
}

}  // namespace
}  // namespace octet
