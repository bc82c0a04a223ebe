// GATHER_ND: indices (int32/int64) of shape [..., n] address the first n dims of params;
// output dims are indices[:-1] + params[n:]. Indices are range-checked at eval.
#include <vector>

#include "kernels/reference/gather.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "GATHER_ND";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *params, *indices;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &params));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &indices));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, params->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, params, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, params, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, indices, "indices"));
  const int rank = tflite::NumDimensions(params);
  const int indices_rank = tflite::NumDimensions(indices);
  OCTET_ENSURE(context, rank >= 1, "%s: params must have rank >= 1", kOp);
  OCTET_ENSURE(context, indices_rank >= 1, "%s: indices must have rank >= 1", kOp);
  const int n = indices->dims->data[indices_rank - 1];
  OCTET_ENSURE(context, n <= rank, "%s: index depth %d exceeds params rank %d", kOp, n, rank);
  std::vector<int> dims(indices->dims->data, indices->dims->data + indices_rank - 1);
  for (int d = n; d < rank; ++d) dims.push_back(params->dims->data[d]);
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* params = tflite::GetInput(context, node, 0);
  const TfLiteTensor* indices = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  reference::GatherError err;
  TF_LITE_ENSURE_STATUS(ByElementWidth(context, kOp, params, [&](auto tag) {
    using T = decltype(tag);
    const T* p = reinterpret_cast<const T*>(params->data.raw);
    T* out = reinterpret_cast<T*>(output->data.raw);
    err =
        indices->type == kTfLiteInt64
            ? reference::GatherNd(Shape::Of(params), p, Shape::Of(indices), indices->data.i64, out)
            : reference::GatherNd(Shape::Of(params), p, Shape::Of(indices), indices->data.i32, out);
  }));
  OCTET_ENSURE(context, err.ok, "%s: index %lld out of range [0, %lld)", kOp,
               static_cast<long long>(err.index), static_cast<long long>(err.limit));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_GATHER_ND() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
