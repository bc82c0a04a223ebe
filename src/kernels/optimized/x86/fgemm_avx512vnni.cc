// float32 GEMM micro-kernel for AVX-512 (the avx512vnni path; it uses only AVX-512F): tiles
// of 16 rows x 2 panels of 16 columns, computed as passes of 8 rows (16 zmm accumulators),
// one FMA per row, panel and channel with the row's value broadcast from memory.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/fgemm/fgemm.h"

namespace octet::optimized {
namespace {

// Tap s of row m: from the table, or the row's pointer plus the tap's offset.
static inline const float* TapRow(const FGemmTile& t, int s, int m) {
  if (t.a0 != nullptr) return t.a0 + m * t.a_row_step + t.tap_offsets[s];
  return t.tap_offsets != nullptr ? t.a[m] + t.tap_offsets[s] : t.a[s * t.a_stride + m];
}
// Row m's output.
static inline float* OutRow(const FGemmTile& t, int m) {
  return t.c0 != nullptr ? t.c0 + m * t.c_row_step : t.c[m];
}

constexpr int kNr = 16;

// A panel's row of outputs; whole panels take a plain store (masked stores cost several times
// more on some cores: Zen 4 measured).
static inline void StoreColumns(float* c, int columns, __m512 y) {
  if (columns >= kNr) {
    _mm512_storeu_ps(c, y);
  } else {
    _mm512_mask_storeu_ps(c, static_cast<__mmask16>((1u << columns) - 1), y);
  }
}

template <int MR, int NP>
void Kernel(const FGemmTile& t) {
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
  const float* w = t.w + kNr;
  for (int s = 0; s < ks; ++s) {
    const float* rows[MR];
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) rows[m] = TapRow(t, s, m);
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
      StoreColumns(OutRow(t, m) + p * kNr, columns, y);
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
template <int NP>
void OneRow(const FGemmTile& t) {
  constexpr int kSplit = 4;
  const int kc = t.kc;
  const size_t pstride = t.panel_floats;
  __m512 acc[kSplit][NP];
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    acc[0][p] = _mm512_loadu_ps(t.w + p * pstride);
    for (int u = 1; u < kSplit; ++u) acc[u][p] = _mm512_setzero_ps();
  }
  const float* w = t.w + kNr;
  for (int s = 0; s < t.ks; ++s) {
    const float* row = TapRow(t, s, 0);
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
    StoreColumns(OutRow(t, 0) + p * kNr, columns, y);
  }
}

// A tile of MR rows (t.mr == MR) by NP panels, in passes of at most kRowsPerPass rows; every
// pass reads its own rows of the table (same a_stride) and writes its own outputs.
template <int MR, int NP>
void Passes(const FGemmTile& t) {
  if constexpr (MR > kRowsPerPass) {
    FGemmTile rest = t;
    rest.mr = t.mr - kRowsPerPass;
    if (t.a0 != nullptr) {
      rest.a0 = t.a0 + kRowsPerPass * t.a_row_step;
    } else {
      rest.a = t.a + kRowsPerPass;
    }
    if (t.c0 != nullptr) {
      rest.c0 = t.c0 + kRowsPerPass * t.c_row_step;
    } else {
      rest.c = t.c + kRowsPerPass;
    }
    Kernel<kRowsPerPass, NP>(t);
    Kernel<MR - kRowsPerPass, NP>(rest);
  } else {
    Kernel<MR, NP>(t);
  }
}

template <int MR, int NP>
void RunPanels(const FGemmTile& t) {
  if constexpr (MR == 1) {
    if (t.split_k) return t.nc > kNr ? OneRow<2>(t) : OneRow<1>(t);
  }
  if constexpr (NP > 1) {
    if (t.nc > kNr) return Passes<MR, 2>(t);
  }
  Passes<MR, 1>(t);
}

// Dispatches a tile of t.mr rows (1..MR) to the kernel compiled for that row count.
template <int MR, int NP>
void Run(const FGemmTile& t) {
  if constexpr (MR > 1) {
    if (t.mr < MR) return Run<MR - 1, NP>(t);
  }
  RunPanels<MR, NP>(t);
}

}  // namespace

const FGemmKernel kFGemmAvx512 = {"fgemm_avx512_16x32", 16, kNr, 2, &Run<16, 2>};

}  // namespace octet::optimized
