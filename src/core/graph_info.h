// Adapts a Subgraph to the planner's and partitioner's GraphInfo view (execution order).
#pragma once

#include "memory/arena_planner.h"
#include "tensorflow/lite/core/subgraph.h"

namespace octet {

class SubgraphGraphInfo : public GraphInfo {
 public:
  explicit SubgraphGraphInfo(tflite::Subgraph* subgraph) : subgraph_(subgraph) {}
  size_t num_tensors() const override { return subgraph_->tensors_size(); }
  TfLiteTensor* tensor(size_t index) override { return subgraph_->tensor(static_cast<int>(index)); }
  size_t num_nodes() const override { return subgraph_->execution_plan().size(); }
  const TfLiteNode& node(size_t plan_index) const override {
    return subgraph_->node_and_registration(subgraph_->execution_plan()[plan_index])->first;
  }
  // By node id rather than plan position (the partitioner works with ids).
  const TfLiteNode& node_by_id(int node_id) const {
    return subgraph_->node_and_registration(node_id)->first;
  }
  const std::vector<int>& inputs() const override { return subgraph_->inputs(); }
  const std::vector<int>& outputs() const override { return subgraph_->outputs(); }
  const std::vector<int>& variables() const override { return subgraph_->variables(); }
  int fused_output(size_t plan_index) const override {
    const auto& records = subgraph_->residual_fusions();
    const int node = subgraph_->execution_plan()[plan_index];
    return static_cast<size_t>(node) < records.size() && records[node].active ? records[node].output
                                                                              : -1;
  }

 private:
  tflite::Subgraph* subgraph_;
};

}  // namespace octet
