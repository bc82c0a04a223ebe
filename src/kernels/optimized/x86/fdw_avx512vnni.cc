// float32 depthwise micro-kernel for AVX-512 (the avx512vnni path; AVX-512F only): 16
// channels per step, several output pixels at a time so their FMA chains overlap; the
// channel tail uses masked loads and stores. With a compile-time tap count (3x3, the common
// case) the block's weights stay in registers across the whole run of pixels.
#include <immintrin.h>

#include <cstddef>
#include <type_traits>

#include "kernels/optimized/fdw/fdw.h"

namespace octet::optimized {
namespace {

// Where pixel p's channel 0 goes (a static copy per translation unit: this file's ISA).
static inline float* PixelOutput(const FDwTile& t, int p) {
  return t.c_pixels != nullptr ? t.c_pixels[p] : t.c + static_cast<size_t>(p) * t.c_pixel_stride;
}

constexpr int kBlock = 16;

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

// Bound first: min/max return their second operand when one is NaN, so a NaN sum stays NaN
// as in the reference. (maskz forms: GCC 12's plain ones warn about their source.)
static inline __m512 Clamp(__m512 v, __m512 lo, __m512 hi) {
  return _mm512_maskz_min_ps(0xFFFF, hi, _mm512_maskz_max_ps(0xFFFF, lo, v));
}

// Whole blocks use plain loads and stores, the channel tail masked ones (masked forms cost
// several times more on some cores: Zen 4 measured).
template <bool kFull>
static inline __m512 Load(__mmask16 mask, const float* p) {
  return kFull ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(mask, p);
}
template <bool kFull>
static inline void Store(float* p, __mmask16 mask, __m512 v) {
  if (kFull) {
    _mm512_storeu_ps(p, v);
  } else {
    _mm512_mask_storeu_ps(p, mask, v);
  }
}

// P pixels from `pixel`, KS taps known at compile time (0: t.ks, weights from memory).
template <int P, int KS, bool kOffsets, bool kFull>
static inline void Pixels(const FDwTile& t, const Rows<kOffsets>& rows, int pixel, int c0,
                          __mmask16 mask, const float* wb, const __m512* w, __m512 bias, __m512 lo,
                          __m512 hi) {
  const int ks = KS > 0 ? KS : t.ks;
  __m512 acc[P];
#pragma GCC unroll 8
  for (int i = 0; i < P; ++i) acc[i] = bias;
#pragma GCC unroll 9
  for (int tap = 0; tap < ks; ++tap) {
    const __m512 wv = KS > 0 ? w[tap] : _mm512_loadu_ps(wb + kBlock * (1 + tap));
#pragma GCC unroll 8
    for (int i = 0; i < P; ++i) {
      acc[i] = _mm512_fmadd_ps(Load<kFull>(mask, rows(pixel + i, tap)), wv, acc[i]);
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < P; ++i) {
    Store<kFull>(PixelOutput(t, pixel + i) + c0, mask, Clamp(acc[i], lo, hi));
  }
}

template <int KS, bool kOffsets>
void RunTaps(const FDwTile& t) {
  const __m512 lo = _mm512_set1_ps(t.act_min);
  const __m512 hi = _mm512_set1_ps(t.act_max);
  const size_t block_floats = static_cast<size_t>(kBlock) * (1 + static_cast<size_t>(t.ks));
  for (int c0 = 0, b = 0; c0 < t.channels; c0 += kBlock, ++b) {
    const int rest = t.channels - c0;
    const __mmask16 mask =
        rest >= kBlock ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rest) - 1);
    const float* wb = t.w + static_cast<size_t>(b) * block_floats;
    const __m512 bias = _mm512_loadu_ps(wb);
    __m512 w[KS > 0 ? KS : 1];
    if (KS > 0) {
#pragma GCC unroll 9
      for (int tap = 0; tap < KS; ++tap) w[tap] = _mm512_loadu_ps(wb + kBlock * (1 + tap));
    }
    const Rows<kOffsets> rows(t, c0);
    const auto pixels = [&](auto full) {
      constexpr bool kFull = decltype(full)::value;
      int p = 0;
      for (; p + 8 <= t.pixels; p += 8) {
        Pixels<8, KS, kOffsets, kFull>(t, rows, p, c0, mask, wb, w, bias, lo, hi);
      }
      for (; p + 2 <= t.pixels; p += 2) {
        Pixels<2, KS, kOffsets, kFull>(t, rows, p, c0, mask, wb, w, bias, lo, hi);
      }
      for (; p < t.pixels; ++p) {
        Pixels<1, KS, kOffsets, kFull>(t, rows, p, c0, mask, wb, w, bias, lo, hi);
      }
    };
    if (rest >= kBlock) {
      pixels(std::true_type{});
    } else {
      pixels(std::false_type{});
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
static inline void EdgePixel(const FDwRow3x3& r, int x, int c0, __mmask16 mask, const __m512* w,
                             __m512 bias, __m512 lo, __m512 hi) {
  const size_t channels = static_cast<size_t>(r.channels);
  __m512 acc = bias;
  for (int fy = 0; fy < 3; ++fy) {
    if (r.rows[fy] == nullptr) continue;
    for (int fx = 0; fx < 3; ++fx) {
      const int col = x - r.pad_w + fx;
      if (col < 0 || col >= r.in_w) continue;
      acc =
          _mm512_fmadd_ps(Load<kFull>(mask, r.rows[fy] + static_cast<size_t>(col) * channels + c0),
                          w[3 * fy + fx], acc);
    }
  }
  Store<kFull>(r.c + static_cast<size_t>(x) * channels + c0, mask, Clamp(acc, lo, hi));
}

// P pixels from x0 whose three columns are all inside the image: independent FMA chains.
template <int P, bool kFull>
static inline void InteriorPixels(const FDwRow3x3& r, int x0, int c0, __mmask16 mask,
                                  const __m512* w, __m512 bias, __m512 lo, __m512 hi) {
  const size_t channels = static_cast<size_t>(r.channels);
  __m512 acc[P];
#pragma GCC unroll 8
  for (int i = 0; i < P; ++i) acc[i] = bias;
#pragma GCC unroll 3
  for (int fy = 0; fy < 3; ++fy) {
    if (r.rows[fy] == nullptr) continue;
    const float* in = r.rows[fy] + static_cast<size_t>(x0 - r.pad_w) * channels + c0;
#pragma GCC unroll 3
    for (int fx = 0; fx < 3; ++fx) {
#pragma GCC unroll 8
      for (int i = 0; i < P; ++i) {
        acc[i] = _mm512_fmadd_ps(Load<kFull>(mask, in + static_cast<size_t>(i + fx) * channels),
                                 w[3 * fy + fx], acc[i]);
      }
    }
  }
#pragma GCC unroll 8
  for (int i = 0; i < P; ++i) {
    Store<kFull>(r.c + static_cast<size_t>(x0 + i) * channels + c0, mask, Clamp(acc[i], lo, hi));
  }
}

// One block of channels across the row: edge pixels alone, interior ones four at a time (the
// last 1-3 together: a lone pixel's taps are one FMA chain waiting on latency).
template <bool kFull>
static inline void RowBlock(const FDwRow3x3& r, int c0, __mmask16 mask, const __m512* w,
                            __m512 bias, __m512 lo, __m512 hi) {
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
  const __m512 lo = _mm512_set1_ps(r.act_min);
  const __m512 hi = _mm512_set1_ps(r.act_max);
  constexpr size_t kBlockFloats = kBlock * 10;  // bias and nine taps
  for (int c0 = 0, b = 0; c0 < r.channels; c0 += kBlock, ++b) {
    const int rest = r.channels - c0;
    const __mmask16 mask =
        rest >= kBlock ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rest) - 1);
    const float* wb = r.w + static_cast<size_t>(b) * kBlockFloats;
    const __m512 bias = _mm512_loadu_ps(wb);
    __m512 w[9];
#pragma GCC unroll 9
    for (int tap = 0; tap < 9; ++tap) w[tap] = _mm512_loadu_ps(wb + kBlock * (1 + tap));
    if (rest >= kBlock) {
      RowBlock<true>(r, c0, mask, w, bias, lo, hi);
    } else {
      RowBlock<false>(r, c0, mask, w, bias, lo, hi);
    }
  }
}

}  // namespace

const FDwKernel kFDwAvx512 = {"fdw_avx512_16", kBlock, &Run, &RunRow3x3};

}  // namespace octet::optimized
