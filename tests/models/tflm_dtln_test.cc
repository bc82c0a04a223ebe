// TFLite Micro's DTLN example (two int8 LSTMs with int16 cell state, FC, LOGISTIC) against
// the output TFLite Micro's reference kernels give for the example's input, on every kernel
// path. Octet used to differ in 209 of 257 values: it reset int8 variable tensors to raw 0
// where TFLite and TFLite Micro reset them to their zero point, and the second LSTM's hidden
// state has zero point -4. Also the reset value itself, after AllocateTensors and after
// ResetVariableTensors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "octet/npy.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/kernel_paths.h"

namespace {

const std::string kDir = std::string(OCTET_SOURCE_DIR) + "/tests/models/tflm_dtln/";

std::vector<uint8_t> ReadBytes(const std::string& file) {
  octet::NpyArray a;
  std::string error;
  EXPECT_TRUE(octet::ReadNpy(file, &a, &error)) << error;
  return std::vector<uint8_t>(a.data.begin(), a.data.end());
}

std::unique_ptr<tflite::Interpreter> Build(const tflite::FlatBufferModel& model) {
  const tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interp;
  EXPECT_EQ(tflite::InterpreterBuilder(model, resolver)(&interp), kTfLiteOk);
  if (interp) {
    EXPECT_EQ(interp->AllocateTensors(), kTfLiteOk);
  }
  return interp;
}

TEST(TflmDtln, MatchesTfliteMicroOnEveryPath) {
  auto model =
      tflite::FlatBufferModel::BuildFromFile((kDir + "dtln_noise_suppression.tflite").c_str());
  ASSERT_NE(model, nullptr);
  const std::vector<uint8_t> input = ReadBytes(kDir + "input_0.npy");
  const std::vector<uint8_t> golden = ReadBytes(kDir + "output_0.npy");
  ASSERT_EQ(golden.size(), 257u);
  for (octet::cpu::Isa isa : octet::cpu::kAllIsas) {
    if (!octet::cpu::CpuSupports(isa)) continue;
    octet::testing::IsaScope scope(isa);
    auto interp = Build(*model);
    ASSERT_NE(interp, nullptr);
    TfLiteTensor* in = interp->input_tensor(0);
    ASSERT_EQ(in->bytes, input.size());
    std::memcpy(in->data.raw, input.data(), input.size());
    ASSERT_EQ(interp->Invoke(), kTfLiteOk);
    const TfLiteTensor* out = interp->output_tensor(0);
    ASSERT_EQ(out->bytes, golden.size());
    EXPECT_EQ(std::vector<uint8_t>(out->data.raw, out->data.raw + out->bytes), golden)
        << octet::cpu::IsaName(isa);
  }
}

TEST(TflmDtln, Int8VariableTensorsResetToTheirZeroPoint) {
  auto model =
      tflite::FlatBufferModel::BuildFromFile((kDir + "dtln_noise_suppression.tflite").c_str());
  ASSERT_NE(model, nullptr);
  auto interp = Build(*model);
  ASSERT_NE(interp, nullptr);
  int checked_nonzero = 0;
  const auto expect_reset = [&](const char* when) {
    for (int v : interp->variables()) {
      const TfLiteTensor* t = interp->tensor(v);
      const uint8_t want = t->type == kTfLiteInt8 ? static_cast<uint8_t>(t->params.zero_point) : 0;
      for (size_t i = 0; i < t->bytes; ++i) {
        ASSERT_EQ(static_cast<uint8_t>(t->data.raw[i]), want) << when << ": tensor " << v;
      }
      checked_nonzero += t->type == kTfLiteInt8 && t->params.zero_point != 0;
    }
  };
  expect_reset("after AllocateTensors");
  std::memset(interp->input_tensor(0)->data.raw, 7, interp->input_tensor(0)->bytes);
  ASSERT_EQ(interp->Invoke(), kTfLiteOk);  // changes the state
  ASSERT_EQ(interp->ResetVariableTensors(), kTfLiteOk);
  expect_reset("after ResetVariableTensors");
  EXPECT_GT(checked_nonzero, 0) << "the model has an int8 state with a non-zero zero point";
}

}  // namespace
