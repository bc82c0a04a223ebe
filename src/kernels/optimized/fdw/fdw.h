// float32 depthwise-convolution micro-kernels (depth multiplier 1): per output pixel and
// channel, acc = bias[c] + Σ_taps x[tap][c] * w[tap][c], then the activation clamp. Padding
// taps point at a row of zeros. Plain aggregates only (see qgemm.h).
//
// Packed weights (FDwPack): per block of `block` channels, `block` biases then, per tap,
// the block's `block` weights; channels past the last are zero.
#pragma once

#include <cstddef>

namespace octet::optimized {

struct FDwTile {
  int pixels = 0;    // output pixels in this call
  int channels = 0;  // channels (input = output)
  int ks = 0;        // taps per pixel
  // Pixel p's tap t (its channel 0): a[p * ks + t] when tap_offsets is null (pixels near
  // padding), else base + p * pixel_step + tap_offsets[t] (a run of interior pixels).
  const float* const* a = nullptr;
  const float* base = nullptr;
  size_t pixel_step = 0;
  const ptrdiff_t* tap_offsets = nullptr;
  const float* w = nullptr;   // packed weights
  float* c = nullptr;         // output pixel 0, channel 0
  size_t c_pixel_stride = 0;  // floats between output pixels
  // When set, pixel p's output (channel 0) is c_pixels[p] instead (border pixels of several
  // rows in one call).
  float* const* c_pixels = nullptr;
  float act_min = 0.f;
  float act_max = 0.f;
};

using FDwFn = void (*)(const FDwTile& tile);

// One output row of a 3x3, stride 1, undilated depthwise convolution, every pixel in one
// call: the kernel finds the padding itself (a missing input row is null, a column outside
// [0, in_w) is skipped), so no tap table is built for the pixels near padding.
struct FDwRow3x3 {
  const float* rows[3] = {nullptr, nullptr, nullptr};  // input rows iy0 + fy (column 0), or null
  int in_w = 0;
  int out_w = 0;
  int pad_w = 0;  // output pixel x reads input columns x - pad_w + fx
  // Output pixels [interior_begin, interior_end) read three columns inside [0, in_w); the
  // rest are edge pixels (the driver works the range out once for every kernel).
  int interior_begin = 0;
  int interior_end = 0;
  int channels = 0;          // channels (input = output), floats between pixels
  const float* w = nullptr;  // packed weights
  float* c = nullptr;        // output pixel 0, channel 0
  float act_min = 0.f;
  float act_max = 0.f;
};

using FDwRow3x3Fn = void (*)(const FDwRow3x3& row);

struct FDwKernel {
  const char* name;
  int block;  // channels per step
  FDwFn run;
  FDwRow3x3Fn run_row3x3 = nullptr;  // null: the driver uses `run` with tap tables
};

extern const FDwKernel kFDwScalar;
extern const FDwKernel kFDwAvx2;
extern const FDwKernel kFDwAvx512;

}  // namespace octet::optimized
