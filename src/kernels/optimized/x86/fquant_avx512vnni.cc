// The hybrid quantizer on AVX-512: 64 floats per step with masked tails (masked-off lanes
// load 0, which changes neither min(0, x...) nor max(0, x...)). vminps/vmaxps keep the
// accumulator when the element is NaN, as the reference's `x < lo ? x : lo`.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/fquant/fquant.h"

// GCC 12 warns about its own intrinsics' undefined-vector idiom here (-Wuninitialized, the
// sibling of the -Wmaybe-uninitialized CMakeLists.txt turns off for these files).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

namespace octet::optimized {
namespace {

static inline __mmask16 TailMask(size_t rest) {
  return rest >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << rest) - 1);
}

// Horizontal min/max of accumulators that hold no NaN (GCC's _mm512_reduce_min_ps warns).
static inline float HorizontalMin(__m512 v) {
  const __m256 h = _mm256_min_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1));
  __m128 m = _mm_min_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
  m = _mm_min_ps(m, _mm_movehl_ps(m, m));
  return _mm_cvtss_f32(_mm_min_ss(m, _mm_movehdup_ps(m)));
}
static inline float HorizontalMax(__m512 v) {
  const __m256 h = _mm256_max_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1));
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  return _mm_cvtss_f32(_mm_max_ss(m, _mm_movehdup_ps(m)));
}

void Range(const float* x, size_t n, float* lo, float* hi) {
  __m512 mn0 = _mm512_setzero_ps(), mn1 = mn0, mn2 = mn0, mn3 = mn0;
  __m512 mx0 = mn0, mx1 = mn0, mx2 = mn0, mx3 = mn0;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512 a = _mm512_loadu_ps(x + i), b = _mm512_loadu_ps(x + i + 16);
    const __m512 c = _mm512_loadu_ps(x + i + 32), d = _mm512_loadu_ps(x + i + 48);
    mn0 = _mm512_min_ps(a, mn0);
    mx0 = _mm512_max_ps(a, mx0);
    mn1 = _mm512_min_ps(b, mn1);
    mx1 = _mm512_max_ps(b, mx1);
    mn2 = _mm512_min_ps(c, mn2);
    mx2 = _mm512_max_ps(c, mx2);
    mn3 = _mm512_min_ps(d, mn3);
    mx3 = _mm512_max_ps(d, mx3);
  }
  for (; i < n; i += 16) {
    const __m512 a = _mm512_maskz_loadu_ps(TailMask(n - i), x + i);
    mn0 = _mm512_min_ps(a, mn0);
    mx0 = _mm512_max_ps(a, mx0);
  }
  // No accumulator holds a NaN; the sign of a zero result does not matter to the quantizers.
  *lo = HorizontalMin(_mm512_min_ps(_mm512_min_ps(mn0, mn1), _mm512_min_ps(mn2, mn3)));
  *hi = HorizontalMax(_mm512_max_ps(_mm512_max_ps(mx0, mx1), _mm512_max_ps(mx2, mx3)));
}

struct Consts {
  __m512 inv, zero_point, qmin, qmax, half, minus_half;
};

// Sixteen int32 codes: v = zero_point + x * inv (two roundings, as the reference), clamped with NaN
// giving qmin (vmaxps returns its second operand for a NaN), then rounded half away from
// zero: the truncation t and the remainder c - t are exact within [-128, 127], and a
// remainder of at least one half steps t away from zero.
static inline __m512i Codes(__m512 x, const Consts& k) {
  __m512 product = _mm512_mul_ps(x, k.inv);
  __asm__("" : "+v"(product));  // GCC would fuse the multiply and the add (C++: fp-contract=fast)
  const __m512 v = _mm512_add_ps(k.zero_point, product);
  const __m512 c = _mm512_min_ps(_mm512_max_ps(v, k.qmin), k.qmax);
  __m512i t = _mm512_cvttps_epi32(c);
  const __m512 rest = _mm512_sub_ps(c, _mm512_cvtepi32_ps(t));
  const __mmask16 up = _mm512_cmp_ps_mask(rest, k.half, _CMP_GE_OQ);
  const __mmask16 down = _mm512_cmp_ps_mask(rest, k.minus_half, _CMP_LE_OQ);
  t = _mm512_mask_add_epi32(t, up, t, _mm512_set1_epi32(1));
  return _mm512_mask_sub_epi32(t, down, t, _mm512_set1_epi32(1));
}

void Quantize(const float* x, size_t n, float inv, float zero_point, float qmin, float qmax,
              int8_t* q) {
  const Consts k = {_mm512_set1_ps(inv),  _mm512_set1_ps(zero_point), _mm512_set1_ps(qmin),
                    _mm512_set1_ps(qmax), _mm512_set1_ps(0.5f),       _mm512_set1_ps(-0.5f)};
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    for (size_t j = 0; j < 64; j += 16) {
      const __m128i bytes = _mm512_cvtepi32_epi8(Codes(_mm512_loadu_ps(x + i + j), k));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(q + i + j), bytes);
    }
  }
  for (; i < n; i += 16) {
    const __mmask16 mask = TailMask(n - i);
    _mm512_mask_cvtepi32_storeu_epi8(q + i, mask, Codes(_mm512_maskz_loadu_ps(mask, x + i), k));
  }
}

}  // namespace

const FQuantKernel kFQuantAvx512Vnni = {"fquant_avx512", &Range, &Quantize};

}  // namespace octet::optimized
