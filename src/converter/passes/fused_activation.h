// Where an op keeps its fused activation, for the passes that fuse into or out of it.
#ifndef OCTET_CONVERTER_PASSES_FUSED_ACTIVATION_H_
#define OCTET_CONVERTER_PASSES_FUSED_ACTIVATION_H_

#include "edit_schema_generated.h"

namespace octet::converter::passes {

// The op's fused_activation_function field, or nullptr when the op has none (or its options
// table is missing: the runtime then reads NONE, and so do the passes).
edit::ActivationFunctionType* FusedActivation(edit::OperatorT& op, edit::BuiltinOperator code);

}  // namespace octet::converter::passes

#endif  // OCTET_CONVERTER_PASSES_FUSED_ACTIVATION_H_
