// float32 GEMM micro-kernel for AVX-512 (the avx512vnni path; it uses only AVX-512F): a tile
// of 8 rows x 2 panels of 16 columns, 16 zmm accumulators, one FMA per row, panel and
// channel with the row's value broadcast from memory.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/fgemm/fgemm.h"

namespace octet::optimized {
namespace {

constexpr int kMr = 12;
constexpr int kNr = 16;
constexpr int kPanels = 2;

template <int MR, int NP>
void Kernel(const FGemmTile& t) {
  const int kc = t.kc;
  const int ks = t.ks;
  const size_t pstride = t.panel_floats;
  __m512 acc[MR][NP];
#pragma GCC unroll 2
  for (int p = 0; p < NP; ++p) {
    const __m512 bias = _mm512_loadu_ps(t.w + p * pstride);
#pragma GCC unroll 12
    for (int m = 0; m < MR; ++m) acc[m][p] = bias;
  }
  const float* w = t.w + kNr;
  for (int s = 0; s < ks; ++s) {
    const float* rows[MR];
#pragma GCC unroll 12
    for (int m = 0; m < MR; ++m) rows[m] = t.a[s * t.a_stride + m];
    for (int k = 0; k < kc; ++k, w += kNr) {
      __m512 wv[NP];
#pragma GCC unroll 2
      for (int p = 0; p < NP; ++p) wv[p] = _mm512_loadu_ps(w + p * pstride);
#pragma GCC unroll 12
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
    const __mmask16 mask = columns >= kNr ? static_cast<__mmask16>(0xFFFF)
                                          : static_cast<__mmask16>((1u << columns) - 1);
#pragma GCC unroll 12
    for (int m = 0; m < MR; ++m) {
      // Bound first: min/max return their second operand when one is NaN, so a NaN sum stays
      // NaN as in the reference. (maskz forms: GCC 12's plain ones warn about their source.)
      const __m512 y = _mm512_maskz_min_ps(0xFFFF, hi, _mm512_maskz_max_ps(0xFFFF, lo, acc[m][p]));
      _mm512_mask_storeu_ps(t.c + static_cast<size_t>(m) * t.c_row_stride + p * kNr, mask, y);
    }
  }
}

template <int MR>
void RunPanels(const FGemmTile& t) {
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
    case 6:
      return RunPanels<6>(t);
    case 7:
      return RunPanels<7>(t);
    case 8:
      return RunPanels<8>(t);
    case 9:
      return RunPanels<9>(t);
    case 10:
      return RunPanels<10>(t);
    case 11:
      return RunPanels<11>(t);
    default:
      return RunPanels<12>(t);
  }
}

}  // namespace

const FGemmKernel kFGemmAvx512 = {"fgemm_avx512_12x32", kMr, kNr, kPanels, &Run};

}  // namespace octet::optimized
