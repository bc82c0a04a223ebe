// Ops that return their input unchanged: a RESHAPE to the shape it already has, a QUANTIZE to
// the parameters it already has, QUANTIZE(DEQUANTIZE(q)) back to q's own parameters; and a
// RESHAPE of a RESHAPE, which needs only the second.
#include <algorithm>

#include "converter/graph.h"
#include "converter/passes/passes.h"

namespace octet::converter::passes {
namespace {

bool StaticShape(const edit::TensorT& t) {
  return ElementCount(t.shape) >= 0 &&
         std::none_of(t.shape_signature.begin(), t.shape_signature.end(),
                      [](int32_t d) { return d < 0; });
}

bool SameValues(const edit::TensorT& a, const edit::TensorT& b) {
  return a.type == b.type && SameQuantization(a, b);
}

std::string Where(const edit::ModelT& model, const edit::OperatorT& op, size_t index) {
  return OpNameOf(model, op) + " #" + std::to_string(index);
}

// One rewrite in `graph`, or false when nothing is left to do.
bool RewriteOne(edit::ModelT& model, edit::SubGraphT& graph, PassLog& log) {
  const Usage usage(graph);
  for (size_t i = 0; i < graph.operators.size(); ++i) {
    edit::OperatorT& op = *graph.operators[i];
    const edit::BuiltinOperator code = OpCodeOf(model, op);
    if (op.inputs.empty() || op.outputs.size() != 1 || op.inputs[0] < 0) continue;
    const int32_t x = op.inputs[0], y = op.outputs[0];
    const edit::TensorT& tx = *graph.tensors[x];
    const edit::TensorT& ty = *graph.tensors[y];
    if (code == edit::BuiltinOperator_RESHAPE) {
      const int p = usage.producer(x);
      if (p >= 0 && OpCodeOf(model, *graph.operators[p]) == edit::BuiltinOperator_RESHAPE &&
          usage.only_feeds(x, static_cast<int>(i)) && !graph.operators[p]->inputs.empty() &&
          SameValues(tx, ty)) {
        // The shape a RESHAPE makes does not depend on its input's shape, only on its size.
        op.inputs[0] = graph.operators[p]->inputs[0];
        log.Add(Where(model, *graph.operators[p], p) + " + " + Where(model, op, i) +
                " -> one RESHAPE");
        return true;
      }
      if (StaticShape(tx) && StaticShape(ty) && tx.shape == ty.shape && SameValues(tx, ty)) {
        const std::string what = Where(model, op, i);  // before the bypass erases the op
        if (BypassOperator(graph, static_cast<int>(i), x, y)) {
          log.Add(what + " keeps the shape: removed");
          return true;
        }
      }
    } else if (code == edit::BuiltinOperator_QUANTIZE && op.inputs.size() == 1) {
      if (IsQuantizedType(tx.type) && SameValues(tx, ty)) {
        const std::string what = Where(model, op, i);  // before the bypass erases the op
        if (BypassOperator(graph, static_cast<int>(i), x, y)) {
          log.Add(what + " to the same parameters: removed");
          return true;
        }
      }
      const int p = usage.producer(x);
      if (p >= 0 && OpCodeOf(model, *graph.operators[p]) == edit::BuiltinOperator_DEQUANTIZE &&
          graph.operators[p]->inputs.size() == 1 && graph.operators[p]->inputs[0] >= 0) {
        const int32_t q = graph.operators[p]->inputs[0];
        const std::string what = Where(model, *graph.operators[p], p) + " + " + Where(model, op, i);
        if (IsQuantizedType(ty.type) && SameValues(*graph.tensors[q], ty) &&
            BypassOperator(graph, static_cast<int>(i), q, y)) {
          log.Add(what + " round trip: removed");
          return true;
        }
      }
    }
  }
  return false;
}

}  // namespace

bool RemoveIdentity(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  for (auto& graph : model.subgraphs) {
    while (RewriteOne(model, *graph, log)) {
    }
  }
  return true;
}

}  // namespace octet::converter::passes
