// float32 depthwise micro-kernel for AVX2 + FMA: 8 channels per step, 4 output pixels at a
// time so four FMA chains overlap; the channel tail uses masked loads and stores.
#include <immintrin.h>

#include <cstddef>

#include "kernels/optimized/fdw/fdw.h"

namespace octet::optimized {
namespace {

constexpr int kBlock = 8;

// Lane j enabled when j < count.
static inline __m256i TailMask(int count) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

template <int P, bool kOffsets>
void Pixels(const FDwTile& t, int pixel, int c0, __m256i mask, const float* wb, __m256 lo,
            __m256 hi) {
  const int ks = t.ks;
  const __m256 bias = _mm256_loadu_ps(wb);
  __m256 acc[P];
#pragma GCC unroll 4
  for (int i = 0; i < P; ++i) acc[i] = bias;
  const float* const* a = kOffsets ? nullptr : t.a + static_cast<size_t>(pixel) * ks;
  for (int tap = 0; tap < ks; ++tap) {
    const __m256 w = _mm256_loadu_ps(wb + kBlock * (1 + tap));
#pragma GCC unroll 4
    for (int i = 0; i < P; ++i) {
      const float* row =
          kOffsets ? t.base + (pixel + i) * t.pixel_step + t.tap_offsets[tap] : a[i * ks + tap];
      const __m256 x = _mm256_maskload_ps(row + c0, mask);
      acc[i] = _mm256_fmadd_ps(x, w, acc[i]);
    }
  }
#pragma GCC unroll 4
  for (int i = 0; i < P; ++i) {
    // Bound first: min/max return their second operand when one is NaN, so a NaN sum
    // stays NaN as in the reference.
    const __m256 y = _mm256_min_ps(hi, _mm256_max_ps(lo, acc[i]));
    _mm256_maskstore_ps(t.c + static_cast<size_t>(pixel + i) * t.c_pixel_stride + c0, mask, y);
  }
}

template <bool kOffsets>
void RunAddressing(const FDwTile& t) {
  const __m256 lo = _mm256_set1_ps(t.act_min);
  const __m256 hi = _mm256_set1_ps(t.act_max);
  const size_t block_floats = static_cast<size_t>(kBlock) * (1 + static_cast<size_t>(t.ks));
  for (int c0 = 0, b = 0; c0 < t.channels; c0 += kBlock, ++b) {
    const __m256i mask = TailMask(t.channels - c0);
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

const FDwKernel kFDwAvx2 = {"fdw_avx2_8", kBlock, &Run};

}  // namespace octet::optimized
