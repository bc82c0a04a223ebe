// SLICE: begin/size (int32/int64 vectors, one value per dim); size -1 takes the rest of
// the dim. Non-constant begin or size make the output dynamic.
#include "kernels/reference/slice.h"

#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "SLICE";
constexpr int kMaxRank = 8;

TfLiteStatus Plan(TfLiteContext* context, TfLiteNode* node, std::vector<int>* begin,
                  std::vector<int>* size) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  std::vector<int64_t> b, sz;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, tflite::GetInput(context, node, 1), "begin", &b));
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, tflite::GetInput(context, node, 2), "size", &sz));
  const int rank = tflite::NumDimensions(input);
  begin->resize(rank);
  size->resize(rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t dim = input->dims->data[d];
    OCTET_ENSURE(context, b[d] >= 0 && b[d] <= dim, "%s: begin[%d] = %lld out of range [0, %lld]",
                 kOp, d, static_cast<long long>(b[d]), static_cast<long long>(dim));
    int64_t n = sz[d];
    if (n == -1) n = dim - b[d];
    OCTET_ENSURE(context, n >= 0 && b[d] + n <= dim,
                 "%s: size[%d] = %lld does not fit dim of size %lld from begin %lld", kOp, d,
                 static_cast<long long>(sz[d]), static_cast<long long>(dim),
                 static_cast<long long>(b[d]));
    (*begin)[d] = static_cast<int>(b[d]);
    (*size)[d] = static_cast<int>(n);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor *input, *begin, *size;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &begin));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &size));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, input, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, begin, "begin"));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, size, "size"));
  const int rank = tflite::NumDimensions(input);
  OCTET_ENSURE(context, rank <= kMaxRank, "%s: input rank %d exceeds %d", kOp, rank, kMaxRank);
  OCTET_ENSURE(context,
               tflite::NumDimensions(begin) == 1 && begin->dims->data[0] == rank &&
                   tflite::NumDimensions(size) == 1 && size->dims->data[0] == rank,
               "%s: begin and size must be vectors of %d values", kOp, rank);
  if (!IsConstant(begin) || !IsConstant(size)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  std::vector<int> begins, sizes;
  TF_LITE_ENSURE_STATUS(Plan(context, node, &begins, &sizes));
  return ResizeOutput(context, output, sizes);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  std::vector<int> begin, size;
  TF_LITE_ENSURE_STATUS(Plan(context, node, &begin, &size));
  if (tflite::IsDynamicTensor(output)) TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, size));
  std::vector<int> stop(begin.size());
  for (size_t d = 0; d < begin.size(); ++d) stop[d] = begin[d] + size[d];
  const std::vector<int> strides(begin.size(), 1);
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::StridedSlice(Shape::Of(input), begin, stop, strides,
                            reinterpret_cast<const T*>(input->data.raw),
                            reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SLICE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
