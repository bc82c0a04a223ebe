// fuse-activation: a RELU-family op after a producer that can clamp goes into the producer;
// the outputs stay identical (float and int8), and what must not be fused is not.
#include <random>

#include "converter_test_util.h"
#include "format/model_builder.h"

namespace octet::testing {
namespace {

using format::ModelBuilder;

std::vector<float> RandomFloats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// input [1,5,5,3] -> CONV_2D 3x3 (4 filters) -> activation -> output; `extra_reader` makes
// the conv's result also a graph output, which forbids the fusion.
Bytes ConvThenActivation(tflite::BuiltinOperator activation, bool extra_reader) {
  ModelBuilder b;
  const int conv = b.AddOperatorCode(tflite::BuiltinOperator_CONV_2D);
  const int act = b.AddOperatorCode(activation);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 5, 5, 3}, "in");
  const int w =
      b.AddConstTensor(tflite::TensorType_FLOAT32, {4, 3, 3, 3}, RandomFloats(108, 1), "w");
  const int bias = b.AddConstTensor(tflite::TensorType_FLOAT32, {4}, RandomFloats(4, 2), "b");
  const int mid = b.AddTensor(tflite::TensorType_FLOAT32, {1, 5, 5, 4}, "mid");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 5, 5, 4}, "out");
  b.AddOperator(conv, {in, w, bias}, {mid}, b.Conv2DOptions(tflite::Padding_SAME, 1, 1));
  b.AddOperator(act, {mid}, {out});
  b.SetInputs({in});
  b.SetOutputs(extra_reader ? std::vector<int32_t>{out, mid} : std::vector<int32_t>{out});
  return b.Finish();
}

TEST(FuseActivation, FloatConvPlusEachActivationIsOneOpWithIdenticalOutputs) {
  for (auto act : {tflite::BuiltinOperator_RELU, tflite::BuiltinOperator_RELU6,
                   tflite::BuiltinOperator_RELU_N1_TO_1}) {
    const Bytes model = ConvThenActivation(act, false);
    const Rewritten fused = ApplyPasses(model, {"fuse-activation"});
    EXPECT_EQ(fused.ops, 1u) << tflite::EnumNameBuiltinOperator(act);
    EXPECT_EQ(Changes(fused), 1u);
    ExpectSameOutputs(model, fused.model);
  }
}

TEST(FuseActivation, NotWhenTheProducersResultIsAlsoRead) {
  const Bytes model = ConvThenActivation(tflite::BuiltinOperator_RELU, true);
  const Rewritten fused = ApplyPasses(model, {"fuse-activation"});
  EXPECT_EQ(fused.ops, 2u);
  EXPECT_EQ(Changes(fused), 0u);
  ExpectSameOutputs(model, fused.model);
}

// int8 ADD -> RELU6: exact when the RELU6 keeps the ADD's parameters; a RELU6 that
// requantizes (other output scale) stays a separate op.
Bytes Int8AddRelu6(float relu_out_scale) {
  ModelBuilder b;
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  const int relu = b.AddOperatorCode(tflite::BuiltinOperator_RELU6);
  const int x = b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 16}, "x", {0.05f}, {3});
  const int y = b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 16}, "y", {0.04f}, {-7});
  const int sum = b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 16}, "sum", {0.06f}, {-20});
  const int out =
      b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 16}, "out", {relu_out_scale}, {-20});
  b.AddOperator(add, {x, y}, {sum}, b.AddOptions());
  b.AddOperator(relu, {sum}, {out});
  b.SetInputs({x, y});
  b.SetOutputs({out});
  return b.Finish();
}

TEST(FuseActivation, Int8AddRelu6IsBitExact) {
  const Bytes model = Int8AddRelu6(0.06f);
  const Rewritten fused = ApplyPasses(model, {"fuse-activation"});
  EXPECT_EQ(fused.ops, 1u);
  for (uint32_t seed = 1; seed <= 5; ++seed) ExpectSameOutputs(model, fused.model, seed);
}

TEST(FuseActivation, NotWhenTheActivationRequantizes) {
  const Bytes model = Int8AddRelu6(0.03f);
  const Rewritten fused = ApplyPasses(model, {"fuse-activation"});
  EXPECT_EQ(fused.ops, 2u);
  ExpectSameOutputs(model, fused.model);
}

}  // namespace
}  // namespace octet::testing
