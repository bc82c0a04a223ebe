// CUMSUM: running sums of input 0 (float32, int32, int64) along the axis in input 1 (an
// int32 scalar; negative counts from the back), with the exclusive and reverse options.
#include "kernels/reference/cumsum.h"

#include <cstdint>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "CUMSUM";

TfLiteStatus ReadAxis(TfLiteContext* context, const TfLiteTensor* input, const TfLiteTensor* axis,
                      int* out) {
  OCTET_ENSURE(context, axis->data.raw != nullptr, "%s: axis has no data", kOp);
  const int rank = tflite::NumDimensions(input);
  const int32_t a = axis->data.i32[0];
  OCTET_ENSURE(context, NormalizeAxis(a, rank, out), "%s: axis %d out of range for rank %d", kOp, a,
               rank);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &axis));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  OCTET_ENSURE(
      context,
      input->type == kTfLiteFloat32 || input->type == kTfLiteInt32 || input->type == kTfLiteInt64,
      "%s: input type %s is not supported (float32, int32, int64)", kOp,
      TfLiteTypeGetName(input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  OCTET_ENSURE(context, axis->type == kTfLiteInt32, "%s: axis must be int32, got %s", kOp,
               TfLiteTypeGetName(axis->type));
  OCTET_ENSURE(context, tflite::NumElements(axis) == 1, "%s: axis must hold one value, got %lld",
               kOp, static_cast<long long>(tflite::NumElements(axis)));
  OCTET_ENSURE(context, tflite::NumDimensions(input) >= 1, "%s: input must have rank >= 1", kOp);
  if (IsConstant(axis)) {
    int a;
    TF_LITE_ENSURE_STATUS(ReadAxis(context, input, axis, &a));
  }
  return ResizeOutput(context, output, DimsOf(input));
}

template <typename T>
void Run(const TfLiteTensor* input, int axis, const TfLiteCumsumParams& p, TfLiteTensor* output) {
  reference::CumSum(Shape::Of(input), axis, p.exclusive, p.reverse,
                    reinterpret_cast<const T*>(input->data.raw),
                    reinterpret_cast<T*>(output->data.raw));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const auto& params = *static_cast<const TfLiteCumsumParams*>(node->builtin_data);
  int axis;
  TF_LITE_ENSURE_STATUS(ReadAxis(context, input, tflite::GetInput(context, node, 1), &axis));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  switch (input->type) {
    case kTfLiteFloat32:
      Run<float>(input, axis, params, output);
      break;
    case kTfLiteInt32:
      Run<int32_t>(input, axis, params, output);
      break;
    default:
      Run<int64_t>(input, axis, params, output);
      break;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_CUMSUM() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
