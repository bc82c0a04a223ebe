// DEPTH_TO_SPACE: moves depth into block_size x block_size spatial blocks of an NHWC tensor:
// [N, H, W, C] -> [N, H * bs, W * bs, C / (bs * bs)].
#include <vector>

#include "kernels/reference/space.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"
#include "ops/shape/space_depth_common.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "DEPTH_TO_SPACE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output;
  std::vector<int> dims;
  int bs;
  TF_LITE_ENSURE_STATUS(
      CheckSpaceDepthInputs<TfLiteDepthToSpaceParams>(context, node, kOp, &output, &dims, &bs));
  OCTET_ENSURE(context, dims[3] % (bs * bs) == 0,
               "%s: depth %d must be a multiple of block_size^2 = %d", kOp, dims[3], bs * bs);
  OCTET_ENSURE(context,
               int64_t{dims[1]} * bs <= (int64_t{1} << 31) - 1 &&
                   int64_t{dims[2]} * bs <= (int64_t{1} << 31) - 1,
               "%s: output spatial dims too large", kOp);
  dims[1] *= bs;
  dims[2] *= bs;
  dims[3] /= bs * bs;
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteDepthToSpaceParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::DepthToSpace(Shape::Of(input), reinterpret_cast<const T*>(input->data.raw),
                            params->block_size, Shape::Of(output),
                            reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_DEPTH_TO_SPACE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
