// REDUCE_ANY / REDUCE_ALL: logical or / and of a bool tensor over the axes in input 1, with
// keep_dims; the shared reduction (reduce_common.h) as a max / min over bools.
#include "ops/shape/reduce_common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kAny[] = "REDUCE_ANY";
constexpr char kAll[] = "REDUCE_ALL";

// any(x) = max over bools (false when empty); all(x) = min over bools (true when empty).
template <const char* kOp>
constexpr ReduceKind Kind() {
  return kOp == kAny ? ReduceKind::kMax : ReduceKind::kMin;
}

template <const char* kOp>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  OCTET_ENSURE(context, input->type == kTfLiteBool, "%s: input type must be BOOL, got %s", kOp,
               TfLiteTypeGetName(input->type));
  return ReducePrepare(context, node, kOp, Kind<kOp>());
}

template <const char* kOp>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  return ReduceEval(context, node, kOp, Kind<kOp>());
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

namespace sh = octet::ops::shape;

TfLiteRegistration* Register_REDUCE_ANY() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, sh::Prepare<sh::kAny>, sh::Eval<sh::kAny>);
  return &r;
}

TfLiteRegistration* Register_REDUCE_ALL() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, sh::Prepare<sh::kAll>, sh::Eval<sh::kAll>);
  return &r;
}

}  // namespace tflite::ops::builtin
