// Helpers for the model-tool tests: run a model held in bytes, apply passes to it, count ops.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "converter/model_io.h"
#include "converter/pass_manager.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace octet::testing {

using Bytes = std::vector<uint8_t>;

// Runs `model` on `inputs` (raw bytes per input, in order); returns each output's bytes.
inline std::vector<Bytes> RunModelBytes(const Bytes& model, const std::vector<Bytes>& inputs) {
  auto flat = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(model.data()),
                                                       model.size());
  EXPECT_NE(flat, nullptr);
  if (flat == nullptr) return {};
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  EXPECT_EQ(tflite::InterpreterBuilder(*flat, resolver)(&interpreter), kTfLiteOk);
  if (interpreter == nullptr) return {};
  EXPECT_EQ(interpreter->AllocateTensors(), kTfLiteOk);
  EXPECT_EQ(interpreter->inputs().size(), inputs.size());
  for (size_t k = 0; k < inputs.size() && k < interpreter->inputs().size(); ++k) {
    TfLiteTensor* t = interpreter->tensor(interpreter->inputs()[k]);
    EXPECT_EQ(t->bytes, inputs[k].size()) << "input " << k;
    std::memcpy(t->data.raw, inputs[k].data(), std::min(t->bytes, inputs[k].size()));
  }
  EXPECT_EQ(interpreter->Invoke(), kTfLiteOk);
  std::vector<Bytes> outputs;
  for (int index : interpreter->outputs()) {
    const TfLiteTensor* t = interpreter->tensor(index);
    outputs.emplace_back(t->data.raw, t->data.raw + t->bytes);
  }
  return outputs;
}

// Random inputs of the right sizes for `model` (floats in [-4, 4], integers any byte).
inline std::vector<Bytes> RandomInputs(const Bytes& model, uint32_t seed) {
  auto flat = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(model.data()),
                                                       model.size());
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  tflite::InterpreterBuilder(*flat, resolver)(&interpreter);
  interpreter->AllocateTensors();
  std::mt19937 rng(seed);
  std::vector<Bytes> inputs;
  for (int index : interpreter->inputs()) {
    const TfLiteTensor* t = interpreter->tensor(index);
    Bytes bytes(t->bytes);
    if (t->type == kTfLiteFloat32) {
      std::uniform_real_distribution<float> dist(-4.f, 4.f);
      for (size_t i = 0; i < bytes.size() / 4; ++i) {
        const float v = dist(rng);
        std::memcpy(&bytes[4 * i], &v, 4);
      }
    } else {
      for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
    }
    inputs.push_back(std::move(bytes));
  }
  return inputs;
}

inline std::vector<float> AsFloats(const Bytes& bytes) {
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

struct Rewritten {
  Bytes model;
  std::vector<converter::PassReport> report;
  size_t ops = 0;
};

inline size_t CountOps(const Bytes& model) {
  std::string error;
  converter::ModelPtr m = converter::UnpackModel(model, &error);
  size_t n = 0;
  if (m) {
    for (const auto& g : m->subgraphs) n += g->operators.size();
  }
  return n;
}

inline Rewritten ApplyPasses(const Bytes& model, const std::vector<std::string>& passes) {
  Rewritten out;
  std::string error;
  converter::ModelPtr m = converter::UnpackModel(model, &error);
  EXPECT_NE(m, nullptr) << error;
  if (m == nullptr) return out;
  EXPECT_TRUE(converter::RunPasses(*m, passes, &out.report, &error)) << error;
  EXPECT_TRUE(converter::PackModel(*m, &out.model, &error)) << error;
  out.ops = CountOps(out.model);
  return out;
}

inline size_t Changes(const Rewritten& r) {
  size_t n = 0;
  for (const auto& pass : r.report) n += pass.changes.size();
  return n;
}

// Both models on the same random inputs: every output equal byte for byte.
inline void ExpectSameOutputs(const Bytes& a, const Bytes& b, uint32_t seed = 7) {
  const std::vector<Bytes> inputs = RandomInputs(a, seed);
  const std::vector<Bytes> out_a = RunModelBytes(a, inputs);
  const std::vector<Bytes> out_b = RunModelBytes(b, inputs);
  ASSERT_EQ(out_a.size(), out_b.size());
  for (size_t k = 0; k < out_a.size(); ++k) EXPECT_EQ(out_a[k], out_b[k]) << "output " << k;
}

// Float outputs equal within `tolerance` relative to the output's largest magnitude.
inline void ExpectCloseOutputs(const Bytes& a, const Bytes& b, float tolerance, uint32_t seed = 7) {
  const std::vector<Bytes> inputs = RandomInputs(a, seed);
  const std::vector<Bytes> out_a = RunModelBytes(a, inputs);
  const std::vector<Bytes> out_b = RunModelBytes(b, inputs);
  ASSERT_EQ(out_a.size(), out_b.size());
  for (size_t k = 0; k < out_a.size(); ++k) {
    const std::vector<float> fa = AsFloats(out_a[k]), fb = AsFloats(out_b[k]);
    ASSERT_EQ(fa.size(), fb.size());
    float scale = 1e-6f;
    for (float v : fa) scale = std::max(scale, std::fabs(v));
    for (size_t i = 0; i < fa.size(); ++i) {
      ASSERT_NEAR(fa[i], fb[i], tolerance * scale) << "output " << k << " element " << i;
    }
  }
}

}  // namespace octet::testing
