// RELU / RELU6 / RELU_N1_TO_1 after an op that can clamp its own output: the op clamps, the
// activation op goes. Exact: the fused clamp is the activation's clamp, on the same values.
#include "converter/graph.h"
#include "converter/passes/fused_activation.h"
#include "converter/passes/passes.h"

namespace octet::converter::passes {
namespace {

bool ActivationOf(edit::BuiltinOperator code, edit::ActivationFunctionType* fused) {
  switch (code) {
    case edit::BuiltinOperator_RELU:
      *fused = edit::ActivationFunctionType_RELU;
      return true;
    case edit::BuiltinOperator_RELU6:
      *fused = edit::ActivationFunctionType_RELU6;
      return true;
    case edit::BuiltinOperator_RELU_N1_TO_1:
      *fused = edit::ActivationFunctionType_RELU_N1_TO_1;
      return true;
    default:
      return false;
  }
}

}  // namespace

bool FuseActivation(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  RewriteUntilStable(model, [&](edit::SubGraphT& graph, const Usage& usage) {
    for (size_t a = 0; a < graph.operators.size(); ++a) {
      edit::OperatorT& act = *graph.operators[a];
      edit::ActivationFunctionType fused;
      if (!ActivationOf(OpCodeOf(model, act), &fused) || act.inputs.size() != 1 ||
          act.outputs.size() != 1) {
        continue;
      }
      const int32_t x = act.inputs[0], y = act.outputs[0];
      const int p = usage.producer(x);
      if (p < 0 || !usage.only_feeds(x, static_cast<int>(a))) continue;
      edit::OperatorT& producer = *graph.operators[p];
      const edit::BuiltinOperator producer_code = OpCodeOf(model, producer);
      edit::ActivationFunctionType* field = FusedActivation(producer, producer_code);
      if (field == nullptr || *field != edit::ActivationFunctionType_NONE ||
          producer.outputs.size() != 1) {
        continue;
      }
      const edit::TensorT& tx = *graph.tensors[x];
      const edit::TensorT& ty = *graph.tensors[y];
      // Integer graphs: the activation must not requantize, or fusing would change values.
      if (tx.type != ty.type || (IsQuantizedType(tx.type) && !SameQuantization(tx, ty))) {
        continue;
      }
      *field = fused;
      producer.outputs[0] = y;
      log.Add(OpNameOf(model, producer) + " #" + std::to_string(p) + " + " + OpNameOf(model, act) +
              " #" + std::to_string(a) + " -> " + OpNameOf(model, producer) + " with fused " +
              edit::EnumNameActivationFunctionType(fused));
      std::vector<bool> erase(graph.operators.size(), false);
      erase[a] = true;
      EraseOperators(graph, erase);
      return true;
    }
    return false;
  });
  return true;
}

}  // namespace octet::converter::passes
