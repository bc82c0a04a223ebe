// Runs a packed quantized GEMM over a convolution's input (through an indirection table built
// tile by tile, so no im2col copy is made where the channels allow) or over dense rows
// (FULLY_CONNECTED, 1x1 stride-1 convolutions), split into tasks across the thread pool.
// Portable code: it only prepares pointers and calls the chosen micro-kernel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qgemm/qgemm_pack.h"
#include "kernels/optimized/window.h"

namespace octet {
class ThreadPool;
}

namespace octet::optimized {

// NHWC input, one group; the packed weights have ks = kernel_h * kernel_w taps of kc = in_c.
using QConvShape = Window2D;

// Largest taps x rows table a tile builds on the stack; kernels with more taps than
// kMaxIndirection / mr are not run by this driver.
constexpr int kMaxIndirection = 4096;

// True when the driver can run a convolution of `taps` taps with `kernel`.
bool QGemmDriverSupportsTaps(const QGemmKernel& kernel, int taps);

// Bytes the zero row must hold (the input zero point repeated): a padding tap of the packed
// layout, plus slack for whole channel groups.
size_t QGemmZeroRowBytes(const QGemmPacked& packed);

// Whether a convolution with these weights runs on the wide-input `kernel`: KxK filters only
// (a 1x1 layer would widen every value to read it about once), and since the int16 image
// doubles the bytes a gathered row holds, not im2col layouts or filter rows too long to
// gather twice as wide.
bool QGemmConvTakesWideInput(const QGemmKernel& kernel, const QGemmWeightsDesc& d);

// out[i] = in[i] as int16 (sign-extended when is_signed, else zero-extended): a wide-input
// kernel's image.
void WidenToInt16(const uint8_t* in, size_t n, bool is_signed, int16_t* out);

// A wide-input kernel's convolution image: int16 elements WidenConvInput writes (the input
// widened, inside a border of the zero point when the padded copy pays, as for the byte
// kernels), plus slack for a padded tap's read.
size_t QGemmConvWideInputElements(const QGemmPacked& packed, const QConvShape& shape);
// Widens `input` into `wide` (QGemmConvWideInputElements elements) and returns the shape to
// run RunQGemmConv with on it: `shape`, or its padded window.
QConvShape WidenConvInput(const QGemmPacked& packed, const QConvShape& shape, const uint8_t* input,
                          bool is_signed, int32_t zero_point, int16_t* wide, ThreadPool* pool);

// Bytes of the zero-point-bordered copy of the input that RunQGemmConv may use, or 0 when
// copying would not pay (or the kernel reads a widened image): with the copy every pixel runs
// as an interior one, without the border rows' gathers and per-row tables.
size_t QGemmConvPaddedInputBytes(const QGemmPacked& packed, const QConvShape& shape);

// output[b, oy, ox, :] for every output pixel. `input` holds `input_bytes` bytes; the kernels
// read whole channel groups where those stay inside it. For a wide-input kernel, `input` is
// the widened image (2 bytes per value) and the zero row holds the widened zero point.
// With `raw_output`, the int32 sums are written there instead and `output` is unused.
// With `padded_input` (QGemmConvPaddedInputBytes bytes; pass it only where that is not 0)
// the input is first copied into it inside a border of the zero point (zero_row[0]): the
// same bytes reach the same products, so the same results.
void RunQGemmConv(const QGemmPacked& packed, const QConvShape& shape, const uint8_t* input,
                  size_t input_bytes, const uint8_t* zero_row, uint8_t* output, ThreadPool* pool,
                  int32_t* raw_output = nullptr, uint8_t* padded_input = nullptr);

// output[r, :] = GEMM of input row r (kc bytes at input + r * row_stride) for r in [0, rows).
void RunQGemmRows(const QGemmPacked& packed, int rows, const uint8_t* input, size_t row_stride,
                  uint8_t* output, ThreadPool* pool, int32_t* raw_output = nullptr);

}  // namespace octet::optimized
