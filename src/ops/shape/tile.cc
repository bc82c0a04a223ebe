// TILE: repeats the input multiples[d] times along each dim d (input 1, int32/int64,
// non-negative, one per dim). Non-constant multiples make the output dynamic.
#include "kernels/reference/tile.h"

#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "TILE";

TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  std::vector<int64_t> m;
  TF_LITE_ENSURE_STATUS(
      ReadIndices(context, kOp, tflite::GetInput(context, node, 1), "multiples", &m));
  *dims = DimsOf(input);
  for (size_t d = 0; d < dims->size(); ++d) {
    OCTET_ENSURE(context, m[d] >= 0, "%s: multiples[%d] is negative (%lld)", kOp,
                 static_cast<int>(d), static_cast<long long>(m[d]));
    const int64_t size = (*dims)[d] * m[d];
    OCTET_ENSURE(context, size <= (int64_t{1} << 31) - 1, "%s: tiled dim %d too large", kOp,
                 static_cast<int>(d));
    (*dims)[d] = static_cast<int>(size);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *multiples;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &multiples));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, input, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, multiples, "multiples"));
  const int rank = tflite::NumDimensions(input);
  OCTET_ENSURE(context, tflite::NumDimensions(multiples) == 1 && multiples->dims->data[0] == rank,
               "%s: multiples must be a vector of %d values", kOp, rank);
  return ResizeOrMarkDynamic(context, node, output, IsConstant(multiples), OutputDims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicOutput(context, node, output, OutputDims));
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::Tile(Shape::Of(input), reinterpret_cast<const T*>(input->data.raw),
                    Shape::Of(output), reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_TILE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
