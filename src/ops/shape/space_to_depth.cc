// SPACE_TO_DEPTH: moves block_size x block_size spatial blocks of an NHWC tensor into depth:
// [N, H, W, C] -> [N, H / bs, W / bs, C * bs * bs].
#include <vector>

#include "kernels/reference/space.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"
#include "ops/shape/space_depth_common.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "SPACE_TO_DEPTH";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output;
  std::vector<int> dims;
  int bs;
  TF_LITE_ENSURE_STATUS(
      CheckSpaceDepthInputs<TfLiteSpaceToDepthParams>(context, node, kOp, &output, &dims, &bs));
  OCTET_ENSURE(context, dims[1] % bs == 0 && dims[2] % bs == 0,
               "%s: height %d and width %d must be multiples of block_size %d", kOp, dims[1],
               dims[2], bs);
  dims[1] /= bs;
  dims[2] /= bs;
  dims[3] *= bs * bs;
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSpaceToDepthParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::SpaceToDepth(Shape::Of(input), reinterpret_cast<const T*>(input->data.raw),
                            params->block_size, Shape::Of(output),
                            reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SPACE_TO_DEPTH() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
