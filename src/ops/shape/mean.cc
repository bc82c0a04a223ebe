// MEAN: reduction over the axes in input 1 (see reduce_common.h for the shared rules).
#include "ops/shape/reduce_common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "MEAN";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return ReducePrepare(context, node, kOp, ReduceKind::kMean);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return ReduceEval(context, node, kOp, ReduceKind::kMean);
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_MEAN() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
