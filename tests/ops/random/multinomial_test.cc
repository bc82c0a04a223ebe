// MULTINOMIAL: samples for fixed seeds equal what TFLite itself produced (its WASM build from
// npm @tensorflow/tfjs-tflite 0.0.1-alpha.10, two invokes per model, int32 output; that
// runner cannot read int64 outputs, so the int64 path is checked equal to the int32 one).
// Plus class frequencies against softmax, non-finite logits, dynamic inputs and validation.
#include <cmath>
#include <cstdint>
#include <vector>

#include "random_test_util.h"
#include "tensorflow/lite/builtin_ops.h"

namespace octet::random_test {
namespace {

using tflite::ops::builtin::Register_MULTINOMIAL;

template <typename T>
void ExpectTwoInvokes(const std::vector<uint8_t>& bytes, const std::vector<T>& first,
                      const std::vector<T>& second) {
  LoadedModel m(bytes);
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
  EXPECT_EQ(Output<T>(m.interpreter.get()), first);
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
  EXPECT_EQ(Output<T>(m.interpreter.get()), second);
}

const std::vector<float> kLogits2x4 = {0.f, 1.f, 2.f, -1.f, 3.f, 3.f, -5.f, 0.5f};

TEST(MultinomialOp, MatchesTfliteSeed5And9) {
  const std::vector<int32_t> first = {2, 2, 2, 1, 2, 2, 2, 2, 1, 2, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1};
  const std::vector<int32_t> second = {2, 2, 2, 2, 2, 2, 1, 2, 3, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 1};
  ExpectTwoInvokes<int32_t>(
      MultinomialModel({2, 4}, kLogits2x4, 10, 5, 9, tflite::TensorType_INT32), first, second);
  ExpectTwoInvokes<int64_t>(
      MultinomialModel({2, 4}, kLogits2x4, 10, 5, 9, tflite::TensorType_INT64),
      std::vector<int64_t>(first.begin(), first.end()),
      std::vector<int64_t>(second.begin(), second.end()));
}

TEST(MultinomialOp, MatchesTfliteThreeRows) {
  // 7 samples per row: the fourth block's words carry over from one row into the next.
  ExpectTwoInvokes<int32_t>(
      MultinomialModel({3, 3}, {1.f, 1.f, 1.f, 0.f, 10.f, 0.f, -2.f, 0.f, 2.f}, 7, 11, 0,
                       tflite::TensorType_INT32),
      {0, 2, 1, 0, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2},
      {1, 0, 0, 1, 0, 2, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 1, 2, 2});
}

TEST(MultinomialOp, MatchesTfliteNonFiniteLogits) {
  // Row 0: only class 1 is finite. Row 1: no finite logit, so every sample is `classes`.
  ExpectTwoInvokes<int32_t>(
      MultinomialModel({2, 3}, {-INFINITY, 0.f, NAN, -INFINITY, NAN, INFINITY}, 5, 3, 4,
                       tflite::TensorType_INT32),
      {1, 1, 1, 1, 1, 3, 3, 3, 3, 3}, {1, 1, 1, 1, 1, 3, 3, 3, 3, 3});
}

TEST(MultinomialOp, FrequenciesFollowSoftmax) {
  const std::vector<float> logits = {0.5f, -1.0f, 2.0f, 0.0f, 1.0f};
  const int n = 100000;
  LoadedModel m(MultinomialModel({1, 5}, logits, n, 123, 456, tflite::TensorType_INT64));
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk);
  const std::vector<int64_t> samples = Output<int64_t>(m.interpreter.get());
  ASSERT_EQ(samples.size(), static_cast<size_t>(n));
  std::vector<double> counts(5, 0);
  for (int64_t s : samples) {
    ASSERT_GE(s, 0);
    ASSERT_LT(s, 5);
    counts[s] += 1;
  }
  double z = 0;
  for (float l : logits) z += std::exp(static_cast<double>(l));
  for (int c = 0; c < 5; ++c) {
    const double p = std::exp(static_cast<double>(logits[c])) / z;
    const double se = std::sqrt(p * (1 - p) / n);
    EXPECT_NEAR(counts[c] / n, p, 5 * se) << "class " << c;
  }
}

TEST(MultinomialOp, DynamicInputsAndEmptyOutputs) {
  OpModel m;
  const int logits = m.AddInput({kTfLiteFloat32, {2, 4}});
  const int num = m.AddInput({kTfLiteInt32, {}});
  const int out = m.AddOutput({kTfLiteInt32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinMultinomial, Register_MULTINOMIAL(), TfLiteRandomParams{5, 9});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.tensor(out)->allocation_type, kTfLiteDynamic);
  m.SetInput(logits, kLogits2x4);
  m.SetInput<int32_t>(num, {10});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{2, 10}));
  // The TFLite golden for seeds (5, 9), first invoke.
  EXPECT_EQ(m.GetOutput<int32_t>(out),
            (std::vector<int32_t>{2, 2, 2, 1, 2, 2, 2, 2, 1, 2, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1}));
  m.SetInput<int32_t>(num, {0});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{2, 0}));
  m.SetInput<int32_t>(num, {-1});
  ExpectInvokeError(m, "MULTINOMIAL: num_samples must be >= 0, got -1");
  m.SetInput<int32_t>(num, {2000000000});
  ExpectInvokeError(m, "MULTINOMIAL: output [2, 2000000000] is too large");
}

TEST(MultinomialOp, RejectsBadInputs) {
  struct Case {
    TfLiteType logits_type;
    std::vector<int> logits_shape;
    TfLiteType num_type;
    std::vector<int> num_shape;
    TfLiteType out_type;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteInt32, {1, 2}, kTfLiteInt32, {}, kTfLiteInt64, "logits must be FLOAT32"},
      {kTfLiteFloat32, {2}, kTfLiteInt32, {}, kTfLiteInt64, "logits must be 2-D"},
      {kTfLiteFloat32,
       {2, 0},
       kTfLiteInt32,
       {},
       kTfLiteInt64,
       "logits must have at least one class"},
      {kTfLiteFloat32, {1, 2}, kTfLiteInt64, {}, kTfLiteInt64, "num_samples must be INT32"},
      {kTfLiteFloat32, {1, 2}, kTfLiteInt32, {1}, kTfLiteInt64, "num_samples must be a scalar"},
      {kTfLiteFloat32, {1, 2}, kTfLiteInt32, {}, kTfLiteFloat32, "output must be INT64 or INT32"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    OpModel m;
    m.AddInput({c.logits_type, c.logits_shape});
    m.AddInput({c.num_type, c.num_shape});
    m.AddOutput({c.out_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinMultinomial, Register_MULTINOMIAL(), TfLiteRandomParams{1, 1});
    ExpectBuildError(m, std::string("MULTINOMIAL: ") + c.message);
  }
  OpModel m;
  m.AddInput({kTfLiteFloat32, {1, 2}});
  m.AddInput({kTfLiteInt32, {}});
  m.AddOutput({kTfLiteInt64, {}});
  m.SetBuiltinOp(kTfLiteBuiltinMultinomial, Register_MULTINOMIAL());
  ExpectBuildError(m, "MULTINOMIAL: builtin options are missing");
}

}  // namespace
}  // namespace octet::random_test
