// TOPK_V2: input (float32, uint8, int8, int16, int32, int64; rank >= 1) and k (int32 or
// int16 scalar) give the k largest values of each last-dimension row, largest first, and
// their indices (int32, or int16 as TFLite's version 3 allows). Equal values keep their input
// order. The outputs are dynamic unless k is constant and the input's dims are all known.
#include <cstdint>
#include <vector>

#include "kernels/reference/topk.h"
#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

constexpr char kOp[] = "TOPK_V2";

TfLiteStatus ResizeOutputs(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* k_tensor = tflite::GetInput(context, node, 1);
  TfLiteTensor* values = tflite::GetOutput(context, node, 0);
  TfLiteTensor* indices = tflite::GetOutput(context, node, 1);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "k", k_tensor));
  const int64_t k = ScalarAsInt64(k_tensor);
  const int row = input->dims->data[input->dims->size - 1];
  OCTET_ENSURE(context, k >= 0 && k <= row, "%s: k = %lld is outside [0, %d] (the last dimension)",
               kOp, static_cast<long long>(k), row);
  std::vector<int> dims = DimsOf(input);
  dims.back() = static_cast<int>(k);
  TF_LITE_ENSURE_STATUS(ResizeOutput(context, values, dims));
  return ResizeOutput(context, indices, dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 2));
  const TfLiteTensor *input, *k;
  TfLiteTensor *values, *indices;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &k));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &values));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 1, &indices));
  TF_LITE_ENSURE_STATUS(CheckTypeIn(
      context, kOp, "input", input,
      {kTfLiteFloat32, kTfLiteUInt8, kTfLiteInt8, kTfLiteInt16, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, values, "values output"));
  TF_LITE_ENSURE_STATUS(shape::CheckSameQuantization(context, kOp, input, values));
  OCTET_ENSURE(context, tflite::NumDimensions(input) >= 1, "%s: input must have rank >= 1", kOp);
  TF_LITE_ENSURE_STATUS(CheckTypeIn(context, kOp, "k", k, {kTfLiteInt32, kTfLiteInt16}));
  OCTET_ENSURE(context, Count(k) == 1, "%s: k must hold one element, got %lld", kOp,
               static_cast<long long>(Count(k)));
  TF_LITE_ENSURE_STATUS(
      CheckTypeIn(context, kOp, "indices output", indices, {kTfLiteInt32, kTfLiteInt16}));
  if (indices->type == kTfLiteInt16) {
    const int row = input->dims->data[input->dims->size - 1];
    OCTET_ENSURE(context, row <= INT16_MAX,
                 "%s: int16 indices cannot address a last dimension of %d", kOp, row);
  }
  if (IsConstant(k) && !HasUnknownDims(input)) return ResizeOutputs(context, node);
  tflite::SetTensorToDynamic(values);
  tflite::SetTensorToDynamic(indices);
  return kTfLiteOk;
}

template <typename T>
void Run(const TfLiteTensor* input, TfLiteTensor* values, TfLiteTensor* indices) {
  const int64_t row = input->dims->data[input->dims->size - 1];
  const int64_t rows = row == 0 ? 0 : Count(input) / row;
  const int64_t k = values->dims->data[values->dims->size - 1];
  const T* in = reinterpret_cast<const T*>(input->data.raw);
  T* out = reinterpret_cast<T*>(values->data.raw);
  if (indices->type == kTfLiteInt16) {
    reference::TopK(in, rows, row, k, indices->data.i16, out);
  } else {
    reference::TopK(in, rows, row, k, indices->data.i32, out);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* values = tflite::GetOutput(context, node, 0);
  TfLiteTensor* indices = tflite::GetOutput(context, node, 1);
  if (tflite::IsDynamicTensor(values) || tflite::IsDynamicTensor(indices)) {
    TF_LITE_ENSURE_STATUS(ResizeOutputs(context, node));
  }
  if (Count(values) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "values output", values));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "indices output", indices));
  switch (input->type) {
    case kTfLiteFloat32:
      Run<float>(input, values, indices);
      break;
    case kTfLiteUInt8:
      Run<uint8_t>(input, values, indices);
      break;
    case kTfLiteInt8:
      Run<int8_t>(input, values, indices);
      break;
    case kTfLiteInt16:
      Run<int16_t>(input, values, indices);
      break;
    case kTfLiteInt32:
      Run<int32_t>(input, values, indices);
      break;
    case kTfLiteInt64:
      Run<int64_t>(input, values, indices);
      break;
    default:
      OCTET_ENSURE(context, false, "%s: unsupported input type %s", kOp,
                   TfLiteTypeGetName(input->type));
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

TfLiteRegistration* Register_TOPK_V2() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare, octet::ops::index::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
