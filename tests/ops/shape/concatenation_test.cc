#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "octet/kernel_info.h"
#include "ops/shape/shape_ops.h"
#include "ops/shape/shape_test_util.h"
#include "util/kernel_paths.h"

namespace octet::shape_test {
namespace {

TfLiteRegistration* Reg() { return tflite::ops::builtin::Register_CONCATENATION(); }

TfLiteConcatenationParams Params(int axis, TfLiteFusedActivation act = kTfLiteActNone) {
  TfLiteConcatenationParams p{};
  p.axis = axis;
  p.activation = act;
  return p;
}

// Naive concatenation of 3-D float tensors along dim 1.
std::vector<float> NaiveConcatDim1(const std::vector<std::vector<float>>& in,
                                   const std::vector<int>& mids, int outer, int inner) {
  int total = 0;
  for (int m : mids) total += m;
  std::vector<float> out(outer * total * inner);
  for (int o = 0; o < outer; ++o) {
    int base = 0;
    for (size_t t = 0; t < in.size(); ++t) {
      for (int j = 0; j < mids[t]; ++j)
        for (int k = 0; k < inner; ++k)
          out[(o * total + base + j) * inner + k] = in[t][(o * mids[t] + j) * inner + k];
      base += mids[t];
    }
  }
  return out;
}

TEST(Shape_Concatenation, MiddleAxisNegative) {
  OpModel m;
  const std::vector<int> mids = {1, 2, 3};
  std::vector<int> ids;
  std::vector<std::vector<float>> data;
  for (int t = 0; t < 3; ++t) {
    ids.push_back(m.AddInput({kTfLiteFloat32, {2, mids[t], 3}}));
    data.push_back(Iota<float>(2 * mids[t] * 3, 100.f * t));
  }
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConcatenation, Reg(), Params(-2));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  for (int t = 0; t < 3; ++t) m.SetInput(ids[t], data[t]);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{2, 6, 3}));
  EXPECT_EQ(m.GetOutput<float>(out), NaiveConcatDim1(data, mids, 2, 3));
}

TEST(Shape_Concatenation, FloatRelu6) {
  OpModel m;
  const int a = m.AddInput({kTfLiteFloat32, {3}});
  const int b = m.AddInput({kTfLiteFloat32, {2}});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConcatenation, Reg(), Params(0, kTfLiteActRelu6));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(a, {-1.f, 2.5f, 7.f});
  m.SetInput<float>(b, {6.f, 0.f});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetOutput<float>(out), (std::vector<float>{0.f, 2.5f, 6.f, 6.f, 0.f}));
}

TEST(Shape_Concatenation, BoolAndScalars) {
  OpModel m;
  const int a = m.AddInput({kTfLiteBool, {}});
  const int b = m.AddInput({kTfLiteBool, {}});
  const int out = m.AddOutput({kTfLiteBool, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConcatenation, Reg(), Params(0));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<uint8_t>(a, {1});
  m.SetInput<uint8_t>(b, {0});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{2}));
  EXPECT_EQ(m.GetOutput<uint8_t>(out), (std::vector<uint8_t>{1, 0}));
}

TEST(Shape_Concatenation, Uint8Requantizes) {
  OpModel m;
  // Input 0 has the output's quantization (copied); input 1 is rescaled:
  // real = 0.5 * (q - 10), q_out = round(real / 1.0) + 3.
  const int a = m.AddInput({kTfLiteUInt8, {2}, {1.f}, {3}});
  const int b = m.AddInput({kTfLiteUInt8, {3}, {0.5f}, {10}});
  const int out = m.AddOutput({kTfLiteUInt8, {}, {1.f}, {3}});
  m.SetBuiltinOp(kTfLiteBuiltinConcatenation, Reg(), Params(0));
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<uint8_t>(a, {7, 250});
  m.SetInput<uint8_t>(b, {0, 15, 255});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  // 0 -> -5 + 3 = -2 -> clamps to 0; 15 -> 2.5 rounds to 3 (+3 = 6); 255 -> 122.5 -> 123 + 3.
  EXPECT_EQ(m.GetOutput<uint8_t>(out), (std::vector<uint8_t>{7, 250, 0, 6, 126}));
}

// The byte-table path (every optimized path) against the reference-pinned registration:
// random uint8 concatenations along each axis, some inputs with the output's quantization and
// some rescaled (scale ratios above and below 1, zero points at both ends, the SSD shape).
TEST(Shape_Concatenation, Uint8TablesMatchTheReferenceOnEveryPath) {
  std::mt19937 rng(31);
  struct Case {
    std::vector<std::vector<int>> shapes;
    int axis;
  };
  const Case cases[] = {{{{1, 6, 91}, {1, 5, 91}, {1, 1, 91}}, 1},
                        {{{2, 3, 4}, {2, 3, 7}}, 2},
                        {{{3, 2}, {1, 2}, {4, 2}, {2, 2}}, 0},
                        {{{1, 19, 19, 12}, {1, 19, 19, 3}}, -1}};
  for (const Case& c : cases) {
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<float> scales;
      std::vector<int> zps;
      for (size_t i = 0; i <= c.shapes.size(); ++i) {  // the last is the output's
        scales.push_back(0.005f + static_cast<float>(rng() % 1000) * 1e-4f);
        zps.push_back(trial % 4 == 0 ? 0 : trial % 4 == 1 ? 255 : static_cast<int>(rng() % 256));
      }
      if (trial % 2) {  // input 0 shares the output's quantization: its table is an identity
        scales[0] = scales.back();
        zps[0] = zps.back();
      }
      std::vector<std::vector<uint8_t>> data;
      for (const auto& shape : c.shapes) {
        size_t n = 1;
        for (int d : shape) n *= static_cast<size_t>(d);
        std::vector<uint8_t> v(n);
        for (uint8_t& x : v) x = static_cast<uint8_t>(rng());
        data.push_back(v);
      }
      auto run = [&](TfLiteRegistration* reg, std::string* kernel) {
        OpModel m;
        std::vector<int> ins;
        for (size_t i = 0; i < c.shapes.size(); ++i) {
          ins.push_back(m.AddInput({kTfLiteUInt8, c.shapes[i], {scales[i]}, {zps[i]}}));
        }
        const int out = m.AddOutput({kTfLiteUInt8, {}, {scales.back()}, {zps.back()}});
        m.SetBuiltinOp(kTfLiteBuiltinConcatenation, reg, Params(c.axis));
        EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
        for (size_t i = 0; i < ins.size(); ++i) m.SetInput<uint8_t>(ins[i], data[i]);
        EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
        *kernel = GetNodeKernelName(m.interpreter()->primary_subgraph(), 0);
        return m.GetOutput<uint8_t>(out);
      };
      std::string kernel;
      const auto want = run(tflite::ops::builtin::Register_CONCATENATION_REF(), &kernel);
      for (cpu::Isa isa : octet::testing::OptimizedPaths()) {
        octet::testing::IsaScope scope(isa);
        ASSERT_TRUE(scope.ok);
        EXPECT_EQ(run(Reg(), &kernel), want) << cpu::IsaName(isa) << " axis " << c.axis;
        EXPECT_EQ(kernel, "byte_table");
      }
    }
  }
}

TEST(Shape_Concatenation, ErrorDimMismatch) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2, 3}});
  m.AddInput({kTfLiteFloat32, {3, 3}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConcatenation, Reg(), Params(1));
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("CONCATENATION: input 1 dim 0 is 3, input 0 has 2"), std::string::npos)
      << m.error();
}

TEST(Shape_Concatenation, ErrorAxisOutOfRange) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2, 3}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConcatenation, Reg(), Params(2));
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("CONCATENATION: axis 2 out of range for rank 2"), std::string::npos)
      << m.error();
}

TEST(Shape_Concatenation, ErrorInt8QuantizationDiffers) {
  OpModel m;
  m.AddInput({kTfLiteInt8, {2}, {0.5f}, {0}});
  m.AddInput({kTfLiteInt8, {2}, {0.25f}, {0}});
  m.AddOutput({kTfLiteInt8, {}, {0.5f}, {0}});
  m.SetBuiltinOp(kTfLiteBuiltinConcatenation, Reg(), Params(0));
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("CONCATENATION: int8 input 1 quantization"), std::string::npos)
      << m.error();
}

TEST(Shape_Concatenation, ErrorActivationOnInt32) {
  OpModel m;
  m.AddInput({kTfLiteInt32, {2}});
  m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinConcatenation, Reg(), Params(0, kTfLiteActRelu));
  EXPECT_NE(m.Build(), kTfLiteOk);
  EXPECT_NE(m.error().find("CONCATENATION: fused activation is only supported for float32"),
            std::string::npos)
      << m.error();
}

}  // namespace
}  // namespace octet::shape_test
