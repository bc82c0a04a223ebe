// GELU, ELU and RELU_0_TO_1 against formulas evaluated in double in the test, quantized
// paths against dequantize -> formula -> requantize worked out here (or by hand).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/test_util.h"

namespace octet::elementwise_test {
namespace {

namespace builtin = tflite::ops::builtin;
using octet::testing::Near;

// 1 + erf(x / sqrt(2)) as erfc(-x / sqrt(2)): exact in the far negative tail too.
double GeluExact(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }
double GeluTanh(double x) {
  const double k = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}
double EluRef(double x) { return x < 0 ? std::exp(x) - 1.0 : x; }

std::vector<float> Spread(int n, float lo, float hi) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = lo + (hi - lo) * static_cast<float>(i) / (n - 1);
  return v;
}

struct Result {
  TfLiteStatus build = kTfLiteError, invoke = kTfLiteError;
  std::string error;
  std::vector<int> shape;
};

// One-input activation; T is the element type of input and output.
template <typename T, typename Params>
Result RunAct(int code, TfLiteRegistration *reg, const TensorSpec &in_spec,
              const TensorSpec &out_spec, const std::vector<T> &in, const Params *params,
              std::vector<T> *out) {
  OpModel m;
  const int i = m.AddInput(in_spec);
  const int o = m.AddOutput(out_spec);
  if (params != nullptr) {
    m.SetBuiltinOp(code, reg, *params);
  } else {
    m.SetBuiltinOp(code, reg);
  }
  Result r;
  r.build = m.Build();
  r.error = m.error();
  if (r.build != kTfLiteOk) return r;
  m.SetInput(i, in);
  r.invoke = m.Invoke();
  r.error = m.error();
  r.shape = m.GetShape(o);
  if (out != nullptr) *out = m.GetOutput<T>(o);
  return r;
}

const int *kNoParams = nullptr;

TEST(Elementwise_Gelu, FloatExactAndApproximate) {
  const std::vector<float> in = Spread(41, -6.0f, 6.0f);
  for (bool approximate : {false, true}) {
    TfLiteGeluParams p{};
    p.approximate = approximate;
    std::vector<float> out;
    auto r = RunAct<float>(kTfLiteBuiltinGelu, builtin::Register_GELU(), {kTfLiteFloat32, {41}},
                           {kTfLiteFloat32, {}}, in, &p, &out);
    ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
    EXPECT_EQ(r.shape, std::vector<int>({41}));
    for (size_t k = 0; k < in.size(); ++k) {
      const double want = approximate ? GeluTanh(in[k]) : GeluExact(in[k]);
      EXPECT_TRUE(Near(out[k], static_cast<float>(want), 1e-6f, 1e-5f))
          << "x=" << in[k] << " approximate=" << approximate << " got " << out[k];
    }
  }
  // Far in the negative tail the exact form is a tiny negative number, not a cancelled 0.
  TfLiteGeluParams p{};
  std::vector<float> out;
  RunAct<float>(kTfLiteBuiltinGelu, builtin::Register_GELU(), {kTfLiteFloat32, {1}},
                {kTfLiteFloat32, {}}, std::vector<float>{-8.0f}, &p, &out);
  EXPECT_LT(out[0], 0.0f);
  EXPECT_TRUE(Near(out[0], static_cast<float>(GeluExact(-8.0)), 1e-20f, 1e-3f));
}

// Every int8 / uint8 input value through the table against the formula in double.
template <typename T>
void CheckQuantizedTable(int code, TfLiteRegistration *reg, TfLiteType type, const void *params,
                         double (*f)(double), float si, int zi, float so, int zo) {
  std::vector<T> in;
  for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
    in.push_back(static_cast<T>(v));
  }
  const int n = static_cast<int>(in.size());
  std::vector<T> out;
  Result r;
  if (params != nullptr) {
    r = RunAct<T>(code, reg, {type, {n}, {si}, {zi}}, {type, {}, {so}, {zo}}, in,
                  static_cast<const TfLiteGeluParams *>(params), &out);
  } else {
    r = RunAct<T>(code, reg, {type, {n}, {si}, {zi}}, {type, {}, {so}, {zo}}, in, kNoParams, &out);
  }
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  for (int k = 0; k < n; ++k) {
    const double y = f(si * (static_cast<int>(in[k]) - zi));
    const double q = std::clamp<double>(std::round(y / so) + zo, std::numeric_limits<T>::min(),
                                        std::numeric_limits<T>::max());
    EXPECT_NEAR(static_cast<int>(out[k]), q, 1.0) << "q_in=" << static_cast<int>(in[k]);
  }
}

TEST(Elementwise_Gelu, QuantizedLookupTable) {
  TfLiteGeluParams exact{}, approx{};
  approx.approximate = true;
  CheckQuantizedTable<int8_t>(kTfLiteBuiltinGelu, builtin::Register_GELU(), kTfLiteInt8, &exact,
                              GeluExact, 0.05f, -3, 0.03f, -60);
  CheckQuantizedTable<int8_t>(kTfLiteBuiltinGelu, builtin::Register_GELU(), kTfLiteInt8, &approx,
                              GeluTanh, 0.05f, -3, 0.03f, -60);
  CheckQuantizedTable<uint8_t>(kTfLiteBuiltinGelu, builtin::Register_GELU(), kTfLiteUInt8, &exact,
                               GeluExact, 0.04f, 128, 0.025f, 20);
}

TEST(Elementwise_Gelu, RefusesBadTypesAndMissingOptions) {
  TfLiteGeluParams p{};
  auto r = RunAct<int16_t>(kTfLiteBuiltinGelu, builtin::Register_GELU(),
                           {kTfLiteInt16, {4}, {0.1f}, {0}}, {kTfLiteInt16, {}, {0.1f}, {0}},
                           std::vector<int16_t>(4), &p, nullptr);
  EXPECT_NE(r.build, kTfLiteOk);
  EXPECT_NE(r.error.find("GELU: input type INT16 is not supported"), std::string::npos) << r.error;
  r = RunAct<float>(kTfLiteBuiltinGelu, builtin::Register_GELU(), {kTfLiteFloat32, {4}},
                    {kTfLiteFloat32, {}}, std::vector<float>(4), kNoParams, nullptr);
  EXPECT_NE(r.build, kTfLiteOk);
  EXPECT_NE(r.error.find("GELU: builtin options are missing"), std::string::npos) << r.error;
  r = RunAct<float>(kTfLiteBuiltinGelu, builtin::Register_GELU(), {kTfLiteFloat32, {4}},
                    {kTfLiteInt32, {}}, std::vector<float>(4), &p, nullptr);
  EXPECT_NE(r.build, kTfLiteOk);
  EXPECT_NE(r.error.find("GELU: output type"), std::string::npos) << r.error;
}

TEST(Elementwise_Gelu, RefusesInt8WithoutValidQuantization) {
  TfLiteGeluParams p{};
  auto r =
      RunAct<int8_t>(kTfLiteBuiltinGelu, builtin::Register_GELU(), {kTfLiteInt8, {4}, {0.1f}, {0}},
                     {kTfLiteInt8, {}, {0.0f}, {0}}, std::vector<int8_t>(4), &p, nullptr);
  EXPECT_NE(r.build, kTfLiteOk);
  EXPECT_NE(r.error.find("GELU: "), std::string::npos) << r.error;
  r = RunAct<int8_t>(kTfLiteBuiltinGelu, builtin::Register_GELU(), {kTfLiteInt8, {4}},
                     {kTfLiteInt8, {}, {0.1f}, {0}}, std::vector<int8_t>(4), &p, nullptr);
  EXPECT_NE(r.build, kTfLiteOk);
  EXPECT_NE(r.error.find("GELU: "), std::string::npos) << r.error;
}

TEST(Elementwise_Elu, FloatAndInt8) {
  const std::vector<float> in = {-5.0f, -1.0f, -0.25f, 0.0f, 0.5f, 3.0f};
  std::vector<float> out;
  auto r = RunAct<float>(kTfLiteBuiltinElu, builtin::Register_ELU(), {kTfLiteFloat32, {2, 3}},
                         {kTfLiteFloat32, {}}, in, kNoParams, &out);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.shape, std::vector<int>({2, 3}));
  EXPECT_TRUE(Near(out[1], -0.63212055882f));  // e^-1 - 1
  for (size_t k = 0; k < in.size(); ++k) {
    EXPECT_TRUE(Near(out[k], static_cast<float>(EluRef(in[k])), 1e-6f, 1e-6f)) << in[k];
  }
  CheckQuantizedTable<int8_t>(kTfLiteBuiltinElu, builtin::Register_ELU(), kTfLiteInt8, nullptr,
                              EluRef, 0.04f, 10, 0.02f, 0);
}

TEST(Elementwise_Elu, RefusesUint8) {
  auto r = RunAct<uint8_t>(kTfLiteBuiltinElu, builtin::Register_ELU(),
                           {kTfLiteUInt8, {4}, {0.1f}, {128}}, {kTfLiteUInt8, {}, {0.1f}, {128}},
                           std::vector<uint8_t>(4), kNoParams, nullptr);
  EXPECT_NE(r.build, kTfLiteOk);
  EXPECT_NE(r.error.find("ELU: input type UINT8 is not supported"), std::string::npos) << r.error;
}

TEST(Elementwise_Relu0To1, FloatClamps) {
  const std::vector<float> in = {-2.0f, -0.0f, 0.25f, 0.999f, 1.0f, 7.5f};
  std::vector<float> out;
  auto r = RunAct<float>(kTfLiteBuiltinRelu0To1, builtin::Register_RELU_0_TO_1(),
                         {kTfLiteFloat32, {6}}, {kTfLiteFloat32, {}}, in, kNoParams, &out);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(out, std::vector<float>({0.0f, 0.0f, 0.25f, 0.999f, 1.0f, 1.0f}));
}

TEST(Elementwise_Relu0To1, QuantizedHandWorked) {
  // int8 in: scale 0.05 zp 0; out: scale 0.01 zp -128, so 0 -> -128 and 1 -> -28.
  const std::vector<int8_t> in = {-20, 0, 10, 19, 20, 40};  // -1, 0, 0.5, 0.95, 1, 2
  std::vector<int8_t> out;
  auto r = RunAct<int8_t>(kTfLiteBuiltinRelu0To1, builtin::Register_RELU_0_TO_1(),
                          {kTfLiteInt8, {6}, {0.05f}, {0}}, {kTfLiteInt8, {}, {0.01f}, {-128}}, in,
                          kNoParams, &out);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(out, std::vector<int8_t>({-128, -128, -78, -33, -28, -28}));
  // uint8 in: scale 0.1 zp 100; out: scale 1/255 zp 0, so 1 -> 255.
  const std::vector<uint8_t> uin = {0, 100, 102, 104, 111, 255};  // -10, 0, 0.2, 0.4, 1.1, 15.5
  std::vector<uint8_t> uout;
  r = RunAct<uint8_t>(kTfLiteBuiltinRelu0To1, builtin::Register_RELU_0_TO_1(),
                      {kTfLiteUInt8, {6}, {0.1f}, {100}}, {kTfLiteUInt8, {}, {1.0f / 255}, {0}},
                      uin, kNoParams, &uout);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(uout, std::vector<uint8_t>({0, 0, 51, 102, 255, 255}));
}

TEST(Elementwise_Relu0To1, RefusesInt32) {
  auto r =
      RunAct<int32_t>(kTfLiteBuiltinRelu0To1, builtin::Register_RELU_0_TO_1(), {kTfLiteInt32, {2}},
                      {kTfLiteInt32, {}}, std::vector<int32_t>(2), kNoParams, nullptr);
  EXPECT_NE(r.build, kTfLiteOk);
  EXPECT_NE(r.error.find("RELU_0_TO_1: input type INT32 is not supported"), std::string::npos)
      << r.error;
}

}  // namespace
}  // namespace octet::elementwise_test
