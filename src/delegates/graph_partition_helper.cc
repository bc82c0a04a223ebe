#include <algorithm>

#include "tensorflow/lite/delegates/utils.h"

namespace tflite {
namespace delegates {

TfLiteStatus GraphPartitionHelper::PrepareSupportedNodes(
    std::set<std::string>* unsupported_nodes_info, int start_node_index, int end_node_index) {
  if (context_ == nullptr || context_->GetExecutionPlan == nullptr) return kTfLiteError;
  TfLiteIntArray* plan = nullptr;
  TF_LITE_ENSURE_STATUS(context_->GetExecutionPlan(context_, &plan));
  // The context's array changes with the graph; keep the plan as it was before delegation.
  TfLiteIntArrayFree(original_execution_plan_);
  original_execution_plan_ = TfLiteIntArrayCopy(plan);
  num_total_nodes_ = original_execution_plan_->size;
  std::vector<int> supported;
  for (int i = 0; i < original_execution_plan_->size; ++i) {
    const int node_id = original_execution_plan_->data[i];
    TfLiteNode* node = nullptr;
    TfLiteRegistration* registration = nullptr;
    TF_LITE_ENSURE_STATUS(
        context_->GetNodeAndRegistration(context_, node_id, &node, &registration));
    std::string details;
    const bool in_range = i >= start_node_index && i <= end_node_index;
    if (in_range && IsNodeSupported(context_, node, registration, node_id, &details)) {
      supported.push_back(node_id);
    } else if (in_range && unsupported_nodes_info != nullptr) {
      std::string line = GetOpNameByRegistration(*registration) + ":";
      if (!details.empty()) line += " " + details;
      unsupported_nodes_info->insert(line);
    }
  }
  TfLiteIntArrayFree(supported_nodes_);
  supported_nodes_ = ConvertVectorToTfLiteIntArray(supported);
  num_supported_nodes_ = static_cast<int>(supported.size());
  return kTfLiteOk;
}

TfLiteStatus GraphPartitionHelper::PartitionImpl(std::set<std::string>* unsupported_nodes_info,
                                                 int start_node_index, int end_node_index) {
  // With the supported nodes given to the constructor there is nothing to ask.
  if (is_node_supported_fn_) {
    TF_LITE_ENSURE_STATUS(
        PrepareSupportedNodes(unsupported_nodes_info, start_node_index, end_node_index));
  } else if (supported_nodes_ != nullptr) {
    num_supported_nodes_ = supported_nodes_->size;
  } else {
    return kTfLiteError;
  }
  partitions_.clear();
  if (num_supported_nodes_ == 0) return kTfLiteOk;
  TfLiteDelegateParams* params = nullptr;
  int count = 0;
  TF_LITE_ENSURE_STATUS(
      context_->PreviewDelegatePartitioning(context_, supported_nodes_, &params, &count));
  for (int i = 0; i < count; ++i) partitions_.push_back(params + i);
  std::stable_sort(partitions_.begin(), partitions_.end(),
                   [](const TfLiteDelegateParams* a, const TfLiteDelegateParams* b) {
                     return a->nodes_to_replace->size > b->nodes_to_replace->size;
                   });
  return kTfLiteOk;
}

std::vector<TfLiteDelegateParams*> GraphPartitionHelper::GetFirstNLargestPartitions(
    int n, int min_nodes_per_partition) const {
  std::vector<TfLiteDelegateParams*> out;
  for (TfLiteDelegateParams* p : partitions_) {
    if (static_cast<int>(out.size()) >= n) break;
    if (p->nodes_to_replace->size < min_nodes_per_partition) break;  // sorted: the rest too
    out.push_back(p);
  }
  return out;
}

std::vector<int> GraphPartitionHelper::GetNodesOfFirstNLargestPartitionsImpl(
    int n, int min_nodes_per_partition) {
  std::vector<int> nodes;
  for (const TfLiteDelegateParams* p : GetFirstNLargestPartitions(n, min_nodes_per_partition)) {
    nodes.insert(nodes.end(), p->nodes_to_replace->data,
                 p->nodes_to_replace->data + p->nodes_to_replace->size);
  }
  return nodes;
}

}  // namespace delegates
}  // namespace tflite
