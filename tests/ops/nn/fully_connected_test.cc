#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace octet {
namespace {

using testing::OpModel;

TfLiteFullyConnectedParams Params(TfLiteFusedActivation act = kTfLiteActNone,
                                  bool keep_num_dims = false) {
  TfLiteFullyConnectedParams p{};
  p.activation = act;
  p.weights_format = kTfLiteFullyConnectedWeightsFormatDefault;
  p.keep_num_dims = keep_num_dims;
  return p;
}

std::vector<double> Naive(int batches, int depth, int units, const std::vector<float>& in,
                          const std::vector<float>& w, const std::vector<float>* b,
                          TfLiteFusedActivation act) {
  std::vector<double> out;
  for (int i = 0; i < batches; ++i)
    for (int o = 0; o < units; ++o) {
      double acc = b ? (*b)[o] : 0.0;
      for (int d = 0; d < depth; ++d)
        acc += static_cast<double>(in[i * depth + d]) * w[o * depth + d];
      if (act == kTfLiteActRelu) acc = std::max(acc, 0.0);
      if (act == kTfLiteActReluN1To1) acc = std::min(std::max(acc, -1.0), 1.0);
      out.push_back(acc);
    }
  return out;
}

struct FcRun {
  std::vector<int> shape;
  std::vector<float> values;
};

FcRun RunFc(const std::vector<int>& input_shape, int units, int depth, bool bias,
            const TfLiteFullyConnectedParams& p, const std::vector<float>& in,
            const std::vector<float>& w, const std::vector<float>& b) {
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, input_shape});
  m.AddConstInput({kTfLiteFloat32, {units, depth}}, w);
  if (bias) m.AddConstInput({kTfLiteFloat32, {units}}, b);
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_FULLY_CONNECTED,
                 tflite::ops::builtin::Register_FULLY_CONNECTED(), p);
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  return {m.GetShape(output), m.GetOutput<float>(output)};
}

TEST(Nn_FullyConnected, HandWorked) {
  // Two rows, weights [[1, 2, 3], [-1, 0, 1]], bias [0.5, -0.5].
  const FcRun r =
      RunFc({2, 3}, 2, 3, true, Params(), {1, 1, 1, 2, 0, -2}, {1, 2, 3, -1, 0, 1}, {0.5f, -0.5f});
  EXPECT_EQ(r.shape, (std::vector<int>{2, 2}));
  EXPECT_EQ(r.values, (std::vector<float>{6.5f, -0.5f, -3.5f, -4.5f}));
}

TEST(Nn_FullyConnected, FlattensLeadingDims) {
  // [2, 3, 4] with depth 6: read as 4 rows of 6.
  const auto in = nn_test::Random(24, 7), w = nn_test::Random(30, 8), b = nn_test::Random(5, 9);
  const FcRun r = RunFc({2, 3, 4}, 5, 6, true, Params(kTfLiteActRelu), in, w, b);
  EXPECT_EQ(r.shape, (std::vector<int>{4, 5}));
  nn_test::ExpectAllNear(r.values, Naive(4, 6, 5, in, w, &b, kTfLiteActRelu));
}

TEST(Nn_FullyConnected, KeepNumDims) {
  const auto in = nn_test::Random(2 * 3 * 4, 10), w = nn_test::Random(7 * 4, 11);
  const FcRun r = RunFc({2, 3, 4}, 7, 4, false, Params(kTfLiteActReluN1To1, true), in, w, {});
  EXPECT_EQ(r.shape, (std::vector<int>{2, 3, 7}));
  nn_test::ExpectAllNear(r.values, Naive(6, 4, 7, in, w, nullptr, kTfLiteActReluN1To1));
}

TEST(Nn_FullyConnected, AbsentBiasSlot) {
  const auto in = nn_test::Random(8, 12), w = nn_test::Random(12, 13);
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {2, 4}});
  m.AddConstInput({kTfLiteFloat32, {3, 4}}, w);
  m.AddNullInput();
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_FULLY_CONNECTED,
                 tflite::ops::builtin::Register_FULLY_CONNECTED(), Params());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(input, in);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  nn_test::ExpectAllNear(m.GetOutput<float>(output),
                         Naive(2, 4, 3, in, w, nullptr, kTfLiteActNone));
}

TEST(Nn_FullyConnected, ResizedInputReprepares) {
  const auto w = nn_test::Random(6, 14);
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, {1, 3}});
  m.AddConstInput({kTfLiteFloat32, {2, 3}}, w);
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_FULLY_CONNECTED,
                 tflite::ops::builtin::Register_FULLY_CONNECTED(), Params());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  ASSERT_EQ(m.ResizeInput(input, {4, 3}), kTfLiteOk) << m.error();
  const auto in = nn_test::Random(12, 15);
  m.SetInput(input, in);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), (std::vector<int>{4, 2}));
  nn_test::ExpectAllNear(m.GetOutput<float>(output),
                         Naive(4, 3, 2, in, w, nullptr, kTfLiteActNone));
}

std::string BuildError(std::vector<int> input, std::vector<int> weights, std::vector<int> bias,
                       TfLiteFullyConnectedParams p, TfLiteType weights_type = kTfLiteFloat32) {
  OpModel m;
  m.AddInput({kTfLiteFloat32, input});
  m.AddInput({weights_type, weights});
  if (!bias.empty()) m.AddInput({kTfLiteFloat32, bias});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_FULLY_CONNECTED,
                 tflite::ops::builtin::Register_FULLY_CONNECTED(), p);
  EXPECT_NE(m.Build(), kTfLiteOk);
  return m.error();
}

TEST(Nn_FullyConnected, Rejections) {
  EXPECT_NE(BuildError({2, 5}, {3, 4}, {3}, Params())
                .find("FULLY_CONNECTED: input size 10 is not a multiple of the weights depth 4"),
            std::string::npos);
  EXPECT_NE(BuildError({2, 4}, {3, 4}, {2}, Params())
                .find("FULLY_CONNECTED: bias has 2 elements, expected 3"),
            std::string::npos);
  EXPECT_NE(BuildError({2, 4}, {3, 4, 1}, {}, Params())
                .find("FULLY_CONNECTED: weights must have 2 dimensions, got 3"),
            std::string::npos);
  EXPECT_NE(BuildError({2, 4}, {3, 0}, {}, Params())
                .find("FULLY_CONNECTED: weights must have > 0 columns"),
            std::string::npos);
  EXPECT_NE(BuildError({4, 2}, {3, 4}, {}, Params(kTfLiteActNone, true))
                .find("FULLY_CONNECTED: keep_num_dims needs the input's last dimension"),
            std::string::npos);
  EXPECT_NE(BuildError({2, 4}, {3, 4}, {}, Params(kTfLiteActSigmoid))
                .find("FULLY_CONNECTED: unsupported fused activation"),
            std::string::npos);
  EXPECT_NE(BuildError({2, 4}, {3, 4}, {}, Params(), kTfLiteInt16)
                .find("FULLY_CONNECTED: weights type INT16 is not supported"),
            std::string::npos);
  auto shuffled = Params();
  shuffled.weights_format = kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8;
  EXPECT_NE(BuildError({2, 4}, {3, 4}, {}, shuffled).find("FULLY_CONNECTED: weights_format 1"),
            std::string::npos);
}

}  // namespace
}  // namespace octet
