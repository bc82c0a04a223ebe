// Identical constants stored once: buffers with the same bytes become one buffer, and
// constant tensors that are the same in every respect become one tensor.
#include <map>

#include "converter/graph.h"
#include "converter/passes/passes.h"

namespace octet::converter::passes {
namespace {

bool SameConstant(const edit::TensorT& a, const edit::TensorT& b) {
  return a.buffer == b.buffer && a.type == b.type && a.shape == b.shape && a.sparsity == nullptr &&
         b.sparsity == nullptr && SameQuantization(a, b) &&
         (a.quantization == nullptr || b.quantization == nullptr ||
          a.quantization->quantized_dimension == b.quantization->quantized_dimension);
}

}  // namespace

bool DedupeConstants(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  // Buffers: the first of each content wins.
  std::map<std::vector<uint8_t>, uint32_t> first_buffer;
  std::vector<uint32_t> canonical(model.buffers.size());
  int merged_buffers = 0;
  for (uint32_t b = 0; b < model.buffers.size(); ++b) {
    canonical[b] = b;
    const std::vector<uint8_t>& data = model.buffers[b]->data;
    if (b == 0 || data.empty()) continue;
    const auto found = first_buffer.emplace(data, b);
    if (!found.second) canonical[b] = found.first->second;
  }
  for (auto& graph : model.subgraphs) {
    for (auto& tensor : graph->tensors) {
      if (tensor->is_variable || tensor->buffer >= canonical.size()) continue;
      if (canonical[tensor->buffer] != tensor->buffer) {
        tensor->buffer = canonical[tensor->buffer];
        ++merged_buffers;
      }
    }
  }
  if (merged_buffers > 0) {
    log.Add(std::to_string(merged_buffers) + " tensor(s) now share an identical buffer");
  }
  // Tensors: a later copy of a constant is read from the first.
  for (auto& graph_ptr : model.subgraphs) {
    edit::SubGraphT& graph = *graph_ptr;
    const Usage usage(graph);
    std::map<uint32_t, std::vector<int32_t>> constants_by_buffer;
    for (int32_t t = 0; t < static_cast<int32_t>(graph.tensors.size()); ++t) {
      if (!IsConstant(model, graph, t) || usage.is_graph_output(t) || usage.is_graph_input(t) ||
          usage.consumers(t).empty()) {
        continue;
      }
      std::vector<int32_t>& constants = constants_by_buffer[graph.tensors[t]->buffer];
      bool replaced = false;
      for (int32_t earlier : constants) {
        if (SameConstant(*graph.tensors[earlier], *graph.tensors[t])) {
          ReplaceUses(graph, t, earlier);
          log.Add("constant '" + graph.tensors[t]->name + "' is a copy of '" +
                  graph.tensors[earlier]->name + "': read from the first");
          replaced = true;
          break;
        }
      }
      if (!replaced) constants.push_back(t);
    }
  }
  return true;
}

}  // namespace octet::converter::passes
