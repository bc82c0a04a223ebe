// WHERE (one input): the coordinates of the condition's non-zero elements in row-major
// order, as an int64 [count, rank] tensor. The condition may be bool, float32, int64, int32,
// int8, uint8 or uint32 (TFLite's list) with rank >= 1. The output is dynamic unless the
// condition is constant.
#include <cstdint>
#include <vector>

#include "kernels/reference/index_select.h"
#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

constexpr char kOp[] = "WHERE";

// Calls f(T{}) with the condition's element type.
template <typename F>
void ByConditionType(TfLiteType type, F&& f) {
  switch (type) {
    case kTfLiteBool:
      f(bool{});
      break;
    case kTfLiteFloat32:
      f(float{});
      break;
    case kTfLiteInt64:
      f(int64_t{});
      break;
    case kTfLiteInt32:
      f(int32_t{});
      break;
    case kTfLiteInt8:
      f(int8_t{});
      break;
    case kTfLiteUInt8:
      f(uint8_t{});
      break;
    default:  // kTfLiteUInt32, the last type Prepare accepts
      f(uint32_t{});
      break;
  }
}

TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  const TfLiteTensor* cond = tflite::GetInput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "condition", cond));
  int64_t count = 0;
  ByConditionType(cond->type, [&](auto tag) {
    using T = decltype(tag);
    count = reference::CountNonZero(reinterpret_cast<const T*>(cond->data.raw), Count(cond));
  });
  *dims = {static_cast<int>(count), tflite::NumDimensions(cond)};
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, 1));
  const TfLiteTensor* cond;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &cond));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckTypeIn(context, kOp, "condition", cond,
                                    {kTfLiteBool, kTfLiteFloat32, kTfLiteInt64, kTfLiteInt32,
                                     kTfLiteInt8, kTfLiteUInt8, kTfLiteUInt32}));
  OCTET_ENSURE(context, tflite::NumDimensions(cond) >= 1,
               "%s: the condition must have rank >= 1 (got a scalar)", kOp);
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "output", output, kTfLiteInt64));
  return ResizeOrMarkDynamic(context, node, output, IsConstant(cond), OutputDims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* cond = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicOutput(context, node, output, OutputDims));
  if (Count(output) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "condition", cond));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  ByConditionType(cond->type, [&](auto tag) {
    using T = decltype(tag);
    reference::SelectTrueCoords(Shape::Of(cond), reinterpret_cast<const T*>(cond->data.raw),
                                output->data.i64);
  });
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

TfLiteRegistration* Register_WHERE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare, octet::ops::index::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
