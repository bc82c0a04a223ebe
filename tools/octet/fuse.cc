// `octet fuse`: rewrite a model with the fusion passes (src/converter/passes/), write it, and
// check it: both models run on the same random inputs (outputs compared), and with --report,
// every change, the op counts and both models timed alternately.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "cli_common.h"
#include "commands.h"
#include "converter/model_io.h"
#include "converter/pass_manager.h"

namespace octet::cli {
namespace {

size_t OpCount(const edit::ModelT& model) {
  size_t count = 0;
  for (const auto& graph : model.subgraphs) count += graph->operators.size();
  return count;
}

// Largest difference between two outputs of the same type, read as numbers.
double MaxDifference(const TfLiteTensor& a, const TfLiteTensor& b) {
  if (a.type != b.type || a.bytes != b.bytes) return INFINITY;
  double worst = 0;
  const auto each = [&](auto tag) {
    using T = decltype(tag);
    const size_t n = a.bytes / sizeof(T);
    for (size_t i = 0; i < n; ++i) {
      T x, y;
      std::memcpy(&x, a.data.raw + i * sizeof(T), sizeof(T));
      std::memcpy(&y, b.data.raw + i * sizeof(T), sizeof(T));
      const double d = std::fabs(static_cast<double>(x) - static_cast<double>(y));
      worst = std::isnan(d)
                  ? (std::isnan(static_cast<double>(x)) == std::isnan(static_cast<double>(y))
                         ? worst
                         : INFINITY)
                  : std::max(worst, d);
    }
  };
  switch (a.type) {
    case kTfLiteFloat32:
      each(float{});
      break;
    case kTfLiteInt8:
      each(int8_t{});
      break;
    case kTfLiteUInt8:
      each(uint8_t{});
      break;
    case kTfLiteInt16:
      each(int16_t{});
      break;
    case kTfLiteInt32:
      each(int32_t{});
      break;
    case kTfLiteInt64:
      each(int64_t{});
      break;
    default:
      return std::memcmp(a.data.raw, b.data.raw, a.bytes) == 0 ? 0.0 : INFINITY;
  }
  return worst;
}

double TimeOnce(LoadedModel& m) {
  const auto start = std::chrono::steady_clock::now();
  Check(m.interpreter->Invoke(), "invoke failed", *m.reporter);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs both models on the same random inputs; prints the output difference, and the times
// when `runs` > 0. Returns the largest difference.
double CheckAndTime(const FuseOptions& options) {
  LoadedModel before = LoadModel(options.model, 1);
  LoadedModel after = LoadModel(options.output, 1);
  Check(before.interpreter->AllocateTensors(), "cannot prepare " + options.model, *before.reporter);
  Check(after.interpreter->AllocateTensors(), "cannot prepare " + options.output, *after.reporter);
  tflite::Interpreter& a = *before.interpreter;
  tflite::Interpreter& b = *after.interpreter;
  if (a.inputs().size() != b.inputs().size() || a.outputs().size() != b.outputs().size()) {
    throw Failure("the rewritten model's inputs or outputs differ from the original's");
  }
  std::mt19937 rng(20261127);
  for (size_t k = 0; k < a.inputs().size(); ++k) {
    TfLiteTensor* ta = a.tensor(a.inputs()[k]);
    TfLiteTensor* tb = b.tensor(b.inputs()[k]);
    if (ta->bytes != tb->bytes || ta->type != tb->type) {
      throw Failure("input " + std::to_string(k) + " changed type or size");
    }
    FillRandom(ta, rng, 3.f, true);
    if (ta->bytes > 0) std::memcpy(tb->data.raw, ta->data.raw, ta->bytes);
  }
  Check(a.Invoke(), "invoke failed", *before.reporter);
  Check(b.Invoke(), "invoke failed", *after.reporter);
  double worst = 0;
  for (size_t k = 0; k < a.outputs().size(); ++k) {
    worst = std::max(worst, MaxDifference(*a.tensor(a.outputs()[k]), *b.tensor(b.outputs()[k])));
  }
  std::printf("check: same random inputs, largest output difference %g%s\n", worst,
              worst == 0 ? " (identical)" : "");
  if (options.runs > 0) {
    std::vector<double> ta, tb;
    for (int r = 0; r < options.runs; ++r) {
      ta.push_back(TimeOnce(before));
      tb.push_back(TimeOnce(after));
    }
    const double ma = Median(ta), mb = Median(tb);
    std::printf("bench: before %.3f ms, after %.3f ms (%.2fx; medians of %d alternating runs)\n",
                ma, mb, mb > 0 ? ma / mb : 0.0, options.runs);
  }
  return worst;
}

}  // namespace

int FuseCommand(const FuseOptions& options) {
  if (options.list) {
    for (const converter::PassInfo& pass : converter::AllPasses()) {
      std::printf("%-18s %s%s\n", pass.name, pass.summary,
                  pass.by_default ? "" : " [only when named]");
    }
    return 0;
  }
  if (options.model.empty() || options.output.empty()) {
    throw Failure("octet fuse needs a model and -o OUT.tflite");
  }
  std::string error;
  converter::ModelPtr model = converter::ReadModelFile(options.model, &error);
  if (model == nullptr) throw Failure(error);
  const size_t ops_before = OpCount(*model);
  std::vector<converter::PassReport> report;
  if (!converter::RunPasses(*model, options.passes, &report, &error)) throw Failure(error);
  std::vector<uint8_t> bytes;
  if (!converter::PackModel(*model, &bytes, &error) ||
      !converter::WriteFile(options.output, bytes, &error)) {
    throw Failure(error);
  }
  for (const converter::PassReport& pass : report) {
    std::printf("%-18s %zu change(s)\n", pass.name.c_str(), pass.changes.size());
    if (options.report) {
      for (const std::string& line : pass.changes) std::printf("    %s\n", line.c_str());
    }
  }
  std::printf("ops: %zu -> %zu; wrote %s (%zu bytes)\n", ops_before, OpCount(*model),
              options.output.c_str(), bytes.size());
  FuseOptions check = options;
  if (!options.report) check.runs = 0;
  try {
    LoadedModel original = LoadModel(options.model, 1);
    Check(original.interpreter->AllocateTensors(), "", *original.reporter);
  } catch (const Failure& e) {
    // Written as asked; only the comparison needs the model to run here (custom ops, say).
    std::printf("check: skipped, the original model does not run here:%s\n", e.what());
    return 0;
  }
  const double worst = CheckAndTime(check);
  // Integer outputs must not move at all; float ones only by rounding.
  if (!std::isfinite(worst)) throw Failure("the rewritten model's outputs differ in shape or kind");
  return 0;
}

}  // namespace octet::cli
