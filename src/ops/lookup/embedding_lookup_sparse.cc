// EMBEDDING_LOOKUP_SPARSE: a sparse tensor of ids (input 0, [n] int32) at coordinates
// indices (input 1, [n, rank] int32) of a dense shape (input 2, [rank] int32), each with a
// weight (input 3, [n] float32), looks up rows of params (input 4, float32, rank >= 2) and
// combines the weighted rows of each bucket (the first rank - 1 coordinates) with the
// combiner: SUM, MEAN (/ Σw) or SQRTN (/ sqrt(Σw²)). Output dims: dense_shape[:-1] +
// params dims[1:]. The output is sized at prepare when dense_shape is constant, otherwise at
// invoke. Ids and coordinates out of range fail at invoke.
#include <vector>

#include "kernels/reference/lookup.h"
#include "ops/lookup/lookup_ops.h"

namespace octet::ops::lookup {
namespace {

constexpr char kOp[] = "EMBEDDING_LOOKUP_SPARSE";
constexpr int kIds = 0, kIndices = 1, kDenseShape = 2, kWeights = 3, kParams = 4;

TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  const TfLiteTensor* dense_shape = tflite::GetInput(context, node, kDenseShape);
  const TfLiteTensor* params = tflite::GetInput(context, node, kParams);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "dense_shape", dense_shape));
  const int rank = dense_shape->dims->data[0];
  dims->clear();
  for (int k = 0; k + 1 < rank; ++k) {
    const int32_t d = dense_shape->data.i32[k];
    OCTET_OP_ENSURE(context, d >= 0, kOp, "dense_shape[%d] is negative (%d)", k, d);
    dims->push_back(d);
  }
  for (int k = 1; k < params->dims->size; ++k) dims->push_back(params->dims->data[k]);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 5, 5, 1));
  const auto* options = static_cast<const TfLiteEmbeddingLookupSparseParams*>(node->builtin_data);
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, options));
  OCTET_OP_ENSURE(context,
                  options->combiner == kTfLiteCombinerTypeSum ||
                      options->combiner == kTfLiteCombinerTypeMean ||
                      options->combiner == kTfLiteCombinerTypeSqrtn,
                  kOp, "unknown combiner %d", static_cast<int>(options->combiner));
  const TfLiteTensor *ids, *indices, *dense_shape, *weights, *params;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, kIds, &ids));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, kIndices, &indices));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, kDenseShape, &dense_shape));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, kWeights, &weights));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, kParams, &params));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "ids (input 0)", ids, 1));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "ids (input 0)", ids, kTfLiteInt32));
  TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "indices (input 1)", indices, 2));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "indices (input 1)", indices, kTfLiteInt32));
  TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "dense_shape (input 2)", dense_shape, 1));
  TF_LITE_ENSURE_STATUS(
      RequireType(context, kOp, "dense_shape (input 2)", dense_shape, kTfLiteInt32));
  TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "weights (input 3)", weights, 1));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "weights (input 3)", weights, kTfLiteFloat32));
  TF_LITE_ENSURE_STATUS(RequireMinRank(context, kOp, "params (input 4)", params, 2));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "params (input 4)", params, kTfLiteFloat32));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "output", output, kTfLiteFloat32));
  const int n = ids->dims->data[0];
  OCTET_OP_ENSURE(context, indices->dims->data[0] == n && weights->dims->data[0] == n, kOp,
                  "ids %s, indices %s and weights %s must have one row per id",
                  DimsString(ids).c_str(), DimsString(indices).c_str(),
                  DimsString(weights).c_str());
  const int lookup_rank = indices->dims->data[1];
  OCTET_OP_ENSURE(context, lookup_rank >= 1, kOp, "indices %s need at least one coordinate",
                  DimsString(indices).c_str());
  OCTET_OP_ENSURE(context, dense_shape->dims->data[0] == lookup_rank, kOp,
                  "dense_shape %s must have one entry per indices column (%d)",
                  DimsString(dense_shape).c_str(), lookup_rank);
  if (!tflite::IsConstantTensor(dense_shape)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  std::vector<int> dims;
  TF_LITE_ENSURE_STATUS(OutputDims(context, node, &dims));
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* options = static_cast<const TfLiteEmbeddingLookupSparseParams*>(node->builtin_data);
  const TfLiteTensor* ids = tflite::GetInput(context, node, kIds);
  const TfLiteTensor* indices = tflite::GetInput(context, node, kIndices);
  const TfLiteTensor* dense_shape = tflite::GetInput(context, node, kDenseShape);
  const TfLiteTensor* weights = tflite::GetInput(context, node, kWeights);
  const TfLiteTensor* params = tflite::GetInput(context, node, kParams);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::IsDynamicTensor(output)) {
    std::vector<int> dims;
    TF_LITE_ENSURE_STATUS(OutputDims(context, node, &dims));
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, dims));
  }
  for (const TfLiteTensor* t : {ids, indices, dense_shape, weights, params}) {
    TF_LITE_ENSURE_STATUS(RequireData(context, kOp, t->name ? t->name : "an input", t));
  }
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const int64_t rows = params->dims->data[0];
  int64_t embedding_size = 1;
  for (int k = 1; k < params->dims->size; ++k) embedding_size *= params->dims->data[k];
  const int lookup_rank = indices->dims->data[1];
  int64_t buckets = 1;
  for (int k = 0; k + 1 < lookup_rank; ++k) buckets *= output->dims->data[k];
  const auto combiner =
      options->combiner == kTfLiteCombinerTypeMean    ? reference::SparseCombiner::kMean
      : options->combiner == kTfLiteCombinerTypeSqrtn ? reference::SparseCombiner::kSqrtn
                                                      : reference::SparseCombiner::kSum;
  const reference::SparseError err = reference::EmbeddingLookupSparse(
      ids->data.i32, indices->data.i32, lookup_rank, dense_shape->data.i32, weights->data.f,
      ids->dims->data[0], params->data.f, rows, embedding_size, buckets, combiner, output->data.f);
  switch (err.kind) {
    case reference::SparseError::kNone:
      return kTfLiteOk;
    case reference::SparseError::kId:
      OCTET_OP_ENSURE(context, false, kOp, "id %lld at position %lld is out of range [0, %lld)",
                      static_cast<long long>(err.value), static_cast<long long>(err.position),
                      static_cast<long long>(err.limit));
    case reference::SparseError::kIndex:
      OCTET_OP_ENSURE(context, false, kOp,
                      "indices[%lld][%d] = %lld is out of range [0, %lld) of dense_shape",
                      static_cast<long long>(err.position), err.dim,
                      static_cast<long long>(err.value), static_cast<long long>(err.limit));
  }
  return kTfLiteError;
}

}  // namespace
}  // namespace octet::ops::lookup

namespace tflite::ops::builtin {

TfLiteRegistration* Register_EMBEDDING_LOOKUP_SPARSE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::lookup::Prepare, octet::ops::lookup::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
