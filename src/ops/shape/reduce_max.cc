// REDUCE_MAX: reduction over the axes in input 1 (see reduce_common.h for the shared rules).
#include "ops/shape/reduce_common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "REDUCE_MAX";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return ReducePrepare(context, node, kOp, ReduceKind::kMax);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return ReduceEval(context, node, kOp, ReduceKind::kMax);
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_REDUCE_MAX() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
