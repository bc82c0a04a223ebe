// Quantized 2-D pooling (average, max; int8, uint8, int16) with the channel loop innermost:
// each output pixel's channels accumulate together in int32 over the window, so the compiler
// vectorizes them. The sums, the rounding division and the clamp are the reference's
// integer arithmetic, so results equal reference::QuantizedPool exactly. Portable code.
#pragma once

#include <cstdint>

#include "kernels/reference/pooling.h"
#include "kernels/shape.h"

namespace octet::optimized {

// Same contract as reference::QuantizedPool: false if a window has no cell inside the input.
template <typename T>
bool QuantizedPool(reference::PoolKind kind, const PoolParams& p, int32_t act_min, int32_t act_max,
                   const Shape& input_shape, const T* input, const Shape& output_shape, T* output);

}  // namespace octet::optimized
