// Which implementation each node runs: kernels record it in prepare, tools print it
// (`octet inspect`, `octet bench --profile`). An Octet extension; TFLite has no equivalent.
#pragma once

#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/core/subgraph.h"

namespace octet {

// Records that `node` (being prepared in `context`) runs `name`, e.g. "qgemm_avx512vnni_4x64".
// `name` must have static storage duration.
void SetNodeKernelName(TfLiteContext* context, const TfLiteNode* node, const char* name);

// The name recorded for node `node_index`; when none was recorded, "delegate" for a node a
// delegate replaced and "reference" otherwise.
const char* GetNodeKernelName(const tflite::Subgraph& subgraph, int node_index);

}  // namespace octet
