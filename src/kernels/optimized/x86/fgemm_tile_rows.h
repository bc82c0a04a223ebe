// What the x86 float GEMM micro-kernels share around their FMA loops: how a tile names its
// rows, where its weights start, and the dispatch of a tile's rows to passes of the kernel
// compiled for each row count. Included by the AVX2 and the AVX-512 translation units; every
// name here has internal linkage (an unnamed namespace), so each unit keeps its own copy
// compiled with its own instruction set and no copy can stand in for another's.
#pragma once

#include <cstddef>

#include "kernels/optimized/fgemm/fgemm.h"

namespace octet::optimized {
namespace {

// How a tile names its rows (FGemmTile): evenly spaced from a0, a pointer per row plus the
// tap offsets, or a pointer per tap and row. A template parameter, so that a kernel computes
// its row pointers without testing the kind at every tap.
enum class Rows { kUniform, kPerRow, kPerTap };

Rows RowsOf(const FGemmTile& t) {
  if (t.a0 != nullptr) return Rows::kUniform;
  return t.tap_offsets != nullptr ? Rows::kPerRow : Rows::kPerTap;
}

// Rows first .. of a tile, for one pass of the kernel.
template <Rows kRows>
struct PassRows {
  PassRows(const FGemmTile& t, int first)
      : t(t),
        a0(kRows == Rows::kUniform ? t.a0 + first * t.a_row_step : nullptr),
        a(kRows == Rows::kUniform ? nullptr : t.a + first),
        c0(kRows == Rows::kUniform ? t.c0 + first * t.c_row_step : nullptr),
        c(t.c + first) {}
  // Tap s of row m.
  const float* Tap(int s, int m) const {
    if constexpr (kRows == Rows::kUniform) return a0 + t.tap_offsets[s] + m * t.a_row_step;
    if constexpr (kRows == Rows::kPerRow) return a[m] + t.tap_offsets[s];
    return a[s * t.a_stride + m];
  }
  // Row m's output.
  float* Out(int m) const {
    if constexpr (kRows == Rows::kUniform) return c0 + m * t.c_row_step;
    return c[m];
  }
  const FGemmTile& t;
  const float* a0;
  const float* const* a;
  float* c0;
  float* const* c;
};

// The tile's first weight (past the panel's bias and any skipped channels) and the weights
// skipped after each tap (clipped windows; see FGemmTile::k_skip), for panels of kNr columns.
template <int kNr>
const float* FirstWeight(const FGemmTile& t) {
  return t.w + static_cast<size_t>(kNr) * (1 + static_cast<size_t>(t.k_skip));
}
template <int kNr>
size_t TapGap(const FGemmTile& t) {
  return t.kc_stride > t.kc ? static_cast<size_t>(t.kc_stride - t.kc) * kNr : 0;
}

// A tile's rows to the ISA's kernels. `Kernels` provides kNr (columns per panel), kPass (rows
// per pass) and two function templates: Pass<MR, NP, kRows>(t, first), rows first ..
// first + MR - 1 by NP panels, and OneRow<NP, kRows>(t), a one-row GEMM that may split its sums.
template <class Kernels>
struct TileRows {
  // count (1..MR) rows from row `first`, with the kernel compiled for that row count.
  template <int MR, int NP, Rows kRows>
  static void FewRows(const FGemmTile& t, int first, int count) {
    if constexpr (MR > 1) {
      if (count < MR) return FewRows<MR - 1, NP, kRows>(t, first, count);
    }
    Kernels::template Pass<MR, NP, kRows>(t, first);
  }

  // The tile's rows in passes of kPass (uniform-row tiles may hold any number of rows: a
  // whole output row of a convolution or a task's rows of a plain GEMM, in one call).
  template <int NP, Rows kRows>
  static void Passes(const FGemmTile& t) {
    constexpr int kPass = Kernels::kPass;
    int first = 0;
    for (; t.mr - first >= kPass; first += kPass) {
      Kernels::template Pass<kPass, NP, kRows>(t, first);
    }
    if (first < t.mr) FewRows<kPass - 1, NP, kRows>(t, first, t.mr - first);
  }

  template <Rows kRows>
  static void RunRows(const FGemmTile& t) {
    constexpr int kNr = Kernels::kNr;
    if (t.mr == 1 && t.split_k) {
      return t.nc > kNr ? Kernels::template OneRow<2, kRows>(t)
                        : Kernels::template OneRow<1, kRows>(t);
    }
    if (t.nc > kNr) return Passes<2, kRows>(t);
    Passes<1, kRows>(t);
  }

  static void Run(const FGemmTile& t) {
    switch (RowsOf(t)) {
      case Rows::kUniform:
        return RunRows<Rows::kUniform>(t);
      case Rows::kPerRow:
        return RunRows<Rows::kPerRow>(t);
      case Rows::kPerTap:
        return RunRows<Rows::kPerTap>(t);
    }
  }
};

}  // namespace
}  // namespace octet::optimized
