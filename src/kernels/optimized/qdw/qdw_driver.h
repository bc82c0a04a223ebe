// Runs a packed quantized depthwise convolution: output rows split across the thread pool,
// each pixel's taps given to the micro-kernel through a small indirection table (padding
// taps point at a row of the input zero point). A depth multiplier above 1 runs on a copy of
// the input whose channels are repeated, so every kernel only handles multiplier 1.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qdw/qdw_pack.h"
#include "kernels/optimized/window.h"

namespace octet {
class ThreadPool;
}

namespace octet::optimized {

struct QDwShape : Window2D {
  int depth_multiplier = 1;  // output channels are in_c * depth_multiplier
};

// Bytes of scratch RunQDepthwise needs: the channel-repeated input when the depth multiplier
// is above 1, else 0.
size_t QDepthwiseScratchBytes(const QDwShape& shape);

// True when the driver can run this many taps per pixel.
bool QDepthwiseSupportsTaps(int taps);

// True when a row kernel (QDwKernel::run_row3x3) can run this layer: 3x3, dilation 1, a
// horizontal stride of 1 or 2, int8 activations (weights then have zero point 0), byte outputs.
bool QDepthwiseRowKernelApplies(const QDwShape& shape, bool input_signed);

// `zero_row` holds in_c * depth_multiplier bytes of the input zero point; `scratch` holds
// QDepthwiseScratchBytes(shape) bytes (may be null when that is 0).
// With `raw_output`, the int32 sums (bias included) are written there instead, one per output
// element in NHWC order, and `output` is unused; row kernels (QDwKernel::run_row3x3) have no
// such mode and are never packed for it (the hybrid op picks its kernel by QDwKernelForLayer).
void RunQDepthwise(const QDwPacked& packed, const QDwShape& shape, const uint8_t* input,
                   const uint8_t* zero_row, uint8_t* scratch, uint8_t* output, ThreadPool* pool,
                   int32_t* raw_output = nullptr);

}  // namespace octet::optimized
