// BATCH_TO_SPACE_ND: inverse of SPACE_TO_BATCH_ND: [B * prod(block), S1 .. SM, ...] ->
// [B, S1 * b1 - crops1 .. , ...]. See space_batch_common.h.
#include <vector>

#include "kernels/reference/space.h"
#include "ops/shape/shape_ops.h"
#include "ops/shape/space_batch_common.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "BATCH_TO_SPACE_ND";

TfLiteStatus MakePlan(TfLiteContext* context, TfLiteNode* node, SpaceBatchPlan* plan) {
  TF_LITE_ENSURE_STATUS(ReadSpaceBatch(context, node, kOp, "crops", plan));
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  plan->output_dims = DimsOf(input);
  int64_t blocks = 1;
  for (size_t i = 0; i < plan->block.size(); ++i) {
    blocks *= plan->block[i];
    OCTET_ENSURE(context, blocks <= (int64_t{1} << 31) - 1, "%s: block_shape too large", kOp);
    const int64_t size =
        int64_t{plan->output_dims[i + 1]} * plan->block[i] - plan->before[i] - plan->after[i];
    OCTET_ENSURE(context, size >= 0 && size <= (int64_t{1} << 31) - 1,
                 "%s: crops (%d, %d) exceed dim %d of size %lld", kOp, plan->before[i],
                 plan->after[i], static_cast<int>(i + 1),
                 static_cast<long long>(int64_t{plan->output_dims[i + 1]} * plan->block[i]));
    plan->output_dims[i + 1] = static_cast<int>(size);
  }
  OCTET_ENSURE(context, plan->output_dims[0] % blocks == 0,
               "%s: batch %d is not a multiple of prod(block_shape) = %lld", kOp,
               plan->output_dims[0], static_cast<long long>(blocks));
  plan->output_dims[0] = static_cast<int>(plan->output_dims[0] / blocks);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareSpaceBatch(context, node, kOp, "crops", MakePlan);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  SpaceBatchPlan plan;
  TF_LITE_ENSURE_STATUS(PlanSpaceBatch(context, node, MakePlan, &plan));
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::BatchToSpaceNd(Shape::Of(input), reinterpret_cast<const T*>(input->data.raw),
                              plan.block, plan.before, Shape::Of(output),
                              reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_BATCH_TO_SPACE_ND() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
