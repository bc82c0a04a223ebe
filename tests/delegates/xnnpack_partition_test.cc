// The XNNPACK delegate on partition edge cases: nodes XNNPACK refuses only when it creates a
// runtime, and partition nodes whose results nobody reads. Skipped without XNNPACK.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "format/model_builder.h"
#include "octet/xnnpack_delegate.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace {

namespace fb = ::tflite;

struct Outcome {
  std::vector<uint8_t> out;  // output 0's bytes
  int delegated = 0;
  TfLiteStatus status = kTfLiteError;
};

// Builds, optionally delegates, allocates and invokes with input 0 = a float ramp, or the bytes
// i * 5 - 120.
Outcome RunModel(const std::vector<uint8_t>& bytes, bool with_delegate) {
  Outcome r;
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size());
  if (!model) return r;
  const tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interp;
  if (tflite::InterpreterBuilder(*model, resolver)(&interp) != kTfLiteOk) return r;
  auto delegate = octet::MakeXnnpackDelegate();
  if (with_delegate && interp->ModifyGraphWithDelegate(delegate.get()) != kTfLiteOk) return r;
  if (interp->AllocateTensors() != kTfLiteOk) return r;
  TfLiteTensor* in = interp->input_tensor(0);
  if (in->type == kTfLiteFloat32) {
    for (size_t i = 0; i < in->bytes / 4; ++i)
      in->data.f[i] = static_cast<float>(i % 17) * 0.25f - 2;
  } else {
    for (size_t i = 0; i < in->bytes; ++i) in->data.raw[i] = static_cast<char>(i * 5 - 120);
  }
  r.status = interp->Invoke();
  for (int id : interp->execution_plan()) {
    r.delegated += interp->node_and_registration(id)->first.delegate != nullptr;
  }
  const TfLiteTensor* out = interp->output_tensor(0);
  r.out.assign(out->data.raw, out->data.raw + out->bytes);
  return r;
}

// Some XNNPACK limits show only when its runtime is created, not when a node is defined: an
// int8 SUB whose operand scales are 10^6 apart (MoveNet's input normalization) passed the
// define-time check, and the whole partition then failed to prepare. Such a node now stays on
// the built-in kernels and the rest is still delegated.
TEST(XnnpackPartitions, NodesXnnpackCannotRunStayBuiltIn) {
  if (!OctetXnnpackAvailable()) GTEST_SKIP() << "built without XNNPACK";
  const auto I8 = fb::TensorType_INT8;
  octet::format::ModelBuilder b;
  const int sub = b.AddOperatorCode(fb::BuiltinOperator_SUB);
  const int add = b.AddOperatorCode(fb::BuiltinOperator_ADD);
  const int x = b.AddQuantizedTensor(I8, {1, 4, 4, 3}, "x", {1.f}, {-128});
  const std::vector<int8_t> c_values = {10, -20, 30};
  const int c = b.AddQuantizedTensor(I8, {1, 1, 1, 3}, "c", {1e-6f}, {0}, 0,
                                     static_cast<uint32_t>(b.AddTypedBuffer(c_values)));
  const int d = b.AddQuantizedTensor(I8, {1, 4, 4, 3}, "d", {1.f}, {-128});
  const int y = b.AddQuantizedTensor(I8, {1, 4, 4, 3}, "y", {2.f}, {-128});
  b.AddOperator(sub, {x, c}, {d}, b.SubOptions());
  b.AddOperator(add, {d, d}, {y}, b.AddOptions());
  b.SetInputs({x});
  b.SetOutputs({d, y});
  const std::vector<uint8_t> bytes = b.Finish();

  const Outcome want = RunModel(bytes, false);
  const Outcome got = RunModel(bytes, true);
  ASSERT_EQ(got.status, kTfLiteOk);
  EXPECT_EQ(got.delegated, 1) << "the ADD delegated, the SUB left on the built-in kernels";
  EXPECT_EQ(got.out, want.out);  // the SUB's own output: computed by the built-in kernel
}

// A partition node whose result no one reads (a model cut short at an earlier output, as
// tools that expose intermediate tensors make them): XNNPACK leaves such a value without
// memory and Debian's build asserts when the runtime is set up; the delegate now binds it to
// a buffer of its own, and the used output is still right.
TEST(XnnpackPartitions, UnreadResultsInsideAPartition) {
  if (!OctetXnnpackAvailable()) GTEST_SKIP() << "built without XNNPACK";
  const auto F = fb::TensorType_FLOAT32;
  octet::format::ModelBuilder b;
  const int add = b.AddOperatorCode(fb::BuiltinOperator_ADD);
  const int mul = b.AddOperatorCode(fb::BuiltinOperator_MUL);
  const int x = b.AddTensor(F, {1, 8}, "x");
  const int sum = b.AddTensor(F, {1, 8}, "sum");
  const int unread = b.AddTensor(F, {1, 8}, "unread");
  b.AddOperator(add, {x, x}, {sum}, b.AddOptions());
  b.AddOperator(mul, {sum, sum}, {unread}, b.MulOptions());
  b.SetInputs({x});
  b.SetOutputs({sum});
  const std::vector<uint8_t> bytes = b.Finish();
  const Outcome want = RunModel(bytes, false);
  const Outcome got = RunModel(bytes, true);
  ASSERT_EQ(got.status, kTfLiteOk);
  EXPECT_EQ(got.delegated, 1);
  EXPECT_EQ(got.out, want.out);
}

// RESIZE_BILINEAR is delegated (as TFLite's XNNPACK delegate does; with it, Octet's XNNPACK
// runs of MoveNet equal TFLite's default XNNPACK runs byte for byte) in each sampling mode,
// and gives the built-in kernel's float results.
TEST(XnnpackPartitions, ResizeBilinearModes) {
  if (!OctetXnnpackAvailable()) GTEST_SKIP() << "built without XNNPACK";
  const auto F = fb::TensorType_FLOAT32;
  for (int mode = 0; mode < 3; ++mode) {  // legacy, align_corners, half_pixel_centers
    octet::format::ModelBuilder b;
    const int resize = b.AddOperatorCode(fb::BuiltinOperator_RESIZE_BILINEAR);
    const int x = b.AddTensor(F, {1, 3, 5, 2}, "x");
    const int size = b.AddConstTensor<int32_t>(fb::TensorType_INT32, {2}, {7, 4}, "size");
    const int y = b.AddTensor(F, {1, 7, 4, 2}, "y");
    const octet::format::BuiltOptions options{
        fb::BuiltinOptions_ResizeBilinearOptions,
        fb::CreateResizeBilinearOptions(b.fbb(), mode == 1, mode == 2).Union()};
    b.AddOperator(resize, {x, size}, {y}, options);
    b.SetInputs({x});
    b.SetOutputs({y});
    const std::vector<uint8_t> bytes = b.Finish();
    const Outcome want = RunModel(bytes, false);
    const Outcome got = RunModel(bytes, true);
    ASSERT_EQ(got.status, kTfLiteOk) << "mode " << mode;
    EXPECT_EQ(got.delegated, 1) << "mode " << mode;
    ASSERT_EQ(got.out.size(), want.out.size());
    std::vector<float> a(got.out.size() / 4), c(want.out.size() / 4);
    std::memcpy(a.data(), got.out.data(), got.out.size());
    std::memcpy(c.data(), want.out.data(), want.out.size());
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(a[i], c[i], 1e-4f) << "mode " << mode << " " << i;
  }
}

}  // namespace
