// NaN, infinities, huge finite values and denormals through every op that turns floats into
// integers or orders floats (docs/nonfinite.md): each runs on every kernel path this CPU has,
// must not fail (or must fail with a clear error where refusing is the rule), must give the
// same output on every path, and that output must be the documented one, computed here
// independently. The sanitizer build turns any undefined float -> int conversion into a
// failure.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "flatbuffers/flexbuffers.h"
#include "nonfinite_util.h"
#include "ops/custom/custom_ops.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/nn/nn_ops.h"
#include "ops/shape/shape_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::nonfinite_test {
namespace {

namespace builtin = tflite::ops::builtin;
using Outcome8 = testing::NodeOutcome<int8_t>;

// ---- QUANTIZE: round(x / scale) + zero_point, saturating; NaN -> the lowest code.

template <typename T>
T ExpectedQuantize(float x, float scale, int zero_point) {
  constexpr T lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  const float q = x / scale;
  if (std::isnan(q)) return lo;
  const double r = std::round(static_cast<double>(q)) + zero_point;  // ±inf stays ±inf
  return r <= lo ? lo : (r >= hi ? hi : static_cast<T>(r));
}

template <typename T>
testing::NodeOutcome<T> RunQuantize(TfLiteType type, const std::vector<int>& shape,
                                    const std::vector<float>& in, const std::vector<float>& scales,
                                    const std::vector<int>& zero_points, int axis) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, shape});
  const int output = m.AddOutput({type, shape, scales, zero_points, axis});
  m.SetBuiltinOp(tflite::BuiltinOperator_QUANTIZE, builtin::Register_QUANTIZE());
  return testing::BuildAndRun<T>(m, output, [&] { m.SetInput(input, in); });
}

template <typename T>
void CheckQuantizePerTensor(TfLiteType type, float scale, int zero_point) {
  const std::vector<float> in = MixedInput(133);
  const std::vector<T> got =
      SameOnEveryPath<T>([&] { return RunQuantize<T>(type, {133}, in, {scale}, {zero_point}, 0); },
                         std::string("QUANTIZE ") + TfLiteTypeGetName(type));
  std::vector<T> want;
  for (float x : in) want.push_back(ExpectedQuantize<T>(x, scale, zero_point));
  ExpectSame(want, got, "QUANTIZE expectation");
}

TEST(NonFiniteQuantize, Int8SaturatesAndNaNIsLowest) {
  CheckQuantizePerTensor<int8_t>(kTfLiteInt8, 0.5f, -3);
  CheckQuantizePerTensor<int8_t>(kTfLiteInt8, 1e-30f, 10);  // x / scale overflows to ±inf
}

TEST(NonFiniteQuantize, Uint8SaturatesAndNaNIsLowest) {
  CheckQuantizePerTensor<uint8_t>(kTfLiteUInt8, 0.25f, 100);
  CheckQuantizePerTensor<uint8_t>(kTfLiteUInt8, 3e38f, 0);  // denormal quotients
}

TEST(NonFiniteQuantize, Int16SaturatesAndNaNIsLowest) {
  CheckQuantizePerTensor<int16_t>(kTfLiteInt16, 0.01f, 0);
}

TEST(NonFiniteQuantize, PerAxisInt8) {
  const std::vector<float> in = MixedInput(3 * 40);
  const std::vector<float> scales = {0.5f, 1e-20f, 2.f};
  const std::vector<int> zps = {0, -5, 7};
  const std::vector<int8_t> got = SameOnEveryPath<int8_t>(
      [&] {
        return RunQuantize<int8_t>(kTfLiteInt8, {3, 40}, in, scales, zps, 0);
      },
      "QUANTIZE per-axis");
  std::vector<int8_t> want;
  for (size_t i = 0; i < in.size(); ++i) {
    want.push_back(ExpectedQuantize<int8_t>(in[i], scales[i / 40], zps[i / 40]));
  }
  ExpectSame(want, got, "QUANTIZE per-axis expectation");
}

// ---- CAST float -> integer: truncate, saturate, NaN -> 0; -> bool: x != 0 (NaN is true).

template <typename T>
T ExpectedCast(float x) {
  if constexpr (std::is_same_v<T, bool>) {
    return !(x == 0.f);
  } else {
    if (std::isnan(x)) return T(0);
    const long double t = std::trunc(static_cast<long double>(x));
    if (t >= static_cast<long double>(std::numeric_limits<T>::max())) {
      return std::numeric_limits<T>::max();
    }
    if (t <= static_cast<long double>(std::numeric_limits<T>::lowest())) {
      return std::numeric_limits<T>::lowest();
    }
    return static_cast<T>(t);
  }
}

template <typename T>
void CheckCast(TfLiteType type) {
  const std::vector<float> in = MixedInput(70);
  const std::vector<T> got = SameOnEveryPath<T>(
      [&] {
        OpModel m;
        const int input = m.AddInput({kTfLiteFloat32, {70}});
        const int output = m.AddOutput({type, {}});
        m.SetBuiltinOp(tflite::BuiltinOperator_CAST, builtin::Register_CAST());
        return testing::BuildAndRun<T>(m, output, [&] { m.SetInput(input, in); });
      },
      std::string("CAST to ") + TfLiteTypeGetName(type));
  std::vector<T> want;
  for (float x : in) want.push_back(ExpectedCast<T>(x));
  ExpectSame(want, got, std::string("CAST to ") + TfLiteTypeGetName(type));
}

TEST(NonFiniteCast, FloatToEveryIntegerTypeAndBool) {
  CheckCast<int32_t>(kTfLiteInt32);
  CheckCast<int64_t>(kTfLiteInt64);
  CheckCast<int16_t>(kTfLiteInt16);
  CheckCast<int8_t>(kTfLiteInt8);
  CheckCast<uint8_t>(kTfLiteUInt8);
  CheckCast<bool>(kTfLiteBool);
}

// ---- RANGE (float): a non-finite or too long length is refused at invoke.

std::string RunRange(float start, float limit, float delta, std::vector<float>* out) {
  OpModel m;
  int in[3];
  for (int& i : in) i = m.AddInput({kTfLiteFloat32, {}});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_RANGE, builtin::Register_RANGE());
  if (m.Build() != kTfLiteOk) return m.error();
  m.SetInput<float>(in[0], {start});
  m.SetInput<float>(in[1], {limit});
  m.SetInput<float>(in[2], {delta});
  if (m.Invoke() != kTfLiteOk) return m.error().empty() ? "failed" : m.error();
  if (out) *out = m.GetOutput<float>(output);
  return "";
}

TEST(NonFiniteRange, NonFiniteOrHugeLengthsAreRefused) {
  const float kDenormal = 1e-45f;
  struct Case {
    float start, limit, delta;
    const char* needle;
  };
  const Case cases[] = {{0, 10, kNaN, "must be finite"},     {kNaN, 10, 1, "must be finite"},
                        {0, kNaN, 1, "must be finite"},      {0, kInf, 1, "must be finite"},
                        {-kInf, 0, 1, "must be finite"},     {-3e38f, 3e38f, 1, "must be finite"},
                        {0, 1, kDenormal, "must be finite"}, {0, 1e10f, 1, "too many"},
                        {0, 3e38f, 1e20f, "too many"},       {0, 1, -kInf, "wrong sign"}};
  for (const Case& c : cases) {
    const std::string e =
        ErrorOnEveryPath([&] { return RunRange(c.start, c.limit, c.delta, nullptr); }, "RANGE");
    EXPECT_NE(e.find("RANGE"), std::string::npos) << e;
    EXPECT_NE(e.find(c.needle), std::string::npos)
        << c.start << " " << c.limit << " " << c.delta << ": " << e;
  }
  // An infinite delta takes zero steps to pass the limit (TFLite's ceil(|1 / inf|) = 0).
  std::vector<float> out = {1.f};
  EXPECT_EQ(RunRange(0, 1, kInf, &out), "");
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(RunRange(0.5f, 3, 1, &out), "");
  EXPECT_EQ(out, (std::vector<float>{0.5f, 1.5f, 2.5f}));
}

// ---- ARG_MAX / ARG_MIN: TFLite's scan (the first element is the candidate; a later one
// replaces it only when strictly better, which a NaN never is).

TEST(NonFiniteArgMinMax, NaNNeverReplacesTheCandidate) {
  const int rows = 6, cols = 5;
  const std::vector<float> in = {kNaN,   1,     2,     3,       -1,      // NaN first: it stays
                                 1,      kNaN,  3,     kInf,    2,       // +inf is the max
                                 -kInf,  -kInf, kNaN,  -kInf,   0,       // ties keep the first
                                 3e38f,  kInf,  -kInf, FLT_MAX, -3e38f,  //
                                 kNaN,   kNaN,  kNaN,  kNaN,    kNaN,    //
                                 1e-40f, -0.f,  0.f,   -1e-40f, 1e-45f};
  for (bool is_max : {true, false}) {
    std::vector<int32_t> want;
    for (int r = 0; r < rows; ++r) {
      int best = 0;
      for (int c = 1; c < cols; ++c) {
        const float v = in[r * cols + c], b = in[r * cols + best];
        if (is_max ? v > b : v < b) best = c;
      }
      want.push_back(best);
    }
    const std::vector<int32_t> got = SameOnEveryPath<int32_t>(
        [&] {
          OpModel m;
          const int input = m.AddInput({kTfLiteFloat32, {rows, cols}});
          m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {1});
          const int output = m.AddOutput({kTfLiteInt32, {}});
          TfLiteArgMaxParams p{};
          p.output_type = kTfLiteInt32;
          if (is_max) {
            m.SetBuiltinOp(tflite::BuiltinOperator_ARG_MAX, builtin::Register_ARG_MAX(), p);
          } else {
            m.SetBuiltinOp(tflite::BuiltinOperator_ARG_MIN, builtin::Register_ARG_MIN(), p);
          }
          return testing::BuildAndRun<int32_t>(m, output, [&] { m.SetInput(input, in); });
        },
        is_max ? "ARG_MAX" : "ARG_MIN");
    ExpectSame(want, got, is_max ? "ARG_MAX" : "ARG_MIN");
    // Hand-worked: NaN first stays, +inf wins, the first of tied -infs, NaN row -> 0.
    const std::vector<int32_t> hand =
        is_max ? std::vector<int32_t>{0, 3, 4, 1, 0, 0} : std::vector<int32_t>{0, 0, 0, 2, 0, 3};
    EXPECT_EQ(got, hand);
  }
}

// ---- Quantized activations whose prepare turns scales into integer bounds or tables.

std::vector<int8_t> AllInt8() {
  std::vector<int8_t> v;
  for (int i = -128; i <= 127; ++i) v.push_back(static_cast<int8_t>(i));
  return v;
}

std::vector<int8_t> RunInt8Activation(int builtin_code, TfLiteRegistration* reg, float in_scale,
                                      int in_zp, float out_scale, int out_zp) {
  const std::vector<int8_t> in = AllInt8();
  return SameOnEveryPath<int8_t>(
      [&] {
        OpModel m;
        const int input = m.AddInput({kTfLiteInt8, {256}, {in_scale}, {in_zp}});
        const int output = m.AddOutput({kTfLiteInt8, {}, {out_scale}, {out_zp}});
        m.SetBuiltinOp(builtin_code, reg);
        return testing::BuildAndRun<int8_t>(m, output, [&] { m.SetInput(input, in); });
      },
      "activation " + std::to_string(builtin_code));
}

TEST(NonFiniteActivations, TinyScalesSaturateTheQuantizedBounds) {
  // round(6 / 1e-10) and round(±1 / 1e-10) are far beyond int32: the bounds saturate at the
  // type's limits, so the clamps stop binding.
  const std::vector<int8_t> in = AllInt8();
  std::vector<int8_t> relu(in.size());
  for (size_t i = 0; i < in.size(); ++i) relu[i] = std::max<int8_t>(in[i], 0);
  ExpectSame(relu,
             RunInt8Activation(tflite::BuiltinOperator_RELU6, builtin::Register_RELU6(), 1e-10f, 0,
                               1e-10f, 0),
             "RELU6");
  ExpectSame(in,
             RunInt8Activation(tflite::BuiltinOperator_RELU_N1_TO_1,
                               builtin::Register_RELU_N1_TO_1(), 1e-10f, 0, 1e-10f, 0),
             "RELU_N1_TO_1");
  ExpectSame(relu,
             RunInt8Activation(tflite::BuiltinOperator_RELU_0_TO_1, builtin::Register_RELU_0_TO_1(),
                               1e-10f, 0, 1e-10f, 0),
             "RELU_0_TO_1");
}

TEST(NonFiniteActivations, LookupTablesSaturate) {
  const std::vector<int8_t> in = AllInt8();
  // Output scale 1e-40: 1 / scale is +inf in float, so every ELU(x) * inf is ±inf, and
  // ELU(0) * inf is NaN: positive -> 127, negative and NaN -> -128.
  std::vector<int8_t> want(in.size());
  for (size_t i = 0; i < in.size(); ++i) want[i] = in[i] > 0 ? 127 : -128;
  ExpectSame(
      want,
      RunInt8Activation(tflite::BuiltinOperator_ELU, builtin::Register_ELU(), 1.f, 0, 1e-40f, 0),
      "ELU, output scale 1e-40");
  // Input scale 1e30: huge finite inputs; ELU(x) = x saturates, ELU(-huge) = -1.
  for (size_t i = 0; i < in.size(); ++i) want[i] = in[i] > 0 ? 127 : (in[i] < 0 ? -1 : 0);
  ExpectSame(
      want,
      RunInt8Activation(tflite::BuiltinOperator_ELU, builtin::Register_ELU(), 1e30f, 0, 1.f, 0),
      "ELU, input scale 1e30");
}

TEST(NonFiniteActivations, Int16LogisticHugeInputScaleIsRefused) {
  for (auto op : {tflite::BuiltinOperator_LOGISTIC, tflite::BuiltinOperator_TANH}) {
    const std::string e = ErrorOnEveryPath(
        [&] {
          OpModel m;
          m.AddInput({kTfLiteInt16, {4}, {3e5f}, {0}});  // 3e5 * 4096 * 3 exceeds int32
          m.AddOutput({kTfLiteInt16, {}, {1.f / 32768}, {0}});
          m.SetBuiltinOp(op, op == tflite::BuiltinOperator_LOGISTIC ? builtin::Register_LOGISTIC()
                                                                    : builtin::Register_TANH());
          return m.Build() == kTfLiteOk ? std::string() : m.error();
        },
        "LOGISTIC/TANH int16");
    EXPECT_NE(e.find("int16 input scale 300000 is too large"), std::string::npos) << e;
  }
}

// ---- SOFTMAX uint8 (float exp table): a beta that overflows exp, or NaN, gives NaN
// probabilities, which map to 0.

TEST(NonFiniteSoftmax, Uint8ExtremeAndNaNBeta) {
  const std::vector<uint8_t> in = {1, 7, 3, 2, 0, 4, 4, 4, 4, 4};
  struct Case {
    float beta;
    std::vector<uint8_t> want;
  };
  const Case cases[] = {
      // exp(-1e30 * d) is 0 for d > 0: the maximum takes all (256 saturates to 255).
      {1e30f, {0, 255, 0, 0, 0, 51, 51, 51, 51, 51}},
      // exp(+1e30 * d) is inf: inf * (1 / inf) is NaN -> 0; a flat row is 1/5 each.
      {-1e30f, {0, 0, 0, 0, 0, 51, 51, 51, 51, 51}},
      {kNaN, std::vector<uint8_t>(10, 0)},
  };
  for (const Case& c : cases) {
    const std::vector<uint8_t> got = SameOnEveryPath<uint8_t>(
        [&] {
          OpModel m;
          const int input = m.AddInput({kTfLiteUInt8, {2, 5}, {1.f}, {0}});
          const int output = m.AddOutput({kTfLiteUInt8, {}, {1.f / 256}, {0}});
          TfLiteSoftmaxParams p{};
          p.beta = c.beta;
          m.SetBuiltinOp(tflite::BuiltinOperator_SOFTMAX, builtin::Register_SOFTMAX(), p);
          return testing::BuildAndRun<uint8_t>(m, output, [&] { m.SetInput(input, in); });
        },
        "SOFTMAX uint8");
    ExpectSame(c.want, got, "SOFTMAX uint8 beta " + std::to_string(c.beta));
  }
}

// ---- CONCATENATION uint8 with rescaling: extreme scale ratios saturate; inf * 0 -> 0.

TEST(NonFiniteConcatenation, Uint8ExtremeScaleRatios) {
  const std::vector<uint8_t> a = {1, 2}, b = {0, 4, 5, 6, 255, 5}, c = {0, 1, 200};
  const std::vector<uint8_t> got = SameOnEveryPath<uint8_t>(
      [&] {
        OpModel m;
        const int ia = m.AddInput({kTfLiteUInt8, {1, 2}, {1e-10f}, {7}});
        const int ib = m.AddInput({kTfLiteUInt8, {1, 6}, {1e20f}, {5}});  // ratio 1e30
        const int ic = m.AddInput({kTfLiteUInt8, {1, 3}, {1e30f}, {0}});  // ratio inf
        const int output = m.AddOutput({kTfLiteUInt8, {}, {1e-10f}, {7}});
        TfLiteConcatenationParams p{};
        p.axis = 1;
        m.SetBuiltinOp(tflite::BuiltinOperator_CONCATENATION, builtin::Register_CONCATENATION(), p);
        return testing::BuildAndRun<uint8_t>(m, output, [&] {
          m.SetInput(ia, a);
          m.SetInput(ib, b);
          m.SetInput(ic, c);
        });
      },
      "CONCATENATION uint8");
  // b: (q - 5) * 1e30 rounds to 0 (-> zero point 7) or saturates; c: q * inf + 0 * inf is
  // NaN -> 0.
  const std::vector<uint8_t> want = {1, 2, 0, 0, 7, 255, 255, 7, 0, 0, 0};
  ExpectSame(want, got, "CONCATENATION uint8");
}

// ---- Quantized ADD / SUB whose rescale factors overflow float: refused at prepare.

TEST(NonFiniteArithmetic, OverflowingRescaleFactorsAreRefused) {
  for (auto op : {tflite::BuiltinOperator_ADD, tflite::BuiltinOperator_SUB}) {
    for (float in_scale : {3e38f, 1.f}) {
      const float out_scale = in_scale == 1.f ? 1e-45f : 1.f;
      const std::string e = ErrorOnEveryPath(
          [&] {
            OpModel m;
            m.AddInput({kTfLiteInt8, {4}, {in_scale}, {0}});
            m.AddInput({kTfLiteInt8, {4}, {in_scale}, {0}});
            m.AddOutput({kTfLiteInt8, {}, {out_scale}, {0}});
            if (op == tflite::BuiltinOperator_ADD) {
              m.SetBuiltinOp(op, builtin::Register_ADD(), TfLiteAddParams{});
            } else {
              m.SetBuiltinOp(op, builtin::Register_SUB(), TfLiteSubParams{});
            }
            return m.Build() == kTfLiteOk ? std::string() : m.error();
          },
          "ADD/SUB");
      EXPECT_NE(e.find(op == tflite::BuiltinOperator_ADD ? "ADD" : "SUB"), std::string::npos) << e;
      EXPECT_NE(e.find("too small"), std::string::npos) << e;
    }
  }
}

// ---- TFLite_Detection_PostProcess: NaN scores rank below every number (never a detection),
// +inf ranks first; an infinite box never suppresses nor gets suppressed (IoU 0 or NaN); a
// box that decodes to NaN is refused (as an inverted one).

std::vector<uint8_t> Flex(const std::function<void(flexbuffers::Builder&)>& fill) {
  flexbuffers::Builder b;
  b.Map([&] { fill(b); });
  b.Finish();
  return b.GetBuffer();
}

struct Detections {
  std::vector<float> classes, scores, num;
};

Detections RunDetection(int classes_per_detection, bool regular, float enc_4 = 0.f,
                        std::string* error = nullptr) {
  // Six anchors far apart; background column first.
  const std::vector<float> anchors = {0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.5f, 0.1f, 0.1f,
                                      0.1f, 0.9f, 0.1f, 0.1f, 0.5f, 0.1f, 0.1f, 0.1f,
                                      0.5f, 0.5f, 0.1f, 0.1f, 0.5f, 0.9f, 0.1f, 0.1f};
  const std::vector<float> enc = {0, 0, 0, 0, 0, 0, 0,     0,     0, 0, 0,    0,
                                  0, 0, 0, 0, 0, 0, enc_4, enc_4, 0, 0, kInf, kInf};
  const std::vector<float> scores = {0, kNaN, 0.9f, 0.1f,  0, 0.8f,  kNaN, kNaN,
                                     0, kNaN, kNaN, kNaN,  0, kInf,  0.3f, 0.25f,
                                     0, 0.7f, kNaN, 0.05f, 0, 0.05f, 0.6f, -kInf};
  const std::vector<uint8_t> options = Flex([&](flexbuffers::Builder& b) {
    b.Int("max_detections", 6);
    b.Int("max_classes_per_detection", classes_per_detection);
    b.Int("detections_per_class", 10);
    b.Float("nms_score_threshold", 0.2f);
    b.Float("nms_iou_threshold", 0.5f);
    b.Int("num_classes", 3);
    b.Float("y_scale", 10);
    b.Float("x_scale", 10);
    b.Float("h_scale", 5);
    b.Float("w_scale", 5);
    b.Bool("use_regular_nms", regular);
  });
  Detections d;
  if (error != nullptr) {
    *error = ErrorOnEveryPath(
        [&] {
          OpModel m;
          const int ie = m.AddInput({kTfLiteFloat32, {1, 6, 4}});
          const int is = m.AddInput({kTfLiteFloat32, {1, 6, 4}});
          const int ia = m.AddInput({kTfLiteFloat32, {6, 4}});
          int out = 0;
          for (int i = 0; i < 4; ++i) out = m.AddOutput({kTfLiteFloat32, {}});
          m.SetCustomOp(tflite::ops::custom::Register_DETECTION_POSTPROCESS(), options);
          const testing::NodeOutcome<float> r = testing::BuildAndRun<float>(m, out, [&] {
            m.SetInput(ie, enc);
            m.SetInput(is, scores);
            m.SetInput(ia, anchors);
          });
          return r.error;
        },
        "DETECTION_POSTPROCESS");
    return d;
  }
  for (int k = 0; k < 3; ++k) {
    const std::vector<float> got = SameOnEveryPath<float>(
        [&] {
          OpModel m;
          const int e = m.AddInput({kTfLiteFloat32, {1, 6, 4}});
          const int s = m.AddInput({kTfLiteFloat32, {1, 6, 4}});
          const int a = m.AddInput({kTfLiteFloat32, {6, 4}});
          int outs[4];
          for (int& o : outs) o = m.AddOutput({kTfLiteFloat32, {}});
          m.SetCustomOp(tflite::ops::custom::Register_DETECTION_POSTPROCESS(), options);
          return testing::BuildAndRun<float>(m, outs[k + 1], [&] {
            m.SetInput(e, enc);
            m.SetInput(s, scores);
            m.SetInput(a, anchors);
          });
        },
        "DETECTION_POSTPROCESS");
    (k == 0 ? d.classes : k == 1 ? d.scores : d.num) = got;
  }
  return d;
}

TEST(NonFiniteDetection, FastNmsOneClassPerAnchor) {
  const Detections d = RunDetection(1, false);
  // Anchor 2 (all NaN) is dropped; anchor 0's NaN column is skipped for its 0.9.
  EXPECT_EQ(d.num, std::vector<float>{5});
  ExpectSame(std::vector<float>{0, 1, 0, 0, 1, 0}, d.classes, "classes");
  ExpectSame(std::vector<float>{kInf, 0.9f, 0.8f, 0.7f, 0.6f, 0}, d.scores, "scores");
}

TEST(NonFiniteDetection, FastNmsTwoClassesPerAnchorSortsNaNLast) {
  const Detections d = RunDetection(2, false);
  EXPECT_EQ(d.num, std::vector<float>{5});
  ASSERT_EQ(d.scores.size(), 12u);
  // Per anchor (by its best score): the best class, then the second (NaN last).
  const float want_scores[] = {kInf, 0.3f, 0.9f, 0.1f, 0.8f, kNaN, 0.7f, 0.05f, 0.6f, 0.05f};
  const float want_classes[] = {0, 1, 1, 2, 0, -1, 0, 2, 1, 0};
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(SameValue(want_scores[i], d.scores[i])) << i << ": " << d.scores[i];
    if (want_classes[i] >= 0) {
      EXPECT_EQ(want_classes[i], d.classes[i]) << i;
    }
  }
  EXPECT_TRUE(d.classes[5] == 1 || d.classes[5] == 2) << d.classes[5];
}

TEST(NonFiniteDetection, BoxesDecodingToNaNAreRefused) {
  std::string error;
  RunDetection(1, false, kNaN, &error);
  EXPECT_NE(error.find("decoded box 4 is inverted or not finite"), std::string::npos) << error;
  // A huge finite center decodes to a finite box far away: accepted.
  EXPECT_EQ(RunDetection(1, false, 3e38f).num, std::vector<float>{5});
}

TEST(NonFiniteDetection, RegularNmsIgnoresNaNScores) {
  const Detections d = RunDetection(1, true);
  EXPECT_EQ(d.num, std::vector<float>{6});
  ExpectSame(std::vector<float>{0, 1, 0, 0, 1, 1}, d.classes, "classes");
  ExpectSame(std::vector<float>{kInf, 0.9f, 0.8f, 0.7f, 0.6f, 0.3f}, d.scores, "scores");
}

// ---- Mfcc / AudioSpectrogram: limits far beyond the spectrum are refused (no int overflow);
// non-finite samples propagate as non-finite values.

std::vector<uint8_t> MfccOptions(float upper, float lower) {
  return Flex([&](flexbuffers::Builder& b) {
    b.Float("upper_frequency_limit", upper);
    b.Float("lower_frequency_limit", lower);
    b.Int("filterbank_channel_count", 20);
    b.Int("dct_coefficient_count", 8);
  });
}

testing::NodeOutcome<float> RunMfcc(const std::vector<float>& spectrogram, int rows, float upper,
                                    float lower) {
  OpModel m;
  const int s = m.AddInput({kTfLiteFloat32, {1, rows, 129}});
  const int r = m.AddInput({kTfLiteInt32, {1}});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetCustomOp(tflite::ops::custom::Register_MFCC(), MfccOptions(upper, lower));
  return testing::BuildAndRun<float>(m, output, [&] {
    m.SetInput(s, spectrogram);
    m.SetInput<int32_t>(r, {16000});
  });
}

TEST(NonFiniteAudio, MfccHugeLimitsAreRefused) {
  const std::vector<float> spectrogram(129, 1.f);
  for (float lower : {20.f, 1e11f, 3e38f}) {
    const float upper = lower == 3e38f ? FLT_MAX : 1e12f;
    const testing::NodeOutcome<float> r = RunMfcc(spectrogram, 1, upper, lower);
    EXPECT_NE(r.error.find("above the spectrogram's range"), std::string::npos) << r.error;
  }
}

TEST(NonFiniteAudio, NonFiniteValuesPropagate) {
  std::vector<float> spectrogram(3 * 129, 2.f);
  spectrogram[129 + 10] = kNaN;
  spectrogram[2 * 129 + 10] = kInf;
  const std::vector<float> mfcc =
      SameOnEveryPath<float>([&] { return RunMfcc(spectrogram, 3, 4000.f, 20.f); }, "Mfcc");
  ASSERT_EQ(mfcc.size(), 24u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_TRUE(std::isfinite(mfcc[i])) << i;
    EXPECT_TRUE(std::isnan(mfcc[8 + i])) << i;
    EXPECT_FALSE(std::isfinite(mfcc[16 + i])) << i;
  }
  std::vector<float> samples(64, 0.25f);
  samples[16 + 8] = kNaN;   // frame 1
  samples[32 + 8] = 3e38f;  // frame 2: huge but finite samples square to inf
  const std::vector<float> spectrum = SameOnEveryPath<float>(
      [&] {
        OpModel m;
        const int in = m.AddInput({kTfLiteFloat32, {64, 1}});
        const int output = m.AddOutput({kTfLiteFloat32, {}});
        m.SetCustomOp(tflite::ops::custom::Register_AUDIO_SPECTROGRAM(),
                      Flex([](flexbuffers::Builder& b) {
                        b.Int("window_size", 16);
                        b.Int("stride", 16);
                        b.Bool("magnitude_squared", true);
                      }));
        return testing::BuildAndRun<float>(m, output, [&] { m.SetInput(in, samples); });
      },
      "AudioSpectrogram");
  ASSERT_EQ(spectrum.size(), 4u * 9u);
  for (int b = 0; b < 9; ++b) {
    EXPECT_TRUE(std::isfinite(spectrum[b])) << b;
    EXPECT_TRUE(std::isnan(spectrum[9 + b])) << b;
    EXPECT_FALSE(std::isfinite(spectrum[18 + b])) << b;
    EXPECT_TRUE(std::isfinite(spectrum[27 + b])) << b;
  }
}

}  // namespace
}  // namespace octet::nonfinite_test
