// QUANTIZE / DEQUANTIZE on AVX-512, 16 values per step with masked tails.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/qconvert/qconvert.h"

namespace octet::optimized {
namespace {

// roundf: truncate, then step away from zero when the dropped fraction (exact in float) is at
// least one half.
static inline __m512 RoundHalfAway(__m512 v) {
  const __m512 t = _mm512_roundscale_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m512 frac = _mm512_abs_ps(_mm512_sub_ps(v, t));
  const __mmask16 up = _mm512_cmp_ps_mask(frac, _mm512_set1_ps(0.5f), _CMP_GE_OQ);
  const __m512 one =
      _mm512_or_ps(_mm512_set1_ps(1.f), _mm512_and_ps(v, _mm512_set1_ps(-0.f)));  // ±1 like v
  return _mm512_mask_add_ps(t, up, t, one);
}

void Quantize(const float* in, size_t n, float scale, int32_t zero_point, bool is_signed,
              uint8_t* out) {
  const int32_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  // Clamping before adding the zero point is the same as after: both bounds are integers.
  const __m512 lo_f = _mm512_set1_ps(static_cast<float>(lo - zero_point));
  const __m512 hi_f = _mm512_set1_ps(static_cast<float>(hi - zero_point));
  const __m512 scale_v = _mm512_set1_ps(scale);
  const __m512i zp = _mm512_set1_epi32(zero_point);
  const __m512i lowest = _mm512_set1_epi32(lo);
  for (size_t i = 0; i < n; i += 16) {
    const size_t rest = n - i;
    const __mmask16 mask = rest >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << rest) - 1);
    const __m512 v = _mm512_div_ps(_mm512_maskz_loadu_ps(mask, in + i), scale_v);
    const __m512 r = RoundHalfAway(v);
    const __mmask16 nan = _mm512_cmp_ps_mask(r, r, _CMP_UNORD_Q);
    const __m512 clamped = _mm512_min_ps(_mm512_max_ps(r, lo_f), hi_f);
    __m512i q = _mm512_add_epi32(_mm512_cvttps_epi32(clamped), zp);
    q = _mm512_mask_mov_epi32(q, nan, lowest);
    _mm512_mask_cvtepi32_storeu_epi8(out + i, mask, q);
  }
}

void Dequantize(const uint8_t* in, size_t n, float scale, int32_t zero_point, bool is_signed,
                float* out) {
  const __m512 scale_v = _mm512_set1_ps(scale);
  const __m512i zp = _mm512_set1_epi32(zero_point);
  for (size_t i = 0; i < n; i += 16) {
    const size_t rest = n - i;
    const __mmask16 mask = rest >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << rest) - 1);
    const __m128i bytes = _mm_maskz_loadu_epi8(mask, in + i);
    const __m512i q = is_signed ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
    const __m512 centered = _mm512_cvtepi32_ps(_mm512_sub_epi32(q, zp));
    _mm512_mask_storeu_ps(out + i, mask, _mm512_mul_ps(centered, scale_v));
  }
}

}  // namespace

const QConvertKernel kQConvertAvx512Vnni = {"qconvert_avx512", &Quantize, &Dequantize};

}  // namespace octet::optimized
