// Shared prepare checks of DEPTH_TO_SPACE / SPACE_TO_DEPTH: one input and one output of
// the same movable type and quantization, a 4-D NHWC input, block_size in [1, 4096].
#pragma once

#include <vector>

#include "ops/shape/common.h"

namespace octet::ops::shape {

// Everything but the divisibility and size checks, which depend on the direction. Gives
// the output, the input's dims and the block size. `Params` is TfLiteDepthToSpaceParams or
// TfLiteSpaceToDepthParams.
template <typename Params>
TfLiteStatus CheckSpaceDepthInputs(TfLiteContext* context, TfLiteNode* node, const char* op,
                                   TfLiteTensor** output, std::vector<int>* dims, int* block_size) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, op, 1, 1, 1));
  const auto* params = static_cast<const Params*>(node->builtin_data);
  OCTET_ENSURE(context, params != nullptr, "%s: missing options", op);
  const TfLiteTensor* input;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, 0, output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, op, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, op, input, *output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, op, input, *output));
  OCTET_ENSURE(context, tflite::NumDimensions(input) == 4, "%s: input must be 4-D, got rank %d", op,
               tflite::NumDimensions(input));
  const int bs = params->block_size;
  OCTET_ENSURE(context, bs >= 1 && bs <= 4096, "%s: block_size must be in [1, 4096], got %d", op,
               bs);
  *block_size = bs;
  *dims = DimsOf(input);
  return kTfLiteOk;
}

}  // namespace octet::ops::shape
