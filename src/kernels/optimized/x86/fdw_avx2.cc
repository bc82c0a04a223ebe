// float32 depthwise micro-kernel for AVX2 + FMA: 8 channels per step, several output pixels
// at a time so their FMA chains overlap; only the channel tail uses masked loads and stores
// (AMD's vmaskmovps store is microcoded: masking every block ran at a tenth of the speed). With
// a compile-time tap count (3x3, the common case) the block's weights stay in registers
// across the whole run of pixels.
#include <immintrin.h>

#include <cstddef>

#include "kernels/optimized/fdw/fdw.h"

namespace octet::optimized {
namespace {

// Where pixel p's channel 0 goes (a static copy per translation unit: this file's ISA).
static inline float* PixelOutput(const FDwTile& t, int p) {
  return t.c_pixels != nullptr ? t.c_pixels[p] : t.c + static_cast<size_t>(p) * t.c_pixel_stride;
}

constexpr int kBlock = 8;

// Lane j enabled when j < count.
static inline __m256i TailMask(int count) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// Where pixel p's taps start (channel c0): through the table, or base + p * step + offset.
template <bool kOffsets>
struct Rows {
  Rows(const FDwTile& t, int c0) : t(t), c0(c0) {}
  const float* operator()(int pixel, int tap) const {
    if (kOffsets) return t.base + pixel * t.pixel_step + t.tap_offsets[tap] + c0;
    return t.a[static_cast<size_t>(pixel) * t.ks + tap] + c0;
  }
  const FDwTile& t;
  int c0;
};

static inline __m256 Load(const float* p, __m256i mask, bool full) {
  return full ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, mask);
}

// The activation clamp of one block of sums, stored. Bound first: min/max return their
// second operand when one is NaN, so a NaN sum stays NaN as in the reference.
static inline void StoreClamped(float* out, __m256 acc, __m256 lo, __m256 hi, __m256i mask,
                                bool full) {
  const __m256 y = _mm256_min_ps(hi, _mm256_max_ps(lo, acc));
  if (full) {
    _mm256_storeu_ps(out, y);
  } else {
    _mm256_maskstore_ps(out, mask, y);
  }
}

// P pixels from `pixel`, KS taps known at compile time (0: t.ks, weights from memory); kFull:
// a whole block of 8 channels.
template <int P, int KS, bool kOffsets, bool kFull>
static inline void Pixels(const FDwTile& t, const Rows<kOffsets>& rows, int pixel, int c0,
                          __m256i mask, const float* wb, const __m256* w, __m256 bias, __m256 lo,
                          __m256 hi) {
  const int ks = KS > 0 ? KS : t.ks;
  __m256 acc[P];
#pragma GCC unroll 4
  for (int i = 0; i < P; ++i) acc[i] = bias;
#pragma GCC unroll 9
  for (int tap = 0; tap < ks; ++tap) {
    const __m256 wv = KS > 0 ? w[tap] : _mm256_loadu_ps(wb + kBlock * (1 + tap));
#pragma GCC unroll 4
    for (int i = 0; i < P; ++i) {
      acc[i] = _mm256_fmadd_ps(Load(rows(pixel + i, tap), mask, kFull), wv, acc[i]);
    }
  }
#pragma GCC unroll 4
  for (int i = 0; i < P; ++i) {
    StoreClamped(PixelOutput(t, pixel + i) + c0, acc[i], lo, hi, mask, kFull);
  }
}

template <int KS, bool kOffsets, bool kFull>
static inline void PixelRun(const FDwTile& t, const Rows<kOffsets>& rows, int c0, __m256i mask,
                            const float* wb, const __m256* w, __m256 bias, __m256 lo, __m256 hi) {
  int p = 0;
  for (; p + 4 <= t.pixels; p += 4) {
    Pixels<4, KS, kOffsets, kFull>(t, rows, p, c0, mask, wb, w, bias, lo, hi);
  }
  // The last 1-3 pixels in one call too: a lone pixel's taps are one FMA chain waiting on
  // latency (KWS's 5-pixel rows leave runs of 3 interior pixels, all of them taken alone).
  switch (t.pixels - p) {
    case 3:
      Pixels<3, KS, kOffsets, kFull>(t, rows, p, c0, mask, wb, w, bias, lo, hi);
      break;
    case 2:
      Pixels<2, KS, kOffsets, kFull>(t, rows, p, c0, mask, wb, w, bias, lo, hi);
      break;
    case 1:
      Pixels<1, KS, kOffsets, kFull>(t, rows, p, c0, mask, wb, w, bias, lo, hi);
      break;
    default:
      break;
  }
}

template <int KS, bool kOffsets>
void RunTaps(const FDwTile& t) {
  const __m256 lo = _mm256_set1_ps(t.act_min);
  const __m256 hi = _mm256_set1_ps(t.act_max);
  const size_t block_floats = static_cast<size_t>(kBlock) * (1 + static_cast<size_t>(t.ks));
  for (int c0 = 0, b = 0; c0 < t.channels; c0 += kBlock, ++b) {
    const __m256i mask = TailMask(t.channels - c0);
    const float* wb = t.w + static_cast<size_t>(b) * block_floats;
    const __m256 bias = _mm256_loadu_ps(wb);
    __m256 w[KS > 0 ? KS : 1];
    if (KS > 0) {
#pragma GCC unroll 9
      for (int tap = 0; tap < KS; ++tap) w[tap] = _mm256_loadu_ps(wb + kBlock * (1 + tap));
    }
    const Rows<kOffsets> rows(t, c0);
    if (t.channels - c0 >= kBlock) {
      PixelRun<KS, kOffsets, true>(t, rows, c0, mask, wb, w, bias, lo, hi);
    } else {
      PixelRun<KS, kOffsets, false>(t, rows, c0, mask, wb, w, bias, lo, hi);
    }
  }
}

template <bool kOffsets>
void RunAddressing(const FDwTile& t) {
  if (t.ks == 9) {
    RunTaps<9, kOffsets>(t);
  } else {
    RunTaps<0, kOffsets>(t);
  }
}

void Run(const FDwTile& t) {
  if (t.tap_offsets != nullptr) {
    RunAddressing<true>(t);
  } else {
    RunAddressing<false>(t);
  }
}

// --- 3x3 stride-1 rows (FDwRow3x3) -------------------------------------------------------

// Pixel x alone, any of its taps possibly outside the image (skipped, as the reference does).
template <bool kFull>
static inline void EdgePixel(const FDwRow3x3& r, int x, int c0, __m256i mask, const __m256* w,
                             __m256 bias, __m256 lo, __m256 hi) {
  const size_t channels = static_cast<size_t>(r.channels);
  __m256 acc = bias;
  for (int fy = 0; fy < 3; ++fy) {
    if (r.rows[fy] == nullptr) continue;
    for (int fx = 0; fx < 3; ++fx) {
      const int col = x - r.pad_w + fx;
      if (col < 0 || col >= r.in_w) continue;
      acc =
          _mm256_fmadd_ps(Load(r.rows[fy] + static_cast<size_t>(col) * channels + c0, mask, kFull),
                          w[3 * fy + fx], acc);
    }
  }
  StoreClamped(r.c + static_cast<size_t>(x) * channels + c0, acc, lo, hi, mask, kFull);
}

// P pixels from x0 whose three columns are all inside the image: independent FMA chains.
template <int P, bool kFull>
static inline void InteriorPixels(const FDwRow3x3& r, int x0, int c0, __m256i mask, const __m256* w,
                                  __m256 bias, __m256 lo, __m256 hi) {
  const size_t channels = static_cast<size_t>(r.channels);
  __m256 acc[P];
#pragma GCC unroll 4
  for (int i = 0; i < P; ++i) acc[i] = bias;
#pragma GCC unroll 3
  for (int fy = 0; fy < 3; ++fy) {
    if (r.rows[fy] == nullptr) continue;
    const float* in = r.rows[fy] + static_cast<size_t>(x0 - r.pad_w) * channels + c0;
#pragma GCC unroll 3
    for (int fx = 0; fx < 3; ++fx) {
#pragma GCC unroll 4
      for (int i = 0; i < P; ++i) {
        acc[i] = _mm256_fmadd_ps(Load(in + static_cast<size_t>(i + fx) * channels, mask, kFull),
                                 w[3 * fy + fx], acc[i]);
      }
    }
  }
#pragma GCC unroll 4
  for (int i = 0; i < P; ++i) {
    StoreClamped(r.c + static_cast<size_t>(x0 + i) * channels + c0, acc[i], lo, hi, mask, kFull);
  }
}

template <bool kFull>
static inline void RowBlock(const FDwRow3x3& r, int c0, __m256i mask, const __m256* w, __m256 bias,
                            __m256 lo, __m256 hi) {
  const int begin = r.interior_begin;
  const int end = r.interior_end;
  for (int x = 0; x < begin; ++x) EdgePixel<kFull>(r, x, c0, mask, w, bias, lo, hi);
  int x = begin;
  for (; x + 4 <= end; x += 4) InteriorPixels<4, kFull>(r, x, c0, mask, w, bias, lo, hi);
  switch (end - x) {
    case 3:
      InteriorPixels<3, kFull>(r, x, c0, mask, w, bias, lo, hi);
      break;
    case 2:
      InteriorPixels<2, kFull>(r, x, c0, mask, w, bias, lo, hi);
      break;
    case 1:
      InteriorPixels<1, kFull>(r, x, c0, mask, w, bias, lo, hi);
      break;
    default:
      break;
  }
  for (x = end; x < r.out_w; ++x) EdgePixel<kFull>(r, x, c0, mask, w, bias, lo, hi);
}

void RunRow3x3(const FDwRow3x3& r) {
  const __m256 lo = _mm256_set1_ps(r.act_min);
  const __m256 hi = _mm256_set1_ps(r.act_max);
  constexpr size_t kBlockFloats = kBlock * 10;  // bias and nine taps
  for (int c0 = 0, b = 0; c0 < r.channels; c0 += kBlock, ++b) {
    const __m256i mask = TailMask(r.channels - c0);
    const float* wb = r.w + static_cast<size_t>(b) * kBlockFloats;
    const __m256 bias = _mm256_loadu_ps(wb);
    __m256 w[9];
#pragma GCC unroll 9
    for (int tap = 0; tap < 9; ++tap) w[tap] = _mm256_loadu_ps(wb + kBlock * (1 + tap));
    if (r.channels - c0 >= kBlock) {
      RowBlock<true>(r, c0, mask, w, bias, lo, hi);
    } else {
      RowBlock<false>(r, c0, mask, w, bias, lo, hi);
    }
  }
}

}  // namespace

const FDwKernel kFDwAvx2 = {"fdw_avx2_8", kBlock, &Run, &RunRow3x3};

}  // namespace octet::optimized
