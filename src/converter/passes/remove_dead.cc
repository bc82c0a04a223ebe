// Ops whose results nothing reads. Ops with effects beyond their outputs stay (HasSideEffects),
// and so do ops that carry state in variable inputs.
#include "converter/graph.h"
#include "converter/passes/passes.h"

namespace octet::converter::passes {
namespace {

bool HasEffects(const edit::ModelT& model, const edit::SubGraphT& graph,
                const edit::OperatorT& op) {
  if (HasSideEffects(OpCodeOf(model, op))) return true;
  if (op.outputs.empty()) return true;
  for (int32_t t : op.inputs) {
    if (t >= 0 && static_cast<size_t>(t) < graph.tensors.size() && graph.tensors[t]->is_variable) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool RemoveDead(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  // Backwards, so a chain of dead ops goes in one sweep.
  RewriteUntilStable(model, [&](edit::SubGraphT& graph, const Usage& usage) {
    bool changed = false;
    std::vector<bool> erase(graph.operators.size(), false);
    for (size_t i = graph.operators.size(); i-- > 0;) {
      const edit::OperatorT& op = *graph.operators[i];
      if (HasEffects(model, graph, op)) continue;
      bool read = false;
      for (int32_t t : op.outputs) {
        read = read || usage.is_graph_output(t) || !usage.consumers(t).empty();
      }
      if (read) continue;
      erase[i] = true;
      changed = true;
      log.Add(OpNameOf(model, op) + " #" + std::to_string(i) + ": nothing reads its results");
    }
    EraseOperators(graph, erase);
    return changed;
  });
  return true;
}

}  // namespace octet::converter::passes
