// PADV2: constant padding (see pad_common.h for the shared rules).
#include "ops/shape/pad_common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "PADV2";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return PadPrepare(context, node, kOp);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) { return PadEval(context, node, kOp); }

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_PADV2() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
