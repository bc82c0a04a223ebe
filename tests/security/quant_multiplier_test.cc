// Requantization multipliers derived from hostile scales (issue 12, item 2). Every op that
// turns scales into a (multiplier, shift) pair must refuse, at AllocateTensors, an effective
// scale that is not finite, is negative, or needs a shift its kernel arithmetic cannot do
// (a left shift of 31+ bits reaches ShiftLeftWrapping / x * 2^shift, which is undefined), and
// say which op, tensor and scale. Before the shared check (quant::QuantizeMultiplierChecked)
// these models were accepted and their Invoke hit undefined behaviour.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ops/nn/nn_ops.h"
#include "security/hostile_model.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/op_model.h"

namespace octet::security {
namespace {

using namespace tflite;  // NOLINT: BuiltinOperator_*, TensorType_*, Create*Options

constexpr auto F32 = TensorType_FLOAT32;
constexpr auto I8 = TensorType_INT8;
constexpr auto I16 = TensorType_INT16;
constexpr auto I32 = TensorType_INT32;

// Refused while preparing (not at load or build), with every needle in the report.
::testing::AssertionResult RefusedAtPrepare(const Outcome& o,
                                            std::initializer_list<const char*> needles) {
  if (o.stage != Stage::kAllocate && o.stage != Stage::kOk) {
    return ::testing::AssertionFailure()
           << "stopped at " << StageName(o.stage) << ", not at AllocateTensors:\n"
           << o.error;
  }
  return Rejected(o, needles);
}

// The fuzz finding: an int8 FULLY_CONNECTED whose multiplier 2^46 needs a left shift of 47.
TEST(Security_QuantMultiplier, FullyConnectedInt8Shift47) {
  OneOp m;
  m.In(I8, {1, 4}, PerTensor(1.f));
  m.Const(I8, {2, 4}, std::vector<int8_t>(8, 3), PerTensor(std::ldexp(1.f, 46)));
  m.Absent();
  m.Out(I8, {1, 2}, PerTensor(1.f));
  EXPECT_TRUE(RefusedAtPrepare(m.Run(BuiltinOperator_FULLY_CONNECTED, {}, nullptr, 4),
                               {"FULLY_CONNECTED: output", "input_scale * weight_scale[0]",
                                "shift of 47 bits", "[-31, 30]", "scale too large"}));
}

TEST(Security_QuantMultiplier, FullyConnectedInt16BeyondTheInt64Kernel) {
  OneOp m;  // 16x8: the int64 requantization takes left shifts up to 7
  m.In(I16, {1, 4}, PerTensor(1.f));
  m.Const(I8, {2, 4}, std::vector<int8_t>(8, 3), PerTensor(256.f));
  m.Absent();
  m.Out(I16, {1, 2}, PerTensor(1.f));
  EXPECT_TRUE(RefusedAtPrepare(m.Run(BuiltinOperator_FULLY_CONNECTED, {}, nullptr, 7),
                               {"FULLY_CONNECTED", "shift of 9 bits", "[-31, 7]"}));
}

TEST(Security_QuantMultiplier, Conv2DOnePerChannelScale) {
  OneOp m;
  m.In(I8, {1, 3, 3, 1}, PerTensor(0.5f));
  m.Const(I8, {2, 1, 1, 1}, std::vector<int8_t>{1, 1},
          QuantParams{{0.01f, std::ldexp(1.f, 40)}, {0, 0}, 0});
  m.Absent();
  m.Out(I8, {}, PerTensor(0.5f));
  EXPECT_TRUE(RefusedAtPrepare(
      m.Run(BuiltinOperator_CONV_2D, m.b().Conv2DOptions(Padding_VALID, 1, 1), nullptr, 3),
      {"CONV_2D: output", "weight_scale[1]", "scale too large"}));
}

TEST(Security_QuantMultiplier, DepthwiseConv2D) {
  OneOp m;
  m.In(I8, {1, 3, 3, 1}, PerTensor(1e10f));
  m.Const(I8, {1, 1, 1, 1}, std::vector<int8_t>{1}, PerTensor(1e10f));
  m.Absent();
  m.Out(I8, {}, PerTensor(1e-10f));
  EXPECT_TRUE(
      RefusedAtPrepare(m.Run(BuiltinOperator_DEPTHWISE_CONV_2D,
                             m.b().DepthwiseConv2DOptions(Padding_VALID, 1, 1, 1), nullptr, 3),
                       {"DEPTHWISE_CONV_2D: output", "scale too large"}));
}

TEST(Security_QuantMultiplier, BatchMatMul) {
  OneOp m;
  m.In(I8, {1, 2, 2}, PerTensor(1e10f));
  m.In(I8, {1, 2, 2}, PerTensor(1e10f));
  m.Out(I8, {}, PerTensor(1e-5f));
  EXPECT_TRUE(RefusedAtPrepare(
      m.Run(BuiltinOperator_BATCH_MATMUL, {}, nullptr, 4),
      {"BATCH_MATMUL: output", "lhs_scale * rhs_scale / output_scale", "scale too large"}));
}

// MUL is the exception: real models carry effective scales above 2^30 (LSTM cells converted
// with state tensors calibrated on zeros), so MUL saturates every nonzero product instead of
// shifting (MulParams::saturate), defined for every input.
TEST(Security_QuantMultiplier, MulSaturatesBeyondTheShiftRange) {
  OneOp m;
  m.In(I8, {1, 4}, PerTensor(1e20f));
  m.In(I8, {1, 4}, PerTensor(1e20f));
  m.Out(I8, {1, 4}, PerTensor(1e-5f));
  const Outcome o = m.Run(
      BuiltinOperator_MUL, m.b().MulOptions(),
      [](tflite::Interpreter* in) {
        const int8_t a[4] = {-128, 0, 5, 127}, b[4] = {127, 9, -1, 127};
        std::memcpy(in->typed_input_tensor<int8_t>(0), a, 4);
        std::memcpy(in->typed_input_tensor<int8_t>(1), b, 4);
      },
      2);
  ASSERT_EQ(o.stage, Stage::kOk) << o.error;
  ASSERT_EQ(o.outputs.size(), 1u);
  EXPECT_EQ(o.outputs[0], (std::vector<uint8_t>{0x80, 0, 0x80, 0x7f}));
}

TEST(Security_QuantMultiplier, SquaredDifference) {
  OneOp m;
  m.In(I8, {1, 4}, PerTensor(1e18f));
  m.In(I8, {1, 4}, PerTensor(1e18f));
  m.Out(I8, {1, 4}, PerTensor(1e-10f));
  EXPECT_TRUE(RefusedAtPrepare(m.Run(BuiltinOperator_SQUARED_DIFFERENCE, {}, nullptr, 2),
                               {"SQUARED_DIFFERENCE: output", "scale too large"}));
}

TEST(Security_QuantMultiplier, Comparison) {
  OneOp m;  // the rescale multiplier is the input scale itself
  m.In(I8, {1, 4}, PerTensor(1e20f));
  m.In(I8, {1, 4}, PerTensor(1.f));
  m.Out(TensorType_BOOL, {1, 4});
  EXPECT_TRUE(RefusedAtPrepare(m.Run(BuiltinOperator_LESS, {}, nullptr, 2),
                               {"LESS: input 0", "input_scale = 1e+20", "scale too large"}));
}

TEST(Security_QuantMultiplier, QuantizeRequantization) {
  OneOp m;
  m.In(I8, {1, 4}, PerTensor(1e10f));
  m.Out(I8, {1, 4}, PerTensor(1e-10f));
  EXPECT_TRUE(
      RefusedAtPrepare(m.Run(BuiltinOperator_QUANTIZE, {}, nullptr, 2),
                       {"QUANTIZE: output", "input_scale / output_scale", "scale too large"}));
}

TEST(Security_QuantMultiplier, Relu) {
  OneOp m;
  m.In(I8, {1, 4}, PerTensor(1e10f));
  m.Out(I8, {1, 4}, PerTensor(1e-10f));
  EXPECT_TRUE(RefusedAtPrepare(m.Run(BuiltinOperator_RELU, {}, nullptr, 2),
                               {"RELU: output", "scale too large"}));
}

TEST(Security_QuantMultiplier, LeakyReluNaNAlpha) {
  OneOp m;
  m.In(I8, {1, 4}, PerTensor(0.5f));
  m.Out(I8, {1, 4}, PerTensor(0.5f));
  const auto opts = OCTET_OPTS(m, LeakyReluOptions, std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(RefusedAtPrepare(
      m.Run(BuiltinOperator_LEAKY_RELU, opts, nullptr, 2),
      {"LEAKY_RELU: output", "input_scale * alpha / output_scale", "must be finite"}));
}

TEST(Security_QuantMultiplier, LeakyReluNegativeAlphaStillRuns) {
  OneOp m;  // a negative alpha is a valid (negative) multiplier, not a refusal
  m.In(I8, {1, 2}, PerTensor(0.5f));
  m.Out(I8, {1, 2}, PerTensor(0.5f));
  const auto opts = OCTET_OPTS(m, LeakyReluOptions, -0.5f);
  const Outcome o = m.Run(
      BuiltinOperator_LEAKY_RELU, opts,
      [](Interpreter* in) {
        in->typed_input_tensor<int8_t>(0)[0] = -8;
        in->typed_input_tensor<int8_t>(0)[1] = 6;
      },
      2);
  ASSERT_EQ(o.stage, Stage::kOk) << o.error;
  EXPECT_EQ(o.outputs[0], (std::vector<uint8_t>{4, 6}));
}

TEST(Security_QuantMultiplier, HardSwish) {
  OneOp m;  // the reluish exponent feeds an int16 left shift of (exponent - 1)
  m.In(I8, {1, 4}, PerTensor(1e10f));
  m.Out(I8, {1, 4}, PerTensor(1e10f));
  EXPECT_TRUE(RefusedAtPrepare(m.Run(BuiltinOperator_HARD_SWISH),
                               {"HARD_SWISH: input", "[-31, 17]", "scale too large"}));
}

TEST(Security_QuantMultiplier, Prelu) {
  OneOp m;
  m.In(I8, {1, 4}, PerTensor(1.f));
  m.Const(I8, {4}, std::vector<int8_t>{1, 2, 3, 4}, PerTensor(1e20f));
  m.Out(I8, {1, 4}, PerTensor(1e-10f));
  EXPECT_TRUE(RefusedAtPrepare(m.Run(BuiltinOperator_PRELU), {"PRELU: output", "scale too large"}));
}

TEST(Security_QuantMultiplier, LogisticTinyInputScale) {
  OneOp m;  // 2^-40 * 2^27 needs a right shift, which overflows the int8 input radius
  m.In(I8, {1, 4}, PerTensor(std::ldexp(1.f, -40)));
  m.Out(I8, {1, 4}, PerTensor(1.f / 256, -128));
  EXPECT_TRUE(RefusedAtPrepare(m.Run(BuiltinOperator_LOGISTIC, {}, nullptr, 2),
                               {"LOGISTIC: input", "input_scale * 2^27", "scale too small"}));
}

TEST(Security_QuantMultiplier, TanhHugeInputScale) {
  OneOp m;
  m.In(I8, {1, 4}, PerTensor(1e20f));
  m.Out(I8, {1, 4}, PerTensor(1.f / 128));
  EXPECT_TRUE(RefusedAtPrepare(m.Run(BuiltinOperator_TANH, {}, nullptr, 2),
                               {"TANH: input", "scale too large"}));
}

TEST(Security_QuantMultiplier, SoftmaxNaNBeta) {
  OneOp m;
  m.In(I8, {1, 4}, PerTensor(0.1f));
  m.Out(I8, {1, 4}, PerTensor(1.f / 256, -128));
  EXPECT_TRUE(RefusedAtPrepare(
      m.Run(BuiltinOperator_SOFTMAX, m.b().SoftmaxOptions(std::numeric_limits<float>::quiet_NaN()),
            nullptr, 2),
      {"SOFTMAX: input", "beta * input_scale * 2^26", "must be finite"}));
}

TEST(Security_QuantMultiplier, SoftmaxTinyBeta) {
  OneOp m;  // the int8 kernel only shifts left: a right shift would be a negative shift count
  m.In(I8, {1, 4}, PerTensor(0.1f));
  m.Out(I8, {1, 4}, PerTensor(1.f / 256, -128));
  EXPECT_TRUE(
      RefusedAtPrepare(m.Run(BuiltinOperator_SOFTMAX, m.b().SoftmaxOptions(1e-12f), nullptr, 2),
                       {"SOFTMAX: input", "[0, 31]", "scale too small"}));
}

TEST(Security_QuantMultiplier, Mean) {
  OneOp m;
  m.In(I8, {1, 2, 2, 1}, PerTensor(1e10f));
  m.Const(I32, {2}, std::vector<int32_t>{1, 2});
  m.Out(I8, {}, PerTensor(1e-10f));
  EXPECT_TRUE(
      RefusedAtPrepare(m.Run(BuiltinOperator_MEAN, OCTET_OPTS(m, ReducerOptions, true), nullptr, 2),
                       {"MEAN: output", "input_scale / output_scale", "scale too large"}));
}

// The other fuzz finding: an integer LSTM whose gate FC multiplier (input 2^40 x weights
// 2^35 x 2^12) needs a left shift of 88 bits.
TEST(Security_QuantMultiplier, IntegerLstmGate88Bits) {
  testing::OpModel m;
  const int n = 2;
  m.AddInput({kTfLiteInt8, {1, 1, n}, {std::ldexp(1.f, 40)}, {0}});
  for (int i = 0; i < 8; ++i) {
    const float scale = i == 1 ? std::ldexp(1.f, 35) : 0.01f;  // input_to_forget_weights
    m.AddConstInput(testing::TensorSpec{kTfLiteInt8, {n, n}, {scale}, {0}},
                    std::vector<int8_t>(n * n, 1));
  }
  for (int i = 0; i < 3; ++i) m.AddNullInput();
  for (int g = 0; g < 4; ++g) {
    m.AddConstInput(testing::TensorSpec{kTfLiteInt32, {n}, {1.f}, {0}}, std::vector<int32_t>(n));
  }
  m.AddNullInput();
  m.AddNullInput();
  m.AddVariableInput({kTfLiteInt8, {1, n}, {1.f / 128}, {0}});
  m.AddVariableInput({kTfLiteInt16, {1, n}, {1.f / 2048}, {0}});
  for (int i = 0; i < 4; ++i) m.AddNullInput();
  m.AddOutput({kTfLiteInt8, {}, {1.f / 128}, {0}});
  TfLiteUnidirectionalSequenceLSTMParams params{};
  params.activation = kTfLiteActTanh;
  params.time_major = true;
  m.SetBuiltinOp(BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM,
                 tflite::ops::builtin::Register_UNIDIRECTIONAL_SEQUENCE_LSTM(), params);
  ASSERT_NE(m.Build(), kTfLiteOk) << "accepted; Invoke would shift left by 88 bits";
  for (const char* needle : {"UNIDIRECTIONAL_SEQUENCE_LSTM: weights", "input_scale * weight_scale",
                             "shift of 88 bits", "scale too large"}) {
    EXPECT_NE(m.error().find(needle), std::string::npos) << needle << " not in: " << m.error();
  }
}

// Hybrid FULLY_CONNECTED quantizes each float input row at invoke. A NaN element must not
// reach a float-to-int conversion (undefined; the sanitizer build aborts): the range scan
// skips it and it quantizes to the lowest code, so with weights all 1 the row
// [NaN, 1, 0, 0] gives -127 + 127 = 0, not the 1 a NaN-as-zero would give.
TEST(Security_QuantMultiplier, HybridFullyConnectedNaNInput) {
  for (const bool asymmetric : {false, true}) {
    OneOp m;
    m.In(F32, {2, 4});
    m.Const(I8, {1, 4}, std::vector<int8_t>{1, 1, 1, 1}, PerTensor(1.f));
    m.Absent();
    m.Out(F32, {2, 1});
    const auto opts = OCTET_OPTS(m, FullyConnectedOptions, ActivationFunctionType_NONE,
                                 FullyConnectedOptionsWeightsFormat_DEFAULT, false, asymmetric);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Outcome o = m.Run(BuiltinOperator_FULLY_CONNECTED, opts, [nan](Interpreter* in) {
      float* x = in->typed_input_tensor<float>(0);
      const float rows[8] = {nan, 1.f, 0.f, 0.f, nan, nan, nan, nan};
      std::copy(rows, rows + 8, x);
    });
    ASSERT_EQ(o.stage, Stage::kOk) << o.error;
    ASSERT_EQ(o.outputs[0].size(), 2 * sizeof(float));
    float out[2];
    std::memcpy(out, o.outputs[0].data(), sizeof out);
    EXPECT_TRUE(std::isfinite(out[0]) && std::isfinite(out[1])) << out[0] << " " << out[1];
    if (!asymmetric) {
      EXPECT_EQ(out[0], 0.f);
    }
  }
}

}  // namespace
}  // namespace octet::security
