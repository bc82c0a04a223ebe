// Float 2-D pooling (average, max, L2) with the channel loop innermost: each output pixel's
// channels accumulate together over the window, so the compiler vectorizes them. Every
// channel sees the same operations in the same order as the reference (window rows, then
// columns), so results are bit-identical to reference::Pool. Portable code.
#pragma once

#include "kernels/reference/pooling.h"
#include "kernels/shape.h"

namespace octet::optimized {

// Same contract as reference::Pool: false if a window has no cell inside the input.
bool FloatPool(reference::PoolKind kind, const PoolParams& p, const Shape& input_shape,
               const float* input, const Shape& output_shape, float* output);

}  // namespace octet::optimized
