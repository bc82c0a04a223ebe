// Residual ADDs fused into the CONV_2D before them (core/residual_fusion.h): graphs with a
// residual connection run on every kernel path this CPU has, against the same graph with the
// ADD pinned to its reference kernel (which is never fused), bit for bit; the ADD is skipped
// only where every condition holds, and the planner keeps the ADD's output apart from what
// the convolution reads.
#include "core/residual_fusion.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "octet/kernel_info.h"
#include "ops/elementwise/elementwise_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/fake_graph.h"
#include "util/kernel_paths.h"

namespace octet {
namespace {

namespace fb = tflite;

enum class Shape {
  kResidual,      // x -> A -> a -> B -> b; y = ADD(b, x); C(y) -> out: fusable
  kSecondReader,  // b is also a graph output: not fusable
  kLateResidual,  // y = ADD(b, d), d = D(a) made after B and also an output: not fusable
  kBroadcast,     // y = ADD(b, bias vector): shapes differ, not fusable
};

struct Case {
  Shape shape = Shape::kResidual;
  int h = 9, w = 7, c = 5;
  fb::ActivationFunctionType conv_act = fb::ActivationFunctionType_NONE;
  fb::ActivationFunctionType add_act = fb::ActivationFunctionType_RELU;
  bool residual_first = false;  // ADD(x, b) instead of ADD(b, x)
  int b_kernel = 3;             // B's filter size (1: a pointwise convolution, dense rows)
};

std::vector<uint8_t> BuildModel(const Case& k) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  auto values = [&](size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = u(rng);
    return v;
  };
  format::ModelBuilder b;
  const int conv = b.AddOperatorCode(fb::BuiltinOperator_CONV_2D);
  const int add = b.AddOperatorCode(fb::BuiltinOperator_ADD);
  const std::vector<int32_t> image = {1, k.h, k.w, k.c};
  auto conv_node = [&](int in, int out, int kernel, fb::ActivationFunctionType act) {
    const int w = b.AddConstTensor(fb::TensorType_FLOAT32, {k.c, kernel, kernel, k.c},
                                   values(static_cast<size_t>(k.c) * kernel * kernel * k.c));
    const int bias = b.AddConstTensor(fb::TensorType_FLOAT32, {k.c}, values(k.c));
    b.AddOperator(conv, {in, w, bias}, {out}, b.Conv2DOptions(fb::Padding_SAME, 1, 1, act));
  };
  const int x = b.AddTensor(fb::TensorType_FLOAT32, image, "x");
  const int a = b.AddTensor(fb::TensorType_FLOAT32, image, "a");
  const int bt = b.AddTensor(fb::TensorType_FLOAT32, image, "b");
  const int y = b.AddTensor(fb::TensorType_FLOAT32, image, "y");
  const int out = b.AddTensor(fb::TensorType_FLOAT32, image, "out");
  conv_node(x, a, 3, fb::ActivationFunctionType_RELU);
  conv_node(a, bt, k.b_kernel, k.conv_act);
  int residual = x;
  if (k.shape == Shape::kLateResidual) {
    residual = b.AddTensor(fb::TensorType_FLOAT32, image, "d");
    conv_node(a, residual, 1, fb::ActivationFunctionType_NONE);
  } else if (k.shape == Shape::kBroadcast) {
    residual = b.AddConstTensor(fb::TensorType_FLOAT32, {k.c}, values(k.c));
  }
  b.AddOperator(
      add,
      k.residual_first ? std::vector<int32_t>{residual, bt} : std::vector<int32_t>{bt, residual},
      {y}, b.AddOptions(k.add_act));
  conv_node(y, out, 1, fb::ActivationFunctionType_NONE);
  b.SetInputs({x});
  std::vector<int32_t> outputs = {out};
  if (k.shape == Shape::kSecondReader) outputs.push_back(bt);
  if (k.shape == Shape::kLateResidual) outputs.push_back(residual);  // D has a second reader
  b.SetOutputs(outputs);
  return b.Finish();
}

struct Outputs {
  std::vector<float> out;
  std::string add_kernel;
};

// Runs the model on a random input; `reference_add` pins the ADD to its reference kernel.
Outputs RunModel(const std::vector<uint8_t>& bytes, bool reference_add, int threads) {
  Outputs r;
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size());
  EXPECT_NE(model, nullptr);
  if (!model) return r;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  if (reference_add) {
    resolver.AddBuiltin(fb::BuiltinOperator_ADD, tflite::ops::builtin::Register_ADD_REF(), 1, 5);
  }
  std::unique_ptr<tflite::Interpreter> interpreter;
  tflite::InterpreterBuilder(*model, resolver)(&interpreter, threads);
  EXPECT_NE(interpreter, nullptr);
  if (!interpreter || interpreter->AllocateTensors() != kTfLiteOk) {
    ADD_FAILURE() << "AllocateTensors failed";
    return r;
  }
  TfLiteTensor* in = interpreter->input_tensor(0);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (size_t i = 0; i < in->bytes / sizeof(float); ++i) in->data.f[i] = u(rng);
  // Twice: the second run must not see anything the first left behind.
  for (int repeat = 0; repeat < 2; ++repeat) {
    if (interpreter->Invoke() != kTfLiteOk) {
      ADD_FAILURE() << "Invoke failed";
      return r;
    }
  }
  const TfLiteTensor* out = interpreter->output_tensor(0);
  r.out.assign(out->data.f, out->data.f + out->bytes / sizeof(float));
  const auto& subgraph = interpreter->primary_subgraph();
  for (size_t i = 0; i < subgraph.nodes_size(); ++i) {
    if (subgraph.node_and_registration(static_cast<int>(i))->second.builtin_code ==
        kTfLiteBuiltinAdd) {
      r.add_kernel = GetNodeKernelName(subgraph, static_cast<int>(i));
    }
  }
  return r;
}

void ExpectSameBits(const Outputs& fused, const Outputs& unfused, const std::string& label) {
  ASSERT_EQ(fused.out.size(), unfused.out.size()) << label;
  ASSERT_FALSE(fused.out.empty()) << label;
  for (size_t i = 0; i < fused.out.size(); ++i) {
    ASSERT_EQ(std::memcmp(&fused.out[i], &unfused.out[i], sizeof(float)), 0)
        << label << ": output " << i << " fused " << fused.out[i] << " unfused " << unfused.out[i];
  }
}

TEST(ResidualFusion, FusedAddGivesTheUnfusedBitsOnEveryPath) {
  const fb::ActivationFunctionType acts[] = {fb::ActivationFunctionType_NONE,
                                             fb::ActivationFunctionType_RELU,
                                             fb::ActivationFunctionType_RELU6};
  for (cpu::Isa isa : testing::OptimizedPaths()) {
    testing::IsaScope scope(isa);
    ASSERT_TRUE(scope.ok);
    int i = 0;
    for (int c : {1, 5, 16, 37}) {
      for (fb::ActivationFunctionType conv_act : acts) {
        Case k;
        k.c = c;
        k.h = 4 + c % 7;
        k.w = 3 + c % 5;
        k.conv_act = conv_act;
        k.add_act = acts[i % 3];
        k.residual_first = i % 2 == 1;
        k.b_kernel = i % 4 < 2 ? 3 : 1;
        ++i;
        const auto bytes = BuildModel(k);
        for (int threads : {1, 2}) {
          const std::string label = std::string(cpu::IsaName(isa)) + " channels " +
                                    std::to_string(c) + " threads " + std::to_string(threads);
          const Outputs fused = RunModel(bytes, false, threads);
          const Outputs unfused = RunModel(bytes, true, threads);
          EXPECT_EQ(fused.add_kernel, "fused_into_conv") << label;
          EXPECT_EQ(unfused.add_kernel, "reference") << label;
          ExpectSameBits(fused, unfused, label);
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(ResidualFusion, OnlyWhereEveryConditionHolds) {
  for (Shape shape : {Shape::kSecondReader, Shape::kLateResidual, Shape::kBroadcast}) {
    Case k;
    k.shape = shape;
    const auto bytes = BuildModel(k);
    const Outputs optimized = RunModel(bytes, false, 1);
    const Outputs unfused = RunModel(bytes, true, 1);
    const std::string label = "shape " + std::to_string(static_cast<int>(shape));
    EXPECT_NE(optimized.add_kernel, "fused_into_conv") << label;
    ExpectSameBits(optimized, unfused, label);
  }
  // On the reference path nothing is optimized, so nothing is fused.
  testing::IsaScope scope(cpu::Isa::kReference);
  ASSERT_TRUE(scope.ok);
  EXPECT_EQ(RunModel(BuildModel(Case{}), false, 1).add_kernel, "reference");
}

// The ADD's output lives from its producer on: the planner never gives it the bytes of a
// tensor the producer reads (its input dies there and would otherwise be free after it).
class FusedGraph : public testing::FakeGraph {
 public:
  using FakeGraph::FakeGraph;
  int fused_output(size_t plan_index) const override { return plan_index == 1 ? 3 : -1; }
};

TEST(ResidualFusion, ThePlannerStartsTheFusedOutputAtItsProducer) {
  // x(0) -> A -> a(1) -> B -> b(2); y(3) = ADD(b, x) with B computing it; C(y) -> out(4).
  FusedGraph g({256, 256, 256, 256, 256});
  g.inputs_ = {0};
  g.outputs_ = {4};
  g.AddNode({0}, {1});
  g.AddNode({1}, {2});
  g.AddNode({2, 0}, {3});
  g.AddNode({3}, {4});
  const auto life = ComputeLifetimes(g);
  EXPECT_EQ(life[3].first, 1);
  EXPECT_EQ(life[3].last, 3);
  ArenaPlanner planner;
  ASSERT_TRUE(planner.Plan(g, 4, nullptr));
  const char* y = static_cast<const char*>(g.tensor(3)->data.raw);
  const char* a = static_cast<const char*>(g.tensor(1)->data.raw);
  EXPECT_TRUE(y + 256 <= a || a + 256 <= y) << "y shares a's bytes";
}

}  // namespace
}  // namespace octet
