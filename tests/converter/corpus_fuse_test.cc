// Every model of the shared corpus that runs here goes through the editable model and all
// fusion passes: the written file verifies and gives the same outputs as the original, byte
// for byte (the corpus models are converter output, so this is mostly the round trip: a pass
// that misfires on a real graph shows up here).
#include <filesystem>
#include <fstream>
#include <iterator>

#include "converter_test_util.h"
#include "format/model_builder.h"
#include "util/cli_runner.h"

namespace octet::testing {
namespace {

namespace fs = std::filesystem;

std::string ModelsDir() {
  if (const char* env = std::getenv("OCTET_MODELS")) return env;
  return std::string(OCTET_SOURCE_DIR) + "/../shared/models";
}

bool Runs(const Bytes& model) {
  auto flat = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(model.data()),
                                                       model.size());
  if (flat == nullptr) return false;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interpreter;
  return tflite::InterpreterBuilder(*flat, resolver)(&interpreter) == kTfLiteOk &&
         interpreter->AllocateTensors() == kTfLiteOk && interpreter->Invoke() == kTfLiteOk;
}

TEST(CorpusFuse, EveryRunnableModelKeepsItsOutputs) {
  if (!fs::is_directory(ModelsDir())) {
    GTEST_SKIP() << "no shared model corpus at " << ModelsDir() << " (set OCTET_MODELS)";
  }
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(ModelsDir())) {
    if (entry.path().extension() != ".tflite") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const Bytes model((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string error;
    if (converter::UnpackModel(model, &error) == nullptr || !Runs(model)) continue;
    SCOPED_TRACE(entry.path().filename().string());
    const Rewritten fused = ApplyPasses(model, {});
    ASSERT_FALSE(fused.model.empty());
    EXPECT_LE(fused.ops, CountOps(model));
    ExpectSameOutputs(model, fused.model);
    // The converter already fused every recurrent layer of the corpus: nothing for lstm-cells.
    EXPECT_EQ(Changes(ApplyPasses(model, {"lstm-cells"})), 0u);
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no runnable model in " << ModelsDir();
}

TEST(CliFuse, RewritesReportsAndChecks) {
  // A float model with a CONV_2D + RELU pair, written to disk, fused by the CLI.
  format::ModelBuilder b;
  const int fc = b.AddOperatorCode(tflite::BuiltinOperator_FULLY_CONNECTED);
  const int relu = b.AddOperatorCode(tflite::BuiltinOperator_RELU);
  const int in = b.AddTensor(tflite::TensorType_FLOAT32, {1, 4}, "in");
  const int w = b.AddConstTensor(tflite::TensorType_FLOAT32, {3, 4},
                                 std::vector<float>{1, -2, 3, -4, 5, -6, 7, -8, 9, -1, 2, -3}, "w");
  const int mid = b.AddTensor(tflite::TensorType_FLOAT32, {1, 3}, "mid");
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, {1, 3}, "out");
  b.AddOperator(fc, {in, w, -1}, {mid}, b.FullyConnectedOptions());
  b.AddOperator(relu, {mid}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  const Bytes model = b.Finish();
  const std::string dir = MakeTempDir("octet_fuse_cli");
  {
    std::ofstream f(dir + "/in.tflite", std::ios::binary);
    f.write(reinterpret_cast<const char*>(model.data()),
            static_cast<std::streamsize>(model.size()));
  }
  CliResult r =
      RunOctetCli("fuse " + dir + "/in.tflite -o " + dir + "/out.tflite --report --runs 3");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("fuse-activation    1 change(s)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("FULLY_CONNECTED #0 + RELU #1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ops: 2 -> 1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(identical)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bench: before"), std::string::npos) << r.output;
  r = RunOctetCli("inspect " + dir + "/out.tflite");
  EXPECT_EQ(r.code, 0) << r.output;

  r = RunOctetCli("fuse " + dir + "/in.tflite -o " + dir + "/x.tflite --passes no-such-pass");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("unknown pass 'no-such-pass'"), std::string::npos) << r.output;
  r = RunOctetCli("fuse " + dir + "/missing.tflite -o " + dir + "/x.tflite");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("cannot open"), std::string::npos) << r.output;
  r = RunOctetCli("fuse --list-passes");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.output.find("hard-swish"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("lstm-cells"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("[only when named]"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace octet::testing
