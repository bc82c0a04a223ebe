// AddRandomBuiltins, AddSparseBuiltins and AddWindowBuiltins register their ops with the
// version ranges of TFLite's BuiltinOpResolver (register.cc: all version 1 only): version 1
// resolves, version 2 does not, and nothing else is added.
#include <gtest/gtest.h>

#include "ops/random/random_ops.h"
#include "ops/sparse/sparse_ops.h"
#include "ops/window/window_ops.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet {
namespace {

TEST(RandomSparseWindowRegister, VersionRanges) {
  tflite::MutableOpResolver resolver;
  ops::AddRandomBuiltins(&resolver);
  ops::AddSparseBuiltins(&resolver);
  ops::AddWindowBuiltins(&resolver);
  const tflite::BuiltinOperator ops_v1[] = {
      tflite::BuiltinOperator_RANDOM_UNIFORM, tflite::BuiltinOperator_RANDOM_STANDARD_NORMAL,
      tflite::BuiltinOperator_MULTINOMIAL,    tflite::BuiltinOperator_DENSIFY,
      tflite::BuiltinOperator_DILATE,         tflite::BuiltinOperator_REDUCE_WINDOW,
  };
  for (tflite::BuiltinOperator op : ops_v1) {
    const char* name = tflite::EnumNameBuiltinOperator(op);
    EXPECT_NE(resolver.FindOp(op, 1), nullptr) << name;
    EXPECT_EQ(resolver.FindOp(op, 2), nullptr) << name;
  }
  EXPECT_EQ(resolver.FindOp(tflite::BuiltinOperator_STABLEHLO_REDUCE_WINDOW, 1), nullptr);
}

}  // namespace
}  // namespace octet
