// Running another subgraph of the model from a kernel (STABLEHLO_COMPOSITE, STABLEHLO_CASE):
// the callee's inputs take the shapes and bytes of the op's arguments, its outputs are copied
// into the op's outputs.
#pragma once

#include <vector>

#include "tensorflow/lite/c/common.h"

namespace tflite {
class Subgraph;
}  // namespace tflite

namespace octet::ops::stablehlo {

// The subgraph at `index` of the calling node's model, or null after reporting why not
// (no such subgraph, or the calling subgraph itself).
tflite::Subgraph* FindSubgraph(TfLiteContext* context, const char* op, const char* field,
                               int index);

// The node's inputs from `first` on, each required present.
TfLiteStatus CallArguments(TfLiteContext* context, TfLiteNode* node, const char* op, int first,
                           std::vector<const TfLiteTensor*>* args);

// Checks `callee` takes `args` (count and types) and yields the node's outputs (count and
// types), gives its inputs the arguments' shapes and plans it.
TfLiteStatus PrepareCallee(TfLiteContext* context, TfLiteNode* node, const char* op,
                           tflite::Subgraph* callee, const std::vector<const TfLiteTensor*>& args);

// Gives the node's outputs the callees' output shapes when all agree and are static, and
// makes them dynamic (sized at each invoke) otherwise.
TfLiteStatus SizeOutputs(TfLiteContext* context, TfLiteNode* node,
                         const std::vector<tflite::Subgraph*>& callees);

// Copies `args` into the callee's inputs, invokes it and copies its outputs into the node's.
TfLiteStatus RunCallee(TfLiteContext* context, TfLiteNode* node, const char* op,
                       tflite::Subgraph* callee, const std::vector<const TfLiteTensor*>& args);

}  // namespace octet::ops::stablehlo
