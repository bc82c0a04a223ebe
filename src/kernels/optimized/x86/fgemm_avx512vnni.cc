// float32 GEMM micro-kernel for AVX-512 (the avx512vnni path; it uses AVX-512F and VL): tiles
// of 16 rows x 2 panels of 16 columns, computed as passes of 8 rows (16 zmm accumulators),
// one FMA per row, panel and channel with the row's value broadcast from memory.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/fgemm/fgemm.h"
#include "kernels/optimized/x86/fgemm_tile_rows.h"

namespace octet::optimized {
namespace {

constexpr int kNr = 16;

// 16 columns per vector. Whole panels take a plain store (masked stores cost several times
// more on some cores: Zen 4 measured).
struct Zmm {
  using Vec = __m512;
  static Vec Load(const float* p) { return _mm512_loadu_ps(p); }
  static Vec Broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static Vec Set1(float v) { return _mm512_set1_ps(v); }
  static Vec Fmadd(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
  static Vec Add(Vec a, Vec b) { return _mm512_add_ps(a, b); }
  // Bound first: min/max return their second operand when one is NaN, so a NaN sum stays NaN
  // as in the reference. (maskz forms: GCC 12's plain ones warn about their source.)
  static Vec Clamp(Vec x, Vec lo, Vec hi) {
    return _mm512_maskz_min_ps(0xFFFF, hi, _mm512_maskz_max_ps(0xFFFF, lo, x));
  }
  static void Store(float* c, int columns, Vec y) {
    if (columns >= kNr) {
      _mm512_storeu_ps(c, y);
    } else {
      _mm512_mask_storeu_ps(c, static_cast<__mmask16>((1u << columns) - 1), y);
    }
  }
  static Vec LoadColumns(const float* c, int columns) {
    if (columns >= kNr) return _mm512_loadu_ps(c);
    return _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << columns) - 1), c);
  }
};

// A tile of at most 8 columns (one panel, half of it padding) on the panel's first 8 columns
// with 256-bit FMAs: cores with 256-bit FMA units (Zen 4) issue two of them per cycle where
// they issue one 512-bit FMA, so an 8-channel layer (VWW's first) does its products in half
// the cycles; the same products in the same order, so the same bits.
struct HalfZmm {
  using Vec = __m256;
  static Vec Load(const float* p) { return _mm256_loadu_ps(p); }
  static Vec Broadcast(const float* p) { return _mm256_set1_ps(*p); }
  static Vec Set1(float v) { return _mm256_set1_ps(v); }
  static Vec Fmadd(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
  static Vec Add(Vec a, Vec b) { return _mm256_add_ps(a, b); }
  static Vec Clamp(Vec x, Vec lo, Vec hi) { return _mm256_min_ps(hi, _mm256_max_ps(lo, x)); }
  static void Store(float* c, int columns, Vec y) {
    if (columns >= kNr / 2) {
      _mm256_storeu_ps(c, y);
    } else {
      _mm256_mask_storeu_ps(c, static_cast<__mmask8>((1u << columns) - 1), y);
    }
  }
  static Vec LoadColumns(const float* c, int columns) {
    if (columns >= kNr / 2) return _mm256_loadu_ps(c);
    return _mm256_maskz_loadu_ps(static_cast<__mmask8>((1u << columns) - 1), c);
  }
};

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
  const float* w = FirstWeight<kNr>(t);
  const size_t tap_gap = TapGap<kNr>(t);
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
    StoreOutput<Zmm>(t, r.Out(0) + p * kNr, columns, Zmm::Clamp(sum, lo, hi));
  }
}

struct Kernels {
  static constexpr int kNr = octet::optimized::kNr;
  static constexpr int kPass = kRowsPerPass;
  template <int MR, int NP, Rows kRows>
  static void Pass(const FGemmTile& t, int first) {
    if constexpr (NP == 1) {
      if (t.nc <= kNr / 2) return FmaTile<HalfZmm, kNr, MR, 1, kRows>(t, first);
    }
    FmaTile<Zmm, kNr, MR, NP, kRows>(t, first);
  }
  template <int NP, Rows kRows>
  static void OneRow(const FGemmTile& t) {
    octet::optimized::OneRow<NP, kRows>(t);
  }
};

}  // namespace

const FGemmKernel kFGemmAvx512 = {"fgemm_avx512_16x32", 16, kNr, 2, &TileRows<Kernels>::Run};

}  // namespace octet::optimized
