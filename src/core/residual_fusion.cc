#include "core/residual_fusion.h"

#include <algorithm>
#include <vector>

#include "octet/kernel_info.h"
#include "tensorflow/lite/builtin_ops.h"

namespace octet {
namespace {

using Fusion = tflite::Subgraph::ResidualFusion;

bool Contains(const std::vector<int>& list, int t) {
  return std::find(list.begin(), list.end(), t) != list.end();
}

bool SameDims(const TfLiteTensor& a, const TfLiteTensor& b) {
  return a.dims != nullptr && b.dims != nullptr && TfLiteIntArrayEqual(a.dims, b.dims);
}

// The record of `node` in the subgraph behind `context`, or null.
Fusion* RecordOf(TfLiteContext* context, const TfLiteNode* node) {
  if (context == nullptr || context->impl_ == nullptr) return nullptr;
  auto& subgraph = *static_cast<tflite::Subgraph*>(context->impl_);
  const int index = subgraph.NodeIndexOf(node);
  auto& records = subgraph.residual_fusions();
  return index >= 0 && static_cast<size_t>(index) < records.size() ? &records[index] : nullptr;
}

}  // namespace

void FindResidualFusions(tflite::Subgraph& subgraph) {
  auto& records = subgraph.residual_fusions();
  records.assign(subgraph.nodes_size(), Fusion{});
  const std::vector<int>& plan = subgraph.execution_plan();
  const size_t tensors = subgraph.tensors_size();
  // Per tensor: the plan position of its producer (-1: none) and its readers.
  std::vector<int> producer(tensors, -1), readers(tensors, 0), reader(tensors, -1);
  auto valid = [tensors](int t) { return t >= 0 && static_cast<size_t>(t) < tensors; };
  for (size_t i = 0; i < plan.size(); ++i) {
    const TfLiteNode& node = subgraph.node_and_registration(plan[i])->first;
    for (int j = 0; node.outputs && j < node.outputs->size; ++j) {
      const int t = node.outputs->data[j];
      if (valid(t) && producer[t] < 0) producer[t] = static_cast<int>(i);
    }
    for (int j = 0; node.inputs && j < node.inputs->size; ++j) {
      const int t = node.inputs->data[j];
      if (!valid(t)) continue;
      ++readers[t];
      reader[t] = static_cast<int>(i);
    }
  }
  for (size_t i = 0; i < plan.size(); ++i) {
    const auto& [node, reg] = *subgraph.node_and_registration(plan[i]);
    if (reg.builtin_code != kTfLiteBuiltinConv2d || node.delegate != nullptr || !node.outputs ||
        node.outputs->size != 1) {
      continue;
    }
    const int t = node.outputs->data[0];
    if (!valid(t) || readers[t] != 1 || Contains(subgraph.outputs(), t) ||
        Contains(subgraph.variables(), t)) {
      continue;
    }
    const size_t a = static_cast<size_t>(reader[t]);
    if (a <= i) continue;
    const auto& [add, add_reg] = *subgraph.node_and_registration(plan[a]);
    if (add_reg.builtin_code != kTfLiteBuiltinAdd || add.delegate != nullptr || !add.inputs ||
        add.inputs->size != 2 || !add.outputs || add.outputs->size != 1) {
      continue;
    }
    const int other = add.inputs->data[0] == t ? add.inputs->data[1] : add.inputs->data[0];
    const int out = add.outputs->data[0];
    // The other input must hold its values when the producer runs: made before it, or never
    // made by a node (an input, a constant, a variable).
    if (!valid(other) || other == t || producer[other] >= static_cast<int>(i)) continue;
    if (!valid(out) || out == other || Contains(subgraph.inputs(), out)) continue;
    Fusion& f = records[plan[i]];
    f.add_node = plan[a];
    f.residual = other;
    f.output = out;
  }
}

void ConfirmResidualFusions(tflite::Subgraph& subgraph, size_t first_unprepared) {
  auto& records = subgraph.residual_fusions();
  const std::vector<int>& plan = subgraph.execution_plan();
  for (size_t i = 0; i < plan.size(); ++i) {
    Fusion& f = records[plan[i]];
    if (!f.accepted || f.add_node < 0) continue;
    const auto at = std::find(plan.begin(), plan.end(), f.add_node);
    Fusion& add = records[f.add_node];
    if (!add.allowed || static_cast<size_t>(at - plan.begin()) >= first_unprepared) continue;
    const TfLiteNode& node = subgraph.node_and_registration(plan[i])->first;
    const TfLiteTensor& conv_out = *subgraph.tensor(node.outputs->data[0]);
    const TfLiteTensor& residual = *subgraph.tensor(f.residual);
    const TfLiteTensor& out = *subgraph.tensor(f.output);
    const bool floats = conv_out.type == kTfLiteFloat32 && residual.type == kTfLiteFloat32 &&
                        out.type == kTfLiteFloat32;
    // The ADD's output planned in the arena (its life is what the planner moves), the
    // residual anywhere but on a heap that invoke may reallocate.
    const bool placed = out.allocation_type == kTfLiteArenaRw &&
                        conv_out.allocation_type == kTfLiteArenaRw &&
                        residual.allocation_type != kTfLiteDynamic;
    if (!floats || !placed || !SameDims(conv_out, residual) || !SameDims(conv_out, out)) continue;
    f.active = true;
    add.absorbed = true;
    subgraph.SetNodeKernelName(&subgraph.node_and_registration(f.add_node)->first,
                               "fused_into_conv");
  }
}

void AcceptResidualFusion(TfLiteContext* context, const TfLiteNode* node) {
  if (Fusion* f = RecordOf(context, node); f != nullptr && f->add_node >= 0) f->accepted = true;
}

void AllowResidualFusion(TfLiteContext* context, const TfLiteNode* node, float act_min,
                         float act_max) {
  if (Fusion* f = RecordOf(context, node)) {
    f->allowed = true;
    f->act_min = act_min;
    f->act_max = act_max;
  }
}

bool ActiveResidualFusion(TfLiteContext* context, const TfLiteNode* node, FusedResidualAdd* add) {
  const Fusion* f = RecordOf(context, node);
  if (f == nullptr || !f->active) return false;
  auto& subgraph = *static_cast<tflite::Subgraph*>(context->impl_);
  const Fusion& absorbed = subgraph.residual_fusions()[f->add_node];
  add->residual = subgraph.tensor(f->residual)->data.f;
  add->output = subgraph.tensor(f->output)->data.f;
  add->act_min = absorbed.act_min;
  add->act_max = absorbed.act_max;
  return true;
}

bool IsAbsorbedAdd(const tflite::Subgraph& subgraph, int node_index) {
  const auto& records = subgraph.residual_fusions();
  return node_index >= 0 && static_cast<size_t>(node_index) < records.size() &&
         records[node_index].absorbed;
}

}  // namespace octet
