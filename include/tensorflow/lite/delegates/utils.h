// Helpers for writing delegates: GraphPartitionHelper splits the execution plan into the
// subsets a delegate can take (through context->PreviewDelegatePartitioning, i.e. Octet's
// partitioner), so a delegate's Prepare can pick the largest ones.
#pragma once

#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/util.h"

namespace tflite {
namespace delegates {

// Whether a node can be delegated; may explain why not in *unsupported_details.
using IsNodeSupportedFn = std::function<bool(TfLiteContext*, TfLiteNode*, TfLiteRegistration*,
                                             std::string* unsupported_details)>;

// Use it inside TfLiteDelegate::Prepare.
class GraphPartitionHelper {
 public:
  GraphPartitionHelper(TfLiteContext* context, IsNodeSupportedFn is_node_supported_fn)
      : context_(context), is_node_supported_fn_(std::move(is_node_supported_fn)) {}
  // The supported nodes given up front.
  GraphPartitionHelper(TfLiteContext* context, const std::vector<int>& supported_node_indices)
      : context_(context),
        num_total_nodes_(static_cast<int>(supported_node_indices.size())),
        supported_nodes_(ConvertVectorToTfLiteIntArray(supported_node_indices)) {}
  virtual ~GraphPartitionHelper() {
    TfLiteIntArrayFree(supported_nodes_);
    TfLiteIntArrayFree(original_execution_plan_);
  }
  GraphPartitionHelper(const GraphPartitionHelper&) = delete;
  GraphPartitionHelper& operator=(const GraphPartitionHelper&) = delete;

  // Finds the supported nodes and the partitions they form. unsupported_nodes_info (may be
  // null) receives one "OP: details" line per kind of unsupported node.
  virtual TfLiteStatus Partition(std::set<std::string>* unsupported_nodes_info) {
    return PartitionImpl(unsupported_nodes_info, 0, std::numeric_limits<int>::max());
  }

  // The n largest partitions with at least min_nodes_per_partition nodes, largest first.
  // The params are owned by the runtime and valid until the graph changes.
  std::vector<TfLiteDelegateParams*> GetFirstNLargestPartitions(
      int n = std::numeric_limits<int>::max(), int min_nodes_per_partition = 0) const;
  // The nodes of those partitions.
  std::vector<int> GetNodesOfFirstNLargestPartitions(int n = std::numeric_limits<int>::max(),
                                                     int min_nodes_per_partition = 0) {
    return GetNodesOfFirstNLargestPartitionsImpl(n, min_nodes_per_partition);
  }

  int num_total_nodes() const { return num_total_nodes_; }
  int num_supported_nodes() const { return num_supported_nodes_; }
  int num_partitions() const { return static_cast<int>(partitions_.size()); }

 protected:
  virtual bool IsNodeSupported(TfLiteContext* context, TfLiteNode* node,
                               TfLiteRegistration* registration, int node_id,
                               std::string* unsupported_details) {
    return is_node_supported_fn_(context, node, registration, unsupported_details);
  }
  virtual std::vector<int> GetNodesOfFirstNLargestPartitionsImpl(int n,
                                                                 int min_nodes_per_partition);
  virtual TfLiteStatus PartitionImpl(std::set<std::string>* unsupported_nodes_info,
                                     int start_node_index, int end_node_index);

  TfLiteContext* const context_ = nullptr;
  std::vector<TfLiteDelegateParams*> partitions_;  // owned by the runtime
  TfLiteIntArray* original_execution_plan_ = nullptr;

 private:
  TfLiteStatus PrepareSupportedNodes(std::set<std::string>* unsupported_nodes_info,
                                     int start_node_index, int end_node_index);

  int num_total_nodes_ = 0;
  int num_supported_nodes_ = 0;
  const IsNodeSupportedFn is_node_supported_fn_ = nullptr;
  TfLiteIntArray* supported_nodes_ = nullptr;
};

}  // namespace delegates
}  // namespace tflite
