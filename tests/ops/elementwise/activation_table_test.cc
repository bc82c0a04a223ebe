// 8-bit activations off the reference path run through a byte table filled in prepare: for
// every activation, int8 and uint8, random input scales and zero points, every input byte,
// the output equals the reference path's (TFLite Micro's arithmetic) byte for byte.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "ops/elementwise/elementwise_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/kernel_paths.h"
#include "util/op_model.h"

namespace {

namespace builtin = tflite::ops::builtin;
using octet::testing::IsaScope;
using octet::testing::OpModel;

struct ActCase {
  const char* name;
  int code;
  const TfLiteRegistration* (*registration)();
  bool fixed_output;  // LOGISTIC / TANH: output params fixed by the spec
  bool logistic;
};

const TfLiteRegistration* Logistic() { return builtin::Register_LOGISTIC(); }
const TfLiteRegistration* Tanh() { return builtin::Register_TANH(); }
const TfLiteRegistration* Relu() { return builtin::Register_RELU(); }
const TfLiteRegistration* Relu6() { return builtin::Register_RELU6(); }
const TfLiteRegistration* ReluN1To1() { return builtin::Register_RELU_N1_TO_1(); }
const TfLiteRegistration* LeakyRelu() { return builtin::Register_LEAKY_RELU(); }
const TfLiteRegistration* HardSwish() { return builtin::Register_HARD_SWISH(); }

const ActCase kCases[] = {
    {"LOGISTIC", kTfLiteBuiltinLogistic, Logistic, true, true},
    {"TANH", kTfLiteBuiltinTanh, Tanh, true, false},
    {"RELU", kTfLiteBuiltinRelu, Relu, false, false},
    {"RELU6", kTfLiteBuiltinRelu6, Relu6, false, false},
    {"RELU_N1_TO_1", kTfLiteBuiltinReluN1To1, ReluN1To1, false, false},
    {"LEAKY_RELU", kTfLiteBuiltinLeakyRelu, LeakyRelu, false, false},
    {"HARD_SWISH", kTfLiteBuiltinHardSwish, HardSwish, false, false},
};

template <typename T>
std::vector<T> Run(const ActCase& c, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                   std::string* error) {
  constexpr TfLiteType kType = std::is_same_v<T, int8_t> ? kTfLiteInt8 : kTfLiteUInt8;
  OpModel m;
  const int in = m.AddInput({kType, {256}, {in_scale}, {in_zp}});
  const int out = m.AddOutput({kType, {256}, {out_scale}, {out_zp}});
  if (c.code == kTfLiteBuiltinLeakyRelu) {
    TfLiteLeakyReluParams p{};
    p.alpha = 0.3f;
    m.SetBuiltinOp(c.code, c.registration(), p);
  } else {
    m.SetBuiltinOp(c.code, c.registration());
  }
  if (m.Build() != kTfLiteOk) {
    *error = m.error();
    return {};
  }
  std::vector<T> all;
  for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
    all.push_back(static_cast<T>(v));
  }
  m.SetInput<T>(in, all);
  if (m.Invoke() != kTfLiteOk) {
    *error = m.error();
    return {};
  }
  return m.GetOutput<T>(out);
}

template <typename T>
void ExpectTableEqualsReference(uint32_t seed) {
  const std::vector<octet::cpu::Isa> paths = octet::testing::OptimizedPaths();
  ASSERT_FALSE(paths.empty());
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> log_scale(-3.f, 0.f);
  constexpr bool kInt8 = std::is_same_v<T, int8_t>;
  int checked = 0;
  for (const ActCase& c : kCases) {
    for (int trial = 0; trial < 6; ++trial) {
      const float in_scale = std::pow(10.f, log_scale(rng));
      const int32_t in_zp = static_cast<int32_t>(rng() % 256) + (kInt8 ? -128 : 0);
      float out_scale = std::pow(10.f, log_scale(rng));
      int32_t out_zp = static_cast<int32_t>(rng() % 256) + (kInt8 ? -128 : 0);
      if (c.fixed_output) {
        out_scale = c.logistic ? 1.f / 256 : 1.f / 128;
        out_zp = c.logistic ? (kInt8 ? -128 : 0) : (kInt8 ? 0 : 128);
      }
      if (c.code == kTfLiteBuiltinHardSwish) out_scale = std::max(out_scale, in_scale);
      std::string error;
      std::vector<T> want;
      {
        IsaScope scope(octet::cpu::Isa::kReference);
        ASSERT_TRUE(scope.ok);
        want = Run<T>(c, in_scale, in_zp, out_scale, out_zp, &error);
      }
      if (want.empty()) continue;  // parameters the op refuses; not this test's subject
      for (octet::cpu::Isa isa : paths) {
        IsaScope scope(isa);
        const std::vector<T> got = Run<T>(c, in_scale, in_zp, out_scale, out_zp, &error);
        ASSERT_EQ(got, want) << c.name << " on " << octet::cpu::IsaName(isa) << " in " << in_scale
                             << "/" << in_zp << " out " << out_scale << "/" << out_zp << " "
                             << error;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 30);
}

TEST(Elementwise_ActivationTable, Int8EqualsReference) { ExpectTableEqualsReference<int8_t>(1); }

TEST(Elementwise_ActivationTable, UInt8EqualsReference) { ExpectTableEqualsReference<uint8_t>(2); }

}  // namespace
