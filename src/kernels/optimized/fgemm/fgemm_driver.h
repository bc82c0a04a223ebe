// Runs a packed float GEMM over a convolution's input (an indirection table per tile: one
// pointer per tap and row, padding taps pointing at a row of zeros, so no im2col copy) or
// over dense rows (FULLY_CONNECTED, 1x1 stride-1 convolutions), split into tasks across the
// thread pool. Portable code: it only prepares pointers and calls the micro-kernel.
#pragma once

#include <cstddef>

#include "kernels/optimized/fgemm/fgemm_pack.h"
#include "kernels/optimized/window.h"

namespace octet {
class ThreadPool;
}

namespace octet::optimized {

// NHWC input, one group; the packed weights have ks = kernel_h * kernel_w taps of kc = in_c.
using FConvShape = Window2D;

// Whether the driver runs a convolution of `taps` taps with `kernel` (its table is bounded).
bool FGemmDriverSupportsTaps(const FGemmKernel& kernel, int taps);

// The fused activation clamp of the output.
struct FloatClamp {
  float min;
  float max;
};

// A same-shape ADD fused into the GEMM (a residual connection): every output becomes
// clamp(output + values[same index], clamp.min, clamp.max) after its own clamp, the bits the
// ADD would compute from the GEMM's output (FGemmTile::residual).
struct FGemmResidual {
  const float* values = nullptr;  // laid out as the output
  FloatClamp clamp{0.f, 0.f};
};

// Floats of the zero-bordered copy of the input that RunFGemmConv may use, or 0 when copying
// would not pay. Row-tap convolutions never copy (their border pixels run clipped windows);
// the others copy when a quarter or more of the pixels are border ones, whose tiles would
// fill a pointer per tap and row (without the copy, no copy of about the input's size per
// invoke: measured the dearer of the two on 3x3 layers with 12% border pixels).
size_t FConvPaddedInputFloats(const FGemmPacked& packed, const FConvShape& shape);

// output[b, oy, ox, :] for every output pixel; `zero_row` holds packed.kc (in_c) zeros, the
// padding tap. Pixels whose window lies inside the image run in tiles of their own (one add
// per tap to fill, row taps where the packing chose them). Border pixels of row-tap
// convolutions run in runs of clipped windows that skip the padding taps (FGemmTile::k_skip),
// their corners and the other convolutions' border pixels with padding taps at zero_row: the
// same nonzero products in the same order as over a zero-padded input, so the same results.
// With `padded_input` (FConvPaddedInputFloats floats; pass it only where that is not 0) the
// input is first copied into it inside a border of zeros, and every pixel runs as an interior
// one: the same products and sums in the same order, so the same results.
// `residual` (may be null): a fused ADD.
void RunFGemmConv(const FGemmPacked& packed, const FConvShape& shape, const float* input,
                  const float* zero_row, FloatClamp clamp, float* output, ThreadPool* pool,
                  float* padded_input = nullptr, const FGemmResidual* residual = nullptr);

// output[r, :] = GEMM of input row r (kc floats at input + r * row_stride), r in [0, rows).
void RunFGemmRows(const FGemmPacked& packed, int rows, const float* input, size_t row_stride,
                  FloatClamp clamp, float* output, ThreadPool* pool,
                  const FGemmResidual* residual = nullptr);

}  // namespace octet::optimized
