// STABLEHLO_RNG_BIT_GENERATOR: Philox4x32-10 and Threefry2x32-20 written here from their
// definition (Salmon et al., SC 2011) and checked against Random123's known-answer vectors;
// the op against the same vectors (one block each); the op's streams for random states,
// output types and shapes against a loop here that follows TFLite's state layout (key = state
// words 0, 1; counter = words 2, 3 [, 4, 5]; 64-bit counter increment per block; the new
// state); a whole model through the loader; and validation. States are built as uint64
// values, word 2k being the low half of state[k] (little-endian hosts, as TFLite assumes).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "subgraph_test_util.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/op_model.h"

namespace octet::stablehlo_test {
namespace {

using octet::testing::OpModel;
using tflite::ops::builtin::Register_STABLEHLO_RNG_BIT_GENERATOR;

using Words2 = std::array<uint32_t, 2>;
using Words4 = std::array<uint32_t, 4>;

uint32_t Rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// Philox4x32: ten rounds of (L0, R0, L1, R1) -> (hi(B*L1) ^ R0 ^ k0, lo(B*L1), hi(A*L0) ^ R1
// ^ k1, lo(A*L0)) with the key bumped by the Weyl constants between rounds.
Words4 RefPhilox(Words4 c, Words2 k) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t a = uint64_t{0xD2511F53} * c[0];
    const uint64_t b = uint64_t{0xCD9E8D57} * c[2];
    c = {static_cast<uint32_t>(b >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(b),
         static_cast<uint32_t>(a >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(a)};
    k[0] += 0x9E3779B9u;
    k[1] += 0xBB67AE85u;
  }
  return c;
}

// Threefry2x32-20: five groups of four MIX rounds, a key injection before the first group
// and after each one (injection s adds ks[s % 3], ks[(s + 1) % 3] + s).
Words2 RefThreefry(Words2 x, Words2 k) {
  const uint32_t ks[3] = {k[0], k[1], 0x1BD11BDAu ^ k[0] ^ k[1]};
  const int rot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  x[0] += ks[0];
  x[1] += ks[1];
  for (uint32_t s = 1; s <= 5; ++s) {
    for (int r : rot[(s - 1) % 2]) {
      x[0] += x[1];
      x[1] = Rotl(x[1], r) ^ x[0];
    }
    x[0] += ks[s % 3];
    x[1] += ks[(s + 1) % 3] + s;
  }
  return x;
}

TEST(StablehloRngBitGenerator, ReferencesMatchRandom123KnownAnswers) {
  EXPECT_EQ(RefPhilox({0, 0, 0, 0}, {0, 0}),
            (Words4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(RefPhilox({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}),
            (Words4{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(RefPhilox({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (Words4{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
  EXPECT_EQ(RefThreefry({0, 0}, {0, 0}), (Words2{0x6b200159, 0x99ba4efe}));
  EXPECT_EQ(RefThreefry({~0u, ~0u}, {~0u, ~0u}), (Words2{0x1cb996fc, 0xbb002be7}));
  EXPECT_EQ(RefThreefry({0x243f6a88, 0x85a308d3}, {0x13198a2e, 0x03707344}),
            (Words2{0xc4923a9c, 0x483df7a0}));
}

uint64_t Pack(uint32_t lo, uint32_t hi) { return uint64_t{lo} | (uint64_t{hi} << 32); }

struct Result {
  TfLiteStatus build = kTfLiteError, invoke = kTfLiteError;
  std::string error;
  std::vector<uint64_t> state;
  std::vector<uint32_t> words;  // the output's bytes as uint32 words
};

Result RunOp(TfLiteRngAlgorithm algorithm, const std::vector<uint64_t>& state, TfLiteType out_type,
             const std::vector<int>& out_shape) {
  OpModel m;
  const int in = m.AddInput({kTfLiteUInt64, {static_cast<int>(state.size())}});
  const int new_state = m.AddOutput({kTfLiteUInt64, {static_cast<int>(state.size())}});
  const int out = m.AddOutput({out_type, out_shape});
  TfLiteStablehloRngBitGeneratorParams params{};
  params.algorithm = algorithm;
  m.SetBuiltinOp(kTfLiteBuiltinStablehloRngBitGenerator, Register_STABLEHLO_RNG_BIT_GENERATOR(),
                 params);
  Result r;
  r.build = m.Build();
  if (r.build == kTfLiteOk) {
    m.SetInput(in, state);
    r.invoke = m.Invoke();
    r.state = m.GetOutput<uint64_t>(new_state);
    EXPECT_EQ(m.GetShape(out), out_shape);
    const TfLiteTensor* t = m.tensor(out);
    r.words.resize(t->bytes / 4);
    if (t->bytes > 0) std::memcpy(r.words.data(), t->data.raw, t->bytes);
  }
  r.error = m.error();
  return r;
}

TEST(StablehloRngBitGenerator, OneBlockIsTheKnownAnswer) {
  // Philox with a 3-value state: key, counter words 0..1, counter words 2..3.
  Result p = RunOp(
      kTfLiteRngAlgorithmPhilox,
      {Pack(0xa4093822, 0x299f31d0), Pack(0x243f6a88, 0x85a308d3), Pack(0x13198a2e, 0x03707344)},
      kTfLiteUInt32, {4});
  ASSERT_EQ(p.invoke, kTfLiteOk) << p.error;
  EXPECT_EQ(p.words, (std::vector<uint32_t>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
  EXPECT_EQ(p.state,
            (std::vector<uint64_t>{Pack(0xa4093822, 0x299f31d0), Pack(0x243f6a89, 0x85a308d3),
                                   Pack(0x13198a2e, 0x03707344)}));
  Result t =
      RunOp(kTfLiteRngAlgorithmThreefry,
            {Pack(0x13198a2e, 0x03707344), Pack(0x243f6a88, 0x85a308d3)}, kTfLiteUInt32, {2});
  ASSERT_EQ(t.invoke, kTfLiteOk) << t.error;
  EXPECT_EQ(t.words, (std::vector<uint32_t>{0xc4923a9c, 0x483df7a0}));
  EXPECT_EQ(t.state,
            (std::vector<uint64_t>{Pack(0x13198a2e, 0x03707344), Pack(0x243f6a89, 0x85a308d3)}));
  // All-ones counter: the 64-bit counter wraps to 0, the upper Philox words stay.
  Result w = RunOp(kTfLiteRngAlgorithmThreefry, {~uint64_t{0}, ~uint64_t{0}}, kTfLiteInt64, {1});
  ASSERT_EQ(w.invoke, kTfLiteOk) << w.error;
  EXPECT_EQ(w.words, (std::vector<uint32_t>{0x1cb996fc, 0xbb002be7}));
  EXPECT_EQ(w.state, (std::vector<uint64_t>{~uint64_t{0}, 0}));
}

// What the op should give, by the layout described at the top.
void Expected(TfLiteRngAlgorithm algorithm, std::vector<uint64_t> state, size_t words,
              std::vector<uint32_t>* out, std::vector<uint64_t>* new_state) {
  std::vector<uint32_t> w;
  for (uint64_t v : state) {
    w.push_back(static_cast<uint32_t>(v));
    w.push_back(static_cast<uint32_t>(v >> 32));
  }
  const Words2 key = {w[0], w[1]};
  uint64_t counter = Pack(w[2], w[3]);
  out->clear();
  while (out->size() < words) {
    const uint32_t c0 = static_cast<uint32_t>(counter), c1 = static_cast<uint32_t>(counter >> 32);
    if (algorithm == kTfLiteRngAlgorithmThreefry) {
      for (uint32_t v : RefThreefry({c0, c1}, key)) out->push_back(v);
    } else {
      const bool three = state.size() == 3;
      for (uint32_t v : RefPhilox({c0, c1, three ? w[4] : w[0], three ? w[5] : w[1]}, key)) {
        out->push_back(v);
      }
    }
    ++counter;
  }
  out->resize(words);
  state[1] = counter;
  *new_state = state;
}

TEST(StablehloRngBitGenerator, StreamsMatchTheLayoutLoop) {
  std::mt19937_64 rng(20261127);
  struct Shape {
    TfLiteType type;
    std::vector<int> shape;
    size_t words;
  };
  const std::vector<Shape> shapes = {{kTfLiteUInt32, {7}, 7},       {kTfLiteInt32, {2, 3}, 6},
                                     {kTfLiteUInt64, {3, 2}, 12},   {kTfLiteInt64, {5}, 10},
                                     {kTfLiteUInt32, {1}, 1},       {kTfLiteUInt32, {0}, 0},
                                     {kTfLiteInt32, {2, 1, 9}, 18}, {kTfLiteUInt64, {}, 2}};
  const TfLiteRngAlgorithm algorithms[] = {kTfLiteRngAlgorithmDefault, kTfLiteRngAlgorithmPhilox,
                                           kTfLiteRngAlgorithmThreefry};
  for (int trial = 0; trial < 40; ++trial) {
    const TfLiteRngAlgorithm algorithm = algorithms[trial % 3];
    const size_t n = algorithm == kTfLiteRngAlgorithmThreefry ? 2 : 2 + trial % 2;
    std::vector<uint64_t> state(n);
    for (uint64_t& v : state) v = rng();
    // Some counters next to a 32-bit carry.
    if (trial % 4 == 1) state[1] = 0x00000001FFFFFFFDull;
    const Shape& s = shapes[trial % shapes.size()];
    Result r = RunOp(algorithm, state, s.type, s.shape);
    ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
    std::vector<uint32_t> want;
    std::vector<uint64_t> want_state;
    Expected(algorithm, state, s.words, &want, &want_state);
    EXPECT_EQ(r.words, want) << "trial " << trial;
    EXPECT_EQ(r.state, want_state) << "trial " << trial;
  }
}

TEST(StablehloRngBitGenerator, DefaultIsPhilox) {
  const std::vector<uint64_t> state = {0x0123456789abcdefull, 0xfedcba9876543210ull};
  Result d = RunOp(kTfLiteRngAlgorithmDefault, state, kTfLiteUInt64, {9});
  Result p = RunOp(kTfLiteRngAlgorithmPhilox, state, kTfLiteUInt64, {9});
  ASSERT_EQ(d.invoke, kTfLiteOk) << d.error;
  EXPECT_EQ(d.words, p.words);
  EXPECT_EQ(d.state, p.state);
}

TEST(StablehloRngBitGenerator, WholeModelThroughTheLoader) {
  using namespace tflite;  // NOLINT: schema names
  format::ModelBuilder b;
  const int code = b.AddOperatorCode(BuiltinOperator_STABLEHLO_RNG_BIT_GENERATOR);
  const int in = b.AddTensor(TensorType_UINT64, {2}, "state");
  const int new_state = b.AddTensor(TensorType_UINT64, {2}, "new_state");
  const int out = b.AddTensor(TensorType_UINT32, {3}, "bits");
  format::OperatorSpec op;
  op.opcode_index = code;
  op.inputs = {in};
  op.outputs = {new_state, out};
  op.options2 = {BuiltinOptions2_StablehloRngBitGeneratorOptions,
                 CreateStablehloRngBitGeneratorOptions(b.fbb(), RngAlgorithm_THREEFRY).Union()};
  b.AddOperator(op);
  b.SetInputs({in});
  b.SetOutputs({new_state, out});
  LoadedModel m(b.Finish());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  const std::vector<uint64_t> state = {Pack(0x13198a2e, 0x03707344), Pack(0x243f6a88, 0x85a308d3)};
  m.SetInput<uint64_t>(0, state);
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
  std::vector<uint32_t> want;
  std::vector<uint64_t> want_state;
  Expected(kTfLiteRngAlgorithmThreefry, state, 3, &want, &want_state);
  EXPECT_EQ(want[0], 0xc4923a9cu);  // the known answer starts the stream
  EXPECT_EQ(m.Output<uint32_t>(1), want);
  EXPECT_EQ(m.Output<uint64_t>(0), want_state);
}

TEST(StablehloRngBitGenerator, RejectsBadInputsAndOptions) {
  struct Case {
    TfLiteRngAlgorithm algorithm = kTfLiteRngAlgorithmPhilox;
    TfLiteType state_type = kTfLiteUInt64, new_state_type = kTfLiteUInt64;
    TfLiteType out_type = kTfLiteUInt32;
    std::vector<int> state_shape = {2}, new_state_shape = {2}, out_shape = {4};
    bool params = true;
    int inputs = 1;
    const char* message = "";
  };
  std::vector<Case> cases(12);
  cases[0].state_type = kTfLiteInt64;
  cases[0].message = "initial_state must be UINT64, got INT64";
  cases[1].state_shape = {1, 2};
  cases[1].new_state_shape = {1, 2};
  cases[1].message = "initial_state must be 1-D, has rank 2";
  cases[2].algorithm = kTfLiteRngAlgorithmThreefry;
  cases[2].state_shape = cases[2].new_state_shape = {3};
  cases[2].message = "THREEFRY needs an initial_state of 2 values, got 3";
  cases[3].state_shape = cases[3].new_state_shape = {4};
  cases[3].message = "PHILOX needs an initial_state of 2 or 3 values, got 4";
  cases[4].algorithm = kTfLiteRngAlgorithmDefault;
  cases[4].state_shape = cases[4].new_state_shape = {1};
  cases[4].message = "PHILOX needs an initial_state of 2 or 3 values, got 1";
  cases[5].algorithm = kTfLiteRngAlgorithmUnknown;
  cases[5].message = "unknown algorithm 0";
  cases[6].new_state_type = kTfLiteInt64;
  cases[6].message = "output_state must be UINT64, got INT64";
  cases[7].new_state_shape = {3};
  cases[7].message = "output_state must have the shape of initial_state [2]";
  cases[8].out_type = kTfLiteFloat32;
  cases[8].message = "output must be INT32, INT64, UINT32 or UINT64, got FLOAT32";
  cases[9].params = false;
  cases[9].message = "builtin options are missing";
  cases[10].inputs = 2;
  cases[10].message = "STABLEHLO_RNG_BIT_GENERATOR:";
  cases[11].state_shape = cases[11].new_state_shape = {0};
  cases[11].message = "PHILOX needs an initial_state of 2 or 3 values, got 0";
  for (const Case& c : cases) {
    OpModel m;
    for (int i = 0; i < c.inputs; ++i) m.AddInput({c.state_type, c.state_shape});
    m.AddOutput({c.new_state_type, c.new_state_shape});
    m.AddOutput({c.out_type, c.out_shape});
    TfLiteStablehloRngBitGeneratorParams params{};
    params.algorithm = c.algorithm;
    if (c.params) {
      m.SetBuiltinOp(kTfLiteBuiltinStablehloRngBitGenerator, Register_STABLEHLO_RNG_BIT_GENERATOR(),
                     params);
    } else {
      m.SetBuiltinOp(kTfLiteBuiltinStablehloRngBitGenerator,
                     Register_STABLEHLO_RNG_BIT_GENERATOR());
    }
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << c.message << " vs " << m.error();
  }
}

}  // namespace
}  // namespace octet::stablehlo_test
