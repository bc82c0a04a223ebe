// Allocation-failure injection (issue 12): loading, building, preparing and running a model
// must survive a failed allocation at any point, with an error and without a leak.
//
// This executable replaces malloc, calloc, realloc and the aligned allocators (operator new
// and every library reach them too), counts live allocations, and can make the n-th
// allocation from now fail. Each scenario runs once to warm up (one-time caches), then again
// with allocation 0, 1, 2, ... failing in turn until a run hits no injected failure. Every
// run must either finish or fail with a reported error (no crash, no exception escaping the
// API), and must leave exactly as many live allocations as before it started.
//
// A separate executable, built only without sanitizers (ASan owns malloc there).
#include <errno.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/mobilenet_v2.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/interpreter_builder.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"

// --- the allocator ---------------------------------------------------------------------

extern "C" {
void* __libc_malloc(size_t bytes);
void* __libc_calloc(size_t count, size_t bytes);
void* __libc_realloc(void* old, size_t bytes);
void* __libc_memalign(size_t alignment, size_t bytes);
void __libc_free(void* p);
}

namespace {

std::atomic<long> g_live{0};        // allocations not freed yet
std::atomic<long> g_countdown{-1};  // fail the allocation that takes this to -1; <0: off
std::atomic<bool> g_injected{false};

// A place for a debugger's breakpoint: `gdb -ex 'break InjectedFailure'` with
// OCTET_INJECT_ONLY=N shows who made allocation N.
extern "C" __attribute__((noinline)) void InjectedFailure() { asm volatile(""); }

bool FailThisOne() {
  if (g_countdown.load(std::memory_order_relaxed) < 0) return false;
  if (g_countdown.fetch_sub(1) == 0) {
    g_injected = true;
    InjectedFailure();
    return true;
  }
  return false;
}

void* Counted(void* p) {
  if (p != nullptr) g_live.fetch_add(1, std::memory_order_relaxed);
  return p;
}

}  // namespace

extern "C" {

void* malloc(size_t bytes) { return FailThisOne() ? nullptr : Counted(__libc_malloc(bytes)); }

void* calloc(size_t count, size_t bytes) {
  return FailThisOne() ? nullptr : Counted(__libc_calloc(count, bytes));
}

void* realloc(void* old, size_t bytes) {
  if (old == nullptr) return malloc(bytes);
  if (bytes == 0) {
    g_live.fetch_sub(1, std::memory_order_relaxed);
    return __libc_realloc(old, 0);
  }
  if (FailThisOne()) return nullptr;  // the old block stays valid, as realloc promises
  return __libc_realloc(old, bytes);
}

void free(void* p) {
  if (p != nullptr) g_live.fetch_sub(1, std::memory_order_relaxed);
  __libc_free(p);
}

void* memalign(size_t alignment, size_t bytes) {
  return FailThisOne() ? nullptr : Counted(__libc_memalign(alignment, bytes));
}

void* aligned_alloc(size_t alignment, size_t bytes) { return memalign(alignment, bytes); }

int posix_memalign(void** out, size_t alignment, size_t bytes) {
  void* p = memalign(alignment, bytes);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"

namespace {

// Keeps the first message in a fixed buffer: reporting must not allocate here, or the
// failure being reported could be a leak of its own.
class FixedReporter : public tflite::ErrorReporter {
 public:
  using tflite::ErrorReporter::Report;
  int Report(const char* format, va_list args) override {
    if (first_[0] == '\0') std::vsnprintf(first_, sizeof(first_), format, args);
    return 0;
  }
  const char* first() const { return first_; }

 private:
  char first_[512] = {};
};

// One scenario: true when every step succeeded; otherwise `reporter` says why.
using Scenario = std::function<bool(FixedReporter& reporter)>;

std::vector<uint8_t> TinyMobileNet() {
  octet::models::MobileNetV2Config config;
  config.resolution = 32;
  config.width = 0.35f;
  config.classes = 10;
  config.blocks_per_stage = 1;
  return octet::models::BuildMobileNetV2Int8(config);
}

// Made before any injection: constructing it may throw std::bad_alloc like any C++ object;
// what this test holds to "an error, not an exception" is the API calls below.
const tflite::OpResolver& Resolver() {
  static const tflite::ops::builtin::BuiltinOpResolver resolver;
  return resolver;
}

bool BuildAndRun(std::unique_ptr<tflite::FlatBufferModel> model, FixedReporter& reporter,
                 int threads) {
  if (!model) return false;
  const tflite::OpResolver& resolver = Resolver();
  std::unique_ptr<tflite::Interpreter> interpreter;
  tflite::InterpreterBuilder builder(*model, resolver);
  if (builder(&interpreter, threads) != kTfLiteOk || !interpreter) return false;
  if (interpreter->AllocateTensors() != kTfLiteOk) return false;
  TfLiteTensor* in = interpreter->input_tensor(0);
  for (size_t i = 0; i < in->bytes; ++i) in->data.raw[i] = static_cast<char>(i * 7);
  return interpreter->Invoke() == kTfLiteOk;
}

// Runs `scenario` with each allocation failing in turn; returns how many runs it took.
int InjectEverywhere(const char* name, const Scenario& scenario) {
  {
    FixedReporter warm;
    EXPECT_TRUE(scenario(warm)) << name << " does not run without injection: " << warm.first();
  }
  int runs = 0;
  const char* only = std::getenv("OCTET_INJECT_ONLY");  // debugging: just this allocation
  for (long n = only ? std::atol(only) : 0;; ++n) {
    const long live_before = g_live.load();
    FixedReporter reporter;
    g_injected = false;
    g_countdown = n;
    const bool ok = scenario(reporter);
    g_countdown = -1;
    ++runs;
    const long leaked = g_live.load() - live_before;
    EXPECT_EQ(leaked, 0) << name << ": " << leaked << " allocations leaked when allocation " << n
                         << " failed (" << (ok ? "it still ran" : reporter.first()) << ")";
    if (!g_injected) {
      EXPECT_TRUE(ok) << name << " failed without an injected failure: " << reporter.first();
      break;
    }
    if (!ok) {
      EXPECT_NE(reporter.first()[0], '\0')
          << name << ": allocation " << n << " failed and nothing was reported";
    }
    if (::testing::Test::HasFailure() || only != nullptr) break;  // the first problem
  }
  std::printf("%s: %d allocation sites failed in turn\n", name, runs - 1);
  return runs;
}

TEST(AllocationFailure, BuildFromBufferThroughInvoke) {
  Resolver();
  const std::vector<uint8_t> bytes = TinyMobileNet();
  const int runs = InjectEverywhere("buffer, 1 thread", [&](FixedReporter& reporter) {
    return BuildAndRun(tflite::FlatBufferModel::BuildFromBuffer(
                           reinterpret_cast<const char*>(bytes.data()), bytes.size(), &reporter),
                       reporter, 1);
  });
  EXPECT_GT(runs, 50);  // the model really allocates: many sites were tried
}

TEST(AllocationFailure, BuildFromFileWithTwoThreads) {
  const std::vector<uint8_t> bytes = TinyMobileNet();
  char path[] = "/tmp/octet_alloc_failure_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  close(fd);
  InjectEverywhere("file, 2 threads", [&](FixedReporter& reporter) {
    return BuildAndRun(tflite::FlatBufferModel::BuildFromFile(path, &reporter), reporter, 2);
  });
  unlink(path);
}

void ToFixedReporter(void* user_data, const char* format, va_list args) {
  static_cast<FixedReporter*>(user_data)->Report(format, args);
}

TEST(AllocationFailure, CApi) {
  const std::vector<uint8_t> bytes = TinyMobileNet();
  InjectEverywhere("C API", [&](FixedReporter& reporter) {
    TfLiteModel* model = TfLiteModelCreate(bytes.data(), bytes.size());
    if (model == nullptr) {
      reporter.Report("TfLiteModelCreate failed (reported on stderr)");
      return false;
    }
    TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
    bool ok = options != nullptr;
    TfLiteInterpreter* interpreter = nullptr;
    if (ok) {
      TfLiteInterpreterOptionsSetErrorReporter(options, ToFixedReporter, &reporter);
      interpreter = TfLiteInterpreterCreate(model, options);
      ok = interpreter != nullptr && TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk &&
           TfLiteInterpreterInvoke(interpreter) == kTfLiteOk;
    }
    if (!ok && reporter.first()[0] == '\0') reporter.Report("failed, reported on stderr");
    TfLiteInterpreterDelete(interpreter);
    TfLiteInterpreterOptionsDelete(options);
    TfLiteModelDelete(model);
    return ok;
  });
}

}  // namespace
