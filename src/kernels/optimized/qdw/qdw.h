// The interface between the portable quantized depthwise-convolution driver and its
// micro-kernels (one per instruction set). Plain aggregates only, no inline code: per-ISA
// translation units include this header and nothing else of ours (see qgemm.h).
//
// Per output pixel and channel c (depth multiplier 1; the driver expands other multipliers):
//   acc = bias'[c] + Σ_taps (w[tap][c] + filter_offset) * x[tap][c]
// where bias' folds the reference's bias + input_offset * Σ(w + filter_offset), and padding
// taps read a row holding the input zero point, which makes their term vanish exactly as in
// the reference. Requantization as in QGemmRequant.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qgemm/qgemm.h"

namespace octet::optimized {

// How a kernel wants channels ordered inside a block of `block` channels.
enum class QDwOrder : int {
  kNatural = 0,
  // Tap pairs interleaved with 16-bit unpacks: each 128-bit lane of 8 channels splits into
  // accumulator 0 (its channels 0-3) and accumulator 1 (channels 4-7). Per-channel int32
  // arrays follow accumulator order; the int64 ones additionally split even and odd lanes.
  kUnpacked = 1,
  // Row kernels (QDwKernel::run_row3x3): per block, the three filter columns as int8 quads
  // (w[0][kx][c], w[1][kx][c], w[2][kx][c], 0), channels in natural order; the int64 arrays
  // split even and odd lanes of each 16-lane accumulator. int8 with weight zero point 0 only:
  // the bias folds -128 * Σw for activations fed as x ^ 0x80 (see QDwRow3x3).
  kRowQuads = 2,
};

struct QDwTile {
  int pixels;    // output pixels in this call
  int channels;  // channels (input = output)
  int ks;        // taps per pixel
  // Where pixel p's tap t starts (its channel 0): a[p * ks + t] when tap_offsets is null
  // (pixels near padding), else base + p * pixel_step + tap_offsets[t] (interior pixels).
  const uint8_t* const* a;
  const uint8_t* base;
  size_t pixel_step;
  const ptrdiff_t* tap_offsets;
  const void* w;    // packed weights: [block][tap pair][block channels][2] int16
  QGemmRequant rq;  // per-channel arrays in the kernel's block order
  bool input_signed;
  uint8_t* c;             // output pixel 0, channel 0
  size_t c_pixel_stride;  // elements between output pixels (of c, or of c32)
  // When set, the kernel stores the raw int32 sums here instead (natural channel order, no
  // requantization; rq.bias still applies): hybrid depthwise scales them to float itself.
  int32_t* c32;
  // When set (byte outputs only, kernels with pixel_outputs), pixel p's channel 0 goes to
  // c_pixels[p] instead of c + p * c_pixel_stride: border pixels of several rows in one call.
  uint8_t* const* c_pixels;
};

using QDwFn = void (*)(const QDwTile& tile);

// One output row of a 3x3 depthwise convolution, dilation 1 (row kernels): the kernel builds
// each input column's three rows once as byte quads and reuses them for every output pixel
// that reads the column. Columns outside [0, in_w) read the input zero point. With `c_next`
// (vertical stride 1) also the next output row: each column's four rows make one quad per
// channel, read by both rows (the second with its weights a byte up), so a column is built
// once for two output rows.
struct QDwRow3x3 {
  // Input row iy0 + fy at column x starts at rows[fy] + x * column_step[fy]; a row outside
  // the image points at a zero-point row with column_step 0. rows[3]: with c_next only.
  const uint8_t* rows[4] = {nullptr, nullptr, nullptr, nullptr};
  size_t column_step[4] = {0, 0, 0, 0};
  int in_w = 0;
  int out_w = 0;
  int pad_w = 0;     // output pixel x reads input columns x * stride_w - pad_w + fx
  int stride_w = 1;  // 1 or 2
  int channels = 0;  // channels (input = output), bytes between pixels
  uint8_t input_zero_point = 0;
  const void* w = nullptr;    // packed weights (QDwOrder::kRowQuads)
  QGemmRequant rq;            // per-channel arrays in block order
  uint8_t* c = nullptr;       // output pixel 0, channel 0
  uint8_t* c_next = nullptr;  // the next output row's pixel 0, or null
};

using QDwRow3x3Fn = void (*)(const QDwRow3x3& row);

struct QDwKernel {
  const char* name;
  int block;  // channels per step; per-channel arrays are padded to a multiple of it
  QDwOrder order;
  bool split_int64;  // int64 requant arrays with even and odd accumulator lanes apart
  QDwFn run;
  bool pixel_outputs = false;  // honours QDwTile::c_pixels
  // Row kernels run only the layers QDepthwiseRowKernelApplies accepts, a row per call
  // (`run` is null): byte outputs, no raw sums.
  QDwRow3x3Fn run_row3x3 = nullptr;
};

extern const QDwKernel kQDwScalar;
extern const QDwKernel kQDwAvx2;
extern const QDwKernel kQDwAvx512Vnni;
extern const QDwKernel kQDwAvx512VnniRow3x3;

}  // namespace octet::optimized
