// GATHER_ND: indices (int32/int64) of shape [..., n] address the first n dims of params;
// output dims are indices[:-1] + params[n:]. Indices are range-checked at eval. String params
// (any rank, as in TFLite) give the strings of the addressed slices.
#include <numeric>
#include <vector>

#include "kernels/reference/gather.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"
#include "tensorflow/lite/string_util.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "GATHER_ND";

// indices[:-1] + params[n:], n the index depth (checked in Prepare).
std::vector<int> OutputDims(const TfLiteTensor* params, const TfLiteTensor* indices) {
  const int indices_rank = indices->dims->size;
  const int n = indices->dims->data[indices_rank - 1];
  std::vector<int> dims(indices->dims->data, indices->dims->data + indices_rank - 1);
  for (int d = n; d < params->dims->size; ++d) dims.push_back(params->dims->data[d]);
  return dims;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *params, *indices;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &params));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &indices));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  if (params->type != kTfLiteString) {
    TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, params->type));
  }
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, params, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, params, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, indices, "indices"));
  const int rank = tflite::NumDimensions(params);
  const int indices_rank = tflite::NumDimensions(indices);
  OCTET_ENSURE(context, rank >= 1, "%s: params must have rank >= 1", kOp);
  OCTET_ENSURE(context, indices_rank >= 1, "%s: indices must have rank >= 1", kOp);
  const int n = indices->dims->data[indices_rank - 1];
  OCTET_ENSURE(context, n <= rank, "%s: index depth %d exceeds params rank %d", kOp, n, rank);
  // A string output gets its bytes and shape when it is written.
  if (output->type == kTfLiteString) return kTfLiteOk;
  return ResizeOutput(context, output, OutputDims(params, indices));
}

// The strings of the addressed slices: the numeric gather run over the strings' positions.
template <typename Index>
TfLiteStatus GatherNdStrings(TfLiteContext* context, const TfLiteTensor* params,
                             const TfLiteTensor* indices, TfLiteTensor* output) {
  int count = 0;
  TF_LITE_ENSURE_STATUS(CheckStrings(context, kOp, "params", params, &count));
  OCTET_OP_ENSURE(context, count == tflite::NumElements(params), kOp,
                  "params hold %d strings for %lld elements", count,
                  static_cast<long long>(tflite::NumElements(params)));
  const std::vector<int> dims = OutputDims(params, indices);
  int64_t elements = 1;
  for (int d : dims) elements *= d;
  std::vector<int32_t> positions(static_cast<size_t>(count)), picked(static_cast<size_t>(elements));
  std::iota(positions.begin(), positions.end(), 0);
  const reference::GatherError err =
      reference::GatherNd(Shape::Of(params), positions.data(), Shape::Of(indices),
                          reinterpret_cast<const Index*>(indices->data.raw), picked.data());
  OCTET_ENSURE(context, err.ok, "%s: index %lld out of range [0, %lld)", kOp,
               static_cast<long long>(err.index), static_cast<long long>(err.limit));
  tflite::DynamicBuffer buffer;
  for (int32_t at : picked) {
    OCTET_OP_ENSURE(context, buffer.AddString(tflite::GetString(params, at)) == kTfLiteOk, kOp,
                    "the output strings are too long");
  }
  TfLiteIntArray* shape = TfLiteIntArrayCreate(static_cast<int>(dims.size()));
  for (size_t d = 0; d < dims.size(); ++d) shape->data[d] = dims[d];
  buffer.WriteToTensor(output, shape);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* params = tflite::GetInput(context, node, 0);
  const TfLiteTensor* indices = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (params->type == kTfLiteString) {
    return indices->type == kTfLiteInt64
               ? GatherNdStrings<int64_t>(context, params, indices, output)
               : GatherNdStrings<int32_t>(context, params, indices, output);
  }
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
