// UNIQUE: a vector (float32, int8, uint8, int16, int32, int64) gives its distinct values in
// order of first appearance (output 0, always dynamic) and, for each element, the position
// of its value there (output 1, the options' index_out_type: int32 or int64). Floats compare
// by value, so 0.0 and -0.0 are one value (the first seen is kept); all NaNs are one value.
#include <cstdint>
#include <vector>

#include "kernels/reference/index_select.h"
#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

constexpr char kOp[] = "UNIQUE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, 2));
  const TfLiteTensor* input;
  TfLiteTensor *values, *index;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &values));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 1, &index));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  TF_LITE_ENSURE_STATUS(CheckTypeIn(
      context, kOp, "input", input,
      {kTfLiteFloat32, kTfLiteInt8, kTfLiteUInt8, kTfLiteInt16, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, values, "values output"));
  TF_LITE_ENSURE_STATUS(shape::CheckSameQuantization(context, kOp, input, values));
  OCTET_ENSURE(context, tflite::NumDimensions(input) == 1,
               "%s: input must be a vector, got rank %d", kOp, tflite::NumDimensions(input));
  const auto* params = static_cast<const TfLiteUniqueParams*>(node->builtin_data);
  OCTET_ENSURE(context,
               params->index_out_type == kTfLiteInt32 || params->index_out_type == kTfLiteInt64,
               "%s: idx_out_type must be int32 or int64, got %s", kOp,
               TfLiteTypeGetName(params->index_out_type));
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "index output", index, params->index_out_type));
  tflite::SetTensorToDynamic(values);
  return ResizeOutput(context, index, DimsOf(input));
}

template <typename T, typename Index>
TfLiteStatus Run(TfLiteContext* context, const TfLiteTensor* input, TfLiteTensor* values,
                 TfLiteTensor* index) {
  std::vector<T> distinct;
  reference::Unique(reinterpret_cast<const T*>(input->data.raw), Count(input), &distinct,
                    reinterpret_cast<Index*>(index->data.raw));
  TF_LITE_ENSURE_STATUS(ResizeOutput(context, values, {static_cast<int>(distinct.size())}));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "values output", values));
  reference::CopyElements(reinterpret_cast<T*>(values->data.raw), distinct.data(),
                          static_cast<int64_t>(distinct.size()));
  return kTfLiteOk;
}

template <typename T>
TfLiteStatus RunWithIndex(TfLiteContext* context, const TfLiteTensor* input, TfLiteTensor* values,
                          TfLiteTensor* index) {
  if (index->type == kTfLiteInt64) return Run<T, int64_t>(context, input, values, index);
  return Run<T, int32_t>(context, input, values, index);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* values = tflite::GetOutput(context, node, 0);
  TfLiteTensor* index = tflite::GetOutput(context, node, 1);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "index output", index));
  OCTET_ENSURE(context, Count(index) == Count(input),
               "%s: index output holds %lld elements, not %lld", kOp,
               static_cast<long long>(Count(index)), static_cast<long long>(Count(input)));
  switch (input->type) {
    case kTfLiteFloat32:
      return RunWithIndex<float>(context, input, values, index);
    case kTfLiteInt8:
      return RunWithIndex<int8_t>(context, input, values, index);
    case kTfLiteUInt8:
      return RunWithIndex<uint8_t>(context, input, values, index);
    case kTfLiteInt16:
      return RunWithIndex<int16_t>(context, input, values, index);
    case kTfLiteInt32:
      return RunWithIndex<int32_t>(context, input, values, index);
    case kTfLiteInt64:
      return RunWithIndex<int64_t>(context, input, values, index);
    default:
      OCTET_ENSURE(context, false, "%s: unsupported input type %s", kOp,
                   TfLiteTypeGetName(input->type));
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

TfLiteRegistration* Register_UNIQUE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare, octet::ops::index::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
