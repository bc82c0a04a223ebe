// BROADCAST_ARGS: the broadcast of two shapes given as int32/int64 vectors (right-aligned;
// each pair equal or one of them 1). The output's length is the longer input's, known at
// prepare; its values are checked there when both inputs are constant, else at invoke.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "BROADCAST_ARGS";

TfLiteStatus Broadcast(TfLiteContext* context, const TfLiteTensor* s0, const TfLiteTensor* s1,
                       std::vector<int64_t>* out) {
  std::vector<int64_t> a, b;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, s0, "shape 0", &a));
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, s1, "shape 1", &b));
  const size_t n = std::max(a.size(), b.size());
  out->assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    OCTET_ENSURE(context, da == db || da == 1 || db == 1,
                 "%s: dims %lld and %lld at position %zu cannot be broadcast", kOp,
                 static_cast<long long>(da), static_cast<long long>(db), i);
    (*out)[i] = da == 1 ? db : da;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *s0, *s1;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &s0));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &s1));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, s0, "shape 0"));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, s0, s1, "shape 1"));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, s0, output, "output"));
  OCTET_ENSURE(context, tflite::NumDimensions(s0) == 1 && tflite::NumDimensions(s1) == 1,
               "%s: both shapes must be vectors (ranks %d and %d)", kOp, tflite::NumDimensions(s0),
               tflite::NumDimensions(s1));
  if (IsConstant(s0) && IsConstant(s1)) {
    std::vector<int64_t> dims;
    TF_LITE_ENSURE_STATUS(Broadcast(context, s0, s1, &dims));
  }
  return ResizeOutput(context, output, {std::max(s0->dims->data[0], s1->dims->data[0])});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* s0 = tflite::GetInput(context, node, 0);
  const TfLiteTensor* s1 = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "shape 0", s0));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "shape 1", s1));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  std::vector<int64_t> dims;
  TF_LITE_ENSURE_STATUS(Broadcast(context, s0, s1, &dims));
  for (size_t i = 0; i < dims.size(); ++i) {
    if (output->type == kTfLiteInt32) {
      output->data.i32[i] = static_cast<int32_t>(dims[i]);
    } else {
      output->data.i64[i] = dims[i];
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_BROADCAST_ARGS() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
