// Ops whose results nothing reads. Ops with effects beyond their outputs stay: variables,
// tables, control flow, custom ops, and ops that carry state in variable inputs.
#include "converter/graph.h"
#include "converter/passes/passes.h"

namespace octet::converter::passes {
namespace {

bool HasEffects(const edit::ModelT& model, const edit::SubGraphT& graph,
                const edit::OperatorT& op) {
  switch (OpCodeOf(model, op)) {
    case edit::BuiltinOperator_CUSTOM:
    case edit::BuiltinOperator_CALL:
    case edit::BuiltinOperator_CALL_ONCE:
    case edit::BuiltinOperator_IF:
    case edit::BuiltinOperator_WHILE:
    case edit::BuiltinOperator_VAR_HANDLE:
    case edit::BuiltinOperator_ASSIGN_VARIABLE:
    case edit::BuiltinOperator_READ_VARIABLE:
    case edit::BuiltinOperator_HASHTABLE:
    case edit::BuiltinOperator_HASHTABLE_IMPORT:
    case edit::BuiltinOperator_HASHTABLE_FIND:
    case edit::BuiltinOperator_HASHTABLE_SIZE:
    case edit::BuiltinOperator_STABLEHLO_WHILE:
    case edit::BuiltinOperator_STABLEHLO_CASE:
    case edit::BuiltinOperator_STABLEHLO_COMPOSITE:
    case edit::BuiltinOperator_STABLEHLO_CUSTOM_CALL:
      return true;
    default:
      break;
  }
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
  for (auto& graph_ptr : model.subgraphs) {
    edit::SubGraphT& graph = *graph_ptr;
    // Backwards, so a chain of dead ops goes in one sweep.
    bool changed = true;
    while (changed) {
      changed = false;
      const Usage usage(graph);
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
    }
  }
  return true;
}

}  // namespace octet::converter::passes
