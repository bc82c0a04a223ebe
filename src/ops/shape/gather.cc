// GATHER: picks slices of params (input 0) along `axis` at the positions in indices
// (input 1, int32/int64), with the first batch_dims dims shared by both. Output dims:
// params[:axis] + indices[batch_dims:] + params[axis + 1:]. Indices are range-checked at
// eval. String params must be 1-D, as in TFLite (axis 0, no batch dims): the output holds the
// picked strings in the indices' shape.
#include "kernels/reference/gather.h"

#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"
#include "tensorflow/lite/string_util.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "GATHER";

TfLiteStatus Resolve(TfLiteContext* context, TfLiteNode* node, int* axis, int* batch_dims) {
  const auto* params = static_cast<const TfLiteGatherParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* indices = tflite::GetInput(context, node, 1);
  const int rank = tflite::NumDimensions(input);
  const int indices_rank = tflite::NumDimensions(indices);
  const int a = params ? params->axis : 0;
  OCTET_ENSURE(context, NormalizeAxis(a, rank, axis), "%s: axis %d out of range for rank %d", kOp,
               a, rank);
  int b = params ? params->batch_dims : 0;
  if (b < 0) b += indices_rank;
  OCTET_ENSURE(context, b >= 0 && b <= indices_rank && b <= *axis,
               "%s: batch_dims %d must be in [0, min(axis %d, indices rank %d)]", kOp,
               params ? params->batch_dims : 0, *axis, indices_rank);
  for (int d = 0; d < b; ++d) {
    OCTET_ENSURE(context, input->dims->data[d] == indices->dims->data[d],
                 "%s: batch dim %d differs: params %d vs indices %d", kOp, d, input->dims->data[d],
                 indices->dims->data[d]);
  }
  *batch_dims = b;
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *indices;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &indices));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  if (input->type == kTfLiteString) {
    OCTET_OP_ENSURE(context, input->dims->size == 1, kOp,
                    "string params must be 1-D (TFLite gathers strings along axis 0 only), got "
                    "rank %d",
                    input->dims->size);
  } else {
    TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  }
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, input, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, indices, "indices"));
  int axis, batch_dims;
  TF_LITE_ENSURE_STATUS(Resolve(context, node, &axis, &batch_dims));
  std::vector<int> dims(input->dims->data, input->dims->data + axis);
  for (int d = batch_dims; d < indices->dims->size; ++d) dims.push_back(indices->dims->data[d]);
  for (int d = axis + 1; d < input->dims->size; ++d) dims.push_back(input->dims->data[d]);
  // A string output gets its bytes and shape when it is written.
  if (output->type == kTfLiteString) return kTfLiteOk;
  return ResizeOutput(context, output, dims);
}

// The strings at the positions in indices, in the indices' shape.
template <typename Index>
TfLiteStatus GatherStrings(TfLiteContext* context, const TfLiteTensor* input,
                           const TfLiteTensor* indices, TfLiteTensor* output) {
  int count = 0;
  TF_LITE_ENSURE_STATUS(CheckStrings(context, kOp, "params", input, &count));
  const auto* at = reinterpret_cast<const Index*>(indices->data.raw);
  const int64_t n = tflite::NumElements(indices);
  tflite::DynamicBuffer buffer;
  for (int64_t i = 0; i < n; ++i) {
    OCTET_OP_ENSURE(context, at[i] >= 0 && at[i] < count, kOp, "index %lld out of range [0, %d)",
                    static_cast<long long>(at[i]), count);
    OCTET_OP_ENSURE(
        context, buffer.AddString(tflite::GetString(input, static_cast<int>(at[i]))) == kTfLiteOk,
        kOp, "the output strings are too long");
  }
  buffer.WriteToTensor(output, TfLiteIntArrayCopy(indices->dims));
  return kTfLiteOk;
}

template <typename T, typename Index>
reference::GatherError Run(const TfLiteTensor* input, const TfLiteTensor* indices, int axis,
                           int batch_dims, TfLiteTensor* output) {
  return reference::Gather(Shape::Of(input), reinterpret_cast<const T*>(input->data.raw), axis,
                           batch_dims, Shape::Of(indices),
                           reinterpret_cast<const Index*>(indices->data.raw),
                           reinterpret_cast<T*>(output->data.raw));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* indices = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  int axis, batch_dims;
  TF_LITE_ENSURE_STATUS(Resolve(context, node, &axis, &batch_dims));
  if (input->type == kTfLiteString) {
    return indices->type == kTfLiteInt64 ? GatherStrings<int64_t>(context, input, indices, output)
                                         : GatherStrings<int32_t>(context, input, indices, output);
  }
  reference::GatherError err;
  TF_LITE_ENSURE_STATUS(ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    err = indices->type == kTfLiteInt64 ? Run<T, int64_t>(input, indices, axis, batch_dims, output)
                                        : Run<T, int32_t>(input, indices, axis, batch_dims, output);
  }));
  OCTET_ENSURE(context, err.ok, "%s: index %lld out of range [0, %lld)", kOp,
               static_cast<long long>(err.index), static_cast<long long>(err.limit));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_GATHER() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
