// float32 GEMM micro-kernel for AVX2 + FMA: a tile of 6 rows x 2 panels of 8 columns, 12 ymm
// accumulators (of 16 registers), one FMA per row, panel and channel with the row's value
// broadcast.
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

constexpr int kMr = 6;
constexpr int kNr = 8;
constexpr int kPanels = 2;

// Stores the first `columns` (< 8) floats of v.
static inline void StorePartial(float* c, __m256 v, int columns) {
  alignas(32) float lanes[kNr];
  _mm256_store_ps(lanes, v);
  for (int j = 0; j < columns; ++j) c[j] = lanes[j];
}

template <int MR, int NP>
void Kernel(const FGemmTile& t) {
  const int kc = t.kc;
  const int ks = t.ks;
  const size_t pstride = t.panel_floats;
  __m256 acc[MR][NP];
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const __m256 bias = _mm256_loadu_ps(t.w + p * pstride);
#pragma GCC unroll 6
    for (int m = 0; m < MR; ++m) acc[m][p] = bias;
  }
  const float* w = t.w + kNr;
  for (int s = 0; s < ks; ++s) {
    const float* rows[MR];
#pragma GCC unroll 6
    for (int m = 0; m < MR; ++m) rows[m] = TapRow(t, s, m);
    for (int k = 0; k < kc; ++k, w += kNr) {
      __m256 wv[NP];
#pragma GCC unroll 2
      for (int p = 0; p < NP; ++p) wv[p] = _mm256_loadu_ps(w + p * pstride);
#pragma GCC unroll 6
      for (int m = 0; m < MR; ++m) {
        const __m256 x = _mm256_broadcast_ss(rows[m] + k);
#pragma GCC unroll 2
        for (int p = 0; p < NP; ++p) acc[m][p] = _mm256_fmadd_ps(x, wv[p], acc[m][p]);
      }
    }
  }
  const __m256 lo = _mm256_set1_ps(t.act_min);
  const __m256 hi = _mm256_set1_ps(t.act_max);
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const int columns = t.nc - p * kNr;
#pragma GCC unroll 6
    for (int m = 0; m < MR; ++m) {
      // Bound first: min/max return their second operand when one is NaN, so a NaN sum
      // stays NaN as in the reference.
      const __m256 y = _mm256_min_ps(hi, _mm256_max_ps(lo, acc[m][p]));
      float* c = OutRow(t, m) + p * kNr;
      if (columns >= kNr) {
        _mm256_storeu_ps(c, y);
      } else {
        StorePartial(c, y, columns);
      }
    }
  }
}

// A one-row GEMM (FULLY_CONNECTED with batch 1; see FGemmTile::split_k): with a single accumulator
// per panel every FMA waits for the previous one (4 cycles), so four accumulators take every fourth
// channel and are added at the end (a different summation order, within the float tolerance every
// path is held to).
template <int NP>
void OneRow(const FGemmTile& t) {
  constexpr int kSplit = 4;
  const int kc = t.kc;
  const size_t pstride = t.panel_floats;
  __m256 acc[kSplit][NP];
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    acc[0][p] = _mm256_loadu_ps(t.w + p * pstride);
    for (int u = 1; u < kSplit; ++u) acc[u][p] = _mm256_setzero_ps();
  }
  const float* w = t.w + kNr;
  for (int s = 0; s < t.ks; ++s) {
    const float* row = TapRow(t, s, 0);
    int k = 0;
    for (; k + kSplit <= kc; k += kSplit, w += kSplit * kNr) {
#pragma GCC unroll 4
      for (int u = 0; u < kSplit; ++u) {
        const __m256 x = _mm256_broadcast_ss(row + k + u);
#pragma GCC unroll 2
        for (int p = 0; p < NP; ++p) {
          acc[u][p] = _mm256_fmadd_ps(x, _mm256_loadu_ps(w + u * kNr + p * pstride), acc[u][p]);
        }
      }
    }
    for (; k < kc; ++k, w += kNr) {
      const __m256 x = _mm256_broadcast_ss(row + k);
#pragma GCC unroll 2
      for (int p = 0; p < NP; ++p) {
        acc[0][p] = _mm256_fmadd_ps(x, _mm256_loadu_ps(w + p * pstride), acc[0][p]);
      }
    }
  }
  const __m256 lo = _mm256_set1_ps(t.act_min);
  const __m256 hi = _mm256_set1_ps(t.act_max);
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const __m256 sum =
        _mm256_add_ps(_mm256_add_ps(acc[0][p], acc[1][p]), _mm256_add_ps(acc[2][p], acc[3][p]));
    const __m256 y = _mm256_min_ps(hi, _mm256_max_ps(lo, sum));
    const int columns = t.nc - p * kNr;
    float* c = OutRow(t, 0) + p * kNr;
    if (columns >= kNr) {
      _mm256_storeu_ps(c, y);
    } else {
      StorePartial(c, y, columns);
    }
  }
}

template <int MR>
void RunPanels(const FGemmTile& t) {
  if (MR == 1 && t.split_k) {
    if (t.nc > kNr) {
      OneRow<2>(t);
    } else {
      OneRow<1>(t);
    }
    return;
  }
  if (t.nc > kNr) {
    Kernel<MR, 2>(t);
  } else {
    Kernel<MR, 1>(t);
  }
}

void Run(const FGemmTile& t) {
  switch (t.mr) {
    case 1:
      return RunPanels<1>(t);
    case 2:
      return RunPanels<2>(t);
    case 3:
      return RunPanels<3>(t);
    case 4:
      return RunPanels<4>(t);
    case 5:
      return RunPanels<5>(t);
    default:
      return RunPanels<6>(t);
  }
}

}  // namespace

const FGemmKernel kFGemmAvx2 = {"fgemm_avx2_6x16", kMr, kNr, kPanels, &Run};

}  // namespace octet::optimized
