// STABLEHLO_COMPOSITE over models built in code: the decomposition subgraph computes
// a * b + a with STABLEHLO_MULTIPLY and STABLEHLO_ADD (checked against a loop, across
// invokes and an input resize); validation of the decomposition index (missing, the caller
// itself, a cycle back to the caller) and of its signature.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format/model_builder.h"
#include "subgraph_test_util.h"

namespace octet::stablehlo_test {
namespace {

using format::ModelBuilder;
using format::OperatorSpec;
using namespace tflite;  // NOLINT: schema names

void AddComposite(ModelBuilder& b, int code, std::vector<int32_t> inputs,
                  std::vector<int32_t> outputs, int decomposition) {
  OperatorSpec op;
  op.opcode_index = code;
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  const std::vector<uint8_t> attributes = {0x01, 0x02};
  op.options2 = {
      BuiltinOptions2_StableHLOCompositeOptions,
      CreateStableHLOCompositeOptionsDirect(b.fbb(), "test.mul_add", decomposition, &attributes,
                                            CustomOptionsFormat_FLEXBUFFERS, 1)
          .Union()};
  b.AddOperator(op);
}

struct Variant {
  int decomposition = 1;
  int inputs = 2;  // how many of a, b the op passes
  TensorType b_type = TensorType_FLOAT32;
  bool call_back = false;  // the decomposition itself holds a composite calling subgraph 0
  const char* message = "";
};

// main: y = COMPOSITE(a, b) over float [2, 3]; subgraph 1: y = a * b + a.
std::vector<uint8_t> Model(const Variant& v) {
  ModelBuilder b;
  const int code = b.AddOperatorCode(BuiltinOperator_STABLEHLO_COMPOSITE);
  const int mul = b.AddOperatorCode(BuiltinOperator_STABLEHLO_MULTIPLY);
  const int add = b.AddOperatorCode(BuiltinOperator_STABLEHLO_ADD);
  const int a = b.AddTensor(TensorType_FLOAT32, {2, 3}, "a");
  const int bb = b.AddTensor(TensorType_FLOAT32, {2, 3}, "b");
  const int y = b.AddTensor(TensorType_FLOAT32, {2, 3}, "y");
  std::vector<int32_t> args = {a, bb};
  args.resize(v.inputs);
  AddComposite(b, code, args, {y}, v.decomposition);
  b.SetInputs({a, bb});
  b.SetOutputs({y});
  b.AddSubgraph("decomposition");
  const int da = b.AddTensor(TensorType_FLOAT32, {2, 3}, "da");
  const int db = b.AddTensor(v.b_type, {2, 3}, "db");
  const int prod = b.AddTensor(TensorType_FLOAT32, {2, 3}, "prod");
  const int dy = b.AddTensor(TensorType_FLOAT32, {2, 3}, "dy");
  if (v.call_back) {
    AddComposite(b, code, {da, db}, {dy}, 0);
  } else {
    b.AddOperator(mul, {da, db}, {prod});
    b.AddOperator(add, {prod, da}, {dy});
  }
  b.SetInputs({da, db});
  b.SetOutputs({dy});
  return b.Finish();
}

TEST(StablehloComposite, RunsTheDecomposition) {
  LoadedModel m(Model({}));
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  for (int round = 0; round < 3; ++round) {
    std::vector<float> a(6), b(6), want(6);
    for (int i = 0; i < 6; ++i) {
      a[i] = 0.5f * i - 1.f + round;
      b[i] = 3.f - i * 0.75f;
      want[i] = a[i] * b[i] + a[i];
    }
    m.SetInput(0, a);
    m.SetInput(1, b);
    ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
    EXPECT_EQ(m.Output<float>(0), want);
  }
}

TEST(StablehloComposite, FollowsAnInputResize) {
  LoadedModel m(Model({}));
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->ResizeInputTensor(0, {4}), kTfLiteOk);
  ASSERT_EQ(m.interpreter->ResizeInputTensor(1, {4}), kTfLiteOk);
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  m.SetInput<float>(0, {1, 2, 3, 4});
  m.SetInput<float>(1, {10, 20, 30, 40});
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
  EXPECT_EQ(m.OutputShape(0), (std::vector<int>{4}));
  EXPECT_EQ(m.Output<float>(0), (std::vector<float>{11, 42, 93, 164}));
}

TEST(StablehloComposite, RejectsBadDecompositions) {
  std::vector<Variant> cases(6);
  cases[0].decomposition = 5;
  cases[0].message =
      "STABLEHLO_COMPOSITE: decomposition_subgraph_index 5 does not name a subgraph of this model";
  cases[1].decomposition = 0;
  cases[1].message = "STABLEHLO_COMPOSITE: decomposition_subgraph_index 0 is the calling subgraph";
  cases[2].inputs = 1;
  cases[2].message = "STABLEHLO_COMPOSITE: subgraph 1 takes 2 inputs, the op passes 1";
  cases[3].inputs = 0;
  cases[3].message = "STABLEHLO_COMPOSITE: needs at least one input";
  cases[4].b_type = TensorType_INT32;
  cases[4].message = "STABLEHLO_COMPOSITE: argument 1 is FLOAT32, subgraph 1 takes INT32";
  cases[5].call_back = true;
  cases[5].message = "recursive";
  for (const Variant& v : cases) {
    LoadedModel m(Model(v));
    ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
    EXPECT_NE(m.interpreter->AllocateTensors(), kTfLiteOk) << v.message;
    EXPECT_NE(m.reporter.text.find(v.message), std::string::npos) << v.message << "\nvs\n"
                                                                  << m.reporter.text;
  }
}

}  // namespace
}  // namespace octet::stablehlo_test
