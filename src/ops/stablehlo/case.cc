// STABLEHLO_CASE: input 0, a one-element int32 index, selects one of the branch subgraphs
// of StablehloCaseOptions (an index out of [0, branches) selects the last branch, as StableHLO
// specifies); the op's other inputs are the branch's arguments and its outputs are copied to
// the op's outputs. Every branch takes and yields what the op passes and has (count and
// types); outputs have a static shape when all branches agree on it, else they are sized at
// each invoke. Unlike TFLite, which checks every subgraph of the model, only the branches are
// checked and prepared.
#include <vector>

#include "ops/op_util.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "ops/stablehlo/subgraph_call.h"
#include "tensorflow/lite/core/subgraph.h"

namespace octet::ops::stablehlo {
namespace {

constexpr char kOp[] = "STABLEHLO_CASE";

TfLiteStatus Branches(TfLiteContext* context, TfLiteNode* node,
                      std::vector<tflite::Subgraph*>* branches) {
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const auto* params = static_cast<const TfLiteStablehloCaseParams*>(node->builtin_data);
  const uint32_t n = params->num_branches;
  OCTET_OP_ENSURE(context, n >= 1 && n <= TFLITE_STABLEHLO_CASE_PARAMS_MAX_BRANCHES_COUNT, kOp,
                  "needs 1 to %d branches, got %u", TFLITE_STABLEHLO_CASE_PARAMS_MAX_BRANCHES_COUNT,
                  n);
  branches->clear();
  for (uint32_t i = 0; i < n; ++i) {
    tflite::Subgraph* g = FindSubgraph(context, kOp, "branch_subgraph_indices entry",
                                       params->branch_subgraph_indices[i]);
    if (g == nullptr) return kTfLiteError;
    branches->push_back(g);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  OCTET_OP_ENSURE(context, node->inputs->size >= 1, kOp, "needs an index input");
  std::vector<tflite::Subgraph*> branches;
  TF_LITE_ENSURE_STATUS(Branches(context, node, &branches));
  const TfLiteTensor* index;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &index));
  OCTET_OP_ENSURE(context, index->type == kTfLiteInt32 && tflite::NumElements(index) == 1, kOp,
                  "index must be a single INT32, got %s with %lld elements",
                  TfLiteTypeGetName(index->type),
                  static_cast<long long>(tflite::NumElements(index)));
  std::vector<const TfLiteTensor*> args;
  TF_LITE_ENSURE_STATUS(CallArguments(context, node, kOp, 1, &args));
  for (tflite::Subgraph* g : branches) {
    TF_LITE_ENSURE_STATUS(PrepareCallee(context, node, kOp, g, args));
  }
  return SizeOutputs(context, node, branches);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  std::vector<tflite::Subgraph*> branches;
  TF_LITE_ENSURE_STATUS(Branches(context, node, &branches));
  const TfLiteTensor* index = tflite::GetInput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "index", index));
  const int32_t i = index->data.i32[0];
  const size_t n = branches.size();
  tflite::Subgraph* g = (i >= 0 && static_cast<size_t>(i) < n) ? branches[i] : branches[n - 1];
  std::vector<const TfLiteTensor*> args;
  TF_LITE_ENSURE_STATUS(CallArguments(context, node, kOp, 1, &args));
  return RunCallee(context, node, kOp, g, args);
}

}  // namespace
}  // namespace octet::ops::stablehlo

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STABLEHLO_CASE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::stablehlo::Prepare, octet::ops::stablehlo::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
