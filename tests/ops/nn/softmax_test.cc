#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/kernel_paths.h"
#include "util/op_model.h"

namespace octet {
namespace {

using testing::OpModel;

std::vector<double> NaiveSoftmax(const std::vector<float>& in, int depth, double beta, bool log) {
  std::vector<double> out(in.size());
  for (size_t row = 0; row < in.size() / depth; ++row) {
    double sum = 0;
    for (int c = 0; c < depth; ++c) sum += std::exp(beta * in[row * depth + c]);
    for (int c = 0; c < depth; ++c) {
      const double v = beta * in[row * depth + c];
      out[row * depth + c] = log ? v - std::log(sum) : std::exp(v) / sum;
    }
  }
  return out;
}

std::vector<float> RunSoftmax(bool log, const std::vector<int>& shape, const std::vector<float>& in,
                              float beta, std::vector<int>* out_shape = nullptr,
                              TfLiteRegistration* softmax = nullptr) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, shape});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  if (log) {
    m.SetBuiltinOp(tflite::BuiltinOperator_LOG_SOFTMAX,
                   tflite::ops::builtin::Register_LOG_SOFTMAX());
  } else {
    TfLiteSoftmaxParams p{};
    p.beta = beta;
    m.SetBuiltinOp(tflite::BuiltinOperator_SOFTMAX,
                   softmax ? softmax : tflite::ops::builtin::Register_SOFTMAX(), p);
  }
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  if (out_shape) *out_shape = m.GetShape(output);
  return m.GetOutput<float>(output);
}

TEST(Nn_Softmax, FloatOnEveryPathAgainstDoubleAndPinnedReference) {
  // Rows of 1 to 40 values (vector tails), beta 1 and 0.3, logits up to ±30.
  std::vector<cpu::Isa> paths = testing::OptimizedPaths();
  paths.push_back(cpu::Isa::kReference);
  for (int depth : {1, 7, 8, 17, 40}) {
    const auto in = nn_test::Random(3 * depth, 60 + depth, -30.f, 30.f);
    for (float beta : {1.f, 0.3f}) {
      std::vector<float> pinned_first;
      for (cpu::Isa isa : paths) {
        SCOPED_TRACE(std::string(cpu::IsaName(isa)) + " depth " + std::to_string(depth));
        testing::IsaScope scope(isa);
        const auto out = RunSoftmax(false, {3, depth}, in, beta);
        nn_test::ExpectAllNear(out, NaiveSoftmax(in, depth, beta, false), 1e-7, 1e-5);
        // The pinned registration runs the reference loops on every path: the same bits.
        const auto pinned = RunSoftmax(false, {3, depth}, in, beta, nullptr,
                                       tflite::ops::builtin::Register_SOFTMAX_REF());
        if (pinned_first.empty()) pinned_first = pinned;
        EXPECT_EQ(pinned, pinned_first);
      }
    }
  }
}

TEST(Nn_Softmax, HandWorked) {
  // softmax([0, ln 3]) = [0.25, 0.75]
  const auto out = RunSoftmax(false, {1, 2}, {0.f, std::log(3.f)}, 1.f);
  EXPECT_FLOAT_EQ(out[0], 0.25f);
  EXPECT_FLOAT_EQ(out[1], 0.75f);
}

TEST(Nn_Softmax, LastAxisOfRank4WithBeta) {
  const auto in = nn_test::Random(2 * 3 * 2 * 5, 31, -4.f, 4.f);
  std::vector<int> shape;
  const auto out = RunSoftmax(false, {2, 3, 2, 5}, in, 0.7f, &shape);
  EXPECT_EQ(shape, (std::vector<int>{2, 3, 2, 5}));
  nn_test::ExpectAllNear(out, NaiveSoftmax(in, 5, 0.7, false), 1e-6, 1e-5);
}

TEST(Nn_Softmax, LargeLogitsAreStable) {
  // Without max subtraction exp(1000) overflows.
  const auto out = RunSoftmax(false, {3}, {1000.f, 999.f, -1000.f}, 1.f);
  const double e = std::exp(-1.0);
  nn_test::ExpectAllNear(out, {1 / (1 + e), e / (1 + e), 0.0}, 1e-6, 1e-5);
}

TEST(Nn_LogSoftmax, AgainstNaive) {
  const auto in = nn_test::Random(4 * 7, 32, -5.f, 5.f);
  nn_test::ExpectAllNear(RunSoftmax(true, {4, 7}, in, 1.f), NaiveSoftmax(in, 7, 1.0, true), 1e-5,
                         1e-5);
  const auto big = RunSoftmax(true, {2}, {500.f, 0.f}, 1.f);
  nn_test::ExpectAllNear(big, {0.0, -500.0}, 1e-4, 1e-6);
}

TEST(Nn_Softmax, Rejections) {
  {
    OpModel m;
    m.AddInput({kTfLiteInt16, {2, 3}});
    m.AddOutput({kTfLiteInt8, {}});
    TfLiteSoftmaxParams p{1.f};
    m.SetBuiltinOp(tflite::BuiltinOperator_SOFTMAX, tflite::ops::builtin::Register_SOFTMAX(), p);
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("SOFTMAX: input INT16 with output INT8 is not supported"),
              std::string::npos);
  }
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_LOG_SOFTMAX,
                   tflite::ops::builtin::Register_LOG_SOFTMAX());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("LOG_SOFTMAX: input must have at least 1 dimensions, got 0"),
              std::string::npos);
  }
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {2}});
    m.AddInput({kTfLiteFloat32, {2}});
    m.AddOutput({kTfLiteFloat32, {}});
    TfLiteSoftmaxParams p{1.f};
    m.SetBuiltinOp(tflite::BuiltinOperator_SOFTMAX, tflite::ops::builtin::Register_SOFTMAX(), p);
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("SOFTMAX: expected 1 inputs, got 2"), std::string::npos);
  }
}

}  // namespace
}  // namespace octet
