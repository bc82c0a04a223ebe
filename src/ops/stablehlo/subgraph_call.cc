// Subgraph calls for STABLEHLO_COMPOSITE and STABLEHLO_CASE (see subgraph_call.h). Tensors
// are copied across subgraphs rather than shared, so each subgraph keeps its own arena plan.
#include "ops/stablehlo/subgraph_call.h"

#include <cstring>

#include "ops/op_util.h"
#include "tensorflow/lite/core/subgraph.h"

namespace octet::ops::stablehlo {
namespace {

tflite::Subgraph* Caller(TfLiteContext* context) {
  return static_cast<tflite::Subgraph*>(context->impl_);
}

std::vector<int> Dims(const TfLiteTensor* t) {
  return std::vector<int>(t->dims->data, t->dims->data + t->dims->size);
}

// Gives `to` (of `to_context`) the shape of `from` and copies its bytes.
TfLiteStatus CopyTensor(TfLiteContext* context, const char* op, const TfLiteTensor* from,
                        TfLiteContext* to_context, TfLiteTensor* to) {
  OCTET_OP_ENSURE(context, from->type == to->type, op,
                  "tensor types differ across subgraphs (%s vs %s)", TfLiteTypeGetName(from->type),
                  TfLiteTypeGetName(to->type));
  if (!TfLiteIntArrayEqual(from->dims, to->dims)) {
    TF_LITE_ENSURE_STATUS(to_context->ResizeTensor(to_context, to, TfLiteIntArrayCopy(from->dims)));
  }
  OCTET_OP_ENSURE(context, to->bytes == from->bytes, op, "cannot copy %zu bytes into %zu",
                  from->bytes, to->bytes);
  if (from->bytes == 0) return kTfLiteOk;
  OCTET_OP_ENSURE(context, from->data.raw != nullptr && to->data.raw != nullptr, op,
                  "a tensor has no data while copying across subgraphs");
  std::memmove(to->data.raw, from->data.raw, from->bytes);
  return kTfLiteOk;
}

}  // namespace

tflite::Subgraph* FindSubgraph(TfLiteContext* context, const char* op, const char* field,
                               int index) {
  auto* all = Caller(context)->subgraphs();
  if (all == nullptr || index < 0 || static_cast<size_t>(index) >= all->size()) {
    TF_LITE_KERNEL_LOG(context, "%s: %s %d does not name a subgraph of this model", op, field,
                       index);
    return nullptr;
  }
  tflite::Subgraph* g = (*all)[index].get();
  if (g == Caller(context)) {
    TF_LITE_KERNEL_LOG(context, "%s: %s %d is the calling subgraph itself", op, field, index);
    return nullptr;
  }
  return g;
}

TfLiteStatus CallArguments(TfLiteContext* context, TfLiteNode* node, const char* op, int first,
                           std::vector<const TfLiteTensor*>* args) {
  args->clear();
  for (int i = first; i < node->inputs->size; ++i) {
    const TfLiteTensor* t;
    TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, i, &t));
    args->push_back(t);
  }
  return kTfLiteOk;
}

TfLiteStatus PrepareCallee(TfLiteContext* context, TfLiteNode* node, const char* op,
                           tflite::Subgraph* callee, const std::vector<const TfLiteTensor*>& args) {
  const int index = callee->subgraph_index();
  OCTET_OP_ENSURE(context, callee->inputs().size() == args.size(), op,
                  "subgraph %d takes %zu inputs, the op passes %zu", index, callee->inputs().size(),
                  args.size());
  OCTET_OP_ENSURE(context, callee->outputs().size() == static_cast<size_t>(node->outputs->size), op,
                  "subgraph %d yields %zu outputs, the op has %d", index, callee->outputs().size(),
                  node->outputs->size);
  for (size_t i = 0; i < args.size(); ++i) {
    const TfLiteTensor* in = callee->tensor(callee->inputs()[i]);
    OCTET_OP_ENSURE(context, in != nullptr, op, "subgraph %d has no input %zu", index, i);
    OCTET_OP_ENSURE(context, in->type == args[i]->type, op,
                    "argument %zu is %s, subgraph %d takes %s", i, TfLiteTypeGetName(args[i]->type),
                    index, TfLiteTypeGetName(in->type));
    TF_LITE_ENSURE_STATUS(callee->ResizeInputTensor(callee->inputs()[i], Dims(args[i])));
  }
  OCTET_OP_ENSURE(context, callee->AllocateTensors() == kTfLiteOk, op,
                  "subgraph %d failed to prepare", index);
  for (int i = 0; i < node->outputs->size; ++i) {
    TfLiteTensor* out;
    TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, i, &out));
    const TfLiteTensor* result = callee->tensor(callee->outputs()[i]);
    OCTET_OP_ENSURE(context, result != nullptr, op, "subgraph %d has no output %d", index, i);
    OCTET_OP_ENSURE(context, result->type == out->type, op,
                    "output %d is %s, subgraph %d yields %s", i, TfLiteTypeGetName(out->type),
                    index, TfLiteTypeGetName(result->type));
  }
  return kTfLiteOk;
}

TfLiteStatus SizeOutputs(TfLiteContext* context, TfLiteNode* node,
                         const std::vector<tflite::Subgraph*>& callees) {
  for (int i = 0; i < node->outputs->size; ++i) {
    TfLiteTensor* out = tflite::GetOutput(context, node, i);
    const TfLiteTensor* first = nullptr;
    bool fixed = true;
    for (tflite::Subgraph* g : callees) {
      const TfLiteTensor* t = g->tensor(g->outputs()[i]);
      if (tflite::IsDynamicTensor(t) || g->HasDynamicTensors()) fixed = false;
      if (first != nullptr && !TfLiteIntArrayEqual(first->dims, t->dims)) fixed = false;
      first = t;
    }
    if (fixed && first != nullptr) {
      TF_LITE_ENSURE_STATUS(context->ResizeTensor(context, out, TfLiteIntArrayCopy(first->dims)));
    } else {
      tflite::SetTensorToDynamic(out);
    }
  }
  return kTfLiteOk;
}

TfLiteStatus RunCallee(TfLiteContext* context, TfLiteNode* node, const char* op,
                       tflite::Subgraph* callee, const std::vector<const TfLiteTensor*>& args) {
  bool resized = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!TfLiteIntArrayEqual(callee->tensor(callee->inputs()[i])->dims, args[i]->dims)) {
      TF_LITE_ENSURE_STATUS(callee->ResizeInputTensor(callee->inputs()[i], Dims(args[i])));
      resized = true;
    }
  }
  if (resized || callee->needs_allocation()) {
    TF_LITE_ENSURE_STATUS(callee->AllocateTensors());
  }
  for (size_t i = 0; i < args.size(); ++i) {
    TF_LITE_ENSURE_STATUS(
        CopyTensor(context, op, args[i], callee->context(), callee->tensor(callee->inputs()[i])));
  }
  OCTET_OP_ENSURE(context, callee->Invoke() == kTfLiteOk, op, "subgraph %d failed",
                  callee->subgraph_index());
  for (int i = 0; i < node->outputs->size; ++i) {
    TF_LITE_ENSURE_STATUS(CopyTensor(context, op, callee->tensor(callee->outputs()[i]), context,
                                     tflite::GetOutput(context, node, i)));
  }
  return kTfLiteOk;
}

}  // namespace octet::ops::stablehlo
