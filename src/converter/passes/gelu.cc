// The tanh form of GELU, 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))) -> GELU
// (approximate = true), whatever the order of its products (x^3 as POW(x, 3) or as
// products of x). Equal within float rounding. (The erf form needs an ERF op, which TFLite's
// builtins do not have, so no builtin graph holds it.)
#include <algorithm>
#include <cmath>

#include "converter/passes/passes.h"
#include "converter/passes/pattern.h"

namespace octet::converter::passes {
namespace {

// A product of tensors and float scalars, flattened through MULs that only it reads.
struct Product {
  std::vector<int32_t> factors;
  float constant = 1.0f;
  std::set<int> ops;
};

void Expand(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage, int32_t t,
            bool root, int depth, Product* product) {
  const bool inner = root || (usage.consumers(t).size() == 1 && !usage.is_graph_output(t));
  const int m =
      inner && depth < 6 ? BinaryProducer(model, graph, usage, t, edit::BuiltinOperator_MUL) : -1;
  if (m >= 0) {
    product->ops.insert(m);
    for (int32_t in : graph.operators[m]->inputs) {
      std::vector<float> value;
      if (ConstantFloats(model, graph, in, &value) && value.size() == 1) {
        product->constant *= value[0];
      } else {
        Expand(model, graph, usage, in, false, depth + 1, product);
      }
    }
    return;
  }
  // x^3 as POW(x, 3).
  const int p = inner ? BinaryProducer(model, graph, usage, t, edit::BuiltinOperator_POW) : -1;
  if (p >= 0 && IsScalarNear(model, graph, graph.operators[p]->inputs[1], 3.0f, 0.0f)) {
    product->ops.insert(p);
    product->factors.insert(product->factors.end(), 3, graph.operators[p]->inputs[0]);
    return;
  }
  product->factors.push_back(t);
}

bool Near(float a, float b) { return std::fabs(a - b) <= 1e-4f * std::fabs(b); }

bool Is(std::vector<int32_t> factors, std::vector<int32_t> expected) {
  std::sort(factors.begin(), factors.end());
  std::sort(expected.begin(), expected.end());
  return factors == expected;
}

struct Match {
  std::set<int> ops;
  int32_t x = -1, y = -1;
};

bool MatchAtTanh(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
                 int tanh_index, Match* match) {
  const edit::OperatorT& tanh_op = *graph.operators[tanh_index];
  if (tanh_op.inputs.size() != 1 || tanh_op.outputs.size() != 1) return false;
  // sqrt(2/pi) * (x + 0.044715 x^3)
  Product scaled;
  Expand(model, graph, usage, tanh_op.inputs[0], true, 0, &scaled);
  if (scaled.factors.size() != 1 || !Near(scaled.constant, 0.7978845608f)) return false;
  const int v = BinaryProducer(model, graph, usage, scaled.factors[0], edit::BuiltinOperator_ADD);
  if (v < 0) return false;
  const edit::OperatorT& sum = *graph.operators[v];
  Product cubic;
  int32_t x = -1;
  for (int side = 0; side < 2 && x < 0; ++side) {
    Product candidate;
    Expand(model, graph, usage, sum.inputs[1 - side], false, 0, &candidate);
    const int32_t maybe_x = sum.inputs[side];
    if (Near(candidate.constant, 0.044715f) && Is(candidate.factors, {maybe_x, maybe_x, maybe_x})) {
      x = maybe_x;
      cubic = candidate;
    }
  }
  if (x < 0) return false;
  // 1 + tanh(...)
  const int32_t t = tanh_op.outputs[0];
  if (usage.consumers(t).size() != 1) return false;
  const int s_op = usage.consumers(t)[0];
  const edit::OperatorT& one_plus = *graph.operators[s_op];
  if (BinaryProducer(model, graph, usage, one_plus.outputs.empty() ? -1 : one_plus.outputs[0],
                     edit::BuiltinOperator_ADD) != s_op ||
      !IsScalarNear(model, graph, OtherInput(one_plus, t), 1.0f)) {
    return false;
  }
  const int32_t s = one_plus.outputs[0];
  // 0.5 * x * s: climb the MULs that read s alone, widest product first.
  std::vector<int32_t> roots;
  int32_t cur = s;
  for (int depth = 0; depth < 3; ++depth) {
    if (usage.consumers(cur).size() != 1 || usage.is_graph_output(cur)) break;
    const int next = usage.consumers(cur)[0];
    const edit::OperatorT& mul = *graph.operators[next];
    if (mul.outputs.size() != 1 ||
        BinaryProducer(model, graph, usage, mul.outputs[0], edit::BuiltinOperator_MUL) != next) {
      break;
    }
    cur = mul.outputs[0];
    roots.push_back(cur);
  }
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) {
    Product outer;
    Expand(model, graph, usage, *it, true, 0, &outer);
    if (!Near(outer.constant, 0.5f) || !Is(outer.factors, {x, s})) continue;
    match->ops = outer.ops;
    match->ops.insert(scaled.ops.begin(), scaled.ops.end());
    match->ops.insert(cubic.ops.begin(), cubic.ops.end());
    match->ops.insert({tanh_index, v, s_op});
    match->x = x;
    match->y = *it;
    return true;
  }
  return false;
}

}  // namespace

bool FuseGelu(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  RewriteUntilStable(model, [&](edit::SubGraphT& graph, const Usage& usage) {
    for (size_t i = 0; i < graph.operators.size(); ++i) {
      if (OpCodeOf(model, *graph.operators[i]) != edit::BuiltinOperator_TANH) continue;
      Match match;
      if (!MatchAtTanh(model, graph, usage, static_cast<int>(i), &match) ||
          graph.tensors[match.x]->type != edit::TensorType_FLOAT32 ||
          graph.tensors[match.y]->type != edit::TensorType_FLOAT32 ||
          graph.tensors[match.x]->shape != graph.tensors[match.y]->shape ||
          !SelfContained(graph, usage, match.ops, match.y)) {
        continue;
      }
      auto op = std::make_unique<edit::OperatorT>();
      op->opcode_index = FindOrAddOpCode(model, edit::BuiltinOperator_GELU);
      op->inputs = {match.x};
      op->outputs = {match.y};
      edit::GeluOptionsT options;
      options.approximate = true;
      op->builtin_options.Set(std::move(options));
      log.Add(std::to_string(match.ops.size()) + " ops around TANH #" + std::to_string(i) +
              " -> GELU (approximate)");
      ReplacePattern(graph, match.ops, std::move(op));
      return true;
    }
    return false;
  });
  return true;
}

}  // namespace octet::converter::passes
