// `octet bench`: time Invoke over repeated runs; --profile adds per-op times, --compare
// times the built-in kernels against a delegate (or against themselves with another thread
// count) alternately in one run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>

#include "cli_common.h"
#include "commands.h"
#include "delegates.h"
#include "kernels/cpu/cpu_features.h"
#include "octet/npy.h"
#include "profile.h"
#include "profile_plot.h"

namespace octet::cli {
namespace {

// A model ready to time: loaded with `threads` kernel threads, delegated as asked, allocated,
// inputs fed.
LoadedModel Prepare(const BenchOptions& options, const std::string& delegate, int threads) {
  LoadedModel m = LoadModel(options.model, threads);
  tflite::Interpreter& interp = *m.interpreter;
  m.delegate = ApplyDelegate(delegate, &interp, threads, m.reporter.get());
  Check(interp.AllocateTensors(), "cannot prepare model", *m.reporter);
  if (options.inputs.size() > interp.inputs().size()) {
    throw Failure("the model has " + std::to_string(interp.inputs().size()) + " input(s), got " +
                  std::to_string(options.inputs.size()) + " --input file(s)");
  }
  FeedInputs(interp, options.inputs, *m.reporter);
  std::mt19937 rng(1234);
  for (size_t k = options.inputs.size(); k < interp.inputs().size(); ++k) {
    FillRandom(interp.tensor(interp.inputs()[k]), rng, 1.f, false);
  }
  return m;
}

double TimeInvoke(LoadedModel& m) {
  const auto start = std::chrono::steady_clock::now();
  Check(m.interpreter->Invoke(), "invoke failed", *m.reporter);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

struct Stats {
  double min, median, mean, max;
};

Stats Summarize(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  double sum = 0;
  for (double v : ms) sum += v;
  return {ms.front(), ms[ms.size() / 2], sum / ms.size(), ms.back()};
}

// `--compare threads:K`: the other side is the built-in kernels with K threads (0 when the
// option names a delegate).
int CompareThreads(const std::string& compare) {
  const std::string prefix = "threads:";
  if (compare.compare(0, prefix.size(), prefix) != 0) return 0;
  const std::string count = compare.substr(prefix.size());
  const bool digits = !count.empty() && count.size() <= 2 &&
                      count.find_first_not_of("0123456789") == std::string::npos;
  const int k = digits ? std::stoi(count) : 0;
  if (k < 1 || k > 64) {
    throw Failure("--compare threads:K needs a thread count K in 1..64, got '" + count + "'");
  }
  return k;
}

int Compare(const BenchOptions& options) {
  const int other_threads = CompareThreads(options.compare);
  LoadedModel builtin = Prepare(options, "", options.threads);
  LoadedModel other = other_threads > 0 ? Prepare(options, "", other_threads)
                                        : Prepare(options, options.compare, options.threads);
  for (int i = 0; i < options.warmup; ++i) {
    TimeInvoke(builtin);
    TimeInvoke(other);
  }
  // Alternate, so both see the same machine state (frequency, other load) in the same run.
  // With worker threads, each interpreter's pool keeps its workers spinning for a while after
  // a run; on a small machine the idle pool's spinning would starve the other one. So with
  // threads the two alternate in blocks, with a pause that lets the idle workers sleep, and
  // the first run of each block is not timed.
  const bool threaded = options.threads > 1 || other_threads > 1;
  const int blocks = threaded ? std::min(options.runs, 10) : options.runs;
  const int per_block = (options.runs + blocks - 1) / blocks;
  std::vector<double> a, b;
  auto block = [&](LoadedModel& m, std::vector<double>* times) {
    if (threaded) {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      TimeInvoke(m);
    }
    for (int i = 0; i < per_block && static_cast<int>(times->size()) < options.runs; ++i) {
      times->push_back(TimeInvoke(m));
    }
  };
  while (static_cast<int>(a.size()) < options.runs) {
    block(builtin, &a);
    block(other, &b);
  }
  const Stats sa = Summarize(a), sb = Summarize(b);
  std::printf("%s: %d %s runs, threads %d, kernel path %s\n", options.model.c_str(), options.runs,
              threaded ? "block-alternating" : "alternating", options.threads,
              cpu::IsaName(cpu::ActiveIsa()));
  std::printf("built-in: median %.4f ms (min %.4f)   %s: median %.4f ms (min %.4f)\n", sa.median,
              sa.min, options.compare.c_str(), sb.median, sb.min);
  std::printf("built-in / %s = %.2fx\n", options.compare.c_str(), sa.median / sb.median);
  if (other_threads > 0) {
    std::printf("%d thread(s) are %.2fx as fast as %d\n", options.threads, sb.median / sa.median,
                other_threads);
  }
  return 0;
}

}  // namespace

int BenchCommand(const BenchOptions& options) {
  if (!options.compare.empty()) {
    if (!options.plot.empty()) throw Failure("--plot draws one engine's profile: drop --compare");
    return Compare(options);
  }
  LoadedModel m = Prepare(options, options.delegate, options.threads);
  OpProfiler profiler;
  if (options.profile) m.interpreter->SetProfiler(&profiler);
  for (int i = 0; i < options.warmup; ++i) TimeInvoke(m);
  profiler.set_enabled(true);
  std::vector<double> ms;
  for (int i = 0; i < options.runs; ++i) ms.push_back(TimeInvoke(m));
  m.interpreter->SetProfiler(nullptr);
  const Stats s = Summarize(ms);
  if (!options.delegate.empty()) std::printf("delegate: %s\n", options.delegate.c_str());
  if (options.profile) {
    const ProfileSummary summary = SummarizeProfile(*m.interpreter, profiler, options.runs);
    PrintProfile(summary);
    if (!options.plot.empty()) {
      std::string error;
      const std::string title = options.model + "  (threads " + std::to_string(options.threads) +
                                ", kernel path " + cpu::IsaName(cpu::ActiveIsa()) + ")";
      if (!WriteProfilePlot(summary, title, options.plot, &error)) throw Failure(error);
      std::printf("profile plot: %s\n", options.plot.c_str());
    }
  }
  std::printf("%s: %d runs, threads %d: min %.3f ms, median %.3f ms, mean %.3f ms, max %.3f ms\n",
              options.model.c_str(), options.runs, options.threads, s.min, s.median, s.mean, s.max);
  return 0;
}

}  // namespace octet::cli
