// float32 GEMM micro-kernel for AVX2 + FMA: a tile of 6 rows x 2 panels of 8 columns, 12 ymm
// accumulators (of 16 registers), one FMA per row, panel and channel with the row's value
// broadcast.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/fgemm/fgemm.h"
#include "kernels/optimized/x86/fgemm_tile_rows.h"

namespace octet::optimized {
namespace {

constexpr int kMr = 6;
constexpr int kNr = 8;

constexpr int kPanels = 2;

// Stores the first `columns` (< 8) floats of v.
static inline void StorePartial(float* c, __m256 v, int columns) {
  alignas(32) float lanes[kNr];
  _mm256_store_ps(lanes, v);
  for (int j = 0; j < columns; ++j) c[j] = lanes[j];
}

// 8 columns per vector. Bound first in Clamp: min/max return their second operand when one
// is NaN, so a NaN sum stays NaN as in the reference.
struct Ymm {
  using Vec = __m256;
  static Vec Load(const float* p) { return _mm256_loadu_ps(p); }
  static Vec Broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  static Vec Set1(float v) { return _mm256_set1_ps(v); }
  static Vec Fmadd(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
  static Vec Add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
  static Vec Clamp(Vec x, Vec lo, Vec hi) { return _mm256_min_ps(hi, _mm256_max_ps(lo, x)); }
  static void Store(float* c, int columns, Vec y) {
    if (columns >= kNr) {
      _mm256_storeu_ps(c, y);
    } else {
      StorePartial(c, y, columns);
    }
  }
  static Vec LoadColumns(const float* c, int columns) {
    if (columns >= kNr) return _mm256_loadu_ps(c);
    alignas(32) float lanes[kNr] = {};
    for (int j = 0; j < columns; ++j) lanes[j] = c[j];
    return _mm256_load_ps(lanes);
  }
};

// A one-row GEMM (FULLY_CONNECTED with batch 1; see FGemmTile::split_k): with a single accumulator
// per panel every FMA waits for the previous one (4 cycles), so four accumulators take every fourth
// channel and are added at the end (a different summation order, within the float tolerance every
// path is held to).
template <int NP, Rows kRows>
void OneRow(const FGemmTile& t) {
  const PassRows<kRows> r(t, 0);
  constexpr int kSplit = 4;
  const int kc = t.kc;
  const size_t pstride = t.panel_floats;
  __m256 acc[kSplit][NP];
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    acc[0][p] = _mm256_loadu_ps(t.w + p * pstride);
    for (int u = 1; u < kSplit; ++u) acc[u][p] = _mm256_setzero_ps();
  }
  const float* w = FirstWeight<kNr>(t);
  const size_t tap_gap = TapGap<kNr>(t);
  for (int s = 0; s < t.ks; ++s) {
    const float* row = r.Tap(s, 0);
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
    w += tap_gap;
  }
  const __m256 lo = _mm256_set1_ps(t.act_min);
  const __m256 hi = _mm256_set1_ps(t.act_max);
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const __m256 sum =
        _mm256_add_ps(_mm256_add_ps(acc[0][p], acc[1][p]), _mm256_add_ps(acc[2][p], acc[3][p]));
    StoreOutput<Ymm>(t, r.Out(0) + p * kNr, t.nc - p * kNr, Ymm::Clamp(sum, lo, hi));
  }
}

struct Kernels {
  static constexpr int kNr = octet::optimized::kNr;
  static constexpr int kPass = kMr;
  template <int MR, int NP, Rows kRows>
  static void Pass(const FGemmTile& t, int first) {
    FmaTile<Ymm, kNr, MR, NP, kRows>(t, first);
  }
  template <int NP, Rows kRows>
  static void OneRow(const FGemmTile& t) {
    octet::optimized::OneRow<NP, kRows>(t);
  }
};

}  // namespace

const FGemmKernel kFGemmAvx2 = {"fgemm_avx2_6x16", kMr, kNr, kPanels, &TileRows<Kernels>::Run};

}  // namespace octet::optimized
