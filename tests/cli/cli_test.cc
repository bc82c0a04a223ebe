// The octet CLI as a user runs it: exit codes and one-line messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

#include "format/model_builder.h"
#include "octet/npy.h"
#include "util/forever_model.h"

namespace {

struct Result {
  int code = -1;
  std::string output;
};

// `command` defaults to the built CLI; it may carry environment assignments in front.
Result RunCli(const std::string& args, std::string command = "") {
  const char* cli = std::getenv("OCTET_CLI");
  std::string path = !command.empty() ? command : cli ? cli : OCTET_BINARY_DIR "/octet";
  Result r;
  FILE* p = popen((path + " " + args + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  while (fgets(buf, sizeof buf, p)) r.output += buf;
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

Result RunCliWithEnv(const std::string& env, const std::string& args) {
  const char* cli = std::getenv("OCTET_CLI");
  return RunCli(args, env + " " + (cli ? cli : OCTET_BINARY_DIR "/octet"));
}

std::string TempDir() {
  char tmpl[] = "/tmp/octet_cli_XXXXXX";
  return mkdtemp(tmpl);
}

// A float model with input [1, 8, 8, 2]: y = relu(x).
void WriteFloatModel(const std::string& path) {
  octet::format::ModelBuilder b;
  const int relu = b.AddOperatorCode(tflite::BuiltinOperator_RELU, 1);
  const int x = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8, 8, 2}, "x");
  const int y = b.AddTensor(tflite::TensorType_FLOAT32, {1, 8, 8, 2}, "y");
  b.AddOperator(relu, {x}, {y});
  b.SetInputs({x});
  b.SetOutputs({y});
  const std::vector<uint8_t> bytes = b.Finish();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

TEST(Cli, DemoRunsTheOptimizedAndReferenceKernelsAndTheyAgree) {
  const std::string dir = TempDir();
  Result r = RunCli("demo --save " + dir + "/demo.tflite");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("outputs are bit-identical"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("x faster"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1000 of 1000 bytes identical"), std::string::npos) << r.output;

  // The saved model round-trips through run and inspect.
  std::vector<int8_t> image(224 * 224 * 3, 3);
  std::string error;
  ASSERT_TRUE(octet::WriteNpy(dir + "/in.npy", kTfLiteInt8, {1, 224, 224, 3}, image.data(),
                              image.size(), &error));
  r = RunCli("run " + dir + "/demo.tflite --input " + dir + "/in.npy --output-dir " + dir);
  EXPECT_EQ(r.code, 0) << r.output;
  octet::NpyArray out;
  ASSERT_TRUE(octet::ReadNpy(dir + "/output_1.npy", &out, &error)) << error;
  EXPECT_EQ(out.type, kTfLiteInt8);
  EXPECT_EQ(out.shape, std::vector<int>({1, 1000}));

  r = RunCli("inspect " + dir + "/demo.tflite");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("CONV_2D"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("lower bound"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("kernel data:"), std::string::npos) << r.output;
}

// --max-memory caps the interpreter: the demo model's ~8 MiB of arenas and packed weights do
// not fit 1 MiB (a one-line error naming the limit), fit 64M, and a bad size is refused.
TEST(Cli, MaxMemory) {
  const std::string dir = TempDir();
  ASSERT_EQ(RunCli("demo --save " + dir + "/m.tflite").code, 0);
  Result r = RunCli("inspect " + dir + "/m.tflite --max-memory 1M");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("error: cannot prepare model"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("memory limit of 1.00 MiB"), std::string::npos) << r.output;
  r = RunCli("inspect " + dir + "/m.tflite --max-memory 64M");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("of a 64.00 MiB limit"), std::string::npos) << r.output;
  r = RunCliWithEnv("OCTET_MAX_MEMORY=1M", "inspect " + dir + "/m.tflite");
  EXPECT_EQ(r.code, 1) << r.output;
  r = RunCli("bench " + dir + "/m.tflite --runs 1 --max-memory 12Q");
  EXPECT_NE(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("'12Q' is not a size"), std::string::npos) << r.output;
}

// OCTET_ISA pins a kernel path for the process; one the CPU cannot run is a one-line error.
TEST(Cli, KernelPathOverride) {
  const std::string dir = TempDir();
  ASSERT_EQ(RunCli("demo --save " + dir + "/m.tflite").code, 0);
  Result r = RunCliWithEnv("OCTET_ISA=reference", "inspect " + dir + "/m.tflite");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("kernel path reference"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("qgemm_"), std::string::npos) << r.output;
  r = RunCliWithEnv("OCTET_ISA=scalar", "inspect " + dir + "/m.tflite");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("qgemm_scalar"), std::string::npos) << r.output;
  r = RunCliWithEnv("OCTET_ISA=sse9", "inspect " + dir + "/m.tflite");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("OCTET_ISA='sse9' names no kernel path"), std::string::npos) << r.output;
}

TEST(Cli, BenchProfileShowsOpsKernelsAndMacRates) {
  const std::string dir = TempDir();
  ASSERT_EQ(RunCli("demo --save " + dir + "/m.tflite").code, 0);
  const Result r = RunCli("bench " + dir + "/m.tflite --runs 2 --warmup 1 --profile");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("profile (per invoke, medians of 2 runs)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("DEPTHWISE_CONV_2D"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("GMAC/s"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("slowest nodes:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("median"), std::string::npos) << r.output;
}

TEST(Cli, BenchCompareTimesBothAndPrintsTheRatio) {
  const std::string dir = TempDir();
  ASSERT_EQ(RunCli("demo --save " + dir + "/m.tflite").code, 0);
  const Result r = RunCli("bench " + dir + "/m.tflite --runs 2 --warmup 0 --compare xnnpack");
  if (r.output.find("built without XNNPACK") != std::string::npos) {
    EXPECT_EQ(r.code, 1) << r.output;
    GTEST_SKIP() << "this build has no XNNPACK delegate";
  }
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("built-in / xnnpack = "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 alternating runs"), std::string::npos) << r.output;
  const Result t =
      RunCli("bench " + dir + "/m.tflite --runs 4 --warmup 0 --threads 2 --compare xnnpack");
  EXPECT_EQ(t.code, 0) << t.output;
  EXPECT_NE(t.output.find("4 block-alternating runs, threads 2"), std::string::npos) << t.output;
}

TEST(Cli, BenchCompareThreadsTimesTwoThreadCounts) {
  const std::string dir = TempDir();
  ASSERT_EQ(RunCli("demo --save " + dir + "/m.tflite").code, 0);
  const Result r =
      RunCli("bench " + dir + "/m.tflite --runs 4 --warmup 0 --threads 2 --compare threads:1");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("4 block-alternating runs, threads 2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("built-in / threads:1 = "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 thread(s) are "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("x as fast as 1"), std::string::npos) << r.output;
  for (const char* bad : {"threads:0", "threads:", "threads:65", "threads:x"}) {
    const Result e = RunCli("bench " + dir + "/m.tflite --runs 1 --compare " + bad);
    EXPECT_EQ(e.code, 1) << bad << ": " << e.output;
    EXPECT_NE(e.output.find("--compare threads:K needs a thread count K in 1..64"),
              std::string::npos)
        << e.output;
  }
}

TEST(Cli, WrongInputsAreClearErrors) {
  const std::string dir = TempDir();
  WriteFloatModel(dir + "/m.tflite");
  std::string error;
  std::vector<int32_t> ints(128, 1);
  ASSERT_TRUE(
      octet::WriteNpy(dir + "/int.npy", kTfLiteInt32, {1, 8, 8, 2}, ints.data(), 512, &error));
  std::vector<float> small(10, 0.f);
  ASSERT_TRUE(octet::WriteNpy(dir + "/small.npy", kTfLiteFloat32, {10}, small.data(), 40, &error));

  Result r = RunCli("run " + dir + "/m.tflite --input " + dir + "/int.npy --output-dir " + dir);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("dtype INT32"), std::string::npos) << r.output;
  r = RunCli("run " + dir + "/m.tflite --input " + dir + "/small.npy --output-dir " + dir);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("shape [10]"), std::string::npos) << r.output;
  r = RunCli("run " + dir + "/m.tflite --output-dir " + dir);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("1 input(s), got 0"), std::string::npos) << r.output;
  r = RunCli("run " + dir + "/missing.tflite --input x.npy");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("cannot open"), std::string::npos) << r.output;
  std::ofstream(dir + "/junk.tflite") << "this is not a model at all, just some text";
  r = RunCli("inspect " + dir + "/junk.tflite");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("error:"), std::string::npos) << r.output;
}

// y = a + b with a fixed [1] and b open ([-1] in its shape signature): feeding b resizes the
// graph, and a, fed before it, must still hold its value.
TEST(Cli, ResizingOneInputKeepsTheOthers) {
  const std::string dir = TempDir();
  octet::format::ModelBuilder b;
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  const int a = b.AddTensor(tflite::TensorType_FLOAT32, {1}, "a");
  octet::format::TensorSpec open;
  open.shape = {1};
  open.shape_signature = std::vector<int32_t>{-1};
  open.name = "b";
  const int bi = b.AddTensor(open);
  const int y = b.AddTensor(tflite::TensorType_FLOAT32, {1}, "y");
  b.AddOperator(add, {a, bi}, {y}, b.AddOptions());
  b.SetInputs({a, bi});
  b.SetOutputs({y});
  const auto bytes = b.Finish();
  std::ofstream(dir + "/add.tflite", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::string error;
  const float seven = 7.f;
  const std::vector<float> five = {1, 2, 3, 4, 5};
  ASSERT_TRUE(octet::WriteNpy(dir + "/a.npy", kTfLiteFloat32, {1}, &seven, 4, &error));
  ASSERT_TRUE(octet::WriteNpy(dir + "/b.npy", kTfLiteFloat32, {5}, five.data(), 20, &error));
  Result r = RunCli("run " + dir + "/add.tflite --input " + dir + "/a.npy --input " + dir +
                    "/b.npy --output-dir " + dir);
  ASSERT_EQ(r.code, 0) << r.output;
  octet::NpyArray out;
  ASSERT_TRUE(octet::ReadNpy(dir + "/output_0.npy", &out, &error)) << error;
  ASSERT_EQ(out.shape, std::vector<int>({5}));
  const float* p = reinterpret_cast<const float*>(out.data.data());
  for (int i = 0; i < 5; ++i) EXPECT_FLOAT_EQ(p[i], 7.f + five[i]);

  // bench takes the same inputs through the same checks.
  r = RunCli("bench " + dir + "/add.tflite --runs 2 --warmup 0 --input " + dir + "/a.npy --input " +
             dir + "/b.npy");
  EXPECT_EQ(r.code, 0) << r.output;
  r = RunCli("bench " + dir + "/add.tflite --runs 1 --input " + dir + "/b.npy");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("shape [5], the model expects [1]"), std::string::npos) << r.output;
}

TEST(Cli, RunTimeoutCancelsALongInvoke) {
  const std::string dir = TempDir();
  const auto bytes = octet::test::CountToLimitModel();
  std::ofstream(dir + "/loop.tflite", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::string error;
  const float zero = 0.f, three = 3.f, forever = std::numeric_limits<float>::infinity();
  ASSERT_TRUE(octet::WriteNpy(dir + "/x.npy", kTfLiteFloat32, {1}, &zero, 4, &error));
  ASSERT_TRUE(octet::WriteNpy(dir + "/three.npy", kTfLiteFloat32, {1}, &three, 4, &error));
  ASSERT_TRUE(octet::WriteNpy(dir + "/inf.npy", kTfLiteFloat32, {1}, &forever, 4, &error));
  const std::string model = "run " + dir + "/loop.tflite --input " + dir + "/x.npy --input ";
  // The WHILE never ends: the timeout stops it between two of its nodes.
  Result r = RunCli(model + dir + "/inf.npy --output-dir " + dir + " --timeout 0.3");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("error: invoke cancelled: it ran longer than --timeout 0.3 s"),
            std::string::npos)
      << r.output;
  // A run that finishes in time is not affected.
  r = RunCli(model + dir + "/three.npy --output-dir " + dir + " --timeout 30");
  ASSERT_EQ(r.code, 0) << r.output;
  octet::NpyArray out;
  ASSERT_TRUE(octet::ReadNpy(dir + "/output_0.npy", &out, &error)) << error;
  EXPECT_FLOAT_EQ(*reinterpret_cast<const float*>(out.data.data()), 3.f);
  r = RunCli(model + dir + "/three.npy --timeout -1");
  EXPECT_NE(r.code, 0) << r.output;
}

}  // namespace
