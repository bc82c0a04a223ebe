#include "converter/passes/pattern.h"

#include <cmath>

#include "converter/passes/fused_activation.h"

namespace octet::converter::passes {

bool IsScalarNear(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t tensor,
                  float value, float tolerance) {
  std::vector<float> values;
  return ConstantFloats(model, graph, tensor, &values) && values.size() == 1 &&
         std::fabs(values[0] - value) <= tolerance * std::fabs(value);
}

int BinaryProducer(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
                   int32_t tensor, edit::BuiltinOperator code) {
  const int p = usage.producer(tensor);
  if (p < 0) return -1;
  edit::OperatorT& op = *graph.operators[p];
  if (OpCodeOf(model, op) != code || op.inputs.size() != 2 || op.outputs.size() != 1) return -1;
  const edit::ActivationFunctionType* act = FusedActivation(op, code);
  if (act != nullptr && *act != edit::ActivationFunctionType_NONE) return -1;
  return p;
}

int32_t OtherInput(const edit::OperatorT& op, int32_t known) {
  if (op.inputs.size() != 2) return -1;
  if (op.inputs[0] == known) return op.inputs[1];
  if (op.inputs[1] == known) return op.inputs[0];
  return -1;
}

bool SelfContained(const edit::SubGraphT& graph, const Usage& usage, const std::set<int>& ops,
                   int32_t output) {
  for (int i : ops) {
    for (int32_t t : graph.operators[i]->outputs) {
      if (t == output) continue;
      if (usage.is_graph_output(t)) return false;
      for (int reader : usage.consumers(t)) {
        if (ops.count(reader) == 0) return false;
      }
    }
  }
  return true;
}

void ReplacePattern(edit::SubGraphT& graph, const std::set<int>& ops,
                    std::unique_ptr<edit::OperatorT> replacement) {
  const int last = *ops.rbegin();
  std::vector<bool> erase(graph.operators.size(), false);
  for (int i : ops) erase[i] = i != last;
  graph.operators[last] = std::move(replacement);
  EraseOperators(graph, erase);
}

}  // namespace octet::converter::passes
