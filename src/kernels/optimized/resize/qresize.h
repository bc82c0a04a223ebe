// Quantized 8-bit RESIZE_BILINEAR (TFLite's integer path, reference::QuantizedResizeBilinear)
// as two passes, one implementation per kernel path. The reference sums the four corners'
// x * wy * wx with Q10 weights; integer products are exact, so the sum equals
// (x00 (1024 - fy) + x10 fy)(1024 - fx) + (x01 (1024 - fy) + x11 fy) fx: a vertical pass
// blends the two source rows once per output row (int32: a convex blend, |v| <= 128 * 1024),
// a horizontal pass blends columns (|sum| <= 2^27) and rounds.
// The same sums and rounding as the reference: the same bytes. Plain aggregates only (see
// qgemm.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace octet::optimized {

// One output column: the element offsets (source pixel * depth) of its two source pixels in
// a vertically blended row, and the Q10 weight of the second, in [0, 1024]. (The reference's
// weight leaves that range only where both source pixels are the same one, clamped at a
// border; there any weight gives the pixel * 1024, so the driver passes 0.) Row weights fy
// likewise.
struct QResizeColumn {
  int32_t x0, x1, fx;
};

// A blended row is readable this many int32 past its end (the horizontal pass reads whole
// vectors from each pixel's first channel).
constexpr int kQResizeRowPadding = 16;

struct QResizeKernel {
  const char* name;
  // v[i] = row0[i] * (1024 - fy) + row1[i] * fy for i < n; int8 values when is_signed, else
  // uint8.
  void (*vertical)(const uint8_t* row0, const uint8_t* row1, size_t n, int32_t fy, bool is_signed,
                   int32_t* v);
  // out[x * depth + c] = the low byte of round_half_away_from_zero(
  //   (v[col.x0 + c] (1024 - col.fx) + v[col.x1 + c] col.fx) / 2^20), col = columns[x],
  // for x < out_w and c < depth.
  void (*horizontal)(const int32_t* v, const QResizeColumn* columns, int out_w, int depth,
                     uint8_t* out);
};

extern const QResizeKernel kQResizeScalar;
extern const QResizeKernel kQResizeAvx2;

}  // namespace octet::optimized
