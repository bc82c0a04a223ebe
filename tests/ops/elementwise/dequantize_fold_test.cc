// DEQUANTIZE of constant weights (float16, or int8 per-axis) is computed once in prepare: its
// output becomes a persistent read-only tensor, invoke does nothing for it, and the consuming
// CONV_2D / FULLY_CONNECTED packs it like any constant. The truth is the same graph with the
// weights stored directly as float32 (decoded independently here): same bytes, every path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "kernels/cpu/cpu_features.h"
#include "octet/kernel_info.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace octet {
namespace {

using format::ModelBuilder;

// A float16 bit pattern with a small exponent, and its value by the IEEE formula.
uint16_t RandomHalf(std::mt19937& rng) {
  const uint16_t sign = static_cast<uint16_t>((rng() & 1u) << 15);
  const uint16_t exponent = static_cast<uint16_t>(10 + rng() % 6);  // 2^-5 .. 2^0
  return static_cast<uint16_t>(sign | (exponent << 10) | (rng() & 0x3FFu));
}
float HalfValue(uint16_t h) {
  const float magnitude =
      std::ldexp(1.f + static_cast<float>(h & 0x3FF) / 1024.f, ((h >> 10) & 0x1F) - 15);
  return (h & 0x8000) ? -magnitude : magnitude;
}

struct Built {
  std::vector<uint8_t> bytes;
  std::unique_ptr<tflite::FlatBufferModel> model;
};

// input [1, 7, 6, 4] -> CONV_2D 3x3 (8 filters) -> FULLY_CONNECTED (5 units) -> output.
// With `dequantize`, the conv filter is float16 and the FC weights int8 per-axis, each through
// a DEQUANTIZE node; otherwise both are the decoded float32 values.
Built BuildModel(bool dequantize) {
  std::mt19937 rng(12);
  std::vector<uint16_t> half(8 * 3 * 3 * 4);
  for (uint16_t& h : half) h = RandomHalf(rng);
  std::vector<float> filter(half.size());
  for (size_t i = 0; i < half.size(); ++i) filter[i] = HalfValue(half[i]);
  const int depth = 7 * 6 * 8;
  std::vector<int8_t> q(5 * depth);
  for (int8_t& v : q) v = static_cast<int8_t>(rng());
  const std::vector<float> scales = {0.01f, 0.02f, 0.005f, 0.03f, 0.0125f};
  std::vector<float> fc(q.size());
  for (size_t i = 0; i < q.size(); ++i) fc[i] = static_cast<float>(q[i]) * scales[i / depth];

  ModelBuilder b;
  const int conv = b.AddOperatorCode(tflite::BuiltinOperator_CONV_2D);
  const int fully = b.AddOperatorCode(tflite::BuiltinOperator_FULLY_CONNECTED);
  const int deq = b.AddOperatorCode(tflite::BuiltinOperator_DEQUANTIZE, 2);
  const int input = b.AddTensor(tflite::TensorType_FLOAT32, {1, 7, 6, 4}, "input");
  int conv_filter, fc_weights;
  if (dequantize) {
    const int half_tensor =
        b.AddConstTensor(tflite::TensorType_FLOAT16, {8, 3, 3, 4}, half, "filter_f16");
    conv_filter = b.AddTensor(tflite::TensorType_FLOAT32, {8, 3, 3, 4}, "filter");
    b.AddOperator(deq, {half_tensor}, {conv_filter});
    const int q_buffer = b.AddTypedBuffer(q);
    const int q_tensor =
        b.AddQuantizedTensor(tflite::TensorType_INT8, {5, depth}, "fc_q", scales,
                             std::vector<int64_t>(5, 0), 0, static_cast<uint32_t>(q_buffer));
    fc_weights = b.AddTensor(tflite::TensorType_FLOAT32, {5, depth}, "fc_weights");
    b.AddOperator(deq, {q_tensor}, {fc_weights});
  } else {
    conv_filter = b.AddConstTensor(tflite::TensorType_FLOAT32, {8, 3, 3, 4}, filter, "filter");
    fc_weights = b.AddConstTensor(tflite::TensorType_FLOAT32, {5, depth}, fc, "fc_weights");
  }
  const int conv_bias = b.AddConstTensor(tflite::TensorType_FLOAT32, {8},
                                         std::vector<float>{0.1f, -0.2f, 0.3f, 0, 0, 1, -1, 0.5f});
  const int conv_out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 7, 6, 8}, "conv_out");
  b.AddOperator(conv, {input, conv_filter, conv_bias}, {conv_out},
                b.Conv2DOptions(tflite::Padding_SAME, 1, 1, tflite::ActivationFunctionType_RELU));
  const int output = b.AddTensor(tflite::TensorType_FLOAT32, {1, 5}, "output");
  b.AddOperator(fully, {conv_out, fc_weights, -1}, {output});
  b.SetInputs({input});
  b.SetOutputs({output});
  Built built;
  built.bytes = b.Finish();
  built.model = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(built.bytes.data()), built.bytes.size());
  return built;
}

struct Outcome {
  std::vector<float> output;
  std::vector<std::string> kernels;
  std::vector<TfLiteAllocationType> dequantized_allocation;
};

Outcome Execute(const tflite::FlatBufferModel& model) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interp;
  EXPECT_EQ(tflite::InterpreterBuilder(model, resolver)(&interp), kTfLiteOk);
  Outcome run;
  if (!interp) return run;
  EXPECT_EQ(interp->AllocateTensors(), kTfLiteOk);
  float* in = interp->typed_input_tensor<float>(0);
  for (int i = 0; i < 7 * 6 * 4; ++i) in[i] = std::sin(0.37f * static_cast<float>(i));
  for (int repeat = 0; repeat < 2; ++repeat) {  // the folded constant survives invokes
    EXPECT_EQ(interp->Invoke(), kTfLiteOk);
    const float* out = interp->typed_output_tensor<float>(0);
    std::vector<float> now(out, out + 5);
    if (repeat == 1) {
      EXPECT_EQ(std::memcmp(now.data(), run.output.data(), 5 * sizeof(float)), 0);
    }
    run.output = now;
  }
  for (int id : interp->execution_plan()) {
    run.kernels.push_back(GetNodeKernelName(interp->primary_subgraph(), id));
    const auto* nr = interp->node_and_registration(id);
    if (nr->second.builtin_code == kTfLiteBuiltinDequantize) {
      run.dequantized_allocation.push_back(
          interp->tensor(nr->first.outputs->data[0])->allocation_type);
    }
  }
  return run;
}

TEST(DequantizeFold, ConstantWeightsAreDequantizedOnceAndPacked) {
  const Built folded = BuildModel(true);
  const Built direct = BuildModel(false);
  ASSERT_NE(folded.model, nullptr);
  ASSERT_NE(direct.model, nullptr);
  for (cpu::Isa isa : cpu::kAllIsas) {
    if (!cpu::CpuSupports(isa)) continue;
    std::string error;
    ASSERT_TRUE(cpu::SetIsa(isa, &error)) << error;
    const Outcome want = Execute(*direct.model);
    const Outcome got = Execute(*folded.model);
    cpu::ResetIsa();
    ASSERT_EQ(got.output.size(), 5u);
    EXPECT_EQ(std::memcmp(got.output.data(), want.output.data(), 5 * sizeof(float)), 0)
        << cpu::IsaName(isa);
    ASSERT_EQ(got.kernels.size(), 4u);
    EXPECT_EQ(got.kernels[0], "folded_at_prepare");
    EXPECT_EQ(got.kernels[1], "folded_at_prepare");
    // The consumers see constant weights: optimized kernels pack them (not on the reference).
    EXPECT_EQ(got.kernels[2], want.kernels[0]) << cpu::IsaName(isa);
    EXPECT_EQ(got.kernels[3], want.kernels[1]) << cpu::IsaName(isa);
    if (isa != cpu::Isa::kReference) {
      EXPECT_EQ(got.kernels[2].substr(0, 5), "fgemm");
    }
    EXPECT_EQ(got.dequantized_allocation,
              std::vector<TfLiteAllocationType>(2, kTfLitePersistentRo));
  }
}

}  // namespace
}  // namespace octet
