// SPLIT_V: input 0 the tensor, input 1 size_splits (int32/int64 vector, at most one -1
// taking the remainder), input 2 the axis (one int32 value). Non-constant size_splits or
// axis make the outputs dynamic.
#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"
#include "ops/shape/split_common.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "SPLIT_V";

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, int* axis, std::vector<int>* sizes) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* splits = tflite::GetInput(context, node, 1);
  const TfLiteTensor* axis_t = tflite::GetInput(context, node, 2);
  const int64_t a = axis_t->data.i32[0];
  OCTET_ENSURE(context, NormalizeAxis(a, tflite::NumDimensions(input), axis),
               "%s: axis %lld out of range for rank %d", kOp, static_cast<long long>(a),
               tflite::NumDimensions(input));
  std::vector<int64_t> values;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, splits, "size_splits", &values));
  const int64_t total = input->dims->data[*axis];
  int64_t sum = 0;
  int inferred = -1;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] == -1) {
      OCTET_ENSURE(context, inferred == -1, "%s: size_splits has more than one -1", kOp);
      inferred = static_cast<int>(i);
    } else {
      OCTET_ENSURE(context, values[i] >= 0, "%s: size_splits[%d] is negative (%lld)", kOp,
                   static_cast<int>(i), static_cast<long long>(values[i]));
      sum += values[i];
    }
  }
  if (inferred >= 0) {
    OCTET_ENSURE(context, sum <= total, "%s: size_splits sum %lld exceeds dim %d of size %lld", kOp,
                 static_cast<long long>(sum), *axis, static_cast<long long>(total));
    values[inferred] = total - sum;
  } else {
    OCTET_ENSURE(context, sum == total,
                 "%s: size_splits sum %lld does not match dim %d of size %lld", kOp,
                 static_cast<long long>(sum), *axis, static_cast<long long>(total));
  }
  sizes->assign(values.begin(), values.end());
  return kTfLiteOk;
}

TfLiteStatus ResizeOutputs(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  int axis;
  std::vector<int> sizes;
  TF_LITE_ENSURE_STATUS(Plan(context, node, &axis, &sizes));
  std::vector<int> dims = DimsOf(input);
  for (size_t i = 0; i < sizes.size(); ++i) {
    dims[axis] = sizes[i];
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, tflite::GetOutput(context, node, i), dims));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSplitVParams*>(node->builtin_data);
  OCTET_ENSURE(context, params != nullptr, "%s: missing options", kOp);
  OCTET_ENSURE(context, params->num_splits >= 1, "%s: num_splits must be >= 1, got %d", kOp,
               params->num_splits);
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 3, 3, params->num_splits));
  const TfLiteTensor *input, *splits, *axis;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &splits));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &axis));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  OCTET_ENSURE(context, axis->type == kTfLiteInt32 && tflite::NumElements(axis) == 1,
               "%s: axis (input 2) must be one int32 value", kOp);
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, splits, "size_splits"));
  OCTET_ENSURE(
      context, tflite::NumDimensions(splits) == 1 && splits->dims->data[0] == params->num_splits,
      "%s: size_splits must be a vector of num_splits (%d) values", kOp, params->num_splits);
  return PrepareSplitOutputs(context, node, kOp, input, params->num_splits,
                             IsConstant(splits) && IsConstant(axis), ResizeOutputs);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicSplitOutputs(context, node, ResizeOutputs));
  int axis;
  std::vector<int> sizes;
  TF_LITE_ENSURE_STATUS(Plan(context, node, &axis, &sizes));
  return SplitIntoOutputs(context, node, kOp, input, axis, sizes);
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SPLIT_V() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
