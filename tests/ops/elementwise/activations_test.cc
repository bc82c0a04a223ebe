// Activation kernels against formulas evaluated independently in double / by
// hand (LOGISTIC and TANH on every kernel path).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/reference/activations.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/test_util.h"
#include "util/kernel_paths.h"

namespace octet::elementwise_test {
namespace {

namespace builtin = tflite::ops::builtin;
using octet::testing::Near;

std::vector<float> Inputs() {
  auto v = Ramp(60, -20, 20, 21);
  v.insert(v.end(), {-9.5f, -9.f, -3.f, -1.f, 0.f, 1.f, 3.f, 6.f, 16.6f, 16.7f, 30.f});
  return v;
}

// Every path: the reference loops, and each optimized path's vector kernel (funary).
std::vector<cpu::Isa> AllPaths() {
  std::vector<cpu::Isa> paths = octet::testing::OptimizedPaths();
  paths.push_back(cpu::Isa::kReference);
  return paths;
}

TEST(Elementwise_Logistic, MatchesSigmoid) {
  const auto in = Inputs();
  for (cpu::Isa isa : AllPaths()) {
    SCOPED_TRACE(cpu::IsaName(isa));
    octet::testing::IsaScope scope(isa);
    auto r =
        RunUnary<float, float>(kTfLiteBuiltinLogistic, builtin::Register_LOGISTIC(), kTfLiteFloat32,
                               {static_cast<int>(in.size())}, in, kTfLiteFloat32);
    ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
    for (size_t i = 0; i < in.size(); ++i) {
      const double want = 1.0 / (1.0 + std::exp(-double(in[i])));
      EXPECT_TRUE(Near(r.values[i], static_cast<float>(want), 1e-6f, 1e-5f))
          << in[i] << " -> " << r.values[i];
    }
    // Above the upper cutoff TFLite's reference saturates to exactly 1.
    EXPECT_EQ(r.values[in.size() - 1], 1.0f);
  }
}

TEST(Elementwise_Tanh, MatchesTanh) {
  const auto in = Inputs();
  for (cpu::Isa isa : AllPaths()) {
    SCOPED_TRACE(cpu::IsaName(isa));
    octet::testing::IsaScope scope(isa);
    auto r = RunUnary<float, float>(kTfLiteBuiltinTanh, builtin::Register_TANH(), kTfLiteFloat32,
                                    {static_cast<int>(in.size())}, in, kTfLiteFloat32);
    ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
    for (size_t i = 0; i < in.size(); ++i) {
      EXPECT_TRUE(Near(r.values[i], static_cast<float>(std::tanh(double(in[i]))), 1e-6f, 1e-6f));
    }
  }
}

TEST(Elementwise_LogisticTanh, PinnedRegistrationsGiveTheReferenceBits) {
  const auto in = Inputs();
  for (cpu::Isa isa : AllPaths()) {
    SCOPED_TRACE(cpu::IsaName(isa));
    octet::testing::IsaScope scope(isa);
    const int n = static_cast<int>(in.size());
    auto sig = RunUnary<float, float>(kTfLiteBuiltinLogistic, builtin::Register_LOGISTIC_REF(),
                                      kTfLiteFloat32, {n}, in, kTfLiteFloat32);
    auto th = RunUnary<float, float>(kTfLiteBuiltinTanh, builtin::Register_TANH_REF(),
                                     kTfLiteFloat32, {n}, in, kTfLiteFloat32);
    ASSERT_EQ(sig.invoke, kTfLiteOk) << sig.error;
    ASSERT_EQ(th.invoke, kTfLiteOk) << th.error;
    for (size_t i = 0; i < in.size(); ++i) {
      EXPECT_EQ(sig.values[i], reference::Logistic(in[i])) << in[i];
      EXPECT_EQ(th.values[i], reference::Tanh(in[i])) << in[i];
    }
  }
}

TEST(Elementwise_Relu, Family) {
  const std::vector<float> in = {-7, -1.5f, -0.5f, 0, 0.5f, 1.5f, 5.9f, 7};
  const std::vector<int> shape = {2, 4};
  auto relu = RunUnary<float, float>(kTfLiteBuiltinRelu, builtin::Register_RELU(), kTfLiteFloat32,
                                     shape, in, kTfLiteFloat32);
  auto relu6 = RunUnary<float, float>(kTfLiteBuiltinRelu6, builtin::Register_RELU6(),
                                      kTfLiteFloat32, shape, in, kTfLiteFloat32);
  auto relu1 = RunUnary<float, float>(kTfLiteBuiltinReluN1To1, builtin::Register_RELU_N1_TO_1(),
                                      kTfLiteFloat32, shape, in, kTfLiteFloat32);
  ASSERT_EQ(relu.invoke, kTfLiteOk) << relu.error;
  ASSERT_EQ(relu6.invoke, kTfLiteOk) << relu6.error;
  ASSERT_EQ(relu1.invoke, kTfLiteOk) << relu1.error;
  EXPECT_EQ(relu.values, (std::vector<float>{0, 0, 0, 0, 0.5f, 1.5f, 5.9f, 7}));
  EXPECT_EQ(relu6.values, (std::vector<float>{0, 0, 0, 0, 0.5f, 1.5f, 5.9f, 6}));
  EXPECT_EQ(relu1.values, (std::vector<float>{-1, -1, -0.5f, 0, 0.5f, 1, 1, 1}));
}

TEST(Elementwise_LeakyRelu, Alpha) {
  const TfLiteLeakyReluParams params{0.2f};
  auto r = RunUnary<float, float>(kTfLiteBuiltinLeakyRelu, builtin::Register_LEAKY_RELU(),
                                  kTfLiteFloat32, {4}, std::vector<float>{-10, -1, 0, 3},
                                  kTfLiteFloat32, &params);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.values, (std::vector<float>{-10 * 0.2f, -0.2f, 0, 3}));
}

TEST(Elementwise_LeakyRelu, ErrorMissingParams) {
  auto r = RunUnary<float, float>(kTfLiteBuiltinLeakyRelu, builtin::Register_LEAKY_RELU(),
                                  kTfLiteFloat32, {1}, std::vector<float>{1}, kTfLiteFloat32);
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("LEAKY_RELU: missing parameters"), std::string::npos) << r.error;
}

TEST(Elementwise_HardSwish, MatchesFormula) {
  const auto in = Inputs();
  auto r =
      RunUnary<float, float>(kTfLiteBuiltinHardSwish, builtin::Register_HARD_SWISH(),
                             kTfLiteFloat32, {static_cast<int>(in.size())}, in, kTfLiteFloat32);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  for (size_t i = 0; i < in.size(); ++i) {
    const double x = in[i];
    const double want = x * std::min(6.0, std::max(0.0, x + 3)) / 6;
    EXPECT_TRUE(Near(r.values[i], static_cast<float>(want), 1e-6f, 1e-6f)) << x;
  }
}

TEST(Elementwise_Relu, ErrorQuantizedTypeNotSupported) {
  auto r = RunUnary<int8_t, int8_t>(kTfLiteBuiltinRelu, builtin::Register_RELU(), kTfLiteInt8, {1},
                                    std::vector<int8_t>{1}, kTfLiteInt8);
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("RELU: input '' (INT8) has no quantization parameters"), std::string::npos)
      << r.error;
}

TEST(Elementwise_Prelu, BroadcastAlphaPerChannel) {
  const std::vector<int> si = {1, 2, 2, 3}, sa = {1, 1, 3};
  const std::vector<float> in = {-1, 2, -3, 4, -5, 6, 0, -8, 9, -10, 11, -12};
  const std::vector<float> alpha = {0.5f, 0.25f, 2};
  auto r = RunBinary<float, float>(kTfLiteBuiltinPrelu, builtin::Register_PRELU(), kTfLiteFloat32,
                                   si, in, sa, alpha, kTfLiteFloat32);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.shape, si);
  EXPECT_EQ(r.values, (std::vector<float>{-0.5f, 2, -6, 4, -1.25f, 6, 0, -2, 9, -5, 11, -24}));
}

TEST(Elementwise_Prelu, ErrorAlphaShape) {
  auto r = RunBinary<float, float>(kTfLiteBuiltinPrelu, builtin::Register_PRELU(), kTfLiteFloat32,
                                   {2, 3}, {}, {2}, {}, kTfLiteFloat32);
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("PRELU: shapes [2,3] and [2] cannot be broadcast"), std::string::npos)
      << r.error;
}

}  // namespace
}  // namespace octet::elementwise_test
