// BROADCAST_TO: NumPy-broadcasts the input to `shape` (input 1, int32/int64 vector of at
// most 8 dims). Non-constant shape makes the output dynamic.
#include <vector>

#include "kernels/reference/tile.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "BROADCAST_TO";
constexpr int kMaxRank = 8;

TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  std::vector<int64_t> v;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, tflite::GetInput(context, node, 1), "shape", &v));
  const int rank = static_cast<int>(v.size());
  const int in_rank = tflite::NumDimensions(input);
  OCTET_ENSURE(context, in_rank <= rank, "%s: input rank %d exceeds target rank %d", kOp, in_rank,
               rank);
  dims->assign(rank, 0);
  for (int d = 0; d < rank; ++d) {
    OCTET_ENSURE(context, v[d] >= 0 && v[d] <= (int64_t{1} << 31) - 1,
                 "%s: invalid target dim %lld", kOp, static_cast<long long>(v[d]));
    (*dims)[d] = static_cast<int>(v[d]);
    const int k = d - (rank - in_rank);
    if (k >= 0) {
      const int in = input->dims->data[k];
      OCTET_ENSURE(context, in == 1 || in == (*dims)[d],
                   "%s: input dim %d (size %d) cannot broadcast to %d", kOp, k, in, (*dims)[d]);
    }
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *shape;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &shape));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, input, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, shape, "shape"));
  OCTET_ENSURE(context, tflite::NumDimensions(shape) == 1, "%s: shape must be a vector", kOp);
  OCTET_ENSURE(context, shape->dims->data[0] <= kMaxRank, "%s: target rank %d exceeds %d", kOp,
               shape->dims->data[0], kMaxRank);
  return ResizeOrMarkDynamic(context, node, output, IsConstant(shape), OutputDims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicOutput(context, node, output, OutputDims));
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::BroadcastTo(Shape::Of(input), reinterpret_cast<const T*>(input->data.raw),
                           Shape::Of(output), reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_BROADCAST_TO() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
