// SPLIT: input 0 is the axis (one int32 value), input 1 the tensor, cut into num_splits
// equal pieces. A non-constant axis makes the outputs dynamic.
#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"
#include "ops/shape/split_common.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "SPLIT";

TfLiteStatus ResolveAxis(TfLiteContext* context, TfLiteNode* node, int* axis) {
  const TfLiteTensor* axis_t = tflite::GetInput(context, node, 0);
  const TfLiteTensor* input = tflite::GetInput(context, node, 1);
  const int64_t a = axis_t->data.i32[0];
  OCTET_ENSURE(context, NormalizeAxis(a, tflite::NumDimensions(input), axis),
               "%s: axis %lld out of range for rank %d", kOp, static_cast<long long>(a),
               tflite::NumDimensions(input));
  return kTfLiteOk;
}

TfLiteStatus ResizeOutputs(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 1);
  int axis;
  TF_LITE_ENSURE_STATUS(ResolveAxis(context, node, &axis));
  const int n = tflite::NumOutputs(node);
  const int size = input->dims->data[axis];
  OCTET_ENSURE(context, size % n == 0, "%s: dim %d of size %d does not split into %d", kOp, axis,
               size, n);
  std::vector<int> dims = DimsOf(input);
  dims[axis] = size / n;
  for (int i = 0; i < n; ++i) {
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, tflite::GetOutput(context, node, i), dims));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSplitParams*>(node->builtin_data);
  OCTET_ENSURE(context, params != nullptr, "%s: missing options", kOp);
  OCTET_ENSURE(context, params->num_splits >= 1, "%s: num_splits must be >= 1, got %d", kOp,
               params->num_splits);
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, params->num_splits));
  const TfLiteTensor *axis, *input;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &axis));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &input));
  OCTET_ENSURE(context, axis->type == kTfLiteInt32 && tflite::NumElements(axis) == 1,
               "%s: axis (input 0) must be one int32 value", kOp);
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  return PrepareSplitOutputs(context, node, kOp, input, params->num_splits, IsConstant(axis),
                             ResizeOutputs);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 1);
  const int n = tflite::NumOutputs(node);
  TF_LITE_ENSURE_STATUS(ResizeDynamicSplitOutputs(context, node, ResizeOutputs));
  int axis;
  TF_LITE_ENSURE_STATUS(ResolveAxis(context, node, &axis));
  const std::vector<int> sizes(n, input->dims->data[axis] / n);
  return SplitIntoOutputs(context, node, kOp, input, axis, sizes);
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SPLIT() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
