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

// Stores a panel's row of `columns` outputs at out, y already clamped; with a fused residual
// (FGemmTile::residual) it is added first and the sum clamped again, as the ADD would.
template <class V>
void StoreOutput(const FGemmTile& t, float* out, int columns, typename V::Vec y) {
  if (t.residual != nullptr) {
    const typename V::Vec r = V::LoadColumns(t.residual + (out - t.c_base), columns);
    y = V::Clamp(V::Add(y, r), V::Set1(t.residual_min), V::Set1(t.residual_max));
  }
  V::Store(out, columns, y);
}

// The FMA loop of every x86 kernel: rows first .. first + MR - 1 of the tile by NP panels
// whose channels lie kNr floats apart in the packing, as many columns of each panel computed
// as a V::Vec holds (the AVX-512 unit's 8-column tiles use half of its 16-column panels). One
// FMA per row, panel and channel with the row's value broadcast. V supplies the vector type
// Vec and Load, Broadcast (one float from memory), Set1, Fmadd, Add, Clamp, and Store and
// LoadColumns (a panel's row of `columns` outputs, all lanes or fewer).
template <class V, int kNr, int MR, int NP, Rows kRows>
void FmaTile(const FGemmTile& t, int first) {
  using Vec = typename V::Vec;
  const PassRows<kRows> r(t, first);
  const int kc = t.kc;
  const int ks = t.ks;
  const size_t pstride = t.panel_floats;
  Vec acc[MR][NP];
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const Vec bias = V::Load(t.w + p * pstride);
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) acc[m][p] = bias;
  }
  const float* w = FirstWeight<kNr>(t);
  const size_t tap_gap = TapGap<kNr>(t);
  for (int s = 0; s < ks; ++s) {
    const float* rows[MR];
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) rows[m] = r.Tap(s, m);
    for (int k = 0; k < kc; ++k, w += kNr) {
      Vec wv[NP];
#pragma GCC unroll 2
      for (int p = 0; p < NP; ++p) wv[p] = V::Load(w + p * pstride);
#pragma GCC unroll 16
      for (int m = 0; m < MR; ++m) {
        const Vec x = V::Broadcast(rows[m] + k);
#pragma GCC unroll 2
        for (int p = 0; p < NP; ++p) acc[m][p] = V::Fmadd(x, wv[p], acc[m][p]);
      }
    }
    w += tap_gap;
  }
  const Vec lo = V::Set1(t.act_min);
  const Vec hi = V::Set1(t.act_max);
  if (t.residual != nullptr) {  // a fused ADD: tested once, not per store
#pragma GCC unroll 2
    for (int p = 0; p < NP; ++p) {
      const int columns = t.nc - p * kNr;
#pragma GCC unroll 16
      for (int m = 0; m < MR; ++m) {
        StoreOutput<V>(t, r.Out(m) + p * kNr, columns, V::Clamp(acc[m][p], lo, hi));
      }
    }
    return;
  }
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const int columns = t.nc - p * kNr;
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) V::Store(r.Out(m) + p * kNr, columns, V::Clamp(acc[m][p], lo, hi));
  }
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
