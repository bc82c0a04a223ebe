// Regression tests for what fuzz/fuzz_model found (issue 12), each input rebuilt in code.
// (The requantization-multiplier findings are in quant_multiplier_test.cc.)
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "ops/nn/nn_ops.h"
#include "security/hostile_model.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/op_model.h"

namespace octet::security {
namespace {

using namespace tflite;  // NOLINT: BuiltinOperator_*, TensorType_*

// An int8 ADD whose tensors carry int64 zero points (-3, 5, 7); zp_out sets the output's.
std::vector<uint8_t> Int8AddModel(int64_t zp_out = 7) {
  OneOp m;
  m.In(TensorType_INT8, {1, 4}, PerTensor(0.5f, -3));
  m.In(TensorType_INT8, {1, 4}, PerTensor(0.5f, 5));
  m.Out(TensorType_INT8, {1, 4}, PerTensor(1.f, zp_out));
  return m.Finish(BuiltinOperator_ADD, m.b().AddOptions());
}

// The model's bytes at an address that is 4 mod 8 (a copy the test owns).
struct MisalignedCopy {
  explicit MisalignedCopy(const std::vector<uint8_t>& bytes) : storage(bytes.size() + 16) {
    const auto base = reinterpret_cast<uintptr_t>(storage.data());
    data = storage.data() + (12 - base % 8) % 8;  // 8-aligned + 4
    std::memcpy(data, bytes.data(), bytes.size());
    size = bytes.size();
  }
  std::vector<uint8_t> storage;
  uint8_t* data;
  size_t size;
};

Outcome RunAt(const uint8_t* data, size_t size) {
  return RunModel(std::vector<uint8_t>(data, data + size), [](Interpreter* in) {
    const int8_t a[4] = {-3, 1, 9, -128}, b[4] = {5, 7, -1, 127};
    std::memcpy(in->typed_input_tensor<int8_t>(0), a, 4);
    std::memcpy(in->typed_input_tensor<int8_t>(1), b, 4);
  });
}

// fuzz_model crash-050e0676: the flatbuffers verifier checks only a vector's 4-byte length
// prefix, so a file could place QuantizationParameters.zero_point ([long]) at a 4-byte
// boundary and the verifier's range check and the interpreter builder read it with an
// unaligned int64 load (UBSan: "load of misaligned address ... for type 'const long'").
// Reproduced here by loading a valid model from a buffer 4 bytes off 8-byte alignment:
// every zero point is then misaligned. Now the zero points are read with memcpy.
TEST(Security_FuzzFindings, MisalignedInt64ZeroPoints) {
  const std::vector<uint8_t> bytes = Int8AddModel();
  const Outcome aligned = RunAt(bytes.data(), bytes.size());
  ASSERT_EQ(aligned.stage, Stage::kOk) << aligned.error;

  MisalignedCopy copy(bytes);
  ASSERT_EQ(reinterpret_cast<uintptr_t>(copy.data) % 8, 4u);
  CaptureReporter reporter;
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(copy.data),
                                                        copy.size, &reporter);
  ASSERT_NE(model, nullptr) << reporter.text;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  ASSERT_EQ(tflite::InterpreterBuilder(*model, resolver)(&interpreter), kTfLiteOk);
  ASSERT_EQ(interpreter->AllocateTensors(), kTfLiteOk) << reporter.text;
  EXPECT_EQ(interpreter->tensor(interpreter->inputs()[0])->params.zero_point, -3);
  EXPECT_EQ(interpreter->tensor(interpreter->inputs()[1])->params.zero_point, 5);
  EXPECT_EQ(interpreter->tensor(interpreter->outputs()[0])->params.zero_point, 7);
  const int8_t a[4] = {-3, 1, 9, -128}, b[4] = {5, 7, -1, 127};
  std::memcpy(interpreter->typed_input_tensor<int8_t>(0), a, 4);
  std::memcpy(interpreter->typed_input_tensor<int8_t>(1), b, 4);
  ASSERT_EQ(interpreter->Invoke(), kTfLiteOk) << reporter.text;
  const int8_t* out = interpreter->typed_output_tensor<int8_t>(0);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4), aligned.outputs[0]);
}

// The verifier's zero point range check reads the same misaligned vector.
TEST(Security_FuzzFindings, MisalignedZeroPointStillRangeChecked) {
  MisalignedCopy copy(Int8AddModel(/*zp_out=*/1000));
  CaptureReporter reporter;
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(copy.data),
                                                        copy.size, &reporter);
  EXPECT_EQ(model, nullptr);
  EXPECT_NE(reporter.text.find("zero point 1000 out of range [-128, 127]"), std::string::npos)
      << reporter.text;
}

}  // namespace
}  // namespace octet::security

// Found by CI's fuzz step: an int8 FULLY_CONNECTED whose input has zero rows took the
// single-tile GEMM path, which indexed its row table at -1. Zero rows must compute nothing.
namespace {

TEST(Security_FuzzFindings, FullyConnectedWithZeroRows) {
  octet::testing::OpModel m;
  const int in = m.AddInput({kTfLiteInt8, {0, 4}, {0.5f}, {0}});
  m.AddConstInput<int8_t>({kTfLiteInt8, {3, 4}, {0.25f}, {0}},
                          std::vector<int8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  m.AddConstInput<int32_t>({kTfLiteInt32, {3}, {0.125f}, {0}}, std::vector<int32_t>{1, 2, 3});
  const int out = m.AddOutput({kTfLiteInt8, {0, 3}, {1.0f}, {0}});
  TfLiteFullyConnectedParams p{};
  m.SetBuiltinOp(kTfLiteBuiltinFullyConnected, tflite::ops::builtin::Register_FULLY_CONNECTED(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  (void)in;
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_TRUE(m.GetOutput<int8_t>(out).empty());
}

}  // namespace

// fuzz_model crash-ccd69029: an int8 SOFTMAX over 8192 equal logits. The Q12.19 sum of exps
// (1.0 each) wrapped to exactly 0 and GetReciprocal shifted by 32 (UBSan), on the exp-table
// kernel as on the reference (TFLite's sum overflows too). The sum now saturates; every
// probability (1/8192) is 0 in int8 units, i.e. -128, on both kernels.
namespace {

TEST(Security_FuzzFindings, SoftmaxOver8192EqualLogits) {
  for (const TfLiteRegistration* reg : {tflite::ops::builtin::Register_SOFTMAX(),
                                        tflite::ops::builtin::Register_SOFTMAX_REF()}) {
    octet::testing::OpModel m;
    const int in = m.AddInput({kTfLiteInt8, {1, 8192}, {0.1f}, {3}});
    const int out = m.AddOutput({kTfLiteInt8, {1, 8192}, {1.0f / 256}, {-128}});
    TfLiteSoftmaxParams p{1.0f};
    m.SetBuiltinOp(kTfLiteBuiltinSoftmax, reg, p);
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    m.SetInput<int8_t>(in, std::vector<int8_t>(8192, 42));
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    const std::vector<int8_t> got = m.GetOutput<int8_t>(out);
    EXPECT_EQ(got, std::vector<int8_t>(8192, -128));
  }
}

}  // namespace

// Found by CI's fuzz step: a float CONV_2D with an empty batch but a 70000 x 70000 output
// image overflowed int in the optimized driver's interior/border pixel split. An empty
// output computes nothing.
namespace {

TEST(Security_FuzzFindings, FloatConvWithEmptyBatchAndHugeImage) {
  octet::testing::OpModel m;
  const int in = m.AddInput({kTfLiteFloat32, {0, 70000, 70000, 1}});
  m.AddConstInput<float>({kTfLiteFloat32, {1, 1, 1, 1}}, std::vector<float>{2.f});
  m.AddConstInput<float>({kTfLiteFloat32, {1}}, std::vector<float>{0.5f});
  const int out = m.AddOutput({kTfLiteFloat32, {0, 70000, 70000, 1}});
  TfLiteConvParams p{};
  p.padding = kTfLitePaddingValid;
  p.stride_width = p.stride_height = 1;
  p.dilation_width_factor = p.dilation_height_factor = 1;
  m.SetBuiltinOp(kTfLiteBuiltinConv2d, tflite::ops::builtin::Register_CONV_2D(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  (void)in;
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_TRUE(m.GetOutput<float>(out).empty());
}

}  // namespace
