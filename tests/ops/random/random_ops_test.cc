// RANDOM_UNIFORM and RANDOM_STANDARD_NORMAL: outputs for fixed seeds equal, bit for bit, what
// TFLite itself produced for the same models (TFLite's WASM build from npm
// @tensorflow/tfjs-tflite 0.0.1-alpha.10, run under node on models written by ModelBuilder;
// two invokes each, so the state advancing across invokes is checked too). Plus the
// distributions' moments, dynamic shapes, re-seeding by prepare, and validation.
#include <cmath>
#include <cstdint>
#include <vector>

#include "random_test_util.h"
#include "tensorflow/lite/builtin_ops.h"

namespace octet::random_test {
namespace {

using tflite::ops::builtin::Register_RANDOM_STANDARD_NORMAL;
using tflite::ops::builtin::Register_RANDOM_UNIFORM;

// Runs the model twice and checks both outputs' bit patterns.
void ExpectTwoInvokes(const std::vector<uint8_t>& bytes, const std::vector<uint32_t>& first,
                      const std::vector<uint32_t>& second) {
  LoadedModel m(bytes);
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
  EXPECT_EQ(FloatBits(Output<float>(m.interpreter.get())), first);
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
  EXPECT_EQ(FloatBits(Output<float>(m.interpreter.get())), second);
}

TEST(RandomUniformOp, MatchesTfliteSeed42And7) {
  ExpectTwoInvokes(RandomModel(tflite::BuiltinOperator_RANDOM_UNIFORM, {2, 5}, 42, 7),
                   {0x3f5cde58, 0x3f282198, 0x3f7d946a, 0x3f6731a6, 0x3f3bd280, 0x3df61960,
                    0x3f1bf1e2, 0x3ded8390, 0x3f59f8dc, 0x3baacd00},
                   {0x3f3795b4, 0x3f05aaf0, 0x3f0fab12, 0x3f2fa79c, 0x3f3e6842, 0x3f425662,
                    0x3f37d7a0, 0x3d913530, 0x3d9deb50, 0x3eb20598});
}

TEST(RandomUniformOp, MatchesTfliteNegativeSeed) {
  // seed -3 is sign-extended to 64 bits before it becomes the key.
  ExpectTwoInvokes(RandomModel(tflite::BuiltinOperator_RANDOM_UNIFORM, {6}, -3, 123456789),
                   {0x3f017684, 0x3f2b2d22, 0x3f14a3e6, 0x3e866d3c, 0x3f22ca64, 0x3e603258},
                   {0x3f315ed0, 0x3f4705b6, 0x3f1df9f8, 0x3e83cb10, 0x3f007d6e, 0x3e4090e0});
}

TEST(RandomStandardNormalOp, MatchesTfliteSeed42And7) {
  ExpectTwoInvokes(RandomModel(tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL, {3, 4}, 42, 7),
                   {0xbee7cdbe, 0xbe99cf04, 0xbda170e6, 0x3de78fee, 0x3f0a11b0, 0x3f12b8f2,
                    0x3f29ba7e, 0x3f3e2951, 0x3c98204f, 0x3f111a97, 0x3e127e0d, 0x3fe2f9dc},
                   {0xbde792bd, 0xbf4ebed1, 0xbf7d51a7, 0xbed6e77f, 0xbf44a67d, 0x3d34b487,
                    0x3eb3883d, 0x3f3bfd32, 0x3fecdecd, 0xbfa6eb00, 0x400851c9, 0x3f501a74});
}

TEST(RandomStandardNormalOp, MatchesTfliteSeed1And0) {
  ExpectTwoInvokes(RandomModel(tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL, {8}, 1, 0),
                   {0x3e9c43ca, 0x3f112ff1, 0x3ed6489c, 0x3e6e39bb, 0xbf290443, 0xc0106311,
                    0xbf086721, 0x3f857be4},
                   {0xbec8270f, 0x3f4e4f24, 0xbfd114ea, 0x3f9e79f6, 0xbede02ce, 0xbde173a2,
                    0xbf1ceef9, 0xbf98b09c});
}

TEST(RandomStandardNormalOp, MatchesTfliteOddCount) {
  // 5 values use two blocks; the second invoke starts at the third block.
  ExpectTwoInvokes(RandomModel(tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL, {5}, 42, 7),
                   {0xbee7cdbe, 0xbe99cf04, 0xbda170e6, 0x3de78fee, 0x3f0a11b0},
                   {0x3c98204f, 0x3f111a97, 0x3e127e0d, 0x3fe2f9dc, 0xbde792bd});
}

TEST(RandomUniformOp, MomentsOfALargeSample) {
  LoadedModel m(RandomModel(tflite::BuiltinOperator_RANDOM_UNIFORM, {200000}, 17, 29));
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk);
  const std::vector<float> v = Output<float>(m.interpreter.get());
  double sum = 0, sq = 0;
  for (float x : v) {
    ASSERT_GE(x, 0.0f);
    ASSERT_LT(x, 1.0f);
    sum += x;
    sq += static_cast<double>(x) * x;
  }
  const double mean = sum / v.size(), var = sq / v.size() - mean * mean;
  // Standard errors: mean 0.29/sqrt(n) = 6.5e-4; variance about 1.9e-4.
  EXPECT_NEAR(mean, 0.5, 4e-3);
  EXPECT_NEAR(var, 1.0 / 12, 2e-3);
}

TEST(RandomStandardNormalOp, MomentsOfALargeSample) {
  LoadedModel m(RandomModel(tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL, {200000}, 5, 6));
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk);
  const std::vector<float> v = Output<float>(m.interpreter.get());
  double sum = 0, sq = 0;
  int64_t within_one = 0;
  for (float x : v) {
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
    sq += static_cast<double>(x) * x;
    within_one += std::fabs(x) < 1.0f;
  }
  const double mean = sum / v.size(), var = sq / v.size() - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.01);                                              // se 2.2e-3
  EXPECT_NEAR(var, 1.0, 0.015);                                              // se 3.2e-3
  EXPECT_NEAR(static_cast<double>(within_one) / v.size(), 0.682689, 0.005);  // se 1e-3
}

TEST(RandomUniformOp, ZeroSeedsAreNondeterministic) {
  LoadedModel a(RandomModel(tflite::BuiltinOperator_RANDOM_UNIFORM, {16}, 0, 0));
  LoadedModel b(RandomModel(tflite::BuiltinOperator_RANDOM_UNIFORM, {16}, 0, 0));
  ASSERT_EQ(a.interpreter->AllocateTensors(), kTfLiteOk);
  ASSERT_EQ(b.interpreter->AllocateTensors(), kTfLiteOk);
  ASSERT_EQ(a.interpreter->Invoke(), kTfLiteOk);
  ASSERT_EQ(b.interpreter->Invoke(), kTfLiteOk);
  EXPECT_NE(Output<float>(a.interpreter.get()), Output<float>(b.interpreter.get()));
}

TEST(RandomUniformOp, DynamicShapeAndReseedOnPrepare) {
  OpModel m;
  const int shape = m.AddInput({kTfLiteInt32, {2}});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinRandomUniform, Register_RANDOM_UNIFORM(), TfLiteRandomParams{42, 7});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.tensor(out)->allocation_type, kTfLiteDynamic);
  m.SetInput<int32_t>(shape, {2, 5});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{2, 5}));
  const std::vector<float> first = m.GetOutput<float>(out);
  // Same as the constant-shape model's first invoke (the TFLite golden above).
  EXPECT_EQ(FloatBits(first)[0], 0x3f5cde58u);
  EXPECT_EQ(FloatBits(first)[9], 0x3baacd00u);
  // Prepare (here: after a resize) seeds the stream again, as TFLite's does.
  ASSERT_EQ(m.ResizeInput(shape, {3}), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(shape, {1, 3, 1});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{1, 3, 1}));
  EXPECT_EQ(m.GetOutput<float>(out), std::vector<float>(first.begin(), first.begin() + 3));
  // A zero-element shape gives an empty output.
  m.SetInput<int32_t>(shape, {0, 3, 2});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{0, 3, 2}));
}

TEST(RandomUniformOp, RejectsBadShapesTypesAndOptions) {
  {
    OpModel m;
    m.AddConstInput<float>({kTfLiteFloat32, {1}}, {2.0f});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRandomUniform, Register_RANDOM_UNIFORM(), TfLiteRandomParams{});
    ExpectBuildError(m, "RANDOM_UNIFORM: shape must be INT32");
  }
  {
    OpModel m;
    m.AddConstInput<int32_t>({kTfLiteInt32, {1, 1}}, {2});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRandomUniform, Register_RANDOM_UNIFORM(), TfLiteRandomParams{});
    ExpectBuildError(m, "RANDOM_UNIFORM: shape must be 1-D");
  }
  {
    OpModel m;
    m.AddConstInput<int32_t>({kTfLiteInt32, {2}}, {2, -1});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRandomUniform, Register_RANDOM_UNIFORM(), TfLiteRandomParams{});
    ExpectBuildError(m, "RANDOM_UNIFORM: shape[1] is negative");
  }
  {
    OpModel m;
    m.AddConstInput<int32_t>({kTfLiteInt32, {3}}, {65536, 65536, 2});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRandomUniform, Register_RANDOM_UNIFORM(), TfLiteRandomParams{});
    ExpectBuildError(m, "RANDOM_UNIFORM: output shape is too large");
  }
  {
    OpModel m;
    m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {2});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRandomUniform, Register_RANDOM_UNIFORM(), TfLiteRandomParams{});
    ExpectBuildError(m, "RANDOM_UNIFORM: output must be FLOAT32");
  }
  {
    OpModel m;
    m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {2});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRandomUniform, Register_RANDOM_UNIFORM());
    ExpectBuildError(m, "RANDOM_UNIFORM: builtin options are missing");
  }
  {
    OpModel m;
    const int shape = m.AddInput({kTfLiteInt32, {1}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinRandomStandardNormal, Register_RANDOM_STANDARD_NORMAL(),
                   TfLiteRandomParams{1, 2});
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<int32_t>(shape, {-4});
    ExpectInvokeError(m, "RANDOM_STANDARD_NORMAL: shape[0] is negative");
  }
}

}  // namespace
}  // namespace octet::random_test
