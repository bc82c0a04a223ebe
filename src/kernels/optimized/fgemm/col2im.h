// The scatter half of a transposed convolution run as GEMM + col2im: the GEMM gives, per
// input pixel, its product with every filter tap (`columns`: [pixel][ky][kx][out_c]); this
// adds each tap's row into the output pixel it lands on, then applies bias and clamp.
// Portable code.
#pragma once

#include "kernels/optimized/fgemm/fgemm_driver.h"
#include "kernels/optimized/window.h"

namespace octet::optimized {

// `shape` describes the transposed convolution from the input's side: in_* is its input,
// out_* its output, kernel/stride as given, pad_* the leading padding of the output (taps
// landing before it, or past out_*, are dropped). out_c is the output channels.
void Col2ImAdd(const Window2D& shape, int out_c, const float* columns, const float* bias,
               FloatClamp clamp, float* output);

}  // namespace octet::optimized
