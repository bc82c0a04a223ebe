// QUANTIZE / DEQUANTIZE on AVX2, 8 values per step; the last n % 8 through the portable kernel.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/qconvert/qconvert.h"

namespace octet::optimized {
namespace {

// roundf: truncate, then step away from zero when the dropped fraction is at least one half.
static inline __m256 RoundHalfAway(__m256 v) {
  const __m256 t = _mm256_round_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m256 sign = _mm256_and_ps(v, _mm256_set1_ps(-0.f));
  const __m256 frac = _mm256_andnot_ps(_mm256_set1_ps(-0.f), _mm256_sub_ps(v, t));
  const __m256 up = _mm256_cmp_ps(frac, _mm256_set1_ps(0.5f), _CMP_GE_OQ);
  return _mm256_add_ps(t, _mm256_and_ps(up, _mm256_or_ps(_mm256_set1_ps(1.f), sign)));
}

void Quantize(const float* in, size_t n, float scale, int32_t zero_point, bool is_signed,
              uint8_t* out) {
  const int32_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  const __m256 lo_f = _mm256_set1_ps(static_cast<float>(lo - zero_point));
  const __m256 hi_f = _mm256_set1_ps(static_cast<float>(hi - zero_point));
  const __m256 scale_v = _mm256_set1_ps(scale);
  const __m256i zp = _mm256_set1_epi32(zero_point);
  const __m256i lowest = _mm256_set1_epi32(lo);
  const size_t whole = n & ~size_t{7};
  for (size_t i = 0; i < whole; i += 8) {
    const __m256 r = RoundHalfAway(_mm256_div_ps(_mm256_loadu_ps(in + i), scale_v));
    const __m256 nan = _mm256_cmp_ps(r, r, _CMP_UNORD_Q);
    const __m256 clamped = _mm256_min_ps(_mm256_max_ps(r, lo_f), hi_f);
    __m256i q = _mm256_add_epi32(_mm256_cvttps_epi32(clamped), zp);
    q = _mm256_blendv_epi8(q, lowest, _mm256_castps_si256(nan));
    // Pack the 8 in-range int32 values to bytes (low byte of each lane).
    const __m256i bytes = _mm256_shuffle_epi8(
        q, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8,
                            12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    const __m256i packed =
        _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), _mm256_castsi256_si128(packed));
  }
  if (whole < n)
    kQConvertScalar.quantize(in + whole, n - whole, scale, zero_point, is_signed, out + whole);
}

void Dequantize(const uint8_t* in, size_t n, float scale, int32_t zero_point, bool is_signed,
                float* out) {
  const __m256 scale_v = _mm256_set1_ps(scale);
  const __m256i zp = _mm256_set1_epi32(zero_point);
  const size_t whole = n & ~size_t{7};
  for (size_t i = 0; i < whole; i += 8) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + i));
    const __m256i q = is_signed ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes);
    _mm256_storeu_ps(out + i, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(q, zp)), scale_v));
  }
  if (whole < n)
    kQConvertScalar.dequantize(in + whole, n - whole, scale, zero_point, is_signed, out + whole);
}

}  // namespace

const QConvertKernel kQConvertAvx2 = {"qconvert_avx2", &Quantize, &Dequantize};

}  // namespace octet::optimized
