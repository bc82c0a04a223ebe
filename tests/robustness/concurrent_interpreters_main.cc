// Thread safety as Octet states it (README, "Security and robustness"): one FlatBufferModel
// and one op resolver shared read-only by many interpreters, each interpreter used by one
// thread at a time, each with its own kernel thread pool. Three threads build their own
// interpreters (two kernel threads each) over the same shared models and invoke them
// repeatedly; every output must equal, byte for byte, what a single-threaded interpreter
// computed first. CI also runs this executable under ThreadSanitizer, where any data race
// in the interpreter, the kernels or the thread pool is a failure.
//
// Models: a few of ../shared/models (or $OCTET_MODELS) covering int8, uint8, float, hybrid
// and LSTM kernels, plus a MobileNetV2-style int8 network built in code, so the test means
// something without the corpus too.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "models/mobilenet_v2.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

namespace {

constexpr int kAppThreads = 3;
constexpr int kKernelThreads = 2;
constexpr int kInvokesPerThread = 3;

struct SharedModel {
  std::string name;
  std::vector<uint8_t> bytes;  // for in-code models; empty when loaded from a file
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::vector<std::vector<uint8_t>> inputs;   // one byte buffer per model input
  std::vector<std::vector<uint8_t>> outputs;  // single-threaded results
};

std::string ModelsDir() {
  const char* env = std::getenv("OCTET_MODELS");
  return env != nullptr ? env : std::string(OCTET_SOURCE_DIR) + "/../shared/models";
}

bool FileExists(const std::string& path) { return std::ifstream(path).good(); }

std::unique_ptr<tflite::Interpreter> Build(const tflite::FlatBufferModel& model,
                                           const tflite::OpResolver& resolver, int threads) {
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (tflite::InterpreterBuilder(model, resolver)(&interpreter, threads) != kTfLiteOk) {
    return nullptr;
  }
  if (interpreter->AllocateTensors() != kTfLiteOk) return nullptr;
  return interpreter;
}

// Feeds `inputs` and runs; the outputs' bytes, or an empty list on failure.
std::vector<std::vector<uint8_t>> RunOnce(tflite::Interpreter& interpreter,
                                          const std::vector<std::vector<uint8_t>>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    TfLiteTensor* t = interpreter.input_tensor(i);
    std::copy(inputs[i].begin(), inputs[i].end(), reinterpret_cast<uint8_t*>(t->data.raw));
  }
  if (interpreter.Invoke() != kTfLiteOk) return {};
  std::vector<std::vector<uint8_t>> outputs;
  for (size_t o = 0; o < interpreter.outputs().size(); ++o) {
    const TfLiteTensor* t = interpreter.output_tensor(o);
    const auto* data = reinterpret_cast<const uint8_t*>(t->data.raw);
    outputs.emplace_back(data, data + t->bytes);
  }
  return outputs;
}

// Seeded inputs: bytes for integer tensors, values in [-1, 1] for float ones.
std::vector<std::vector<uint8_t>> MakeInputs(const tflite::Interpreter& interpreter,
                                             uint32_t seed) {
  std::vector<std::vector<uint8_t>> inputs;
  uint32_t state = seed;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (size_t i = 0; i < interpreter.inputs().size(); ++i) {
    const TfLiteTensor* t = interpreter.input_tensor(i);
    std::vector<uint8_t> bytes(t->bytes);
    if (t->type == kTfLiteFloat32) {
      for (size_t k = 0; k + 4 <= bytes.size(); k += 4) {
        const float v = static_cast<float>(next() % 2001) / 1000.0f - 1.0f;
        std::memcpy(&bytes[k], &v, 4);
      }
    } else {
      for (uint8_t& b : bytes) b = static_cast<uint8_t>(next());
    }
    inputs.push_back(std::move(bytes));
  }
  return inputs;
}

std::vector<SharedModel> LoadModels(const tflite::OpResolver& resolver) {
  std::vector<SharedModel> models;
  SharedModel built;
  built.name = "in-code MobileNetV2 int8";
  octet::models::MobileNetV2Config config;
  config.resolution = 64;
  config.width = 0.5f;
  config.classes = 100;
  config.blocks_per_stage = 2;
  built.bytes = octet::models::BuildMobileNetV2Int8(config);
  built.model = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(built.bytes.data()), built.bytes.size());
  models.push_back(std::move(built));
  for (const char* file : {"mlperf_ic_resnet8_int8.tflite", "mlperf_ic_resnet8_float.tflite",
                           "mlperf_kws_int8.tflite", "coral_mobilenet_v1_0.25_128_quant.tflite",
                           "mlperf_ad_toycar_dynquant.tflite", "tflm_mnist_lstm_int8.tflite"}) {
    const std::string path = ModelsDir() + "/" + file;
    if (!FileExists(path)) continue;
    SharedModel m;
    m.name = file;
    m.model = tflite::FlatBufferModel::BuildFromFile(path.c_str());
    models.push_back(std::move(m));
  }
  for (size_t k = 0; k < models.size(); ++k) {
    SharedModel& m = models[k];
    EXPECT_TRUE(m.model) << m.name;
    if (!m.model) continue;
    auto single = Build(*m.model, resolver, 1);
    EXPECT_TRUE(single) << m.name;
    if (!single) continue;
    m.inputs = MakeInputs(*single, static_cast<uint32_t>(k + 1));
    m.outputs = RunOnce(*single, m.inputs);
    EXPECT_FALSE(m.outputs.empty()) << m.name;
  }
  return models;
}

TEST(ConcurrentInterpreters, SharedModelsGiveTheSingleThreadedResults) {
  const tflite::ops::builtin::BuiltinOpResolver resolver;
  const std::vector<SharedModel> models = LoadModels(resolver);
  if (models.size() == 1) {
    std::printf("note: %s not found; only the in-code model runs\n", ModelsDir().c_str());
  }
  std::vector<std::string> failures(kAppThreads);
  std::vector<std::thread> threads;
  for (int a = 0; a < kAppThreads; ++a) {
    threads.emplace_back([&, a] {
      // Each thread walks the models from a different start, so different models and the
      // same model run side by side.
      for (size_t step = 0; step < models.size(); ++step) {
        const SharedModel& m = models[(step + a) % models.size()];
        if (!m.model || m.outputs.empty()) continue;
        auto interpreter = Build(*m.model, resolver, kKernelThreads);
        if (!interpreter) {
          failures[a] += m.name + ": build failed; ";
          continue;
        }
        for (int run = 0; run < kInvokesPerThread; ++run) {
          if (RunOnce(*interpreter, m.inputs) != m.outputs) {
            failures[a] += m.name + ": outputs differ on run " + std::to_string(run) + "; ";
          }
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int a = 0; a < kAppThreads; ++a) EXPECT_EQ(failures[a], "") << "thread " << a;
}

}  // namespace
