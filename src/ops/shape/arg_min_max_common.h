// Shared prepare/eval of ARG_MAX / ARG_MIN: input 0 the tensor, input 1 the axis (one
// int32/int64 value), output int32 or int64 (output_type option) with the axis removed.
#pragma once

#include <functional>
#include <vector>

#include "kernels/reference/arg_min_max.h"
#include "ops/shape/common.h"

namespace octet::ops::shape {

inline TfLiteStatus ArgAxis(TfLiteContext* context, TfLiteNode* node, const char* op, int* axis) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  std::vector<int64_t> v;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, op, tflite::GetInput(context, node, 1), "axis", &v));
  OCTET_ENSURE(context, NormalizeAxis(v[0], tflite::NumDimensions(input), axis),
               "%s: axis %lld out of range for rank %d", op, static_cast<long long>(v[0]),
               tflite::NumDimensions(input));
  OCTET_ENSURE(context, input->dims->data[*axis] > 0, "%s: axis %d has size 0", op, *axis);
  return kTfLiteOk;
}

inline TfLiteStatus ArgResize(TfLiteContext* context, TfLiteNode* node, const char* op) {
  int axis;
  TF_LITE_ENSURE_STATUS(ArgAxis(context, node, op, &axis));
  std::vector<int> dims = DimsOf(tflite::GetInput(context, node, 0));
  dims.erase(dims.begin() + axis);
  return ResizeOutput(context, tflite::GetOutput(context, node, 0), dims);
}

inline TfLiteStatus ArgPrepare(TfLiteContext* context, TfLiteNode* node, const char* op,
                               TfLiteType output_type) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, op, 2, 2, 1));
  const TfLiteTensor *input, *axis;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 1, &axis));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, op, input->type));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, op, axis, "axis"));
  OCTET_ENSURE(context, tflite::NumElements(axis) == 1,
               "%s: axis must hold exactly one value, got %d", op,
               static_cast<int>(tflite::NumElements(axis)));
  OCTET_ENSURE(context, output_type == kTfLiteInt32 || output_type == kTfLiteInt64,
               "%s: output_type must be int32 or int64, got %s", op,
               TfLiteTypeGetName(output_type));
  OCTET_ENSURE(context, tflite::NumDimensions(input) >= 1, "%s: input must have rank >= 1", op);
  output->type = output_type;
  if (!IsConstant(axis)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ArgResize(context, node, op);
}

template <typename T, typename Index>
void ArgTyped(bool is_max, const Shape& shape, int axis, const T* input, Index* output) {
  if (is_max) {
    reference::ArgMinMax(shape, axis, input, output, std::greater<T>());
  } else {
    reference::ArgMinMax(shape, axis, input, output, std::less<T>());
  }
}

template <typename Index>
TfLiteStatus ArgDispatch(TfLiteContext* context, const char* op, bool is_max,
                         const TfLiteTensor* input, int axis, Index* output) {
  const Shape shape = Shape::Of(input);
  switch (input->type) {
    case kTfLiteFloat32:
      ArgTyped(is_max, shape, axis, input->data.f, output);
      break;
    case kTfLiteInt8:
      ArgTyped(is_max, shape, axis, input->data.int8, output);
      break;
    case kTfLiteUInt8:
      ArgTyped(is_max, shape, axis, input->data.uint8, output);
      break;
    case kTfLiteInt16:
      ArgTyped(is_max, shape, axis, input->data.i16, output);
      break;
    case kTfLiteInt32:
      ArgTyped(is_max, shape, axis, input->data.i32, output);
      break;
    case kTfLiteInt64:
      ArgTyped(is_max, shape, axis, input->data.i64, output);
      break;
    case kTfLiteBool:
      ArgTyped(is_max, shape, axis, input->data.b, output);
      break;
    default:
      OCTET_ENSURE(context, false, "%s: unsupported element type %s", op,
                   TfLiteTypeGetName(input->type));
  }
  return kTfLiteOk;
}

inline TfLiteStatus ArgEval(TfLiteContext* context, TfLiteNode* node, const char* op, bool is_max) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::IsDynamicTensor(output)) TF_LITE_ENSURE_STATUS(ArgResize(context, node, op));
  int axis;
  TF_LITE_ENSURE_STATUS(ArgAxis(context, node, op, &axis));
  if (output->type == kTfLiteInt64) {
    return ArgDispatch(context, op, is_max, input, axis, output->data.i64);
  }
  return ArgDispatch(context, op, is_max, input, axis, output->data.i32);
}

}  // namespace octet::ops::shape
