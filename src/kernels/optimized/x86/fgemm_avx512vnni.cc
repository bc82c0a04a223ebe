// float32 GEMM micro-kernel for AVX-512 (the avx512vnni path; it uses only AVX-512F): tiles
// of 16 rows x 2 panels of 16 columns, computed as passes of 8 rows (16 zmm accumulators),
// one FMA per row, panel and channel with the row's value broadcast from memory.
#include <immintrin.h>

#include <cstdint>

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

constexpr int kNr = 16;

// The tile's first weight (past the panel's bias and any skipped channels) and the weights
// skipped after each tap (clipped windows; see FGemmTile::k_skip).
static inline const float* FirstWeight(const FGemmTile& t) {
  return t.w + static_cast<size_t>(kNr) * (1 + static_cast<size_t>(t.k_skip));
}
static inline size_t TapGap(const FGemmTile& t) {
  return t.kc_stride > t.kc ? static_cast<size_t>(t.kc_stride - t.kc) * kNr : 0;
}

// A panel's row of outputs; whole panels take a plain store (masked stores cost several times
// more on some cores: Zen 4 measured).
static inline void StoreColumns(float* c, int columns, __m512 y) {
  if (columns >= kNr) {
    _mm512_storeu_ps(c, y);
  } else {
    _mm512_mask_storeu_ps(c, static_cast<__mmask16>((1u << columns) - 1), y);
  }
}

// Rows first .. first + MR - 1 of the tile.
template <int MR, int NP, Rows kRows>
void Kernel(const FGemmTile& t, int first) {
  const PassRows<kRows> r(t, first);
  const int kc = t.kc;
  const int ks = t.ks;
  const size_t pstride = t.panel_floats;
  __m512 acc[MR][NP];
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const __m512 bias = _mm512_loadu_ps(t.w + p * pstride);
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) acc[m][p] = bias;
  }
  const float* w = FirstWeight(t);
  const size_t tap_gap = TapGap(t);
  for (int s = 0; s < ks; ++s) {
    const float* rows[MR];
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) rows[m] = r.Tap(s, m);
    for (int k = 0; k < kc; ++k, w += kNr) {
      __m512 wv[NP];
#pragma GCC unroll 2
      for (int p = 0; p < NP; ++p) wv[p] = _mm512_loadu_ps(w + p * pstride);
#pragma GCC unroll 16
      for (int m = 0; m < MR; ++m) {
        const __m512 x = _mm512_set1_ps(rows[m][k]);
#pragma GCC unroll 2
        for (int p = 0; p < NP; ++p) acc[m][p] = _mm512_fmadd_ps(x, wv[p], acc[m][p]);
      }
    }
    w += tap_gap;
  }
  const __m512 lo = _mm512_set1_ps(t.act_min);
  const __m512 hi = _mm512_set1_ps(t.act_max);
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const int columns = t.nc - p * kNr;
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) {
      // Bound first: min/max return their second operand when one is NaN, so a NaN sum stays
      // NaN as in the reference. (maskz forms: GCC 12's plain ones warn about their source.)
      const __m512 y = _mm512_maskz_min_ps(0xFFFF, hi, _mm512_maskz_max_ps(0xFFFF, lo, acc[m][p]));
      StoreColumns(r.Out(m) + p * kNr, columns, y);
    }
  }
}

// Rows per pass: more than 8 rows need more row pointers than the registers left, and the
// compiler parks some in vector registers, moved back on every k step. A 16-row tile runs
// as two passes of 8 (the second re-reads L1-resident weights), which measured better than
// 12-row tiles in one pass (ResNet8's 3x3 layers 3-7%, VWW's 128x256 1x1 layer 4%) or in
// passes of 8 and 4 (the 4-row pass leaves FMA latency exposed), and fewer tiles than 8-row
// ones (each tile fills its table of tap pointers).
constexpr int kRowsPerPass = 8;

// A one-row GEMM (FULLY_CONNECTED with batch 1; see FGemmTile::split_k): with one
// accumulator per panel every FMA waits for the previous one, so four accumulators take every
// fourth channel and are added at the end (another summation order, within the float
// tolerance every path is held to; the AVX2 kernel does the same).
template <int NP, Rows kRows>
void OneRow(const FGemmTile& t) {
  const PassRows<kRows> r(t, 0);
  constexpr int kSplit = 4;
  const int kc = t.kc;
  const size_t pstride = t.panel_floats;
  __m512 acc[kSplit][NP];
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    acc[0][p] = _mm512_loadu_ps(t.w + p * pstride);
    for (int u = 1; u < kSplit; ++u) acc[u][p] = _mm512_setzero_ps();
  }
  const float* w = FirstWeight(t);
  const size_t tap_gap = TapGap(t);
  for (int s = 0; s < t.ks; ++s) {
    const float* row = r.Tap(s, 0);
    int k = 0;
    for (; k + kSplit <= kc; k += kSplit, w += kSplit * kNr) {
#pragma GCC unroll 4
      for (int u = 0; u < kSplit; ++u) {
        const __m512 x = _mm512_set1_ps(row[k + u]);
#pragma GCC unroll 2
        for (int p = 0; p < NP; ++p) {
          acc[u][p] = _mm512_fmadd_ps(x, _mm512_loadu_ps(w + u * kNr + p * pstride), acc[u][p]);
        }
      }
    }
    for (; k < kc; ++k, w += kNr) {
      const __m512 x = _mm512_set1_ps(row[k]);
#pragma GCC unroll 2
      for (int p = 0; p < NP; ++p) {
        acc[0][p] = _mm512_fmadd_ps(x, _mm512_loadu_ps(w + p * pstride), acc[0][p]);
      }
    }
    w += tap_gap;
  }
  const __m512 lo = _mm512_set1_ps(t.act_min);
  const __m512 hi = _mm512_set1_ps(t.act_max);
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const int columns = t.nc - p * kNr;
    if (columns <= 0) break;
    const __m512 sum =
        _mm512_add_ps(_mm512_add_ps(acc[0][p], acc[1][p]), _mm512_add_ps(acc[2][p], acc[3][p]));
    const __m512 y = _mm512_maskz_min_ps(0xFFFF, hi, _mm512_maskz_max_ps(0xFFFF, lo, sum));
    StoreColumns(r.Out(0) + p * kNr, columns, y);
  }
}

// count (1..MR) rows from row `first`, with the kernel compiled for that row count.
template <int MR, int NP, Rows kRows>
void FewRows(const FGemmTile& t, int first, int count) {
  if constexpr (MR > 1) {
    if (count < MR) return FewRows<MR - 1, NP, kRows>(t, first, count);
  }
  Kernel<MR, NP, kRows>(t, first);
}

// The tile's rows in passes of kRowsPerPass (uniform-row tiles may hold any number of rows:
// a whole output row of a convolution or a task's rows of a plain GEMM, in one call).
template <int NP, Rows kRows>
void Passes(const FGemmTile& t) {
  int first = 0;
  for (; t.mr - first >= kRowsPerPass; first += kRowsPerPass)
    Kernel<kRowsPerPass, NP, kRows>(t, first);
  if (first < t.mr) FewRows<kRowsPerPass - 1, NP, kRows>(t, first, t.mr - first);
}

template <Rows kRows>
void RunRows(const FGemmTile& t) {
  if (t.mr == 1 && t.split_k) return t.nc > kNr ? OneRow<2, kRows>(t) : OneRow<1, kRows>(t);
  if (t.nc > kNr) return Passes<2, kRows>(t);
  Passes<1, kRows>(t);
}

void Run(const FGemmTile& t) {
  switch (RowsOf(t)) {
    case Rows::kUniform:
      return RunRows<Rows::kUniform>(t);
    case Rows::kPerRow:
      return RunRows<Rows::kPerRow>(t);
    case Rows::kPerTap:
      return RunRows<Rows::kPerTap>(t);
  }
}

}  // namespace

const FGemmKernel kFGemmAvx512 = {"fgemm_avx512_16x32", 16, kNr, 2, &Run};

}  // namespace octet::optimized
