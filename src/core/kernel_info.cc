#include "octet/kernel_info.h"

namespace octet {

void SetNodeKernelName(TfLiteContext* context, const TfLiteNode* node, const char* name) {
  if (context == nullptr || context->impl_ == nullptr || node == nullptr) return;
  static_cast<tflite::Subgraph*>(context->impl_)->SetNodeKernelName(node, name);
}

const char* GetNodeKernelName(const tflite::Subgraph& subgraph, int node_index) {
  const auto* nr = subgraph.node_and_registration(node_index);
  if (nr == nullptr) return "reference";
  if (const char* name = subgraph.NodeKernelName(node_index)) return name;
  return nr->first.delegate != nullptr ? "delegate" : "reference";
}

}  // namespace octet
