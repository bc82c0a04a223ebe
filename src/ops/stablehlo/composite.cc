// STABLEHLO_COMPOSITE: runs the decomposition subgraph its StableHLOCompositeOptions name on
// the op's inputs, the subgraph's outputs becoming the op's. The composite's name, version
// and attributes only identify it (for delegates); the decomposition defines its meaning.
// As TFLite: at least one input; the subgraph takes as many inputs and yields as many outputs
// as the op has, of the same types.
#include <vector>

#include "ops/op_util.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "ops/stablehlo/subgraph_call.h"
#include "tensorflow/lite/core/subgraph.h"

namespace octet::ops::stablehlo {
namespace {

constexpr char kOp[] = "STABLEHLO_COMPOSITE";

TfLiteStatus Decomposition(TfLiteContext* context, TfLiteNode* node, tflite::Subgraph** g) {
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const auto* params = static_cast<const TfLiteStablehloCompositeParams*>(node->builtin_data);
  *g = FindSubgraph(context, kOp, "decomposition_subgraph_index", params->subgraph_index);
  return *g != nullptr ? kTfLiteOk : kTfLiteError;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  OCTET_OP_ENSURE(context, node->inputs->size >= 1, kOp, "needs at least one input");
  tflite::Subgraph* g;
  TF_LITE_ENSURE_STATUS(Decomposition(context, node, &g));
  std::vector<const TfLiteTensor*> args;
  TF_LITE_ENSURE_STATUS(CallArguments(context, node, kOp, 0, &args));
  TF_LITE_ENSURE_STATUS(PrepareCallee(context, node, kOp, g, args));
  return SizeOutputs(context, node, {g});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  tflite::Subgraph* g;
  TF_LITE_ENSURE_STATUS(Decomposition(context, node, &g));
  std::vector<const TfLiteTensor*> args;
  TF_LITE_ENSURE_STATUS(CallArguments(context, node, kOp, 0, &args));
  return RunCallee(context, node, kOp, g, args);
}

}  // namespace
}  // namespace octet::ops::stablehlo

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STABLEHLO_COMPOSITE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::stablehlo::Prepare, octet::ops::stablehlo::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
