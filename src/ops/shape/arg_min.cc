// ARG_MIN: index of the first smallest element along an axis
// (see arg_min_max_common.h).
#include "ops/shape/arg_min_max_common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "ARG_MIN";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteArgMinParams*>(node->builtin_data);
  OCTET_ENSURE(context, params != nullptr, "%s: missing options", kOp);
  return ArgPrepare(context, node, kOp, params->output_type);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return ArgEval(context, node, kOp, /*is_max=*/false);
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_ARG_MIN() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
