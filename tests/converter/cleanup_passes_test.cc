// remove-identity, dedupe-constants, remove-dead, and the model round trip itself.
#include <random>

#include "converter_test_util.h"
#include "format/model_builder.h"

namespace octet::testing {
namespace {

using format::ModelBuilder;

TEST(RemoveIdentity, ReshapeToItsOwnShapeAndReshapeChains) {
  ModelBuilder b;
  const int reshape = b.AddOperatorCode(tflite::BuiltinOperator_RESHAPE);
  const int relu = b.AddOperatorCode(tflite::BuiltinOperator_RELU);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {2, 6}, "in");
  const int same = b.AddTensor(tflite::TensorType_FLOAT32, {2, 6}, "same");
  const int a = b.AddTensor(tflite::TensorType_FLOAT32, {3, 4}, "a");
  const int c = b.AddTensor(tflite::TensorType_FLOAT32, {12}, "c");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {12}, "out");
  b.AddOperator(reshape, {in}, {same}, b.ReshapeOptions({2, 6}));
  b.AddOperator(reshape, {same}, {a}, b.ReshapeOptions({3, 4}));
  b.AddOperator(reshape, {a}, {c}, b.ReshapeOptions({12}));
  b.AddOperator(relu, {c}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  const Bytes model = b.Finish();
  const Rewritten cleaned = ApplyPasses(model, {"remove-identity", "remove-dead"});
  EXPECT_EQ(cleaned.ops, 2u);  // one RESHAPE to [12], the RELU
  ExpectSameOutputs(model, cleaned.model);
}

TEST(RemoveIdentity, QuantizeDequantizeRoundTripAndSameParameterQuantize) {
  ModelBuilder b;
  const int deq = b.AddOperatorCode(tflite::BuiltinOperator_DEQUANTIZE);
  const int q = b.AddOperatorCode(tflite::BuiltinOperator_QUANTIZE);
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  const int in = b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 32}, "in", {0.1f}, {4});
  const int f = b.AddTensor(tflite::TensorType_FLOAT32, {1, 32}, "f");
  const int back = b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 32}, "back", {0.1f}, {4});
  const int again = b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 32}, "again", {0.1f}, {4});
  const int out = b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 32}, "out", {0.2f}, {0});
  b.AddOperator(deq, {in}, {f});
  b.AddOperator(q, {f}, {back});
  b.AddOperator(q, {back}, {again});
  b.AddOperator(add, {again, in}, {out}, b.AddOptions());
  b.SetInputs({in});
  b.SetOutputs({out});
  const Bytes model = b.Finish();
  const Rewritten cleaned = ApplyPasses(model, {"remove-identity", "remove-dead"});
  EXPECT_EQ(cleaned.ops, 1u);
  for (uint32_t seed = 1; seed <= 4; ++seed) ExpectSameOutputs(model, cleaned.model, seed);
}

TEST(RemoveIdentity, QuantizeToOtherParametersStays) {
  ModelBuilder b;
  const int q = b.AddOperatorCode(tflite::BuiltinOperator_QUANTIZE);
  const int in = b.AddQuantizedTensor(tflite::TensorType_INT8, {4}, "in", {0.1f}, {4});
  const int out = b.AddQuantizedTensor(tflite::TensorType_INT8, {4}, "out", {0.1f}, {5});
  b.AddOperator(q, {in}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  EXPECT_EQ(ApplyPasses(b.Finish(), {"remove-identity"}).ops, 1u);
}

TEST(DedupeConstants, IdenticalWeightsAreStoredOnce) {
  ModelBuilder b;
  const int fc = b.AddOperatorCode(tflite::BuiltinOperator_FULLY_CONNECTED);
  std::vector<float> w(64 * 64);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (float& v : w) v = dist(rng);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 64}, "in");
  const int w1 = b.AddConstTensor(tflite::TensorType_FLOAT32, {64, 64}, w, "w1");
  const int w2 = b.AddConstTensor(tflite::TensorType_FLOAT32, {64, 64}, w, "w2");
  const int mid = b.AddTensor(tflite::TensorType_FLOAT32, {1, 64}, "mid");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 64}, "out");
  b.AddOperator(fc, {in, w1, -1}, {mid}, b.FullyConnectedOptions());
  b.AddOperator(fc, {mid, w2, -1}, {out}, b.FullyConnectedOptions());
  b.SetInputs({in});
  b.SetOutputs({out});
  const Bytes model = b.Finish();
  const Rewritten deduped = ApplyPasses(model, {"dedupe-constants"});
  EXPECT_LT(deduped.model.size() + 64 * 64 * 4 - 1024, model.size());
  ExpectSameOutputs(model, deduped.model);
}

TEST(RemoveDead, OpsNothingReadsGoButStatefulOnesStay) {
  ModelBuilder b;
  const int relu = b.AddOperatorCode(tflite::BuiltinOperator_RELU);
  const int tanh = b.AddOperatorCode(tflite::BuiltinOperator_TANH);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {4}, "in");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {4}, "out");
  const int unused1 = b.AddTensor(tflite::TensorType_FLOAT32, {4}, "unused1");
  const int unused2 = b.AddTensor(tflite::TensorType_FLOAT32, {4}, "unused2");
  b.AddOperator(relu, {in}, {out});
  b.AddOperator(tanh, {in}, {unused1});
  b.AddOperator(relu, {unused1}, {unused2});
  b.SetInputs({in});
  b.SetOutputs({out});
  const Bytes model = b.Finish();
  const Rewritten cleaned = ApplyPasses(model, {"remove-dead"});
  EXPECT_EQ(cleaned.ops, 1u);
  ExpectSameOutputs(model, cleaned.model);
}

TEST(ModelIo, HostileBytesAreRefusedWithTheVerifiersReason) {
  std::string error;
  EXPECT_EQ(converter::UnpackModel({1, 2, 3, 4, 5, 6, 7, 8}, &error), nullptr);
  EXPECT_NE(error.find("not a valid model"), std::string::npos) << error;
  EXPECT_EQ(converter::ReadModelFile("/nonexistent/model.tflite", &error), nullptr);
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
}

TEST(PassManager, UnknownPassIsAnErrorNamingTheKnownOnes) {
  ModelBuilder b;
  const int relu = b.AddOperatorCode(tflite::BuiltinOperator_RELU);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {4}, "in");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {4}, "out");
  b.AddOperator(relu, {in}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  std::string error;
  converter::ModelPtr m = converter::UnpackModel(b.Finish(), &error);
  ASSERT_NE(m, nullptr) << error;
  std::vector<converter::PassReport> report;
  EXPECT_FALSE(converter::RunPasses(*m, {"no-such-pass"}, &report, &error));
  EXPECT_NE(error.find("unknown pass 'no-such-pass'"), std::string::npos) << error;
  EXPECT_NE(error.find("fuse-activation"), std::string::npos) << error;
}

}  // namespace
}  // namespace octet::testing
