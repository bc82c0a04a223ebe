// Quantized elementwise kernels: against an independent double computation (dequantize,
// compute, requantize: within one quantization step), hand-worked exact values from the
// reference arithmetic, and the spec checks' one-line errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/test_util.h"
#include "util/kernel_paths.h"

namespace octet::elementwise_test {
namespace {

namespace builtin = tflite::ops::builtin;

struct Q {
  float scale;
  int zero_point;
};

template <typename T>
constexpr TfLiteType TypeOf() {
  if constexpr (std::is_same_v<T, int8_t>) return kTfLiteInt8;
  if constexpr (std::is_same_v<T, uint8_t>) return kTfLiteUInt8;
  return kTfLiteInt16;
}

template <typename T>
std::vector<T> AllValues(int step = 1) {
  std::vector<T> v;
  for (int x = std::numeric_limits<T>::min(); x <= std::numeric_limits<T>::max(); x += step) {
    v.push_back(static_cast<T>(x));
  }
  return v;
}

template <typename T>
double Real(T q, Q p) {
  return (static_cast<double>(q) - p.zero_point) * p.scale;
}

// |got - round(want / scale + zp)| <= tol steps, with want clamped to T's range.
template <typename T>
void ExpectWithinSteps(T got, double want, Q p, double lo, double hi, int tol,
                       const std::string &what) {
  double q = std::round(want / p.scale) + p.zero_point;
  q = std::min(std::max(q, std::max<double>(lo, std::numeric_limits<T>::min())),
               std::min<double>(hi, std::numeric_limits<T>::max()));
  EXPECT_LE(std::fabs(static_cast<double>(got) - q), tol) << what << " want " << want;
}

template <typename T, typename Params = int>
RunResult<T> RunQBinary(int code, const TfLiteRegistration *reg, Q q1, Q q2, Q qo,
                        const std::vector<int> &s1, const std::vector<T> &a,
                        const std::vector<int> &s2, const std::vector<T> &b,
                        const Params *params = nullptr) {
  RunResult<T> r;
  OpModel m;
  const TfLiteType t = TypeOf<T>();
  const int ia = m.AddInput({t, s1, {q1.scale}, {q1.zero_point}});
  const int ib = m.AddInput({t, s2, {q2.scale}, {q2.zero_point}});
  const int io = m.AddOutput({t, {}, {qo.scale}, {qo.zero_point}});
  if (params) {
    m.SetBuiltinOp(code, reg, *params);
  } else {
    m.SetBuiltinOp(code, reg);
  }
  r.build = m.Build();
  r.error = m.error();
  if (r.build != kTfLiteOk) return r;
  m.SetInput(ia, a);
  m.SetInput(ib, b);
  r.invoke = m.Invoke();
  if (r.invoke == kTfLiteOk) r.values = m.GetOutput<T>(io);
  r.error = m.error();
  return r;
}

template <typename In, typename Out = In, typename Params = int>
RunResult<Out> RunQUnary(int code, const TfLiteRegistration *reg, Q qi, Q qo,
                         const std::vector<In> &in, const Params *params = nullptr) {
  RunResult<Out> r;
  OpModel m;
  const int ii =
      m.AddInput({TypeOf<In>(), {static_cast<int>(in.size())}, {qi.scale}, {qi.zero_point}});
  const int io = m.AddOutput({TypeOf<Out>(), {}, {qo.scale}, {qo.zero_point}});
  if (params) {
    m.SetBuiltinOp(code, reg, *params);
  } else {
    m.SetBuiltinOp(code, reg);
  }
  r.build = m.Build();
  r.error = m.error();
  if (r.build != kTfLiteOk) return r;
  m.SetInput(ii, in);
  r.invoke = m.Invoke();
  if (r.invoke == kTfLiteOk) r.values = m.GetOutput<Out>(io);
  r.error = m.error();
  return r;
}

// ---- ADD / SUB / MUL

TEST(Quantized_Add, HandWorkedRoundingHalfAway) {
  // Scales 0.5, 0.5 -> 1.0: multipliers are exact powers of two, so the result is
  // round-half-away of the real sum: 3.5 -> 4, -3.5 -> -4, -0.5 -> -1.
  TfLiteAddParams p{};
  auto r = RunQBinary<int8_t>(kTfLiteBuiltinAdd, builtin::Register_ADD(), {0.5f, 0}, {0.5f, 0},
                              {1.0f, 0}, {3}, {3, -3, 3}, {3}, {4, -4, -4}, &p);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.values, (std::vector<int8_t>{4, -4, -1}));
}

template <typename T>
void CheckAddSub(bool sub, Q q1, Q q2, Q qo, TfLiteFusedActivation act) {
  const std::vector<T> all = AllValues<T>(std::is_same_v<T, int16_t> ? 97 : 1);
  std::vector<T> b(all.rbegin(), all.rend());
  for (size_t i = 0; i < b.size(); i += 3) b[i] = static_cast<T>(b[i] / 2);
  const int n = static_cast<int>(all.size());
  RunResult<T> r;
  if (sub) {
    TfLiteSubParams p{};
    p.activation = act;
    r = RunQBinary<T>(kTfLiteBuiltinSub, builtin::Register_SUB(), q1, q2, qo, {n}, all, {n}, b, &p);
  } else {
    TfLiteAddParams p{};
    p.activation = act;
    r = RunQBinary<T>(kTfLiteBuiltinAdd, builtin::Register_ADD(), q1, q2, qo, {n}, all, {n}, b, &p);
  }
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  const double lo = act == kTfLiteActRelu || act == kTfLiteActRelu6
                        ? std::round(0.0 / qo.scale) + qo.zero_point
                        : -1e30;
  const double hi = act == kTfLiteActRelu6 ? std::round(6.0 / qo.scale) + qo.zero_point : 1e30;
  for (int i = 0; i < n; ++i) {
    const double want = sub ? Real(all[i], q1) - Real(b[i], q2) : Real(all[i], q1) + Real(b[i], q2);
    ExpectWithinSteps(r.values[i], want, qo, lo, hi, 1, std::to_string(i));
  }
}

TEST(Quantized_Add, Int8UInt8Int16WithinOneStep) {
  CheckAddSub<int8_t>(false, {0.05f, -3}, {0.11f, 7}, {0.13f, 2}, kTfLiteActNone);
  CheckAddSub<int8_t>(false, {0.05f, -3}, {0.11f, 7}, {0.07f, -100}, kTfLiteActRelu6);
  CheckAddSub<uint8_t>(false, {0.02f, 128}, {0.03f, 100}, {0.04f, 120}, kTfLiteActRelu);
  CheckAddSub<int16_t>(false, {0.001f, 0}, {0.0007f, 0}, {0.0015f, 0}, kTfLiteActNone);
}

TEST(Quantized_Sub, Int8UInt8Int16WithinOneStep) {
  CheckAddSub<int8_t>(true, {0.05f, -3}, {0.11f, 7}, {0.13f, 2}, kTfLiteActNone);
  CheckAddSub<uint8_t>(true, {0.02f, 128}, {0.03f, 100}, {0.04f, 120}, kTfLiteActRelu);
  CheckAddSub<int16_t>(true, {0.001f, 0}, {0.0007f, 0}, {0.0015f, 0}, kTfLiteActNone);
}

TEST(Quantized_Add, Int16IgnoresPotScaleAsTfliteMicro) {
  // pot_scale_int16 with power-of-two scales 2^-10, 2^-12 -> 2^-10 still takes the general
  // path (TFLite Micro): multipliers 0.5, 0.125 and 2^-14 on values shifted left by 15.
  // 100 + 6/4: 1638400 + 24576 -> 831488 / 2^13 = 101.5 -> 102; 100 - 6/4: 98.5 -> 99
  // (TFLite's power-of-two path would give 98); 32767 + 1000 saturates.
  TfLiteAddParams p{};
  p.pot_scale_int16 = true;
  auto r = RunQBinary<int16_t>(kTfLiteBuiltinAdd, builtin::Register_ADD(), {1.0f / 1024, 0},
                               {1.0f / 4096, 0}, {1.0f / 1024, 0}, {3}, {100, 100, 32767}, {3},
                               {6, -6, 4000}, &p);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.values, (std::vector<int16_t>{102, 99, 32767}));
}

TEST(Quantized_Mul, Int8Int16WithinOneStepAndBroadcast) {
  const std::vector<int8_t> a = AllValues<int8_t>();
  const std::vector<int8_t> b = {-128, -7, 0, 5, 127};
  TfLiteMulParams p{};
  const Q q1{0.04f, 3}, q2{0.02f, -5}, qo{0.06f, -1};
  auto r = RunQBinary<int8_t>(kTfLiteBuiltinMul, builtin::Register_MUL(), q1, q2, qo, {256, 1}, a,
                              {1, 5}, b, &p);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  for (int i = 0; i < 256; ++i) {
    for (int j = 0; j < 5; ++j) {
      ExpectWithinSteps(r.values[i * 5 + j], Real(a[i], q1) * Real(b[j], q2), qo, -1e30, 1e30, 1,
                        "mul");
    }
  }
  // int16: 0.5 * 0.25 with scales 2^-14 -> 2^-14: 8192 * 4096 / 16384 = 2048 exactly.
  auto s = RunQBinary<int16_t>(kTfLiteBuiltinMul, builtin::Register_MUL(), {1.0f / 16384, 0},
                               {1.0f / 16384, 0}, {1.0f / 16384, 0}, {2},
                               std::vector<int16_t>{8192, -32768}, {2},
                               std::vector<int16_t>{4096, -32768}, &p);
  ASSERT_EQ(s.invoke, kTfLiteOk) << s.error;
  EXPECT_EQ(s.values, (std::vector<int16_t>{2048, 32767}));
}

// An output scale so small that the effective scale needs a shift above 30 (converted LSTM
// cells whose state tensors were calibrated on zeros have them: Coral's traffic model). The
// exact product lies beyond the output range unless it is zero; every path agrees.
TEST(Quantized_Mul, DegenerateOutputScaleSaturatesExactly) {
  const std::vector<uint8_t> a = AllValues<uint8_t>();
  const std::vector<uint8_t> b = {0, 1, 2, 127, 255};
  const Q q1{0.0235f, 3}, q2{0.0039f, 0}, qo{3e-35f, 7};
  TfLiteMulParams p{};
  for (bool relu : {false, true}) {
    p.activation = relu ? kTfLiteActRelu : kTfLiteActNone;
    std::vector<cpu::Isa> paths = octet::testing::OptimizedPaths();
    paths.push_back(cpu::Isa::kReference);
    for (cpu::Isa isa : paths) {
      octet::testing::IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      auto r = RunQBinary<uint8_t>(kTfLiteBuiltinMul, builtin::Register_MUL(), q1, q2, qo, {256, 1},
                                   a, {1, 5}, b, &p);
      ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
      for (int i = 0; i < 256; ++i) {
        for (int j = 0; j < 5; ++j) {
          const double product = Real(a[i], q1) * Real(b[j], q2);
          const int want = product > 0 ? 255 : product < 0 ? (relu ? 7 : 0) : 7;
          ASSERT_EQ(r.values[i * 5 + j], want)
              << cpu::IsaName(isa) << " a=" << int(a[i]) << " b=" << int(b[j]);
        }
      }
    }
  }
  // int8 with the product's sign crossing zero on both operands.
  p.activation = kTfLiteActNone;
  auto s = RunQBinary<int8_t>(kTfLiteBuiltinMul, builtin::Register_MUL(), {0.5f, 0}, {0.5f, -1},
                              {1e-30f, -3}, {5}, std::vector<int8_t>{0, 3, -3, 5, 2}, {5},
                              std::vector<int8_t>{9, -1, 4, -128, 2}, &p);
  ASSERT_EQ(s.invoke, kTfLiteOk) << s.error;
  EXPECT_EQ(s.values, (std::vector<int8_t>{-3, -3, -128, -128, 127}));
}

// ---- Activations

template <typename T>
void CheckUnary(int code, const TfLiteRegistration *reg, Q qi, Q qo,
                const std::function<double(double)> &f, int tol, const void *params = nullptr) {
  const std::vector<T> all = AllValues<T>(std::is_same_v<T, int16_t> ? 13 : 1);
  RunResult<T> r =
      params ? RunQUnary<T, T, TfLiteLeakyReluParams>(
                   code, reg, qi, qo, all, static_cast<const TfLiteLeakyReluParams *>(params))
             : RunQUnary<T>(code, reg, qi, qo, all);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  for (size_t i = 0; i < all.size(); ++i) {
    ExpectWithinSteps(r.values[i], f(Real(all[i], qi)), qo, -1e30, 1e30, tol,
                      std::to_string(static_cast<int>(all[i])));
  }
}

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

TEST(Quantized_Logistic, Int8UInt8Int16) {
  CheckUnary<int8_t>(kTfLiteBuiltinLogistic, builtin::Register_LOGISTIC(), {0.1f, 3},
                     {1.0f / 256, -128}, Sigmoid, 1);
  CheckUnary<uint8_t>(kTfLiteBuiltinLogistic, builtin::Register_LOGISTIC(), {0.07f, 120},
                      {1.0f / 256, 0}, Sigmoid, 1);
  CheckUnary<int16_t>(kTfLiteBuiltinLogistic, builtin::Register_LOGISTIC(), {1.0f / 4096, 0},
                      {1.0f / 32768, 0}, Sigmoid, 4);
  CheckUnary<int16_t>(kTfLiteBuiltinLogistic, builtin::Register_LOGISTIC(), {0.0003f, 0},
                      {1.0f / 32768, 0}, Sigmoid, 4);
}

TEST(Quantized_Logistic, HandWorkedInt8) {
  // Input at the zero point -> logistic(0) = 0.5 = 2^30 in Q0.31 -> 128 - 128 = 0.
  // Far outside the radius saturates to -128 / 127.
  auto r = RunQUnary<int8_t>(kTfLiteBuiltinLogistic, builtin::Register_LOGISTIC(), {0.5f, 0},
                             {1.0f / 256, -128}, std::vector<int8_t>{0, -128, 127});
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  EXPECT_EQ(r.values, (std::vector<int8_t>{0, -128, 127}));
}

TEST(Quantized_Tanh, Int8UInt8Int16) {
  auto tanh = [](double x) { return std::tanh(x); };
  CheckUnary<int8_t>(kTfLiteBuiltinTanh, builtin::Register_TANH(), {0.05f, -10}, {1.0f / 128, 0},
                     tanh, 1);
  CheckUnary<uint8_t>(kTfLiteBuiltinTanh, builtin::Register_TANH(), {0.03f, 128}, {1.0f / 128, 128},
                      tanh, 1);
  CheckUnary<int16_t>(kTfLiteBuiltinTanh, builtin::Register_TANH(), {1.0f / 4096, 0},
                      {1.0f / 32768, 0}, tanh, 6);
  CheckUnary<int16_t>(kTfLiteBuiltinTanh, builtin::Register_TANH(), {0.0003f, 0}, {1.0f / 32768, 0},
                      tanh, 6);
}

TEST(Quantized_Relu, ReluFamily) {
  auto relu = [](double x) { return std::max(0.0, x); };
  CheckUnary<int8_t>(kTfLiteBuiltinRelu, builtin::Register_RELU(), {0.1f, -20}, {0.07f, -128}, relu,
                     1);
  CheckUnary<uint8_t>(kTfLiteBuiltinRelu, builtin::Register_RELU(), {0.1f, 100}, {0.1f, 0}, relu,
                      1);
  CheckUnary<int8_t>(
      kTfLiteBuiltinReluN1To1, builtin::Register_RELU_N1_TO_1(), {0.02f, 0}, {0.01f, 0},
      [](double x) { return std::min(1.0, std::max(-1.0, x)); }, 1);
  // RELU6 clamps raw values between the input's quantized 0 and 6 (same in/out params).
  CheckUnary<int8_t>(
      kTfLiteBuiltinRelu6, builtin::Register_RELU6(), {0.05f, -30}, {0.05f, -30},
      [](double x) { return std::min(6.0, std::max(0.0, x)); }, 1);
}

TEST(Quantized_LeakyRelu, Int8Int16) {
  TfLiteLeakyReluParams p{};
  p.alpha = 0.2f;
  auto leaky = [](double x) { return x > 0 ? x : 0.2 * x; };
  CheckUnary<int8_t>(kTfLiteBuiltinLeakyRelu, builtin::Register_LEAKY_RELU(), {0.1f, 5},
                     {0.08f, -40}, leaky, 1, &p);
  CheckUnary<int16_t>(kTfLiteBuiltinLeakyRelu, builtin::Register_LEAKY_RELU(), {0.001f, 0},
                      {0.0009f, 0}, leaky, 1, &p);
}

TEST(Quantized_HardSwish, Int8UInt8) {
  auto hs = [](double x) { return x * std::min(6.0, std::max(0.0, x + 3)) / 6; };
  CheckUnary<int8_t>(kTfLiteBuiltinHardSwish, builtin::Register_HARD_SWISH(), {0.05f, 0},
                     {0.04f, -20}, hs, 1);
  CheckUnary<uint8_t>(kTfLiteBuiltinHardSwish, builtin::Register_HARD_SWISH(), {0.1f, 128},
                      {0.08f, 40}, hs, 1);
}

// ---- QUANTIZE (requantize)

TEST(Quantized_Requantize, Int8ToInt8AndUInt8ToInt8AndInt16) {
  const std::vector<int8_t> all = AllValues<int8_t>();
  const Q qi{0.1f, 3}, qo{0.07f, -9};
  auto r = RunQUnary<int8_t>(kTfLiteBuiltinQuantize, builtin::Register_QUANTIZE(), qi, qo, all);
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.error;
  for (size_t i = 0; i < all.size(); ++i) {
    ExpectWithinSteps(r.values[i], Real(all[i], qi), qo, -1e30, 1e30, 1, "requant");
  }
  // uint8 -> int8 with the same scale and zero points 128 apart: exactly x - 128.
  auto u = RunQUnary<uint8_t, int8_t>(kTfLiteBuiltinQuantize, builtin::Register_QUANTIZE(),
                                      {0.5f, 128}, {0.5f, 0}, std::vector<uint8_t>{0, 128, 255});
  ASSERT_EQ(u.invoke, kTfLiteOk) << u.error;
  EXPECT_EQ(u.values, (std::vector<int8_t>{-128, 0, 127}));
  // int8 -> int16, scale halves: exactly 2 * (x - zp).
  auto w = RunQUnary<int8_t, int16_t>(kTfLiteBuiltinQuantize, builtin::Register_QUANTIZE(),
                                      {0.5f, 1}, {0.25f, 0}, std::vector<int8_t>{-128, 1, 127});
  ASSERT_EQ(w.invoke, kTfLiteOk) << w.error;
  EXPECT_EQ(w.values, (std::vector<int16_t>{-258, 0, 252}));
}

// ---- Spec checks (seed 000): one-line errors naming op, tensor and rule.

TEST(Quantized_Spec, LogisticAndTanhFixedOutputParams) {
  auto r = RunQUnary<int8_t>(kTfLiteBuiltinLogistic, builtin::Register_LOGISTIC(), {0.1f, 0},
                             {1.0f / 256, 0}, std::vector<int8_t>{0});
  EXPECT_EQ(r.build, kTfLiteError);
  EXPECT_NE(r.error.find("LOGISTIC: "), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("must have scale 0.00390625 and zero_point -128"), std::string::npos)
      << r.error;
  auto t = RunQUnary<uint8_t>(kTfLiteBuiltinTanh, builtin::Register_TANH(), {0.1f, 0},
                              {1.0f / 128, 0}, std::vector<uint8_t>{0});
  EXPECT_EQ(t.build, kTfLiteError);
  EXPECT_NE(t.error.find("must have scale 0.0078125 and zero_point 128"), std::string::npos)
      << t.error;
  auto u = RunQUnary<uint8_t>(kTfLiteBuiltinLogistic, builtin::Register_LOGISTIC(), {0.1f, 0},
                              {1.0f / 128, 0}, std::vector<uint8_t>{0});
  EXPECT_NE(u.error.find("must have scale 0.00390625 and zero_point 0"), std::string::npos)
      << u.error;
  auto v = RunQUnary<int8_t>(kTfLiteBuiltinTanh, builtin::Register_TANH(), {0.1f, 0},
                             {1.0f / 128, 1}, std::vector<int8_t>{0});
  EXPECT_NE(v.error.find("must have scale 0.0078125 and zero_point 0"), std::string::npos)
      << v.error;
}

TEST(Quantized_Spec, ScaleZeroPointAndInt16Rules) {
  TfLiteAddParams p{};
  auto bad_scale = RunQBinary<int8_t>(kTfLiteBuiltinAdd, builtin::Register_ADD(), {0.0f, 0},
                                      {0.5f, 0}, {1.0f, 0}, {1}, {1}, {1}, {1}, &p);
  EXPECT_EQ(bad_scale.build, kTfLiteError);
  EXPECT_NE(bad_scale.error.find("ADD: input 0"), std::string::npos) << bad_scale.error;
  EXPECT_NE(bad_scale.error.find("must be finite and > 0"), std::string::npos) << bad_scale.error;

  auto inf_scale = RunQUnary<int8_t>(kTfLiteBuiltinRelu, builtin::Register_RELU(),
                                     {std::numeric_limits<float>::infinity(), 0}, {1.0f, 0},
                                     std::vector<int8_t>{0});
  EXPECT_NE(inf_scale.error.find("RELU: input"), std::string::npos) << inf_scale.error;
  EXPECT_NE(inf_scale.error.find("must be finite and > 0"), std::string::npos) << inf_scale.error;

  auto bad_zp = RunQBinary<uint8_t>(kTfLiteBuiltinSub, builtin::Register_SUB(), {0.5f, 0},
                                    {0.5f, 300}, {1.0f, 0}, {1}, {1}, {1}, {1});
  EXPECT_EQ(bad_zp.build, kTfLiteError);
  EXPECT_NE(bad_zp.error.find("SUB: input 1"), std::string::npos) << bad_zp.error;
  EXPECT_NE(bad_zp.error.find("zero_point[0] = 300 is outside"), std::string::npos) << bad_zp.error;

  TfLiteMulParams mp{};
  auto int16_zp = RunQBinary<int16_t>(kTfLiteBuiltinMul, builtin::Register_MUL(), {0.5f, 0},
                                      {0.5f, 0}, {1.0f, 3}, {1}, {1}, {1}, {1}, &mp);
  EXPECT_EQ(int16_zp.build, kTfLiteError);
  EXPECT_NE(int16_zp.error.find("MUL: output"), std::string::npos) << int16_zp.error;
  EXPECT_NE(int16_zp.error.find("must have zero_point 0"), std::string::npos) << int16_zp.error;
}

}  // namespace
}  // namespace octet::elementwise_test
