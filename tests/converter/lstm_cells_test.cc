// lstm-cells: unrolled float LSTM cells over an UNPACK become one UNIDIRECTIONAL_SEQUENCE_LSTM.
// Truth is the unrolled graph itself, run op by op by the elementary kernels; the fused model
// runs Octet's LSTM kernel (tested against TFLite's outputs elsewhere), so agreement checks
// the weight split, gate order, bias sum, state wiring and the last-step slice.
#include <random>

#include "converter/graph.h"
#include "converter_test_util.h"
#include "format/model_builder.h"

namespace octet::testing {
namespace {

using format::BuiltOptions;
using format::ModelBuilder;
using tflite::BuiltinOperator;

constexpr int kBatch = 2, kSteps = 3, kInput = 5, kHidden = 4;

struct Variant {
  bool time_major = false;
  bool swapped = false;          // every commutative op with its operands the other way round
  bool both_biases = false;      // a bias on the recurrent FC too
  bool pack = true;              // the h's gathered into a sequence output
  bool last_h_output = true;     // the last h an output of its own
  bool relu_gate = false;        // near miss: RELU instead of the cell gate's TANH
  bool leak_cell_state = false;  // near miss: an intermediate c is an output
  bool nonzero_state = false;    // near miss: the first step starts from non-zero h
  bool other_weights = false;    // near miss: the last step has other recurrent weights
  // The first step as graph optimizers leave it from zero state: z = FC(x, W, b) alone, no
  // forget gate, c = i * g.
  bool folded_first_step = false;
};

std::vector<float> RandomFloats(std::mt19937& rng, size_t n, float scale) {
  std::uniform_real_distribution<float> dist(-scale, scale);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// The unrolled graph a converter writes for a Keras LSTM it does not fuse.
Bytes UnrolledLstm(const Variant& v) {
  ModelBuilder b;
  std::mt19937 rng(11);
  const auto f32 = tflite::TensorType_FLOAT32;
  const int x = b.AddTensor(f32,
                            v.time_major ? std::vector<int32_t>{kSteps, kBatch, kInput}
                                         : std::vector<int32_t>{kBatch, kSteps, kInput},
                            "x");
  const int w = b.AddConstTensor(f32, {4 * kHidden, kInput},
                                 RandomFloats(rng, 4 * kHidden * kInput, 0.6f), "W");
  const int r = b.AddConstTensor(f32, {4 * kHidden, kHidden},
                                 RandomFloats(rng, 4 * kHidden * kHidden, 0.6f), "R");
  const int r2 = b.AddConstTensor(f32, {4 * kHidden, kHidden},
                                  RandomFloats(rng, 4 * kHidden * kHidden, 0.6f), "R2");
  const int bias = b.AddConstTensor(f32, {4 * kHidden}, RandomFloats(rng, 4 * kHidden, 0.5f));
  const int bias2 = b.AddConstTensor(f32, {4 * kHidden}, RandomFloats(rng, 4 * kHidden, 0.5f));
  const int zeros = b.AddConstTensor(
      f32, {kBatch, kHidden}, std::vector<float>(kBatch * kHidden, v.nonzero_state ? 0.5f : 0.f));
  const int axis = b.AddConstTensor(tflite::TensorType_INT32, {}, std::vector<int32_t>{1});
  const auto op = [&](BuiltinOperator code, std::vector<int32_t> in, std::vector<int32_t> shape,
                      BuiltOptions options = {}) {
    const int out = b.AddTensor(f32, std::move(shape));
    b.AddOperator(b.AddOperatorCode(code), std::move(in), {out}, options);
    return out;
  };
  const auto ordered = [&](int a, int c) {
    return v.swapped ? std::vector<int32_t>{c, a} : std::vector<int32_t>{a, c};
  };
  std::vector<int32_t> steps;
  for (int t = 0; t < kSteps; ++t) steps.push_back(b.AddTensor(f32, {kBatch, kInput}));
  b.AddOperator(
      b.AddOperatorCode(tflite::BuiltinOperator_UNPACK), {x}, steps,
      BuiltOptions{tflite::BuiltinOptions_UnpackOptions,
                   tflite::CreateUnpackOptions(b.fbb(), kSteps, v.time_major ? 0 : 1).Union()});
  int h = zeros, c = zeros;
  std::vector<int32_t> hs, outputs;
  const std::vector<int32_t> gate_shape{kBatch, kHidden}, z_shape{kBatch, 4 * kHidden};
  for (int t = 0; t < kSteps; ++t) {
    const bool folded = v.folded_first_step && t == 0;
    const int zx = op(tflite::BuiltinOperator_FULLY_CONNECTED, {steps[t], w, bias}, z_shape,
                      b.FullyConnectedOptions());
    const int rec = v.other_weights && t == kSteps - 1 ? r2 : r;
    int z = zx;
    if (!folded) {
      const int zh = op(tflite::BuiltinOperator_FULLY_CONNECTED,
                        {h, rec, v.both_biases ? bias2 : -1}, z_shape, b.FullyConnectedOptions());
      z = op(tflite::BuiltinOperator_ADD, ordered(zx, zh), z_shape, b.AddOptions());
    }
    std::vector<int32_t> split;
    for (int k = 0; k < 4; ++k) split.push_back(b.AddTensor(f32, gate_shape));
    b.AddOperator(b.AddOperatorCode(tflite::BuiltinOperator_SPLIT), {axis, z}, split,
                  BuiltOptions{tflite::BuiltinOptions_SplitOptions,
                               tflite::CreateSplitOptions(b.fbb(), 4).Union()});
    const int i = op(tflite::BuiltinOperator_LOGISTIC, {split[0]}, gate_shape);
    const int f = folded ? -1 : op(tflite::BuiltinOperator_LOGISTIC, {split[1]}, gate_shape);
    const int g = op(v.relu_gate ? tflite::BuiltinOperator_RELU : tflite::BuiltinOperator_TANH,
                     {split[2]}, gate_shape);
    const int o = op(tflite::BuiltinOperator_LOGISTIC, {split[3]}, gate_shape);
    const int ig = op(tflite::BuiltinOperator_MUL, ordered(i, g), gate_shape, b.MulOptions());
    if (folded) {
      c = ig;
    } else {
      const int fc = op(tflite::BuiltinOperator_MUL, ordered(f, c), gate_shape, b.MulOptions());
      c = op(tflite::BuiltinOperator_ADD, ordered(fc, ig), gate_shape, b.AddOptions());
    }
    const int tc = op(tflite::BuiltinOperator_TANH, {c}, gate_shape);
    h = op(tflite::BuiltinOperator_MUL, ordered(o, tc), gate_shape, b.MulOptions());
    hs.push_back(h);
    if (v.leak_cell_state && t == 0) outputs.push_back(c);
  }
  if (v.pack) {
    const int seq = b.AddTensor(f32, v.time_major ? std::vector<int32_t>{kSteps, kBatch, kHidden}
                                                  : std::vector<int32_t>{kBatch, kSteps, kHidden});
    b.AddOperator(
        b.AddOperatorCode(tflite::BuiltinOperator_PACK), hs, {seq},
        BuiltOptions{tflite::BuiltinOptions_PackOptions,
                     tflite::CreatePackOptions(b.fbb(), kSteps, v.time_major ? 0 : 1).Union()});
    outputs.push_back(seq);
  }
  if (v.last_h_output) outputs.push_back(h);
  b.SetInputs({x});
  b.SetOutputs(outputs);
  return b.Finish();
}

size_t CountOf(const Bytes& model, BuiltinOperator code) {
  std::string error;
  converter::ModelPtr m = converter::UnpackModel(model, &error);
  size_t n = 0;
  for (const auto& g : m->subgraphs) {
    for (const auto& op : g->operators) {
      n += converter::OpCodeOf(*m, *op) == static_cast<octet::edit::BuiltinOperator>(code);
    }
  }
  return n;
}

void ExpectFused(const Variant& v, size_t ops_after, const char* what) {
  SCOPED_TRACE(what);
  const Bytes model = UnrolledLstm(v);
  const Rewritten fused = ApplyPasses(model, {"lstm-cells", "remove-dead"});
  EXPECT_EQ(CountOf(fused.model, tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM), 1u);
  EXPECT_EQ(fused.ops, ops_after);
  EXPECT_EQ(Changes(fused), 1u);
  for (uint32_t seed : {1u, 2u, 3u}) ExpectCloseOutputs(model, fused.model, 2e-6f, seed);
}

TEST(LstmCellsPass, BatchMajorSequenceAndFinalState) {
  ExpectFused({}, 2, "sequence and last h: LSTM + STRIDED_SLICE");
  Variant only_sequence;
  only_sequence.last_h_output = false;
  ExpectFused(only_sequence, 1, "sequence only: the PACK's tensor is the LSTM's output");
  Variant only_final;
  only_final.pack = false;
  ExpectFused(only_final, 2, "last h only");
}

TEST(LstmCellsPass, TimeMajorSwappedOperandsAndTwoBiases) {
  Variant v;
  v.time_major = true;
  v.swapped = true;
  v.both_biases = true;
  ExpectFused(v, 2, "time-major, operands swapped, both FCs biased");
  v.pack = false;
  ExpectFused(v, 2, "time-major, last h only");
}

// The zero initial state simplified away, as graph optimizers leave it: by fold-constants
// (FC(0, R) becomes a constant added to z) or with the first step reduced to c = i * g.
TEST(LstmCellsPass, FoldedFirstStep) {
  Variant v;
  v.both_biases = true;
  const Bytes model = UnrolledLstm(v);
  const Rewritten folded = ApplyPasses(model, {"fold-constants"});
  ASSERT_EQ(Changes(folded), 1u);
  const Rewritten fused = ApplyPasses(folded.model, {"lstm-cells", "remove-dead"});
  EXPECT_EQ(CountOf(fused.model, tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM), 1u);
  EXPECT_EQ(fused.ops, 2u);
  for (uint32_t seed : {1u, 2u}) ExpectCloseOutputs(model, fused.model, 2e-6f, seed);

  Variant reduced;
  reduced.folded_first_step = true;
  ExpectFused(reduced, 2, "first step without recurrent FC and forget gate");
  reduced.time_major = true;
  reduced.swapped = true;
  ExpectFused(reduced, 2, "the same, time-major and swapped");
}

TEST(LstmCellsPass, NearMissesStay) {
  const std::pair<const char*, Variant> misses[] = {
      {"RELU cell gate",
       [] {
         Variant v;
         v.relu_gate = true;
         return v;
       }()},
      {"intermediate c read outside",
       [] {
         Variant v;
         v.leak_cell_state = true;
         return v;
       }()},
      {"non-zero initial state",
       [] {
         Variant v;
         v.nonzero_state = true;
         return v;
       }()},
      {"weights differ between steps",
       [] {
         Variant v;
         v.other_weights = true;
         return v;
       }()},
  };
  for (const auto& [what, v] : misses) {
    SCOPED_TRACE(what);
    const Bytes model = UnrolledLstm(v);
    const Rewritten out = ApplyPasses(model, {"lstm-cells"});
    EXPECT_EQ(Changes(out), 0u);
    EXPECT_EQ(out.ops, CountOps(model));
  }
}

// The pass changes what happens on the second invoke (the fused op's state carries over), so
// it runs only when named; after ResetVariableTensors the fused model equals the unrolled one
// again.
TEST(LstmCellsPass, OnlyWhenNamedAndStateCarriesOver) {
  const Bytes model = UnrolledLstm({});
  EXPECT_EQ(
      CountOf(ApplyPasses(model, {}).model, tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM),
      0u);
  const Rewritten fused = ApplyPasses(model, {"lstm-cells"});
  auto flat = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(fused.model.data()), fused.model.size());
  ASSERT_NE(flat, nullptr);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  ASSERT_EQ(tflite::InterpreterBuilder(*flat, resolver)(&interpreter), kTfLiteOk);
  ASSERT_EQ(interpreter->AllocateTensors(), kTfLiteOk);
  const std::vector<Bytes> inputs = RandomInputs(model, 5);
  TfLiteTensor* in = interpreter->tensor(interpreter->inputs()[0]);
  ASSERT_EQ(in->bytes, inputs[0].size());
  const auto run = [&] {
    std::memcpy(in->data.raw, inputs[0].data(), in->bytes);
    EXPECT_EQ(interpreter->Invoke(), kTfLiteOk);
    const TfLiteTensor* out = interpreter->tensor(interpreter->outputs()[0]);
    return Bytes(out->data.raw, out->data.raw + out->bytes);
  };
  const Bytes first = run();
  EXPECT_NE(run(), first) << "the second invoke continues from the first one's state";
  ASSERT_EQ(interpreter->ResetVariableTensors(), kTfLiteOk);
  EXPECT_EQ(run(), first);
  const std::vector<Bytes> unrolled = RunModelBytes(model, inputs);
  const std::vector<float> want = AsFloats(unrolled[0]), got = AsFloats(first);
  ASSERT_EQ(want.size(), got.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 2e-6f) << i;
}

}  // namespace
}  // namespace octet::testing
