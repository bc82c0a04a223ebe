// The interpreter's memory limit (issue 12): arenas, kernels' persistent buffers and heap
// tensors are checked against it before they are allocated, and a model past it is refused
// with an error naming the request instead of exhausting the machine.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/capture_reporter.h"

namespace {

using octet::format::ModelBuilder;

using Collect = ::octet::testing::CaptureReporter;

// out = a + b, float32 of `shape`.
std::vector<uint8_t> AddModel(const std::vector<int32_t>& shape) {
  ModelBuilder b;
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  const int a = b.AddTensor(tflite::TensorType_FLOAT32, shape, "a");
  const int c = b.AddTensor(tflite::TensorType_FLOAT32, shape, "b");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, shape, "out");
  b.AddOperator(add, {a, c}, {out}, b.AddOptions());
  b.SetInputs({a, c});
  b.SetOutputs({out});
  return b.Finish();
}

// A chain out_k = out_{k-1} + out_{k-1}, every out_k a graph output so that all stay live:
// `count` tensors of `elements` floats each (the verifier allows < 2 GiB per tensor).
std::vector<uint8_t> ManyLiveTensorsModel(int count, int elements) {
  ModelBuilder b;
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  int previous = b.AddTensor(tflite::TensorType_FLOAT32, {elements}, "in");
  b.SetInputs({previous});
  std::vector<int32_t> outputs;
  for (int k = 0; k < count; ++k) {
    const int out = b.AddTensor(tflite::TensorType_FLOAT32, {elements}, "out" + std::to_string(k));
    b.AddOperator(add, {previous, previous}, {out}, b.AddOptions());
    outputs.push_back(out);
    previous = out;
  }
  b.SetOutputs(outputs);
  return b.Finish();
}

// An int8 FULLY_CONNECTED [1, 4096] x [256, 4096]: 1 MiB of weights to pack, a few KiB of
// activations.
std::vector<uint8_t> WideFullyConnectedModel() {
  ModelBuilder b;
  const int fc = b.AddOperatorCode(tflite::BuiltinOperator_FULLY_CONNECTED, 4);
  const int in = b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 4096}, "in", {0.5f}, {-3});
  std::vector<int8_t> weights(256 * 4096);
  for (size_t i = 0; i < weights.size(); ++i)
    weights[i] = static_cast<int8_t>((i * 37) % 255 - 127);
  const int w = b.AddQuantizedTensor(tflite::TensorType_INT8, {256, 4096}, "w", {0.01f}, {0}, 0,
                                     static_cast<uint32_t>(b.AddTypedBuffer(weights)));
  const int out = b.AddQuantizedTensor(tflite::TensorType_INT8, {1, 256}, "out", {4.0f}, {5});
  b.AddOperator(fc, {in, w, -1}, {out}, b.FullyConnectedOptions());
  b.SetInputs({in});
  b.SetOutputs({out});
  return b.Finish();
}

// out = reshape(in, shape) with the shape an input: the output is sized at Invoke, on the heap.
std::vector<uint8_t> DynamicReshapeModel(int elements) {
  ModelBuilder b;
  const int reshape = b.AddOperatorCode(tflite::BuiltinOperator_RESHAPE);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, elements}, "in");
  const int shape = b.AddTensor(tflite::TensorType_INT32, {2}, "shape");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {}, "out");
  b.AddOperator(reshape, {in, shape}, {out});
  b.SetInputs({in, shape});
  b.SetOutputs({out});
  return b.Finish();
}

struct Built {
  std::vector<uint8_t> bytes;
  Collect reporter;
  std::unique_ptr<tflite::FlatBufferModel> model;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
};

std::unique_ptr<Built> Build(std::vector<uint8_t> bytes) {
  auto b = std::make_unique<Built>();
  b->bytes = std::move(bytes);
  b->model = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(b->bytes.data()), b->bytes.size(), &b->reporter);
  EXPECT_TRUE(b->model) << b->reporter.text;
  if (!b->model) return b;
  EXPECT_EQ(tflite::InterpreterBuilder(*b->model, b->resolver)(&b->interpreter), kTfLiteOk)
      << b->reporter.text;
  return b;
}

TEST(MemoryLimit, DefaultIsFiniteAndHalfThePhysicalMemoryAtMost) {
  auto b = Build(AddModel({1, 4}));
  ASSERT_TRUE(b->interpreter);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (std::getenv("OCTET_MAX_MEMORY") == nullptr && pages > 0 && page > 0) {
    EXPECT_EQ(b->interpreter->max_memory_bytes(), static_cast<size_t>(pages) * page / 2);
  }
  EXPECT_LT(b->interpreter->max_memory_bytes(), SIZE_MAX);
}

// A hostile file whose 201 live tensors of 1 GiB each need 201 GiB: refused by the default
// limit at AllocateTensors with the sizes named, not an out-of-memory kill.
TEST(MemoryLimit, ModelAskingForHundredsOfGigabytesIsRefusedByDefault) {
  auto b = Build(ManyLiveTensorsModel(200, 1 << 28));
  ASSERT_TRUE(b->interpreter);
  EXPECT_EQ(b->interpreter->AllocateTensors(), kTfLiteError);
  EXPECT_NE(b->reporter.text.find("the tensor arenas need 201.00 GiB"), std::string::npos)
      << b->reporter.text;
  EXPECT_NE(b->reporter.text.find("memory limit of"), std::string::npos) << b->reporter.text;
  EXPECT_EQ(b->interpreter->memory_used_bytes(), 0u);
}

TEST(MemoryLimit, ArenaPastTheLimitFailsAndFitsOnceRaised) {
  auto b = Build(AddModel({1, 256, 256, 4}));  // 1 MiB per tensor, 3 live at once
  ASSERT_TRUE(b->interpreter);
  b->interpreter->SetMaxMemoryBytes(2 << 20);
  EXPECT_EQ(b->interpreter->AllocateTensors(), kTfLiteError);
  EXPECT_NE(b->reporter.text.find("limit of 2.00 MiB"), std::string::npos) << b->reporter.text;
  b->reporter.text.clear();
  b->interpreter->SetMaxMemoryBytes(4 << 20);
  ASSERT_EQ(b->interpreter->AllocateTensors(), kTfLiteOk) << b->reporter.text;
  EXPECT_GE(b->interpreter->memory_used_bytes(), size_t{3} << 20);
  EXPECT_LE(b->interpreter->memory_used_bytes(), size_t{4} << 20);
  // It still computes: out = a + b.
  float* a = b->interpreter->typed_input_tensor<float>(0);
  float* c = b->interpreter->typed_input_tensor<float>(1);
  for (int i = 0; i < 256 * 256 * 4; ++i) a[i] = static_cast<float>(i), c[i] = 0.5f;
  ASSERT_EQ(b->interpreter->Invoke(), kTfLiteOk);
  EXPECT_EQ(b->interpreter->typed_output_tensor<float>(0)[1000], 1000.5f);
  // A smaller input gives memory back to the budget.
  const size_t before = b->interpreter->memory_used_bytes();
  ASSERT_EQ(b->interpreter->ResizeInputTensor(0, {1, 16, 16, 4}), kTfLiteOk);
  ASSERT_EQ(b->interpreter->ResizeInputTensor(1, {1, 16, 16, 4}), kTfLiteOk);
  ASSERT_EQ(b->interpreter->AllocateTensors(), kTfLiteOk);
  EXPECT_LT(b->interpreter->memory_used_bytes(), before / 10);
  EXPECT_GE(b->interpreter->memory_peak_bytes(), before);
}

TEST(MemoryLimit, HeapTensorSizedAtInvokeIsChecked) {
  constexpr int kElements = 1 << 18;  // 1 MiB of float
  auto b = Build(DynamicReshapeModel(kElements));
  ASSERT_TRUE(b->interpreter);
  ASSERT_EQ(b->interpreter->AllocateTensors(), kTfLiteOk) << b->reporter.text;
  const size_t planned = b->interpreter->memory_used_bytes();
  b->interpreter->SetMaxMemoryBytes(planned + (512 << 10));  // not room for the output
  const int32_t shape[2] = {512, kElements / 512};
  std::memcpy(b->interpreter->typed_input_tensor<int32_t>(1), shape, sizeof(shape));
  EXPECT_EQ(b->interpreter->Invoke(), kTfLiteError);
  EXPECT_NE(b->reporter.text.find("on the heap, but the memory limit of"), std::string::npos)
      << b->reporter.text;
  EXPECT_EQ(b->interpreter->memory_used_bytes(), planned);
  b->reporter.text.clear();
  b->interpreter->SetMaxMemoryBytes(planned + (2 << 20));
  ASSERT_EQ(b->interpreter->Invoke(), kTfLiteOk) << b->reporter.text;
  EXPECT_GE(b->interpreter->memory_used_bytes(), planned + (1 << 20));
  EXPECT_EQ(b->interpreter->output_tensor(0)->dims->data[0], 512);
}

// Packed weights that do not fit: the op says so and runs on the reference kernel (which
// reads the weights in place), with the same result. A limit the arenas alone do not fit
// is an error.
TEST(MemoryLimit, PackedWeightsPastTheLimitFallBackToTheReference) {
  const std::vector<uint8_t> bytes = WideFullyConnectedModel();
  auto full = Build(bytes);
  ASSERT_TRUE(full->interpreter);
  ASSERT_EQ(full->interpreter->AllocateTensors(), kTfLiteOk) << full->reporter.text;
  const size_t packed = full->interpreter->primary_subgraph().kernel_persistent_bytes();
  ASSERT_GE(packed, size_t{1} << 20);

  auto tight = Build(bytes);
  ASSERT_TRUE(tight->interpreter);
  tight->interpreter->SetMaxMemoryBytes(64 << 10);
  ASSERT_EQ(tight->interpreter->AllocateTensors(), kTfLiteOk) << tight->reporter.text;
  EXPECT_NE(tight->reporter.text.find("does not fit the memory limit"), std::string::npos)
      << tight->reporter.text;
  EXPECT_LT(tight->interpreter->memory_used_bytes(), size_t{64} << 10);
  for (auto* b : {full.get(), tight.get()}) {
    TfLiteTensor* in = b->interpreter->input_tensor(0);
    for (size_t i = 0; i < in->bytes; ++i) in->data.int8[i] = static_cast<int8_t>(i * 13);
    ASSERT_EQ(b->interpreter->Invoke(), kTfLiteOk);
  }
  const TfLiteTensor* want = full->interpreter->output_tensor(0);
  const TfLiteTensor* got = tight->interpreter->output_tensor(0);
  ASSERT_EQ(want->bytes, got->bytes);
  EXPECT_EQ(std::memcmp(want->data.raw, got->data.raw, want->bytes), 0);

  auto too_tight = Build(bytes);
  ASSERT_TRUE(too_tight->interpreter);
  too_tight->interpreter->SetMaxMemoryBytes(1024);
  EXPECT_EQ(too_tight->interpreter->AllocateTensors(), kTfLiteError);
  EXPECT_NE(too_tight->reporter.text.find("the tensor arenas need"), std::string::npos)
      << too_tight->reporter.text;
}

TEST(MemoryLimit, BuilderAppliesItBeforeAnything) {
  std::vector<uint8_t> bytes = AddModel({1, 64, 64, 4});
  Collect reporter;
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size(), &reporter);
  ASSERT_TRUE(model);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  tflite::InterpreterBuilder builder(*model, resolver);
  builder.SetMaxMemoryBytes(1000);
  std::unique_ptr<tflite::Interpreter> interpreter;
  ASSERT_EQ(builder(&interpreter), kTfLiteOk);
  EXPECT_EQ(interpreter->max_memory_bytes(), 1000u);
  EXPECT_EQ(interpreter->AllocateTensors(), kTfLiteError);
}

}  // namespace
