// Packing and the driver of the float depthwise convolution (depth multiplier 1): output
// rows split across the thread pool, each row's pixels given to the micro-kernel with a
// table of tap pointers (padding taps point at a row of zeros), or, for 3x3 stride-1
// filters on kernels that have FDwRow3x3, whole rows (the kernel skips the padding).
// Portable code.
#pragma once

#include <cstddef>

#include "kernels/optimized/fdw/fdw.h"
#include "kernels/optimized/fgemm/fgemm_driver.h"
#include "kernels/optimized/window.h"

namespace octet {
class ThreadPool;
}

namespace octet::optimized {

struct FDwPacked {
  const FDwKernel* kernel = nullptr;
  const float* w = nullptr;
  int channels = 0;
  int ks = 0;
};

// Floats FDwPack writes.
size_t FDwPackedFloats(const FDwKernel& kernel, int channels, int ks);

// `weights` in TFLite's depthwise layout [1][kh][kw][channels] (ks = kh * kw taps), `bias`
// [channels] or null.
FDwPacked FDwPack(const FDwKernel& kernel, const float* weights, const float* bias, int channels,
                  int ks, float* buffer);

// True when the driver can run this many taps per pixel.
bool FDepthwiseSupportsTaps(int taps);

// `shape.in_c` channels in and out; `zero_row` holds in_c zeros.
void RunFDepthwise(const FDwPacked& packed, const Window2D& shape, const float* input,
                   const float* zero_row, FloatClamp clamp, float* output, ThreadPool* pool);

}  // namespace octet::optimized
