// How each op is quantized to int8 (seed 000): which inputs are weights and bias, what its
// output's parameters must be, and the op version TFLite's converter writes for it.
#ifndef OCTET_CONVERTER_QUANTIZE_OP_QUANT_RULES_H_
#define OCTET_CONVERTER_QUANTIZE_OP_QUANT_RULES_H_

#include "edit_schema_generated.h"

namespace octet::converter {

enum class OutputRule {
  kCalibrated,   // from the output's calibrated range
  kSameAsInput,  // the input's parameters (reshapes, pooling, padding: values only move)
  kFixed,        // fixed by the spec (SOFTMAX, LOGISTIC, TANH)
};

struct OpQuantRule {
  OutputRule output = OutputRule::kCalibrated;
  float fixed_scale = 0;
  int fixed_zero_point = 0;
  int weights = -1;       // input index of constant weights (symmetric int8), or -1
  int weights_axis = -1;  // per-channel axis of the weights; -1: per tensor
  int bias = -1;          // input index of the int32 bias, or -1
  int activations = 1;    // how many leading inputs are quantized data (others pass as is)
  bool same_inputs_as_output = false;  // inputs requantized to the output's parameters
};

// The rule for `code`, or false when the op is not quantized (it stays float).
bool Int8RuleFor(edit::BuiltinOperator code, OpQuantRule* rule);

// The version of an int8 op as TFLite's converter sets it (op_version.cc), from its final
// form in `graph`.
int Int8OpVersion(edit::BuiltinOperator code, const edit::OperatorT& op,
                  const edit::SubGraphT& graph);
// The same for 16x8 (int16 activations, int8 weights), per op_version.cc's int16 cases.
int Int16OpVersion(edit::BuiltinOperator code);

}  // namespace octet::converter

#endif  // OCTET_CONVERTER_QUANTIZE_OP_QUANT_RULES_H_
