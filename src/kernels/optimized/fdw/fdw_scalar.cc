// Portable float depthwise micro-kernel: blocks of 4 channels in plain C++ (the compiler
// vectorizes the channel loop where it can). The path every CPU has, aarch64 included.
#include <algorithm>
#include <cstddef>

#include "kernels/optimized/fdw/fdw.h"

namespace octet::optimized {
namespace {

// Where pixel p's channel 0 goes (a static copy per translation unit: this file's ISA).
static inline float* PixelOutput(const FDwTile& t, int p) {
  return t.c_pixels != nullptr ? t.c_pixels[p] : t.c + static_cast<size_t>(p) * t.c_pixel_stride;
}

constexpr int kBlock = 4;

void Run(const FDwTile& t) {
  const size_t block_floats = static_cast<size_t>(kBlock) * (1 + static_cast<size_t>(t.ks));
  for (int c0 = 0, b = 0; c0 < t.channels; c0 += kBlock, ++b) {
    const int width = std::min(kBlock, t.channels - c0);
    const float* wb = t.w + static_cast<size_t>(b) * block_floats;
    for (int p = 0; p < t.pixels; ++p) {
      float acc[kBlock];
      for (int j = 0; j < kBlock; ++j) acc[j] = wb[j];
      for (int tap = 0; tap < t.ks; ++tap) {
        const float* row = t.tap_offsets ? t.base + p * t.pixel_step + t.tap_offsets[tap]
                                         : t.a[static_cast<size_t>(p) * t.ks + tap];
        const float* x = row + c0;
        const float* w = wb + kBlock * (1 + tap);
        for (int j = 0; j < width; ++j) acc[j] += x[j] * w[j];
      }
      float* c = PixelOutput(t, p) + c0;
      for (int j = 0; j < width; ++j) c[j] = std::min(std::max(acc[j], t.act_min), t.act_max);
    }
  }
}

}  // namespace

const FDwKernel kFDwScalar = {"fdw_scalar_4", kBlock, &Run};

}  // namespace octet::optimized
