// x * relu6(x + 3) / 6 -> HARD_SWISH (float), in the orders converters emit it:
// ((x * relu6(x + 3)) * 1/6) or (x * (relu6(x + 3) * 1/6)), with a DIV by 6 for the MUL.
// Equal within float rounding: the fused op computes the same expression.
#include "converter/passes/passes.h"
#include "converter/passes/pattern.h"

namespace octet::converter::passes {
namespace {

struct Match {
  std::set<int> ops;
  int32_t x = -1;
};

// t = RELU6(ADD(x, 3)): fills the ops and x.
bool Relu6OfXPlus3(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
                   int32_t t, Match* match) {
  const int r = usage.producer(t);
  if (r < 0 || OpCodeOf(model, *graph.operators[r]) != edit::BuiltinOperator_RELU6 ||
      graph.operators[r]->inputs.size() != 1) {
    return false;
  }
  const int32_t s = graph.operators[r]->inputs[0];
  const int a = BinaryProducer(model, graph, usage, s, edit::BuiltinOperator_ADD);
  if (a < 0) return false;
  const edit::OperatorT& add = *graph.operators[a];
  for (int side = 0; side < 2; ++side) {
    if (IsScalarNear(model, graph, add.inputs[1 - side], 3.0f)) {
      match->x = add.inputs[side];
      match->ops.insert({r, a});
      return true;
    }
  }
  return false;
}

// t = u * (1/6) or u / 6: returns u's tensor, or -1; adds the op.
int32_t SixthOf(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
                int32_t t, std::set<int>* ops) {
  const int m = BinaryProducer(model, graph, usage, t, edit::BuiltinOperator_MUL);
  if (m >= 0) {
    const edit::OperatorT& mul = *graph.operators[m];
    for (int side = 0; side < 2; ++side) {
      if (IsScalarNear(model, graph, mul.inputs[1 - side], 1.0f / 6.0f)) {
        ops->insert(m);
        return mul.inputs[side];
      }
    }
  }
  const int d = BinaryProducer(model, graph, usage, t, edit::BuiltinOperator_DIV);
  if (d >= 0 && IsScalarNear(model, graph, graph.operators[d]->inputs[1], 6.0f)) {
    ops->insert(d);
    return graph.operators[d]->inputs[0];
  }
  return -1;
}

// y = x * relu6(x + 3) (either operand order).
bool TimesRelu6(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
                int32_t y, Match* match) {
  const int m = BinaryProducer(model, graph, usage, y, edit::BuiltinOperator_MUL);
  if (m < 0) return false;
  const edit::OperatorT& mul = *graph.operators[m];
  for (int side = 0; side < 2; ++side) {
    Match inner;
    if (Relu6OfXPlus3(model, graph, usage, mul.inputs[side], &inner) &&
        inner.x == mul.inputs[1 - side]) {
      *match = inner;
      match->ops.insert(m);
      return true;
    }
  }
  return false;
}

bool MatchAt(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage, int32_t y,
             Match* match) {
  // ((x * relu6(x + 3)) / 6)
  std::set<int> outer;
  const int32_t u = SixthOf(model, graph, usage, y, &outer);
  if (u >= 0 && TimesRelu6(model, graph, usage, u, match)) {
    match->ops.insert(outer.begin(), outer.end());
    return true;
  }
  // x * (relu6(x + 3) / 6)
  const int m = BinaryProducer(model, graph, usage, y, edit::BuiltinOperator_MUL);
  if (m < 0) return false;
  const edit::OperatorT& mul = *graph.operators[m];
  for (int side = 0; side < 2; ++side) {
    std::set<int> sixth;
    const int32_t r = SixthOf(model, graph, usage, mul.inputs[side], &sixth);
    Match inner;
    if (r >= 0 && Relu6OfXPlus3(model, graph, usage, r, &inner) &&
        inner.x == mul.inputs[1 - side]) {
      *match = inner;
      match->ops.insert(sixth.begin(), sixth.end());
      match->ops.insert(m);
      return true;
    }
  }
  return false;
}

}  // namespace

bool FuseHardSwish(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  RewriteUntilStable(model, [&](edit::SubGraphT& graph, const Usage& usage) {
    for (size_t i = 0; i < graph.operators.size(); ++i) {
      if (graph.operators[i]->outputs.size() != 1) continue;
      const int32_t y = graph.operators[i]->outputs[0];
      Match match;
      if (graph.tensors[y]->type != edit::TensorType_FLOAT32 ||
          !MatchAt(model, graph, usage, y, &match) || match.x < 0 ||
          graph.tensors[match.x]->type != edit::TensorType_FLOAT32 ||
          graph.tensors[match.x]->shape != graph.tensors[y]->shape ||
          !SelfContained(graph, usage, match.ops, y)) {
        continue;
      }
      auto op = std::make_unique<edit::OperatorT>();
      op->opcode_index = FindOrAddOpCode(model, edit::BuiltinOperator_HARD_SWISH);
      op->inputs = {match.x};
      op->outputs = {y};
      log.Add(std::to_string(match.ops.size()) + " ops ending at #" + std::to_string(i) +
              " -> HARD_SWISH");
      ReplacePattern(graph, match.ops, std::move(op));
      return true;
    }
    return false;
  });
  return true;
}

}  // namespace octet::converter::passes
