// Shared checks of SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND: input 1 block_shape (int32
// vector of M >= 1 values >= 1), input 2 paddings / crops (int32 [M, 2], non-negative);
// the input has a batch dim, M spatial dims and any trailing dims. Non-constant block
// shape or paddings make the output dynamic.
#pragma once

#include <vector>

#include "ops/shape/common.h"

namespace octet::ops::shape {

struct SpaceBatchPlan {
  std::vector<int> block, before, after, output_dims;
};

inline TfLiteStatus CheckSpaceBatchInputs(TfLiteContext* context, TfLiteNode* node, const char* op,
                                          const char* pads_name) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, op, 3, 3, 1));
  const TfLiteTensor *input, *block, *pads;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 1, &block));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 2, &pads));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, op, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, op, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, op, input, output));
  OCTET_ENSURE(context, block->type == kTfLiteInt32 && pads->type == kTfLiteInt32,
               "%s: block_shape and %s must be int32", op, pads_name);
  OCTET_ENSURE(context, tflite::NumDimensions(block) == 1 && block->dims->data[0] >= 1,
               "%s: block_shape must be a non-empty vector", op);
  const int m = block->dims->data[0];
  OCTET_ENSURE(context, tflite::NumDimensions(input) >= m + 1,
               "%s: input rank %d is too small for %d block dims", op, tflite::NumDimensions(input),
               m);
  OCTET_ENSURE(
      context,
      tflite::NumDimensions(pads) == 2 && pads->dims->data[0] == m && pads->dims->data[1] == 2,
      "%s: %s must have shape [%d, 2]", op, pads_name, m);
  return kTfLiteOk;
}

// Reads block_shape and paddings/crops, checking values (not yet the output dims).
inline TfLiteStatus ReadSpaceBatch(TfLiteContext* context, TfLiteNode* node, const char* op,
                                   const char* pads_name, SpaceBatchPlan* plan) {
  const TfLiteTensor* block = tflite::GetInput(context, node, 1);
  const TfLiteTensor* pads = tflite::GetInput(context, node, 2);
  const int m = block->dims->data[0];
  plan->block.assign(block->data.i32, block->data.i32 + m);
  plan->before.resize(m);
  plan->after.resize(m);
  for (int i = 0; i < m; ++i) {
    OCTET_ENSURE(context, plan->block[i] >= 1, "%s: block_shape[%d] must be >= 1, got %d", op, i,
                 plan->block[i]);
    plan->before[i] = pads->data.i32[2 * i];
    plan->after[i] = pads->data.i32[2 * i + 1];
    OCTET_ENSURE(context, plan->before[i] >= 0 && plan->after[i] >= 0,
                 "%s: %s for dim %d must be non-negative, got (%d, %d)", op, pads_name, i,
                 plan->before[i], plan->after[i]);
  }
  return kTfLiteOk;
}

// Builds the plan of one op (block, crops or paddings, output dims) from its inputs.
using SpaceBatchPlanFn = TfLiteStatus (*)(TfLiteContext*, TfLiteNode*, SpaceBatchPlan*);

// Prepare of both ops: the input checks, then the output sized from the plan, or left
// dynamic (sized at invoke by PlanSpaceBatch) when block_shape or paddings/crops vary.
inline TfLiteStatus PrepareSpaceBatch(TfLiteContext* context, TfLiteNode* node, const char* op,
                                      const char* pads_name, SpaceBatchPlanFn make_plan) {
  TF_LITE_ENSURE_STATUS(CheckSpaceBatchInputs(context, node, op, pads_name));
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (!IsConstant(tflite::GetInput(context, node, 1)) ||
      !IsConstant(tflite::GetInput(context, node, 2))) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  SpaceBatchPlan plan;
  TF_LITE_ENSURE_STATUS(make_plan(context, node, &plan));
  return ResizeOutput(context, output, plan.output_dims);
}

// Invoke of both ops: the plan, with a dynamic output resized to its dims.
inline TfLiteStatus PlanSpaceBatch(TfLiteContext* context, TfLiteNode* node,
                                   SpaceBatchPlanFn make_plan, SpaceBatchPlan* plan) {
  TF_LITE_ENSURE_STATUS(make_plan(context, node, plan));
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, plan->output_dims));
  }
  return kTfLiteOk;
}

}  // namespace octet::ops::shape
