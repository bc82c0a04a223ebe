// SPACE_TO_BATCH_ND: zero-pads (quantized: output zero point) the M spatial dims, then
// moves each block_shape block into the batch: [B, S1 .. SM, ...] ->
// [B * prod(block), (S1 + pads) / b1 .. , ...]. See space_batch_common.h.
#include <type_traits>
#include <vector>

#include "kernels/reference/space.h"
#include "ops/shape/shape_ops.h"
#include "ops/shape/space_batch_common.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "SPACE_TO_BATCH_ND";

TfLiteStatus MakePlan(TfLiteContext* context, TfLiteNode* node, SpaceBatchPlan* plan) {
  TF_LITE_ENSURE_STATUS(ReadSpaceBatch(context, node, kOp, "paddings", plan));
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  plan->output_dims = DimsOf(input);
  int64_t batch = plan->output_dims[0];
  for (size_t i = 0; i < plan->block.size(); ++i) {
    const int64_t padded = int64_t{plan->output_dims[i + 1]} + plan->before[i] + plan->after[i];
    OCTET_ENSURE(context, padded % plan->block[i] == 0,
                 "%s: padded dim %d (size %lld) is not a multiple of block %d", kOp,
                 static_cast<int>(i + 1), static_cast<long long>(padded), plan->block[i]);
    plan->output_dims[i + 1] = static_cast<int>(padded / plan->block[i]);
    batch *= plan->block[i];
    OCTET_ENSURE(context, batch <= (int64_t{1} << 31) - 1, "%s: output batch too large", kOp);
  }
  plan->output_dims[0] = static_cast<int>(batch);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareSpaceBatch(context, node, kOp, "paddings", MakePlan);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  SpaceBatchPlan plan;
  TF_LITE_ENSURE_STATUS(PlanSpaceBatch(context, node, MakePlan, &plan));
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    T fill{};
    if (IsQuantizedType(output->type)) {
      fill = static_cast<T>(static_cast<std::make_signed_t<T>>(output->params.zero_point));
    }
    reference::SpaceToBatchNd(Shape::Of(input), reinterpret_cast<const T*>(input->data.raw),
                              plan.block, plan.before, fill, Shape::Of(output),
                              reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SPACE_TO_BATCH_ND() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
