// (y, limit) = WHILE(x < limit) { x = x + 1 }: with limit = +inf it never finishes (x stops
// growing at 2^24, so the condition stays true). For cancellation and --timeout tests.
#pragma once

#include <vector>

#include "format/model_builder.h"

namespace octet::test {

inline std::vector<uint8_t> CountToLimitModel() {
  using namespace tflite;
  format::ModelBuilder b;
  const int while_op = b.AddOperatorCode(BuiltinOperator_WHILE);
  const int add = b.AddOperatorCode(BuiltinOperator_ADD);
  const int less = b.AddOperatorCode(BuiltinOperator_LESS);
  const int x = b.AddTensor(TensorType_FLOAT32, {1}, "x");
  const int limit = b.AddTensor(TensorType_FLOAT32, {1}, "limit");
  const int y = b.AddTensor(TensorType_FLOAT32, {1}, "y");
  const int limit_out = b.AddTensor(TensorType_FLOAT32, {1}, "limit_out");
  b.AddOperator(while_op, {x, limit}, {y, limit_out}, b.WhileOptions(1, 2));
  b.SetInputs({x, limit});
  b.SetOutputs({y, limit_out});
  b.AddSubgraph("cond");
  const int ci = b.AddTensor(TensorType_FLOAT32, {1}, "ci");
  const int climit = b.AddTensor(TensorType_FLOAT32, {1}, "climit");
  const int keep_going = b.AddTensor(TensorType_BOOL, {1}, "keep_going");
  b.AddOperator(less, {ci, climit}, {keep_going});
  b.SetInputs({ci, climit});
  b.SetOutputs({keep_going});
  b.AddSubgraph("body");
  const int bi = b.AddTensor(TensorType_FLOAT32, {1}, "bi");
  const int blimit = b.AddTensor(TensorType_FLOAT32, {1}, "blimit");
  const int one = b.AddConstTensor(TensorType_FLOAT32, {1}, std::vector<float>{1.f}, "one");
  const int zero = b.AddConstTensor(TensorType_FLOAT32, {1}, std::vector<float>{0.f}, "zero");
  const int bo = b.AddTensor(TensorType_FLOAT32, {1}, "bo");
  const int blimit_out = b.AddTensor(TensorType_FLOAT32, {1}, "blimit_out");
  b.AddOperator(add, {bi, one}, {bo}, b.AddOptions());
  b.AddOperator(add, {blimit, zero}, {blimit_out}, b.AddOptions());
  b.SetInputs({bi, blimit});
  b.SetOutputs({bo, blimit_out});
  return b.Finish();
}

}  // namespace octet::test
