// ONE_HOT: inputs indices (int32/int64), depth (int32 scalar), on_value and off_value (one
// element each, the output's type: float32, int16, int32, int64, int8, uint8, bool); the
// `axis` option (-1 = last) places the depth dimension. Indices outside [0, depth) give a
// row of off_value. A non-constant depth makes the output dynamic.
#include <cstdint>
#include <vector>

#include "kernels/reference/matrix_diag.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "ONE_HOT";

// The depth axis within the output (rank + 1 dims).
TfLiteStatus OutputAxis(TfLiteContext* context, TfLiteNode* node, int* axis) {
  const int rank = tflite::NumDimensions(tflite::GetInput(context, node, 0));
  const int a = static_cast<const TfLiteOneHotParams*>(node->builtin_data)->axis;
  OCTET_ENSURE(context, a >= -1 && a <= rank, "%s: axis %d out of range [-1, %d]", kOp, a, rank);
  *axis = a == -1 ? rank : a;
  return kTfLiteOk;
}

TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  const TfLiteTensor* depth = tflite::GetInput(context, node, 1);
  OCTET_ENSURE(context, depth->data.raw != nullptr, "%s: depth has no data", kOp);
  const int32_t d = depth->data.i32[0];
  OCTET_ENSURE(context, d >= 0, "%s: depth must be non-negative, got %d", kOp, d);
  int axis;
  TF_LITE_ENSURE_STATUS(OutputAxis(context, node, &axis));
  *dims = DimsOf(tflite::GetInput(context, node, 0));
  dims->insert(dims->begin() + axis, d);
  return kTfLiteOk;
}

bool IsValueType(TfLiteType t) {
  switch (t) {
    case kTfLiteFloat32:
    case kTfLiteInt16:
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteBool:
      return true;
    default:
      return false;
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 4, 4, 1));
  const TfLiteTensor *indices, *depth, *on, *off;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &indices));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &depth));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &on));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 3, &off));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, indices, "indices"));
  OCTET_ENSURE(context, depth->type == kTfLiteInt32, "%s: depth must be int32, got %s", kOp,
               TfLiteTypeGetName(depth->type));
  OCTET_ENSURE(context, tflite::NumElements(depth) == 1, "%s: depth must be a scalar", kOp);
  OCTET_ENSURE(context, IsValueType(on->type),
               "%s: on_value type %s is not supported (float32, int16, int32, int64, int8, "
               "uint8, bool)",
               kOp, TfLiteTypeGetName(on->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, on, off, "off_value"));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, on, output, "output"));
  OCTET_ENSURE(context, tflite::NumElements(on) == 1 && tflite::NumElements(off) == 1,
               "%s: on_value and off_value must hold one element each", kOp);
  int axis;
  TF_LITE_ENSURE_STATUS(OutputAxis(context, node, &axis));
  return ResizeOrMarkDynamic(context, node, output, IsConstant(depth), OutputDims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* indices = tflite::GetInput(context, node, 0);
  const TfLiteTensor* on = tflite::GetInput(context, node, 2);
  const TfLiteTensor* off = tflite::GetInput(context, node, 3);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicOutput(context, node, output, OutputDims));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "indices", indices));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "on_value", on));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "off_value", off));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  int axis;
  TF_LITE_ENSURE_STATUS(OutputAxis(context, node, &axis));
  int64_t prefix = 1, suffix = 1;
  for (int d = 0; d < tflite::NumDimensions(indices); ++d) {
    (d < axis ? prefix : suffix) *= indices->dims->data[d];
  }
  const int64_t depth = output->dims->data[axis];
  return ByElementWidth(context, kOp, output, [&](auto tag) {
    using T = decltype(tag);
    const T on_v = *reinterpret_cast<const T*>(on->data.raw);
    const T off_v = *reinterpret_cast<const T*>(off->data.raw);
    T* out = reinterpret_cast<T*>(output->data.raw);
    if (indices->type == kTfLiteInt32) {
      reference::OneHot(indices->data.i32, prefix, depth, suffix, on_v, off_v, out);
    } else {
      reference::OneHot(indices->data.i64, prefix, depth, suffix, on_v, off_v, out);
    }
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_ONE_HOT() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
