// `octet demo`: the main job on an embedded default. Builds a MobileNetV2-sized int8 network in
// code (224x224x3 input, 1000 classes, ~300M multiply-accumulates), runs it through the whole
// stack twice, on the optimized kernels of this CPU's best path and on the reference kernels
// (BuiltinRefOpResolver), checks that both give the same bytes, and prints the speed-up.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "kernels/cpu/cpu_features.h"
#include "models/mobilenet_v2.h"
#include "tensorflow/lite/kernels/register_ref.h"

namespace octet::cli {
namespace {

struct Run {
  std::unique_ptr<tflite::Interpreter> interpreter;
  double median_ms = 0;
};

Run BuildAndTime(const tflite::FlatBufferModel& model, const tflite::OpResolver& resolver,
                 const std::vector<int8_t>& image, int runs, int threads,
                 CollectingReporter& reporter) {
  Run r;
  Check(tflite::InterpreterBuilder(model, resolver)(&r.interpreter, threads), "demo build",
        reporter);
  Check(r.interpreter->AllocateTensors(), "demo allocate", reporter);
  std::copy(image.begin(), image.end(), r.interpreter->typed_input_tensor<int8_t>(0));
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    Check(r.interpreter->Invoke(), "demo invoke", reporter);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  r.median_ms = ms[ms.size() / 2];
  return r;
}

size_t SameBytes(const TfLiteTensor* a, const TfLiteTensor* b) {
  size_t same = 0;
  for (size_t i = 0; i < a->bytes; ++i) same += a->data.raw[i] == b->data.raw[i];
  return same;
}

}  // namespace

int DemoCommand(const std::string& save_path) {
  const models::MobileNetV2Config config;  // 224x224, width 1.0, 1000 classes
  const std::vector<uint8_t> bytes = models::BuildMobileNetV2Int8(config);
  if (!save_path.empty()) {
    std::ofstream(save_path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    std::printf("wrote the demo model to %s (%zu bytes)\n", save_path.c_str(), bytes.size());
  }
  CollectingReporter reporter;
  auto model = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size(), &reporter);
  if (!model) throw Failure("demo model failed to load: " + reporter.Joined());

  std::vector<int8_t> image(224 * 224 * 3);
  std::mt19937 rng(7);
  for (auto& v : image) v = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);

  const tflite::ops::builtin::BuiltinOpResolver optimized;
  const tflite::ops::builtin::BuiltinRefOpResolver reference;
  Run fast = BuildAndTime(*model, optimized, image, 10, 1, reporter);
  Run ref = BuildAndTime(*model, reference, image, 1, 1, reporter);

  std::printf("octet demo: MobileNetV2-style int8 network built in code\n");
  std::printf("  %zu nodes, %.0fM multiply-accumulates, %zu bytes of model\n",
              fast.interpreter->execution_plan().size(), models::MobileNetV2Macs(config) / 1e6,
              bytes.size());
  const std::string fast_label =
      std::string("optimized kernels (") + cpu::IsaName(cpu::ActiveIsa()) + "):";
  std::printf("  %-32s %8.2f ms\n", "reference kernels:", ref.median_ms);
  std::printf("  %-32s %8.2f ms  (%.1fx faster, 1 thread)\n", fast_label.c_str(), fast.median_ms,
              ref.median_ms / fast.median_ms);
  bool identical = true;
  for (size_t k = 0; k < fast.interpreter->outputs().size(); ++k) {
    const TfLiteTensor* a = fast.interpreter->output_tensor(k);
    const TfLiteTensor* b = ref.interpreter->output_tensor(k);
    const size_t same = SameBytes(a, b);
    std::printf("  output %zu '%s': %zu of %zu bytes identical\n", k, a->name, same, a->bytes);
    identical &= same == a->bytes;
  }
  const int8_t* probs = fast.interpreter->typed_output_tensor<int8_t>(0);
  const int top = static_cast<int>(std::max_element(probs, probs + config.classes) - probs);
  std::printf("  predicted class %d (synthetic weights: the class means nothing)\n", top);
  if (!identical) throw Failure("optimized and reference kernels disagree");
  std::printf("optimized and reference outputs are bit-identical\n");
  return 0;
}

}  // namespace octet::cli
