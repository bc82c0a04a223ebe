// REVERSE_V2: reverses the input along each dim listed in `axis` (input 1, int32/int64
// vector; negative dims count from the back; no repeats).
#include <vector>

#include "kernels/reference/transpose.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "REVERSE_V2";

TfLiteStatus ReversedDims(TfLiteContext* context, TfLiteNode* node, std::vector<bool>* reversed) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const int rank = tflite::NumDimensions(input);
  std::vector<int64_t> axes;
  TF_LITE_ENSURE_STATUS(
      ReadIndices(context, kOp, tflite::GetInput(context, node, 1), "axis", &axes));
  reversed->assign(rank, false);
  for (int64_t a : axes) {
    int d;
    OCTET_ENSURE(context, NormalizeAxis(a, rank, &d), "%s: axis %lld out of range for rank %d", kOp,
                 static_cast<long long>(a), rank);
    OCTET_ENSURE(context, !(*reversed)[d], "%s: axis %d listed twice", kOp, d);
    (*reversed)[d] = true;
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &axis));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, input, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, axis, "axis"));
  OCTET_ENSURE(context, tflite::NumDimensions(axis) == 1, "%s: axis must be a vector", kOp);
  if (IsConstant(axis)) {
    std::vector<bool> reversed;
    TF_LITE_ENSURE_STATUS(ReversedDims(context, node, &reversed));
  }
  return ResizeOutput(context, output, DimsOf(input));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  std::vector<bool> reversed;
  TF_LITE_ENSURE_STATUS(ReversedDims(context, node, &reversed));
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::Reverse(Shape::Of(input), reversed, reinterpret_cast<const T*>(input->data.raw),
                       reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_REVERSE_V2() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
