// The builtin resolver registers the index / selection ops with TFLite 2.16's version
// ranges: each version in range resolves, the next one does not.
#include <gtest/gtest.h>

#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet {
namespace {

TEST(Index_Register, VersionRanges) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  struct Expect {
    tflite::BuiltinOperator op;
    int max;
  };
  const Expect expects[] = {
      {tflite::BuiltinOperator_TOPK_V2, 3},
      {tflite::BuiltinOperator_WHERE, 2},
      {tflite::BuiltinOperator_SCATTER_ND, 1},
      {tflite::BuiltinOperator_SEGMENT_SUM, 1},
      {tflite::BuiltinOperator_UNSORTED_SEGMENT_SUM, 1},
      {tflite::BuiltinOperator_UNSORTED_SEGMENT_PROD, 1},
      {tflite::BuiltinOperator_UNSORTED_SEGMENT_MAX, 1},
      {tflite::BuiltinOperator_UNSORTED_SEGMENT_MIN, 1},
      {tflite::BuiltinOperator_UNIQUE, 1},
      {tflite::BuiltinOperator_BUCKETIZE, 1},
      {tflite::BuiltinOperator_SPARSE_TO_DENSE, 3},
      {tflite::BuiltinOperator_DYNAMIC_UPDATE_SLICE, 2},
      {tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V4, 1},
      {tflite::BuiltinOperator_NON_MAX_SUPPRESSION_V5, 1},
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
