// The hybrid input quantizers on an FQuantKernel: the same signatures and the same results
// (q, scale, offset, bit for bit) as reference::SymmetricQuantize / AsymmetricQuantize.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/fquant/fquant.h"

namespace octet::optimized {

// q = clamp(round(x * 127 / max|x|), -127, 127), *scale = max|x| / 127 (1 and zeros when
// every element is 0).
void FQuantSymmetric(const FQuantKernel& kernel, const float* x, size_t n, int8_t* q, float* scale);

// q = clamp(round(offset + x / scale), -128, 127) over the range widened to include 0, with
// the zero point nudged to an integer (scale 1, offset 0 and zeros for an empty range).
void FQuantAsymmetric(const FQuantKernel& kernel, const float* x, size_t n, int8_t* q, float* scale,
                      int32_t* offset);

}  // namespace octet::optimized
