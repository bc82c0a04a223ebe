// A float CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED followed by MUL, ADD or SUB with a
// constant per-output-channel (or scalar) operand: what is left of a batch norm. The MUL
// scales the op's weights and bias per channel, the ADD / SUB shifts its bias, and the op
// takes over the activation fused into the MUL / ADD. Equal within float rounding.
#include "converter/graph.h"
#include "converter/passes/fused_activation.h"
#include "converter/passes/passes.h"

namespace octet::converter::passes {
namespace {

// The output-channel axis of each weighted op's filter.
int ChannelAxis(edit::BuiltinOperator code) {
  return code == edit::BuiltinOperator_DEPTHWISE_CONV_2D ? 3 : 0;
}

// The constant's values spread over `channels`, when it broadcasts along the last axis only.
bool PerChannel(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t t, int channels,
                std::vector<float>* values) {
  if (!ConstantFloats(model, graph, t, values)) return false;
  const std::vector<int32_t>& shape = graph.tensors[t]->shape;
  for (size_t i = 0; i + 1 < shape.size(); ++i) {
    if (shape[i] != 1) return false;
  }
  if (values->size() == 1) {
    values->assign(channels, (*values)[0]);
    return true;
  }
  return static_cast<int>(values->size()) == channels && !shape.empty() && shape.back() == channels;
}

// A fresh constant for the op's new weights or bias (the old one may be shared).
int32_t NewConstant(edit::ModelT& model, edit::SubGraphT& graph, const edit::TensorT& like,
                    std::vector<int32_t> shape, const std::vector<float>& values,
                    const std::string& suffix) {
  return AddConstantTensor(model, graph, edit::TensorType_FLOAT32, std::move(shape),
                           FloatBytes(values), like.name + suffix);
}

}  // namespace

bool FoldBatchNorm(edit::ModelT& model, PassLog& log, std::string* /*error*/) {
  RewriteUntilStable(model, [&](edit::SubGraphT& graph, const Usage& usage) {
    for (size_t m = 0; m < graph.operators.size(); ++m) {
      edit::OperatorT& affine = *graph.operators[m];
      const edit::BuiltinOperator affine_code = OpCodeOf(model, affine);
      if ((affine_code != edit::BuiltinOperator_MUL && affine_code != edit::BuiltinOperator_ADD &&
           affine_code != edit::BuiltinOperator_SUB) ||
          affine.inputs.size() != 2 || affine.outputs.size() != 1) {
        continue;
      }
      // Which operand is the weighted op's output (SUB only as x - c).
      for (int side = 0; side < 2; ++side) {
        if (affine_code == edit::BuiltinOperator_SUB && side == 1) break;
        const int32_t x = affine.inputs[side], c = affine.inputs[1 - side];
        const int p = usage.producer(x);
        if (p < 0 || !usage.only_feeds(x, static_cast<int>(m))) continue;
        edit::OperatorT& op = *graph.operators[p];
        const edit::BuiltinOperator code = OpCodeOf(model, op);
        if (code != edit::BuiltinOperator_CONV_2D &&
            code != edit::BuiltinOperator_DEPTHWISE_CONV_2D &&
            code != edit::BuiltinOperator_FULLY_CONNECTED) {
          continue;
        }
        edit::ActivationFunctionType* act = FusedActivation(op, code);
        if (act == nullptr || *act != edit::ActivationFunctionType_NONE || op.inputs.size() < 2 ||
            op.outputs.size() != 1 || graph.tensors[x]->type != edit::TensorType_FLOAT32 ||
            graph.tensors[affine.outputs[0]]->type != edit::TensorType_FLOAT32 ||
            graph.tensors[x]->shape != graph.tensors[affine.outputs[0]]->shape) {
          continue;
        }
        std::vector<float> weights, bias, k;
        if (!ConstantFloats(model, graph, op.inputs[1], &weights)) continue;
        const edit::TensorT& filter = *graph.tensors[op.inputs[1]];
        const int axis = ChannelAxis(code);
        if (static_cast<int>(filter.shape.size()) <= axis || filter.shape[axis] <= 0) continue;
        const int channels = filter.shape[axis];
        if (!PerChannel(model, graph, c, channels, &k)) continue;
        const bool has_bias = op.inputs.size() > 2 && op.inputs[2] >= 0;
        if (has_bias) {
          if (!ConstantFloats(model, graph, op.inputs[2], &bias) ||
              static_cast<int>(bias.size()) != channels) {
            continue;
          }
        } else {
          bias.assign(channels, 0.0f);
        }
        if (affine_code == edit::BuiltinOperator_MUL) {
          // Channel of weight element i: i / inner % channels, by the axis' position.
          int64_t inner = 1;
          for (size_t d = axis + 1; d < filter.shape.size(); ++d) inner *= filter.shape[d];
          for (size_t i = 0; i < weights.size(); ++i) {
            weights[i] *= k[(i / inner) % channels];
          }
          for (int o = 0; o < channels; ++o) bias[o] *= k[o];
          op.inputs[1] = NewConstant(model, graph, filter, filter.shape, weights, "/folded");
        } else {
          const float sign = affine_code == edit::BuiltinOperator_SUB ? -1.0f : 1.0f;
          for (int o = 0; o < channels; ++o) bias[o] += sign * k[o];
        }
        const int32_t new_bias =
            NewConstant(model, graph, *graph.tensors[op.inputs[1]], {channels}, bias, "/bias");
        if (has_bias) {
          op.inputs[2] = new_bias;
        } else if (op.inputs.size() > 2) {
          op.inputs[2] = new_bias;
        } else {
          op.inputs.push_back(new_bias);
        }
        edit::ActivationFunctionType* outer = FusedActivation(affine, affine_code);
        *act = outer != nullptr ? *outer : edit::ActivationFunctionType_NONE;
        op.outputs[0] = affine.outputs[0];
        log.Add(OpNameOf(model, op) + " #" + std::to_string(p) + " + constant " +
                OpNameOf(model, affine) + " #" + std::to_string(m) + " -> " + OpNameOf(model, op) +
                " with folded " +
                (affine_code == edit::BuiltinOperator_MUL ? "weights and bias" : "bias"));
        std::vector<bool> erase(graph.operators.size(), false);
        erase[m] = true;
        EraseOperators(graph, erase);
        return true;
      }
    }
    return false;
  });
  return true;
}

}  // namespace octet::converter::passes
