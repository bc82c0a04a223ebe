// PACK: stacks values_count equally shaped tensors along a new axis in [-(rank + 1),
// rank]. Quantized inputs must share the output's scale and zero point.
#include <vector>

#include "kernels/reference/concat.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "PACK";

int ResolvedAxis(const TfLitePackParams* params, int rank) {
  return params->axis < 0 ? params->axis + rank + 1 : params->axis;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLitePackParams*>(node->builtin_data);
  OCTET_ENSURE(context, params != nullptr, "%s: missing options", kOp);
  const int n = tflite::NumInputs(node);
  OCTET_ENSURE(context, n >= 1 && n == params->values_count,
               "%s: values_count is %d but the node has %d inputs", kOp, params->values_count, n);
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, n, n, 1));
  const TfLiteTensor* t0;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &t0));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, t0->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, t0, output, "output"));
  const int rank = tflite::NumDimensions(t0);
  OCTET_ENSURE(context, params->axis >= -(rank + 1) && params->axis <= rank,
               "%s: axis %d out of range [%d, %d]", kOp, params->axis, -(rank + 1), rank);
  for (int i = 0; i < n; ++i) {
    const TfLiteTensor* t;
    TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, i, &t));
    OCTET_ENSURE(context, t->type == t0->type, "%s: input %d type %s differs from %s", kOp, i,
                 TfLiteTypeGetName(t->type), TfLiteTypeGetName(t0->type));
    OCTET_ENSURE(context, tflite::HaveSameShapes(t, t0), "%s: input %d shape differs from input 0",
                 kOp, i);
    TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, t, output));
  }
  std::vector<int> dims = DimsOf(t0);
  dims.insert(dims.begin() + ResolvedAxis(params, rank), n);
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLitePackParams*>(node->builtin_data);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const int n = tflite::NumInputs(node);
  const int axis = ResolvedAxis(params, output->dims->size - 1);
  // Each input is a slab of extent 1 on the new axis of the output.
  std::vector<int> slab_dims = DimsOf(output);
  slab_dims[axis] = 1;
  const std::vector<Shape> shapes(n, Shape(slab_dims));
  return ByElementWidth(context, kOp, output, [&](auto tag) {
    using T = decltype(tag);
    std::vector<const T*> data(n);
    for (int i = 0; i < n; ++i) {
      data[i] = reinterpret_cast<const T*>(tflite::GetInput(context, node, i)->data.raw);
    }
    reference::Concatenation(axis, data, shapes, Shape::Of(output),
                             reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_PACK() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
