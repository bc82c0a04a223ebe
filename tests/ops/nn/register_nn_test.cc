#include <gtest/gtest.h>

#include "ops/nn/nn_ops.h"
#include "ops/op_groups.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet {
namespace {

TEST(Nn_Register, VersionRangesMatchTfLite) {
  tflite::MutableOpResolver resolver;
  ops::AddNnBuiltins(&resolver);
  ASSERT_EQ(ops::NnBuiltins().size(), 18u);
  for (const auto& b : ops::NnBuiltins()) {
    const TfLiteRegistration* r = b.registration();
    ASSERT_NE(r, nullptr);
    EXPECT_NE(r->prepare, nullptr);
    EXPECT_NE(r->invoke, nullptr);
    // The resolver keeps its own copy per version; the entry points must be ours.
    for (int version : {1, b.max_version}) {
      const TfLiteRegistration* found = resolver.FindOp(b.op, version);
      ASSERT_NE(found, nullptr) << tflite::EnumNameBuiltinOperator(b.op) << " v" << version;
      EXPECT_EQ(found->prepare, r->prepare);
      EXPECT_EQ(found->invoke, r->invoke);
    }
    EXPECT_EQ(resolver.FindOp(b.op, b.max_version + 1), nullptr)
        << tflite::EnumNameBuiltinOperator(b.op);
  }
  // Spot checks against TFLite's builtin resolver.
  EXPECT_NE(resolver.FindOp(tflite::BuiltinOperator_CONV_2D, 8), nullptr);
  EXPECT_NE(resolver.FindOp(tflite::BuiltinOperator_FULLY_CONNECTED, 13), nullptr);
  EXPECT_NE(resolver.FindOp(tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, 4), nullptr);
}

}  // namespace
}  // namespace octet
