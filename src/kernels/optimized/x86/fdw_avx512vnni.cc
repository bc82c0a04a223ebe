// float32 depthwise micro-kernel for AVX-512 (the avx512vnni path; AVX-512F only): 16
// channels per step, 4 output pixels at a time so four FMA chains overlap; the channel tail
// uses masked loads and stores.
#include <immintrin.h>

#include <cstddef>

#include "kernels/optimized/fdw/fdw.h"

namespace octet::optimized {
namespace {

constexpr int kBlock = 16;

template <int P, bool kOffsets>
void Pixels(const FDwTile& t, int pixel, int c0, __mmask16 mask, const float* wb, __m512 lo,
            __m512 hi) {
  const int ks = t.ks;
  const __m512 bias = _mm512_loadu_ps(wb);
  __m512 acc[P];
#pragma GCC unroll 4
  for (int i = 0; i < P; ++i) acc[i] = bias;
  const float* const* a = kOffsets ? nullptr : t.a + static_cast<size_t>(pixel) * ks;
  for (int tap = 0; tap < ks; ++tap) {
    const __m512 w = _mm512_loadu_ps(wb + kBlock * (1 + tap));
#pragma GCC unroll 4
    for (int i = 0; i < P; ++i) {
      const float* row =
          kOffsets ? t.base + (pixel + i) * t.pixel_step + t.tap_offsets[tap] : a[i * ks + tap];
      const __m512 x = _mm512_maskz_loadu_ps(mask, row + c0);
      acc[i] = _mm512_fmadd_ps(x, w, acc[i]);
    }
  }
#pragma GCC unroll 4
  for (int i = 0; i < P; ++i) {
    // Bound first: min/max return their second operand when one is NaN, so a NaN sum stays
    // NaN as in the reference. (maskz forms: GCC 12's plain ones warn about their source.)
    const __m512 y = _mm512_maskz_min_ps(0xFFFF, hi, _mm512_maskz_max_ps(0xFFFF, lo, acc[i]));
    _mm512_mask_storeu_ps(t.c + static_cast<size_t>(pixel + i) * t.c_pixel_stride + c0, mask, y);
  }
}

template <bool kOffsets>
void RunAddressing(const FDwTile& t) {
  const __m512 lo = _mm512_set1_ps(t.act_min);
  const __m512 hi = _mm512_set1_ps(t.act_max);
  const size_t block_floats = static_cast<size_t>(kBlock) * (1 + static_cast<size_t>(t.ks));
  for (int c0 = 0, b = 0; c0 < t.channels; c0 += kBlock, ++b) {
    const int rest = t.channels - c0;
    const __mmask16 mask =
        rest >= kBlock ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rest) - 1);
    const float* wb = t.w + static_cast<size_t>(b) * block_floats;
    int p = 0;
    for (; p + 4 <= t.pixels; p += 4) Pixels<4, kOffsets>(t, p, c0, mask, wb, lo, hi);
    for (; p < t.pixels; ++p) Pixels<1, kOffsets>(t, p, c0, mask, wb, lo, hi);
  }
}

void Run(const FDwTile& t) {
  if (t.tap_offsets != nullptr) {
    RunAddressing<true>(t);
  } else {
    RunAddressing<false>(t);
  }
}

}  // namespace

const FDwKernel kFDwAvx512 = {"fdw_avx512_16", kBlock, &Run};

}  // namespace octet::optimized
