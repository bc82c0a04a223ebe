#include "converter/quantize/op_quant_rules.h"

namespace octet::converter {

bool Int8RuleFor(edit::BuiltinOperator code, OpQuantRule* rule) {
  *rule = OpQuantRule{};
  switch (code) {
    case edit::BuiltinOperator_CONV_2D:
      rule->weights = 1, rule->weights_axis = 0, rule->bias = 2;
      return true;
    case edit::BuiltinOperator_DEPTHWISE_CONV_2D:
      rule->weights = 1, rule->weights_axis = 3, rule->bias = 2;
      return true;
    case edit::BuiltinOperator_FULLY_CONNECTED:
      rule->weights = 1, rule->weights_axis = 0, rule->bias = 2;  // axis dropped when per tensor
      return true;
    case edit::BuiltinOperator_ADD:
    case edit::BuiltinOperator_SUB:
    case edit::BuiltinOperator_MUL:
      rule->activations = 2;
      return true;
    case edit::BuiltinOperator_RELU:
    case edit::BuiltinOperator_RELU6:
    case edit::BuiltinOperator_MEAN:
      return true;
    case edit::BuiltinOperator_AVERAGE_POOL_2D:
    case edit::BuiltinOperator_MAX_POOL_2D:
    case edit::BuiltinOperator_RESHAPE:
    case edit::BuiltinOperator_SQUEEZE:
    case edit::BuiltinOperator_PAD:
      rule->output = OutputRule::kSameAsInput;
      return true;
    case edit::BuiltinOperator_CONCATENATION:
      rule->activations = 1 << 20;  // every input
      rule->same_inputs_as_output = true;
      return true;
    case edit::BuiltinOperator_SOFTMAX:
    case edit::BuiltinOperator_LOGISTIC:
      rule->output = OutputRule::kFixed;
      rule->fixed_scale = 1.0f / 256.0f, rule->fixed_zero_point = -128;
      return true;
    case edit::BuiltinOperator_TANH:
      rule->output = OutputRule::kFixed;
      rule->fixed_scale = 1.0f / 128.0f, rule->fixed_zero_point = 0;
      return true;
    default:
      return false;
  }
}

int Int8OpVersion(edit::BuiltinOperator code, const edit::OperatorT& op,
                  const edit::SubGraphT& graph) {
  switch (code) {
    case edit::BuiltinOperator_CONV_2D:
    case edit::BuiltinOperator_DEPTHWISE_CONV_2D:
      return 3;
    case edit::BuiltinOperator_FULLY_CONNECTED: {
      if (op.inputs.size() == 2) return 6;
      const auto* options = op.builtin_options.AsFullyConnectedOptions();
      if (options != nullptr && options->keep_num_dims) return 5;
      return 4;
    }
    case edit::BuiltinOperator_MUL: {
      // Version 3: a rescale of at least 1 (in1 * in2 / out >= 1).
      const auto scale = [&](int32_t t) {
        const auto& q = graph.tensors[t]->quantization;
        return q != nullptr && !q->scale.empty() ? static_cast<double>(q->scale[0]) : 0.0;
      };
      if (op.inputs.size() == 2 && !op.outputs.empty() &&
          scale(op.inputs[0]) * scale(op.inputs[1]) / scale(op.outputs[0]) >= 1.0) {
        return 3;
      }
      return 2;
    }
    case edit::BuiltinOperator_RESHAPE:
    case edit::BuiltinOperator_SQUEEZE:
    case edit::BuiltinOperator_QUANTIZE:
      return 1;
    case edit::BuiltinOperator_DEQUANTIZE:
      return 2;
    default:
      return 2;  // ADD, SUB, pooling, PAD, MEAN, CONCATENATION, SOFTMAX, LOGISTIC, TANH, RELU*
  }
}

int Int16OpVersion(edit::BuiltinOperator code) {
  switch (code) {
    case edit::BuiltinOperator_CONV_2D:
      return 4;
    case edit::BuiltinOperator_DEPTHWISE_CONV_2D:
      return 5;
    case edit::BuiltinOperator_FULLY_CONNECTED:
      return 7;
    case edit::BuiltinOperator_MUL:
      return 4;
    case edit::BuiltinOperator_RESHAPE:
    case edit::BuiltinOperator_SQUEEZE:
      return 1;
    case edit::BuiltinOperator_QUANTIZE:
      return 2;
    default:
      return 3;  // ADD, SUB, pooling, SOFTMAX, LOGISTIC, TANH, CONCATENATION, DEQUANTIZE, ...
  }
}

}  // namespace octet::converter
