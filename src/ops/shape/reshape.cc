// RESHAPE: same elements, new dims. The new shape comes from the optional int32 shape
// vector (input 1) when present, else from the options; at most one dim may be -1.
#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "RESHAPE";

bool HasShapeTensor(TfLiteContext* context, TfLiteNode* node) {
  if (tflite::NumInputs(node) < 2) return false;
  const TfLiteTensor* shape = tflite::GetInput(context, node, 1);
  return shape != nullptr && shape->dims != nullptr && shape->dims->size == 1 &&
         shape->type == kTfLiteInt32;
}

// The requested dims, before -1 is resolved.
TfLiteStatus RequestedShape(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  if (HasShapeTensor(context, node)) {
    const TfLiteTensor* shape = tflite::GetInput(context, node, 1);
    dims->assign(shape->data.i32, shape->data.i32 + shape->dims->data[0]);
    return kTfLiteOk;
  }
  const auto* params = static_cast<const TfLiteReshapeParams*>(node->builtin_data);
  OCTET_ENSURE(context, params != nullptr,
               "%s: no int32 shape vector input and no new_shape option", kOp);
  int n = params->num_dimensions;
  OCTET_ENSURE(context, n >= 0 && n <= TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT,
               "%s: new_shape has %d dims (at most %d)", kOp, n,
               TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT);
  // Old converters wrote [0] to mean a scalar.
  if (n == 1 && params->shape[0] == 0) n = 0;
  dims->assign(params->shape, params->shape + n);
  return kTfLiteOk;
}

TfLiteStatus SizeOutputFromInputs(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  std::vector<int> dims;
  TF_LITE_ENSURE_STATUS(RequestedShape(context, node, &dims));
  int stretch = -1;
  int64_t known = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == -1) {
      OCTET_ENSURE(context, stretch == -1, "%s: more than one -1 in the new shape", kOp);
      stretch = static_cast<int>(i);
    } else {
      OCTET_ENSURE(context, dims[i] >= 0, "%s: negative dim %d in the new shape", kOp, dims[i]);
      OCTET_ENSURE(context, !__builtin_mul_overflow(known, int64_t{dims[i]}, &known),
                   "%s: the new shape's element count overflows", kOp);
    }
  }
  const int64_t count = tflite::NumElements(input);
  if (stretch != -1) {
    OCTET_ENSURE(context, known != 0 && count % known == 0,
                 "%s: cannot infer the -1 dim: %lld elements into blocks of %lld", kOp,
                 static_cast<long long>(count), static_cast<long long>(known));
    dims[stretch] = static_cast<int>(count / known);
    known = count;
  }
  OCTET_ENSURE(context, known == count, "%s: new shape has %lld elements, input has %lld", kOp,
               static_cast<long long>(known), static_cast<long long>(count));
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 2, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckFixedSizeType(context, kOp, input));
  if (HasShapeTensor(context, node) && !IsConstant(tflite::GetInput(context, node, 1))) {
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

TfLiteRegistration* Register_RESHAPE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
