// STABLEHLO_CASE over models built in code: the StableHLO spec's example (index -1 selects
// the last branch), branches that compute from the op's arguments (checked against a loop),
// branches whose output shapes differ (the output is sized at each invoke), and validation of
// the index, the options and the branches' signatures.
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

void AddCase(ModelBuilder& b, int code, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
             const std::vector<int32_t>& branches) {
  OperatorSpec op;
  op.opcode_index = code;
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  op.options2 = {BuiltinOptions2_StablehloCaseOptions,
                 CreateStablehloCaseOptionsDirect(b.fbb(), &branches).Union()};
  b.AddOperator(op);
}

// The spec's example: two branches without arguments, returning [0, 0] twice and [1, 1]
// twice.
std::vector<uint8_t> SpecModel() {
  ModelBuilder b;
  const int code = b.AddOperatorCode(BuiltinOperator_STABLEHLO_CASE);
  const int add = b.AddOperatorCode(BuiltinOperator_STABLEHLO_ADD);
  const int index = b.AddTensor(TensorType_INT32, {}, "index");
  const int r0 = b.AddTensor(TensorType_INT64, {2}, "r0");
  const int r1 = b.AddTensor(TensorType_INT64, {2}, "r1");
  AddCase(b, code, {index}, {r0, r1}, {1, 2});
  b.SetInputs({index});
  b.SetOutputs({r0, r1});
  for (int64_t k = 0; k < 2; ++k) {
    b.AddSubgraph("branch" + std::to_string(k));
    const int c = b.AddConstTensor<int64_t>(TensorType_INT64, {2}, {k, k}, "c");
    const int zero = b.AddConstTensor<int64_t>(TensorType_INT64, {2}, {0, 0}, "zero");
    const int y = b.AddTensor(TensorType_INT64, {2}, "y");
    b.AddOperator(add, {c, zero}, {y});
    b.SetInputs({});
    b.SetOutputs({y, y});
  }
  return b.Finish();
}

TEST(StablehloCase, SpecExampleAndOutOfRangeIndices) {
  LoadedModel m(SpecModel());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  // index -> branch: in range as given, anything else the last one.
  const std::vector<std::pair<int32_t, int64_t>> cases = {
      {-1, 1}, {0, 0}, {1, 1}, {2, 1}, {INT32_MIN, 1}, {INT32_MAX, 1}, {0, 0}};
  for (const auto& [index, branch] : cases) {
    m.SetInput<int32_t>(0, {index});
    ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
    EXPECT_EQ(m.Output<int64_t>(0), (std::vector<int64_t>{branch, branch})) << index;
    EXPECT_EQ(m.Output<int64_t>(1), (std::vector<int64_t>{branch, branch})) << index;
  }
}

// main: y = CASE(index, x, s) with branch k computing x + s (k = 0), x * s (k = 1) and
// max(x, s) (k = 2), all float [2, 3].
std::vector<uint8_t> ArgumentModel() {
  ModelBuilder b;
  const int code = b.AddOperatorCode(BuiltinOperator_STABLEHLO_CASE);
  const int ops[] = {b.AddOperatorCode(BuiltinOperator_STABLEHLO_ADD),
                     b.AddOperatorCode(BuiltinOperator_STABLEHLO_MULTIPLY),
                     b.AddOperatorCode(BuiltinOperator_STABLEHLO_MAXIMUM)};
  const int index = b.AddTensor(TensorType_INT32, {1}, "index");
  const int x = b.AddTensor(TensorType_FLOAT32, {2, 3}, "x");
  const int s = b.AddTensor(TensorType_FLOAT32, {2, 3}, "s");
  const int y = b.AddTensor(TensorType_FLOAT32, {2, 3}, "y");
  AddCase(b, code, {index, x, s}, {y}, {1, 2, 3});
  b.SetInputs({index, x, s});
  b.SetOutputs({y});
  for (int k = 0; k < 3; ++k) {
    b.AddSubgraph();
    const int bx = b.AddTensor(TensorType_FLOAT32, {2, 3}, "bx");
    const int bs = b.AddTensor(TensorType_FLOAT32, {2, 3}, "bs");
    const int by = b.AddTensor(TensorType_FLOAT32, {2, 3}, "by");
    b.AddOperator(ops[k], {bx, bs}, {by});
    b.SetInputs({bx, bs});
    b.SetOutputs({by});
  }
  return b.Finish();
}

TEST(StablehloCase, BranchesComputeFromTheArguments) {
  LoadedModel m(ArgumentModel());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  const std::vector<float> x = {1.5f, -2.f, 3.f, 0.25f, -7.f, 8.f};
  const std::vector<float> s = {2.f, 4.f, -1.f, 0.5f, -3.f, 9.f};
  for (int32_t index : {0, 1, 2, 3, -5}) {
    m.SetInput<int32_t>(0, {index});
    m.SetInput(1, x);
    m.SetInput(2, s);
    ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
    const int branch = (index >= 0 && index < 3) ? index : 2;
    std::vector<float> want(6);
    for (int i = 0; i < 6; ++i) {
      want[i] = branch == 0 ? x[i] + s[i] : branch == 1 ? x[i] * s[i] : (x[i] < s[i] ? s[i] : x[i]);
    }
    EXPECT_EQ(m.Output<float>(0), want) << index;
  }
}

// Branch 0 returns x [3] unchanged (through an add of zeros), branch 1 pads it to [5].
std::vector<uint8_t> ShapeChangingModel() {
  ModelBuilder b;
  const int code = b.AddOperatorCode(BuiltinOperator_STABLEHLO_CASE);
  const int add = b.AddOperatorCode(BuiltinOperator_STABLEHLO_ADD);
  const int pad = b.AddOperatorCode(BuiltinOperator_STABLEHLO_PAD);
  const int index = b.AddTensor(TensorType_INT32, {}, "index");
  const int x = b.AddTensor(TensorType_FLOAT32, {3}, "x");
  const int y = b.AddTensor(TensorType_FLOAT32, {3}, "y");
  AddCase(b, code, {index, x}, {y}, {1, 2});
  b.SetInputs({index, x});
  b.SetOutputs({y});
  b.AddSubgraph("same");
  int bx = b.AddTensor(TensorType_FLOAT32, {3}, "bx");
  const int zeros = b.AddConstTensor<float>(TensorType_FLOAT32, {3}, {0, 0, 0}, "zeros");
  int by = b.AddTensor(TensorType_FLOAT32, {3}, "by");
  b.AddOperator(add, {bx, zeros}, {by});
  b.SetInputs({bx});
  b.SetOutputs({by});
  b.AddSubgraph("padded");
  bx = b.AddTensor(TensorType_FLOAT32, {3}, "bx");
  const int value = b.AddConstTensor<float>(TensorType_FLOAT32, {}, {-1.f}, "value");
  by = b.AddTensor(TensorType_FLOAT32, {5}, "by");
  const std::vector<int64_t> low = {1}, high = {1}, interior = {0};
  OperatorSpec op;
  op.opcode_index = pad;
  op.inputs = {bx, value};
  op.outputs = {by};
  op.options2 = {BuiltinOptions2_StablehloPadOptions,
                 CreateStablehloPadOptionsDirect(b.fbb(), &low, &high, &interior).Union()};
  b.AddOperator(op);
  b.SetInputs({bx});
  b.SetOutputs({by});
  return b.Finish();
}

TEST(StablehloCase, BranchesWithDifferentOutputShapes) {
  LoadedModel m(ShapeChangingModel());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  for (int32_t index : {1, 0, 1}) {
    m.SetInput<int32_t>(0, {index});
    m.SetInput<float>(1, {4.f, 5.f, 6.f});
    ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
    if (index == 0) {
      EXPECT_EQ(m.OutputShape(0), (std::vector<int>{3}));
      EXPECT_EQ(m.Output<float>(0), (std::vector<float>{4.f, 5.f, 6.f}));
    } else {
      EXPECT_EQ(m.OutputShape(0), (std::vector<int>{5}));
      EXPECT_EQ(m.Output<float>(0), (std::vector<float>{-1.f, 4.f, 5.f, 6.f, -1.f}));
    }
  }
}

// One CASE whose pieces can each be broken: main (index, x float [2]) -> y float [2], with
// branches 1 and 2 each computing bx + bx.
struct Broken {
  TensorType index_type = TensorType_INT32;
  std::vector<int32_t> index_shape = {};
  std::vector<int32_t> branches = {1, 2};
  TensorType branch2_in = TensorType_FLOAT32;
  TensorType branch2_out = TensorType_FLOAT32;
  bool branch2_two_inputs = false;
  bool branch2_two_outputs = false;
  const char* message = "";
};

std::vector<uint8_t> BrokenModel(const Broken& c) {
  ModelBuilder b;
  const int code = b.AddOperatorCode(BuiltinOperator_STABLEHLO_CASE);
  const int add = b.AddOperatorCode(BuiltinOperator_STABLEHLO_ADD);
  const int index = b.AddTensor(c.index_type, c.index_shape, "index");
  const int x = b.AddTensor(TensorType_FLOAT32, {2}, "x");
  const int y = b.AddTensor(TensorType_FLOAT32, {2}, "y");
  AddCase(b, code, {index, x}, {y}, c.branches);
  b.SetInputs({index, x});
  b.SetOutputs({y});
  for (int k = 1; k <= 2; ++k) {
    b.AddSubgraph();
    const TensorType in = k == 2 ? c.branch2_in : TensorType_FLOAT32;
    const TensorType out = k == 2 ? c.branch2_out : TensorType_FLOAT32;
    const int bx = b.AddTensor(in, {2}, "bx");
    const int by = b.AddTensor(out, {2}, "by");
    b.AddOperator(add, {bx, bx}, {by});
    std::vector<int32_t> inputs = {bx}, outputs = {by};
    if (k == 2 && c.branch2_two_inputs) inputs.push_back(b.AddTensor(in, {2}, "extra"));
    if (k == 2 && c.branch2_two_outputs) outputs.push_back(bx);
    b.SetInputs(inputs);
    b.SetOutputs(outputs);
  }
  return b.Finish();
}

TEST(StablehloCase, RejectsBadIndexOptionsAndBranches) {
  std::vector<Broken> cases(9);
  cases[0].index_type = TensorType_FLOAT32;
  cases[0].message = "STABLEHLO_CASE: index must be a single INT32, got FLOAT32 with 1 elements";
  cases[1].index_shape = {2};
  cases[1].message = "STABLEHLO_CASE: index must be a single INT32, got INT32 with 2 elements";
  cases[2].branches = {};
  cases[2].message = "STABLEHLO_CASE: needs 1 to 20 branches, got 0";
  cases[3].branches = {1, 7};
  cases[3].message = "branch_subgraph_indices entry 7 does not name a subgraph of this model";
  cases[4].branches = {0, 1};
  cases[4].message = "branch_subgraph_indices entry 0 is the calling subgraph itself";
  cases[5].branch2_in = cases[5].branch2_out = TensorType_INT32;
  cases[5].message = "STABLEHLO_CASE: argument 0 is FLOAT32, subgraph 2 takes INT32";
  cases[6].branch2_two_inputs = true;
  cases[6].message = "STABLEHLO_CASE: subgraph 2 takes 2 inputs, the op passes 1";
  cases[7].branch2_two_outputs = true;
  cases[7].message = "STABLEHLO_CASE: subgraph 2 yields 2 outputs, the op has 1";
  cases[8].branches = {1, -3};
  cases[8].message = "branch_subgraph_indices entry -3 does not name a subgraph";
  for (const Broken& c : cases) {
    LoadedModel m(BrokenModel(c));
    ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
    EXPECT_NE(m.interpreter->AllocateTensors(), kTfLiteOk) << c.message;
    EXPECT_NE(m.reporter.text.find(c.message), std::string::npos) << c.message << "\nvs\n"
                                                                  << m.reporter.text;
  }
}

TEST(StablehloCase, RejectsABranchYieldingTheWrongType) {
  // The only branch takes the float argument but yields an INT32 computed from constants.
  ModelBuilder b;
  const int code = b.AddOperatorCode(BuiltinOperator_STABLEHLO_CASE);
  const int add = b.AddOperatorCode(BuiltinOperator_STABLEHLO_ADD);
  const int index = b.AddTensor(TensorType_INT32, {}, "index");
  const int x = b.AddTensor(TensorType_FLOAT32, {2}, "x");
  const int y = b.AddTensor(TensorType_FLOAT32, {2}, "y");
  AddCase(b, code, {index, x}, {y}, {1});
  b.SetInputs({index, x});
  b.SetOutputs({y});
  b.AddSubgraph();
  const int bx = b.AddTensor(TensorType_FLOAT32, {2}, "bx");
  const int c = b.AddConstTensor<int32_t>(TensorType_INT32, {2}, {1, 2}, "c");
  const int by = b.AddTensor(TensorType_INT32, {2}, "by");
  b.AddOperator(add, {c, c}, {by});
  b.SetInputs({bx});
  b.SetOutputs({by});
  LoadedModel m(b.Finish());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  EXPECT_NE(m.interpreter->AllocateTensors(), kTfLiteOk);
  EXPECT_NE(m.reporter.text.find("STABLEHLO_CASE: output 0 is FLOAT32, subgraph 1 yields INT32"),
            std::string::npos)
      << m.reporter.text;
}

}  // namespace
}  // namespace octet::stablehlo_test
