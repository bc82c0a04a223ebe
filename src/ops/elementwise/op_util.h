// Glue shared by the elementwise kernels: tensor fetching with op-named errors,
// broadcast output shapes, fused-activation bounds, OpData lifetime and
// registration building.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "kernels/reference/binary.h"
#include "kernels/shape.h"
#include "ops/op_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::elementwise {

inline const char *TypeName(TfLiteType type) { return TfLiteTypeGetName(type); }

// "[2,3,4]"
std::string ShapeString(const Shape &shape);

// Checks the node has `num_inputs` present inputs and one output, and fetches
// them.
TfLiteStatus GetIo(TfLiteContext *context, TfLiteNode *node, const char *op, int num_inputs,
                   const TfLiteTensor **inputs, TfLiteTensor **output);

// Fails unless every input in [0, n) has the same type as inputs[0].
TfLiteStatus CheckSameInputTypes(TfLiteContext *context, const char *op,
                                 const TfLiteTensor *const *inputs, int n);

// Fails unless the output's declared type is `expected`.
TfLiteStatus CheckOutputType(TfLiteContext *context, const char *op, const TfLiteTensor *output,
                             TfLiteType expected);

// Broadcast shape of the inputs, with an op-named error when incompatible or
// when broadcasting would need more than reference::kMaxBroadcastRank
// dimensions.
TfLiteStatus BroadcastOutputShape(TfLiteContext *context, const char *op, const Shape &a,
                                  const Shape &b, Shape *out);
TfLiteStatus BroadcastOutputShape(TfLiteContext *context, const char *op, const Shape &a,
                                  const Shape &b, const Shape &c, Shape *out);

}  // namespace octet::ops::elementwise
