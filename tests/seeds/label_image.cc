// A classifier in the style of TFLite's label_image example: load a model, pick a delegate
// (--delegate none | xnnpack | simple), profile each op with profiling::Profiler, print the
// top-5 classes and the per-op profile.
// usage: label_image MODEL [--delegate KIND] [--threads N]
// Exit 77 (skip) when the model file or the requested delegate is not available.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "float_ops_delegate.h"
#include "tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/minimal_logging.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/optional_debug_tools.h"
#include "tensorflow/lite/profiling/profiler.h"

namespace {

// Deterministic "image": the same pixels for every delegate.
void FillInput(TfLiteTensor* t) {
  uint32_t state = 12345;
  auto next = [&] { return (state = state * 1664525u + 1013904223u) >> 8; };
  const size_t n = t->type == kTfLiteFloat32 ? t->bytes / 4 : t->bytes;
  for (size_t i = 0; i < n; ++i) {
    const float v = static_cast<float>(next() % 1000) / 1000.f;  // [0, 1)
    if (t->type == kTfLiteFloat32) {
      t->data.f[i] = v;
    } else if (t->type == kTfLiteUInt8) {
      t->data.uint8[i] = static_cast<uint8_t>(v * 255);
    } else if (t->type == kTfLiteInt8) {
      t->data.int8[i] = static_cast<int8_t>(static_cast<int>(v * 255) - 128);
    }
  }
}

std::vector<float> Scores(const TfLiteTensor* t) {
  std::vector<float> s;
  const size_t n = t->type == kTfLiteFloat32 ? t->bytes / 4 : t->bytes;
  for (size_t i = 0; i < n; ++i) {
    if (t->type == kTfLiteFloat32) s.push_back(t->data.f[i]);
    if (t->type == kTfLiteUInt8)
      s.push_back((t->data.uint8[i] - t->params.zero_point) * t->params.scale);
    if (t->type == kTfLiteInt8)
      s.push_back((t->data.int8[i] - t->params.zero_point) * t->params.scale);
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL [--delegate none|xnnpack|simple] [--threads N]\n",
                 argv[0]);
    return 2;
  }
  std::string kind = "none";
  int threads = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--delegate") == 0) kind = argv[i + 1];
    if (std::strcmp(argv[i], "--threads") == 0) threads = std::atoi(argv[i + 1]);
  }
  std::unique_ptr<tflite::FlatBufferModel> model = tflite::FlatBufferModel::BuildFromFile(argv[1]);
  if (!model) {
    std::printf("skip: cannot load %s\n", argv[1]);
    return 77;
  }
  TFLITE_LOG_PROD(tflite::TFLITE_LOG_INFO, "Loaded model %s", argv[1]);
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  if (tflite::InterpreterBuilder(*model, resolver)(&interpreter) != kTfLiteOk) return 1;
  interpreter->SetNumThreads(threads);
  interpreter->SetAllowFp16PrecisionForFp32(false);

  int simple_evals = 0;
  if (kind == "xnnpack") {
    TfLiteXNNPackDelegateOptions options = TfLiteXNNPackDelegateOptionsDefault();
    options.num_threads = threads;
    tflite::Interpreter::TfLiteDelegatePtr delegate(TfLiteXNNPackDelegateCreate(&options),
                                                    TfLiteXNNPackDelegateDelete);
    if (!delegate) {
      std::printf("skip: no XNNPACK delegate in this build\n");
      return 77;
    }
    if (interpreter->ModifyGraphWithDelegate(std::move(delegate)) != kTfLiteOk) return 1;
  } else if (kind == "simple") {
    auto delegate =
        tflite::TfLiteDelegateFactory::Create(std::make_unique<float_ops::Delegate>(&simple_evals));
    if (interpreter->ModifyGraphWithDelegate(std::move(delegate)) != kTfLiteOk) return 1;
  } else if (kind != "none") {
    std::fprintf(stderr, "unknown delegate '%s'\n", kind.c_str());
    return 2;
  }
  if (interpreter->AllocateTensors() != kTfLiteOk) return 1;
  if (std::getenv("LABEL_IMAGE_VERBOSE")) tflite::PrintInterpreterState(interpreter.get());

  FillInput(interpreter->tensor(interpreter->inputs()[0]));
  tflite::profiling::Profiler profiler(1024);
  interpreter->SetProfiler(&profiler);
  profiler.StartProfiling();
  if (interpreter->Invoke() != kTfLiteOk) return 1;
  profiler.StopProfiling();
  interpreter->SetProfiler(static_cast<tflite::Profiler*>(nullptr));

  const std::vector<float> scores = Scores(interpreter->output_tensor(0));
  std::vector<int> order(scores.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  // Ties keep the lower index, so every delegate ranks equal scores the same way.
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return scores[a] > scores[b]; });
  std::printf("delegate: %s, nodes in plan: %zu\n", kind.c_str(),
              interpreter->execution_plan().size());
  std::printf("profile (us per op):\n");
  std::map<std::string, std::pair<int, uint64_t>> per_op;
  for (const tflite::profiling::ProfileEvent* e : profiler.GetProfileEvents()) {
    if (e->event_type != tflite::Profiler::EventType::OPERATOR_INVOKE_EVENT) continue;
    per_op[e->tag].first += 1;
    per_op[e->tag].second += e->elapsed_time;
  }
  for (const auto& [op, stat] : per_op) {
    std::printf("  %-24s x%-3d %8llu\n", op.c_str(), stat.first,
                static_cast<unsigned long long>(stat.second));
  }
  std::printf("top-5:");
  for (size_t k = 0; k < order.size() && k < 5; ++k) std::printf(" %d", order[k]);
  std::printf("\n");
  for (size_t k = 0; k < order.size() && k < 5; ++k) {
    std::printf("  %d: %.6f\n", order[k], scores[order[k]]);
  }
  return kind == "simple" && simple_evals == 0 ? 1 : 0;  // the delegate must have run
}
