// UNPACK: splits the input along `axis` into `num` tensors with that axis removed.
#include <vector>

#include "kernels/reference/slice.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "UNPACK";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteUnpackParams*>(node->builtin_data);
  OCTET_ENSURE(context, params != nullptr, "%s: missing options", kOp);
  const int num = params->num;
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, num));
  const TfLiteTensor* input;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  const int rank = tflite::NumDimensions(input);
  int axis;
  OCTET_ENSURE(context, NormalizeAxis(params->axis, rank, &axis),
               "%s: axis %d out of range for rank %d", kOp, params->axis, rank);
  OCTET_ENSURE(context, input->dims->data[axis] == num, "%s: num is %d but dim %d has size %d", kOp,
               num, axis, input->dims->data[axis]);
  std::vector<int> dims = DimsOf(input);
  dims.erase(dims.begin() + axis);
  for (int i = 0; i < num; ++i) {
    TfLiteTensor* output;
    TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, i, &output));
    TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
    TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, input, output));
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, dims));
  }
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteUnpackParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  int axis;
  NormalizeAxis(params->axis, input->dims->size, &axis);
  const int num = params->num;
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T*> outputs(num);
    for (int i = 0; i < num; ++i) {
      outputs[i] = reinterpret_cast<T*>(tflite::GetOutput(context, node, i)->data.raw);
    }
    reference::Split(axis, Shape::Of(input), reinterpret_cast<const T*>(input->data.raw),
                     std::vector<int>(num, 1), outputs);
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_UNPACK() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
