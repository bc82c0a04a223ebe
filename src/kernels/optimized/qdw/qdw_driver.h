// Runs a packed quantized depthwise convolution: output rows split across the thread pool,
// each pixel's taps given to the micro-kernel through a small indirection table (padding
// taps point at a row of the input zero point). A depth multiplier above 1 runs on a copy of
// the input whose channels are repeated, so every kernel only handles multiplier 1.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qdw/qdw_pack.h"

namespace octet {
class ThreadPool;
}

namespace octet::optimized {

struct QDwShape {
  int batches = 1;
  int in_h = 1;
  int in_w = 1;
  int in_c = 1;  // input channels; output channels are in_c * depth_multiplier
  int depth_multiplier = 1;
  int out_h = 1;
  int out_w = 1;
  int kernel_h = 1;
  int kernel_w = 1;
  int stride_h = 1;
  int stride_w = 1;
  int dilation_h = 1;
  int dilation_w = 1;
  int pad_h = 0;
  int pad_w = 0;
};

// Bytes of scratch RunQDepthwise needs: the channel-repeated input when the depth multiplier
// is above 1, else 0.
size_t QDepthwiseScratchBytes(const QDwShape& shape);

// True when the driver can run this many taps per pixel.
bool QDepthwiseSupportsTaps(int taps);

// `zero_row` holds in_c * depth_multiplier bytes of the input zero point; `scratch` holds
// QDepthwiseScratchBytes(shape) bytes (may be null when that is 0).
void RunQDepthwise(const QDwPacked& packed, const QDwShape& shape, const uint8_t* input,
                   const uint8_t* zero_row, uint8_t* scratch, uint8_t* output, ThreadPool* pool);

}  // namespace octet::optimized
