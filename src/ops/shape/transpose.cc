// TRANSPOSE: permutes the dims of a rank <= 6 tensor by `perm` (input 1, int32/int64, a
// permutation of 0..rank-1). A non-constant perm makes the output dynamic.
#include "kernels/reference/transpose.h"

#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "TRANSPOSE";
constexpr int kMaxRank = 6;

TfLiteStatus ReadPerm(TfLiteContext* context, TfLiteNode* node, std::vector<int>* perm) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const int rank = tflite::NumDimensions(input);
  std::vector<int64_t> v;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, tflite::GetInput(context, node, 1), "perm", &v));
  std::vector<bool> seen(rank, false);
  perm->resize(rank);
  for (int d = 0; d < rank; ++d) {
    OCTET_ENSURE(context, v[d] >= 0 && v[d] < rank, "%s: perm[%d] = %lld out of range [0, %d)", kOp,
                 d, static_cast<long long>(v[d]), rank);
    OCTET_ENSURE(context, !seen[v[d]], "%s: perm repeats dim %lld", kOp,
                 static_cast<long long>(v[d]));
    seen[v[d]] = true;
    (*perm)[d] = static_cast<int>(v[d]);
  }
  return kTfLiteOk;
}

TfLiteStatus SizeOutputFromInputs(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  std::vector<int> perm;
  TF_LITE_ENSURE_STATUS(ReadPerm(context, node, &perm));
  std::vector<int> dims(perm.size());
  for (size_t d = 0; d < perm.size(); ++d) dims[d] = input->dims->data[perm[d]];
  return ResizeOutput(context, tflite::GetOutput(context, node, 0), dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *perm;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &perm));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, input, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, perm, "perm"));
  const int rank = tflite::NumDimensions(input);
  OCTET_ENSURE(context, rank <= kMaxRank, "%s: input rank %d exceeds %d", kOp, rank, kMaxRank);
  OCTET_ENSURE(context, tflite::NumDimensions(perm) == 1 && perm->dims->data[0] == rank,
               "%s: perm must be a vector of %d values", kOp, rank);
  if (!IsConstant(perm)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return SizeOutputFromInputs(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::IsDynamicTensor(output)) TF_LITE_ENSURE_STATUS(SizeOutputFromInputs(context, node));
  std::vector<int> perm;
  TF_LITE_ENSURE_STATUS(ReadPerm(context, node, &perm));
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::Transpose(Shape::Of(input), perm, reinterpret_cast<const T*>(input->data.raw),
                         Shape::Of(output), reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_TRANSPOSE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
