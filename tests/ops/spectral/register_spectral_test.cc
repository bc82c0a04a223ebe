// AddSpectralBuiltins registers the spectral / complex ops with TFLite 2.16's version
// ranges: each version in range resolves, the next one does not.
#include <gtest/gtest.h>

#include "ops/spectral/spectral_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet {
namespace {

TEST(Spectral_RegisterRfftComplexFakeQuant, VersionRanges) {
  tflite::MutableOpResolver resolver;
  ops::AddSpectralBuiltins(&resolver);
  struct Expect {
    tflite::BuiltinOperator op;
    int max;
  };
  const Expect expects[] = {
      {tflite::BuiltinOperator_RFFT2D, 1},     {tflite::BuiltinOperator_REAL, 1},
      {tflite::BuiltinOperator_IMAG, 1},       {tflite::BuiltinOperator_COMPLEX_ABS, 1},
      {tflite::BuiltinOperator_FAKE_QUANT, 2},
  };
  for (const Expect& e : expects) {
    const char* name = tflite::EnumNameBuiltinOperator(e.op);
    for (int v = 1; v <= e.max; ++v) {
      EXPECT_NE(resolver.FindOp(e.op, v), nullptr) << name << " v" << v;
    }
    EXPECT_EQ(resolver.FindOp(e.op, e.max + 1), nullptr) << name << " v" << e.max + 1;
  }
}

}  // namespace
}  // namespace octet
