#include "util/int8_model_runs.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/builtin_interpreter.h"
#include "util/capture_reporter.h"
#include "util/golden_hex.h"

namespace octet::testing {

Int8ModelRuns RunTwiceOnInt8Input(const std::vector<uint8_t>& model, const std::vector<int8_t>& x,
                                  const char* dump_env, const std::string& name) {
  if (const char* dir = std::getenv(dump_env)) {
    const std::string base = std::string(dir) + "/" + name;
    std::ofstream(base + ".tflite", std::ios::binary)
        .write(reinterpret_cast<const char*>(model.data()),
               static_cast<std::streamsize>(model.size()));
    std::ofstream(base + ".in.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(x.data()), static_cast<std::streamsize>(x.size()));
  }
  Int8ModelRuns r;
  CaptureReporter reporter;
  const BuiltinInterpreter built = BuildWithBuiltins(model, &reporter);
  tflite::Interpreter* interpreter = built.interpreter.get();
  r.status = interpreter ? interpreter->AllocateTensors() : kTfLiteError;
  for (int call = 0; call < 2 && r.status == kTfLiteOk; ++call) {
    TfLiteTensor* in0 = interpreter->tensor(interpreter->inputs()[0]);
    if (in0->bytes != x.size()) {
      r.status = kTfLiteError;
      break;
    }
    std::memcpy(in0->data.raw, x.data(), x.size());
    r.status = interpreter->Invoke();
    if (r.status != kTfLiteOk) break;
    const TfLiteTensor* out = interpreter->tensor(interpreter->outputs()[0]);
    r.values.insert(r.values.end(), out->data.int8, out->data.int8 + out->bytes);
  }
  r.log = reporter.text;
  return r;
}

void ExpectInt8Goldens(const Int8ModelRuns& runs, const std::string& invoke1,
                       const std::string& invoke2) {
  ASSERT_EQ(runs.status, kTfLiteOk) << runs.log;
  std::vector<int8_t> want = FromHex<int8_t>(invoke1);
  const std::vector<int8_t> second = FromHex<int8_t>(invoke2);
  want.insert(want.end(), second.begin(), second.end());
  ASSERT_EQ(runs.values.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(runs.values[i], want[i]) << "byte " << i;
}

}  // namespace octet::testing
