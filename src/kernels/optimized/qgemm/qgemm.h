// The interface between the portable quantized-GEMM driver and its micro-kernels, one set
// per instruction set. Every type here is a plain aggregate and nothing here is inline code:
// per-ISA translation units (compiled with -mavx2, -mavx512..., and nothing else of ours)
// include only this header, so no inline function can be emitted with the wrong ISA.
//
// The GEMM is C[M x N] = requantize(A[M x K] * W[K x N] + bias), with A given through an
// indirection table: output row m reads `ks` taps, each a pointer to `kc` contiguous bytes
// (one input pixel's channels, or a row of the input zero point for padding). A 1x1
// convolution or a FULLY_CONNECTED layer is the case ks = 1.
//
// Exactness: every micro-kernel computes, for each output, the same int32 value as the
// reference (Σ (w + filter_offset)(x + input_offset) + bias, requantized with TFLite's
// MultiplyByQuantizedMultiplier) for all int8/uint8 inputs; the constant parts of that sum are
// folded into `bias` when the weights are packed, and arithmetic is modulo 2^32 throughout,
// so intermediate wrap-around cancels exactly as long as the reference's own int32 sum fits.
#pragma once

#include <cstddef>
#include <cstdint>

namespace octet::optimized {

// How a micro-kernel wants the weights and the activations.
enum class QWeightFormat : int {
  // int16 weights (w + filter_offset), activations widened to int16 (sign- or zero-extended).
  // Per panel: [tap][k / 8][4 pairs][nr][2]. Exact via 16x16->32-bit multiply-adds.
  kInt16Pairs = 0,
  // int8 weights for u8 x s8 dot products of 4 (AVX-512 VNNI vpdpbusd): int8 inputs enter as
  // x ^ 0x80 (= x + 128), uint8 inputs as x with weights w - 128 and a per-row correction.
  // Per panel: [tap][k / 4][nr][4].
  kInt8Quads = 1,
  // The kInt16Pairs layout with 1-byte elements: int8 weights as they are, uint8 weights as
  // w - 128 with the per-row correction of kInt8Quads; activations widened to int16 as for
  // kInt16Pairs. Half the weight bytes, for layers whose weights stream from memory.
  kInt8Pairs = 2,
};

// Per-column requantization, each array padded to a whole number of panels. The int32 arrays
// are in the kernel's lane order (see QGemmKernel::interleave_halves); the int64 ones in
// column order.
struct QGemmRequant {
  const int32_t* bias;        // folded bias: the reference's constant terms
  const int32_t* multiplier;  // Q0.31 multiplier (>= 0)
  const int32_t* shift;       // TFLite shift: > 0 left before the multiply, < 0 right after
  // MultiplyByQuantizedMultiplier as one rounding of a 64-bit product, for kernels that have
  // 64-bit lanes: with R = max(-shift, 0) and p = (x << left) * multiplier,
  //   result = (p + round_add - (p < -2^30 ? negative_sub : 0)) >> total_shift
  // where round_add = 2^30 + (R > 0 ? 2^(R + 30) : 0), negative_sub = (R > 0 ? 2^31 : 0) and
  // total_shift = 31 + R. This equals the reference's two roundings (the high multiply, then
  // the rounding divide by 2^R) for every x and every multiplier >= 0.
  const int64_t* round_add;
  const int64_t* negative_sub;
  const int64_t* total_shift;
  bool any_left_shift;  // some column has shift > 0
  // round_add already holds output_zero_point << total_shift (possible when every column's
  // right shift is at most kMaxFoldedRightShift): the 64-bit rounding then yields
  // result + output_zero_point exactly, and kernels that use it skip the addition.
  bool zero_point_folded;
  int32_t output_zero_point;
  int32_t act_min;
  int32_t act_max;
};

// Largest right shift for which output_zero_point << (31 + shift) stays far enough below 2^63
// that p + round_add cannot overflow (|p| < 2^62, |zero point| < 2^16).
constexpr int kMaxFoldedRightShift = 14;

// One call: up to `mr` rows (<= the kernel's MR) by `nc` columns.
struct QGemmTile {
  int mr;  // rows to store; the table has MR rows (unused rows repeat row 0's pointers)
  int nc;  // columns to produce, from the first column of `w`
  int kc;  // bytes per tap (the input channels), unpadded
  int ks;  // taps per row
  const uint8_t* const* a;     // a[tap * MR + row]
  const void* w;               // packed panels, starting with this tile's first column
  size_t panel_bytes;          // bytes of one packed panel (nr columns)
  QGemmRequant rq;             // arrays start at this tile's first column
  const int32_t* row_offsets;  // mr values added to every column of the row, or nullptr
  bool input_signed;           // int8 activations (else uint8)
  uint8_t* c;                  // output row 0, column 0 of this tile (int8 or uint8 bytes)
  size_t c_row_stride;         // elements between output rows (of c, or of c32)
  // When set, the kernel stores the raw int32 sums here instead (columns in order, no
  // requantization; rq.bias still applies): the hybrid ops scale them to float themselves.
  int32_t* c32;
};

using QGemmFn = void (*)(const QGemmTile& tile);

// A micro-kernel and the layout it needs. The driver tiles M by `mr` and N by
// `nr * max_panels`, packing weights in `nr`-column panels of `kr`-padded taps.
struct QGemmKernel {
  const char* name;
  int mr;
  int nr;
  int kr;
  int max_panels;  // panels one call handles (nc <= nr * max_panels)
  QWeightFormat format;
  // Column j < nr/2 of a panel sits in lane 2j, column nr/2 + j in lane 2j + 1, so that the
  // even and the odd 64-bit halves of the accumulators each hold consecutive columns.
  bool interleave_halves;
  QGemmFn run;
  // The kernel reads activations already widened to int16 (little-endian, 2 bytes each): the
  // caller widens the input once per invoke and the driver's table points into that copy,
  // with `kc` still counting elements. Only for convolutions (RunQGemmConv).
  bool wide_input = false;
};

// The micro-kernels of each path (defined in qgemm_<isa>.cc). The x86 ones exist only in
// builds with x86 kernels; callers check cpu::CpuSupports first.
extern const QGemmKernel kQGemmScalar;
extern const QGemmKernel kQGemmAvx2;
extern const QGemmKernel kQGemmAvx2ByteWeights;
extern const QGemmKernel kQGemmAvx2WideInput;
extern const QGemmKernel kQGemmAvx512Vnni;

}  // namespace octet::optimized
