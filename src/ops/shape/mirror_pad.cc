// MIRROR_PAD: pads by mirroring the input at its borders. REFLECT leaves the border
// element out of the mirror (padding <= size - 1), SYMMETRIC repeats it (padding <= size).
#include <vector>

#include "ops/shape/pad_common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "MIRROR_PAD";

// 1 for REFLECT, 0 for SYMMETRIC.
int MirrorOffset(const TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteMirrorPaddingParams*>(node->builtin_data);
  return params->mode == kTfLiteMirrorPaddingReflect ? 1 : 0;
}

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, std::vector<int>* before,
                  std::vector<int>* out_dims) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  std::vector<int> after;
  TF_LITE_ENSURE_STATUS(
      ReadPaddings(context, kOp, input, tflite::GetInput(context, node, 1), false, before, &after));
  const int offset = MirrorOffset(node);
  *out_dims = DimsOf(input);
  for (size_t d = 0; d < out_dims->size(); ++d) {
    const int limit = (*out_dims)[d] - offset;
    OCTET_ENSURE(context, (*before)[d] <= limit && after[d] <= limit,
                 "%s: padding (%d, %d) on dim %d exceeds %d for %s mode", kOp, (*before)[d],
                 after[d], static_cast<int>(d), limit < 0 ? 0 : limit,
                 offset ? "REFLECT" : "SYMMETRIC");
    (*out_dims)[d] += (*before)[d] + after[d];
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const auto* params = static_cast<const TfLiteMirrorPaddingParams*>(node->builtin_data);
  OCTET_ENSURE(context, params != nullptr, "%s: missing options", kOp);
  OCTET_ENSURE(
      context,
      params->mode == kTfLiteMirrorPaddingReflect || params->mode == kTfLiteMirrorPaddingSymmetric,
      "%s: mode must be REFLECT or SYMMETRIC", kOp);
  const TfLiteTensor *input, *paddings;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &paddings));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, input, output));
  TF_LITE_ENSURE_STATUS(CheckPaddingsShape(context, kOp, input, paddings));
  if (!IsConstant(paddings)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  std::vector<int> before, dims;
  TF_LITE_ENSURE_STATUS(Plan(context, node, &before, &dims));
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  std::vector<int> before, dims;
  TF_LITE_ENSURE_STATUS(Plan(context, node, &before, &dims));
  if (tflite::IsDynamicTensor(output)) TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, dims));
  const int offset = MirrorOffset(node);
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::MirrorPad(Shape::Of(input), before, offset,
                         reinterpret_cast<const T*>(input->data.raw), Shape::Of(output),
                         reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_MIRROR_PAD() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
