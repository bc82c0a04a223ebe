// float32 GEMM micro-kernels for CONV_2D and FULLY_CONNECTED: one tile of up to mr rows by up
// to max_panels panels of nr columns, over ks taps of kc floats per row. Plain aggregates
// only, so ISA translation units see no runtime types (see qgemm.h).
//
// Packed weights (FGemmPack): panel p (columns p*nr .. p*nr+nr-1) is panel_floats floats at
// w + p * panel_floats: nr bias values, then for each tap s and channel k the nr weights of
// (s, k). Columns past n hold zeros.
#pragma once

#include <cstddef>

namespace octet::optimized {

struct FGemmTile {
  // Rows in this tile: 1..kernel mr, or with uniform rows (a0 set) any number (the kernel runs
  // them in passes of its own; the driver hands over a whole output row in one call).
  int mr = 0;
  int nc = 0;  // columns to write, 1..nr * max_panels
  int kc = 0;  // floats per tap
  int ks = 1;  // taps
  // Tap s of row m is a[s * a_stride + m] (kc floats); a_stride is the kernel's mr.
  const float* const* a = nullptr;
  int a_stride = 0;
  // When set, tap s of row m is a[m] + tap_offsets[s] instead (a then holds one pointer per
  // row): interior pixels, whose taps all sit at the same offsets from their first one, so
  // the driver writes a pointer per row rather than one per tap and row.
  const ptrdiff_t* tap_offsets = nullptr;
  // Uniform rows (a0 set, with tap_offsets): row m starts at a0 + m * a_row_step and its
  // output at c0 + m * c_row_step, and `a` and `c` are unused. Interior tiles whose pixels
  // are consecutive in one output row: the driver then writes no per-row pointers at all.
  const float* a0 = nullptr;
  size_t a_row_step = 0;
  float* c0 = nullptr;
  size_t c_row_step = 0;
  const float* w = nullptr;  // the tile's first panel
  // Clipped windows (a convolution's border pixels that skip the taps in the padding, as the
  // reference does): the tile's first tap starts k_skip channels into the packed weights and
  // each tap's channels lie kc_stride apart in them (0: kc, consecutive).
  int k_skip = 0;
  int kc_stride = 0;
  size_t panel_floats = 0;
  // Row m of the tile's output at c[m] (its first column): rows need not be evenly spaced
  // (a convolution's interior and border pixels run in separate tiles).
  float* const* c = nullptr;
  float act_min = 0.f;  // fused activation clamp
  float act_max = 0.f;
  // A following same-shape ADD fused into this GEMM (see FGemmResidual): when set, the output
  // at out becomes clamp(clamped sum + residual[out - c_base], residual_min, residual_max).
  const float* residual = nullptr;
  const float* c_base = nullptr;  // the output array the residual is laid out like
  float residual_min = 0.f;
  float residual_max = 0.f;
  // The whole GEMM is this one row (a batch-1 FULLY_CONNECTED): the kernel may split the k
  // sum into partial sums. Elsewhere a row's bits must not depend on which tile it falls in
  // (a convolution cuts interior and border pixels into tiles differently from the same
  // convolution over explicitly padded input, and `octet fuse`'s fold-pad promises equal bits).
  bool split_k = false;
};

using FGemmFn = void (*)(const FGemmTile& tile);

struct FGemmKernel {
  const char* name;
  int mr;
  int nr;
  int max_panels;  // panels one call computes
  FGemmFn run;
};

extern const FGemmKernel kFGemmScalar;
extern const FGemmKernel kFGemmAvx2;
extern const FGemmKernel kFGemmAvx512;

}  // namespace octet::optimized
