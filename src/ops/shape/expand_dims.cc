// EXPAND_DIMS: inserts a size-1 dim at `axis` (input 1, one int32/int64 value) in
// [-(rank + 1), rank]; a non-constant axis makes the output dynamic.
#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "EXPAND_DIMS";

TfLiteStatus SizeOutputFromInputs(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* axis_t = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  std::vector<int64_t> axis_v;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, axis_t, "axis", &axis_v));
  const int rank = tflite::NumDimensions(input);
  int64_t axis = axis_v[0];
  OCTET_ENSURE(context, axis >= -(rank + 1) && axis <= rank, "%s: axis %lld out of range [%d, %d]",
               kOp, static_cast<long long>(axis), -(rank + 1), rank);
  if (axis < 0) axis += rank + 1;
  std::vector<int> dims = DimsOf(input);
  dims.insert(dims.begin() + axis, 1);
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &axis));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckFixedSizeType(context, kOp, input));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, axis, "axis"));
  OCTET_ENSURE(context, tflite::NumElements(axis) == 1,
               "%s: axis must hold exactly one value, got %d", kOp,
               static_cast<int>(tflite::NumElements(axis)));
  OCTET_ENSURE(context, tflite::NumDimensions(input) < 8, "%s: input rank %d too large", kOp,
               tflite::NumDimensions(input));
  if (!IsConstant(axis)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return SizeOutputFromInputs(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::IsDynamicTensor(output)) TF_LITE_ENSURE_STATUS(SizeOutputFromInputs(context, node));
  CopyUnlessShared(input, output);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_EXPAND_DIMS() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
