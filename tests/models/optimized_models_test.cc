// Whole models on every kernel path this CPU runs, with 1 and 2 threads, against the same
// models on BuiltinRefOpResolver (every kernel pinned to the reference): byte-for-byte equal
// outputs. The MobileNetV2-style network is built in code; the shared corpus's quantized
// models are used when present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "models/mobilenet_v2.h"
#include "octet/kernel_info.h"
#include "octet/kernel_path.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register_ref.h"
#include "tensorflow/lite/model.h"

namespace {

using octet::cpu::Isa;

std::vector<Isa> Paths() {
  std::vector<Isa> paths;
  for (Isa isa : octet::cpu::kAllIsas) {
    if (octet::cpu::CpuSupports(isa)) paths.push_back(isa);
  }
  return paths;
}

// Restores the process's kernel path after a test forces one.
struct IsaScope {
  explicit IsaScope(Isa isa) {
    std::string error;
    ok = octet::cpu::SetIsa(isa, &error);
  }
  ~IsaScope() { octet::cpu::ResetIsa(); }
  bool ok = false;
};

// Feeds every input seeded random bytes and returns all output bytes.
std::vector<std::vector<char>> RunModel(const tflite::FlatBufferModel& model,
                                        const tflite::OpResolver& resolver, int threads,
                                        uint32_t seed,
                                        std::vector<std::string>* kernels = nullptr) {
  std::unique_ptr<tflite::Interpreter> interp;
  EXPECT_EQ(tflite::InterpreterBuilder(model, resolver)(&interp, threads), kTfLiteOk);
  if (!interp) return {};
  EXPECT_EQ(interp->AllocateTensors(), kTfLiteOk);
  std::mt19937 rng(seed);
  for (int input : interp->inputs()) {
    TfLiteTensor* t = interp->tensor(input);
    if (t->type == kTfLiteFloat32) {
      for (size_t i = 0; i < t->bytes / 4; ++i) t->data.f[i] = (rng() % 2001) / 1000.f - 1.f;
    } else {
      for (size_t i = 0; i < t->bytes; ++i) t->data.raw[i] = static_cast<char>(rng());
    }
  }
  EXPECT_EQ(interp->Invoke(), kTfLiteOk);
  std::vector<std::vector<char>> outputs;
  for (int output : interp->outputs()) {
    const TfLiteTensor* t = interp->tensor(output);
    outputs.emplace_back(t->data.raw, t->data.raw + t->bytes);
  }
  if (kernels) {
    for (int id : interp->execution_plan()) {
      kernels->push_back(octet::GetNodeKernelName(interp->primary_subgraph(), id));
    }
  }
  return outputs;
}

void ExpectSameOnEveryPath(const tflite::FlatBufferModel& model, const std::string& label) {
  const tflite::ops::builtin::BuiltinRefOpResolver reference;
  const tflite::ops::builtin::BuiltinOpResolver optimized;
  for (uint32_t seed : {1u, 2u}) {
    const auto want = RunModel(model, reference, 1, seed);
    for (Isa isa : Paths()) {
      IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      for (int threads : {1, 2}) {
        std::vector<std::string> kernels;
        const auto got = RunModel(model, optimized, threads, seed, &kernels);
        ASSERT_EQ(got, want) << label << ": path " << octet::cpu::IsaName(isa) << ", threads "
                             << threads << ", seed " << seed;
        // The reference path runs no optimized kernel; the others name their path.
        bool any_optimized = false;
        for (const std::string& k : kernels) any_optimized |= k != "reference";
        EXPECT_EQ(any_optimized, isa != Isa::kReference)
            << label << " " << octet::cpu::IsaName(isa);
      }
    }
  }
}

// A small MobileNetV2 built in code (its bytes kept alive by the returned holder).
struct BuiltModel {
  std::vector<uint8_t> bytes;
  std::unique_ptr<tflite::FlatBufferModel> model;
};
BuiltModel SmallMobileNetV2() {
  octet::models::MobileNetV2Config config;
  config.resolution = 48;
  config.width = 0.5f;
  config.classes = 37;
  config.blocks_per_stage = 2;
  BuiltModel built;
  built.bytes = octet::models::BuildMobileNetV2Int8(config);
  built.model = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(built.bytes.data()), built.bytes.size());
  return built;
}

TEST(OptimizedModels, MobileNetV2BuiltInCodeMatchesTheReferenceOnEveryPath) {
  const BuiltModel built = SmallMobileNetV2();
  ASSERT_NE(built.model, nullptr);
  ExpectSameOnEveryPath(*built.model, "mobilenet_v2 48x48 x0.5");
}

TEST(OptimizedModels, CorpusQuantizedModelsMatchTheReferenceOnEveryPath) {
  const char* env = std::getenv("OCTET_MODELS");
  const std::string dir = env ? env : std::string(OCTET_SOURCE_DIR) + "/../shared/models";
  const char* names[] = {
      "mlperf_ic_resnet8_int8", "mlperf_vww_int8", "coral_mobilenet_v1_0.25_128_quant",
      "tflm_person_detect",     "mlperf_kws_int8", "mlperf_ad_toycar_int8",
      "tflm_keyword_scrambled"};
  int found = 0;
  for (const char* name : names) {
    const std::string path = dir + "/" + name + ".tflite";
    if (!std::ifstream(path).good()) continue;
    ++found;
    auto model = tflite::FlatBufferModel::BuildFromFile(path.c_str());
    ASSERT_NE(model, nullptr) << path;
    ExpectSameOnEveryPath(*model, name);
  }
  if (found == 0) GTEST_SKIP() << "no shared model corpus at " << dir << " (set OCTET_MODELS)";
}

TEST(IsaSelection, ForcingAPathTheCpuLacksIsAnError) {
  std::string error;
  for (Isa isa : octet::cpu::kAllIsas) {
    const bool supported = octet::cpu::CpuSupports(isa);
    EXPECT_EQ(octet::cpu::SetIsa(isa, &error), supported) << octet::cpu::IsaName(isa);
    if (supported) {
      EXPECT_EQ(octet::cpu::ActiveIsa(), isa);
    } else {
      EXPECT_NE(error.find("not supported by this CPU"), std::string::npos) << error;
    }
    octet::cpu::ResetIsa();
  }
  EXPECT_TRUE(octet::cpu::CpuSupports(Isa::kReference));
  EXPECT_TRUE(octet::cpu::CpuSupports(Isa::kScalar));
  EXPECT_EQ(octet::cpu::ActiveIsa(), octet::cpu::BestIsa());
}

TEST(IsaSelection, NamesRoundTrip) {
  for (Isa isa : octet::cpu::kAllIsas) {
    Isa parsed;
    ASSERT_TRUE(octet::cpu::ParseIsa(octet::cpu::IsaName(isa), &parsed));
    EXPECT_EQ(parsed, isa);
  }
  Isa parsed;
  EXPECT_FALSE(octet::cpu::ParseIsa("sse9", &parsed));
  EXPECT_NE(octet::cpu::SupportedIsaList().find("reference"), std::string::npos);
}

// The public API (octet/kernel_path.h) selects what the interpreter's kernels run.
TEST(IsaSelection, PublicApiPinsThePathNodesUse) {
  std::string error;
  EXPECT_FALSE(octet::SetKernelPath("sse9", &error));
  EXPECT_NE(error.find("unknown kernel path 'sse9'"), std::string::npos) << error;
  EXPECT_NE(error.find("reference"), std::string::npos) << error;
  const BuiltModel built = SmallMobileNetV2();
  ASSERT_NE(built.model, nullptr);
  for (Isa isa : Paths()) {
    ASSERT_TRUE(octet::SetKernelPath(octet::cpu::IsaName(isa), &error)) << error;
    EXPECT_STREQ(octet::ActiveKernelPath(), octet::cpu::IsaName(isa));
    std::vector<std::string> kernels;
    RunModel(*built.model, tflite::ops::builtin::BuiltinOpResolver(), 1, 7, &kernels);
    const bool any_optimized = std::any_of(
        kernels.begin(), kernels.end(), [](const std::string& k) { return k.find("qgemm_") == 0; });
    EXPECT_EQ(any_optimized, isa != Isa::kReference) << octet::cpu::IsaName(isa);
  }
  octet::ResetKernelPath();
  EXPECT_STREQ(octet::ActiveKernelPath(), octet::cpu::IsaName(octet::cpu::BestIsa()));
  EXPECT_EQ(octet::SupportedKernelPaths(), octet::cpu::SupportedIsaList());
}

}  // namespace
