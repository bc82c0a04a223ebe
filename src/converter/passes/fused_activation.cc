#include "converter/passes/fused_activation.h"

namespace octet::converter::passes {

edit::ActivationFunctionType* FusedActivation(edit::OperatorT& op, edit::BuiltinOperator code) {
  edit::BuiltinOptionsUnion& o = op.builtin_options;
  switch (code) {
    case edit::BuiltinOperator_CONV_2D:
      return o.AsConv2DOptions() ? &o.AsConv2DOptions()->fused_activation_function : nullptr;
    case edit::BuiltinOperator_DEPTHWISE_CONV_2D:
      return o.AsDepthwiseConv2DOptions() ? &o.AsDepthwiseConv2DOptions()->fused_activation_function
                                          : nullptr;
    case edit::BuiltinOperator_FULLY_CONNECTED:
      return o.AsFullyConnectedOptions() ? &o.AsFullyConnectedOptions()->fused_activation_function
                                         : nullptr;
    case edit::BuiltinOperator_ADD:
      return o.AsAddOptions() ? &o.AsAddOptions()->fused_activation_function : nullptr;
    case edit::BuiltinOperator_SUB:
      return o.AsSubOptions() ? &o.AsSubOptions()->fused_activation_function : nullptr;
    case edit::BuiltinOperator_MUL:
      return o.AsMulOptions() ? &o.AsMulOptions()->fused_activation_function : nullptr;
    case edit::BuiltinOperator_DIV:
      return o.AsDivOptions() ? &o.AsDivOptions()->fused_activation_function : nullptr;
    case edit::BuiltinOperator_CONCATENATION:
      return o.AsConcatenationOptions() ? &o.AsConcatenationOptions()->fused_activation_function
                                        : nullptr;
    case edit::BuiltinOperator_AVERAGE_POOL_2D:
    case edit::BuiltinOperator_MAX_POOL_2D:
    case edit::BuiltinOperator_L2_POOL_2D:
      return o.AsPool2DOptions() ? &o.AsPool2DOptions()->fused_activation_function : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace octet::converter::passes
