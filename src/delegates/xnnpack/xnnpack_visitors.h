// The one visitor of the XNNPACK delegate: expresses a TFLite node as XNNPACK subgraph nodes
// (float32 and 8-bit quantized), or says it cannot.
#pragma once

#include "delegates/xnnpack/xnnpack_builder.h"
#include "tensorflow/lite/c/common.h"

namespace octet::xnnpack {

// True when the node was expressed in b's subgraph.
bool NodeToXnn(TfLiteContext* ctx, const TfLiteNode& node, const TfLiteRegistration& reg,
               Builder& b);

}  // namespace octet::xnnpack
