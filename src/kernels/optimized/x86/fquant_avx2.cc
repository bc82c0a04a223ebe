// The hybrid quantizer on AVX2: the range scan 32 floats per step (vminps/vmaxps keep the
// accumulator when the element is NaN, as the reference's `x < lo ? x : lo`), the quantizer
// 32 per step, 8 per step after that, the last n % 8 through a zero-padded block.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/optimized/fquant/fquant.h"

namespace octet::optimized {
namespace {

// Horizontal min/max of accumulators that hold no NaN.
static inline float HorizontalMin(__m256 v) {
  __m128 m = _mm_min_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_min_ps(m, _mm_movehl_ps(m, m));
  m = _mm_min_ss(m, _mm_movehdup_ps(m));
  return _mm_cvtss_f32(m);
}
static inline float HorizontalMax(__m256 v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  m = _mm_max_ss(m, _mm_movehdup_ps(m));
  return _mm_cvtss_f32(m);
}

void Range(const float* x, size_t n, float* lo, float* hi) {
  __m256 mn0 = _mm256_setzero_ps(), mn1 = mn0, mn2 = mn0, mn3 = mn0;
  __m256 mx0 = mn0, mx1 = mn0, mx2 = mn0, mx3 = mn0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256 a = _mm256_loadu_ps(x + i), b = _mm256_loadu_ps(x + i + 8);
    const __m256 c = _mm256_loadu_ps(x + i + 16), d = _mm256_loadu_ps(x + i + 24);
    // min(element, accumulator): a NaN element yields the accumulator (the second operand).
    mn0 = _mm256_min_ps(a, mn0);
    mx0 = _mm256_max_ps(a, mx0);
    mn1 = _mm256_min_ps(b, mn1);
    mx1 = _mm256_max_ps(b, mx1);
    mn2 = _mm256_min_ps(c, mn2);
    mx2 = _mm256_max_ps(c, mx2);
    mn3 = _mm256_min_ps(d, mn3);
    mx3 = _mm256_max_ps(d, mx3);
  }
  for (; i + 8 <= n; i += 8) {
    const __m256 a = _mm256_loadu_ps(x + i);
    mn0 = _mm256_min_ps(a, mn0);
    mx0 = _mm256_max_ps(a, mx0);
  }
  mn0 = _mm256_min_ps(_mm256_min_ps(mn0, mn1), _mm256_min_ps(mn2, mn3));
  mx0 = _mm256_max_ps(_mm256_max_ps(mx0, mx1), _mm256_max_ps(mx2, mx3));
  float l = HorizontalMin(mn0), h = HorizontalMax(mx0);
  for (; i < n; ++i) {
    l = x[i] < l ? x[i] : l;
    h = x[i] > h ? x[i] : h;
  }
  *lo = l;
  *hi = h;
}

struct Consts {
  __m256 inv, zero_point, qmin, qmax, half, minus_half;
};

// Eight int32 codes: v = zero_point + x * inv (two roundings, as the reference), clamped with NaN
// giving qmin (vmaxps returns its second operand for a NaN), then rounded half away from
// zero: the truncation t and the remainder c - t are exact within [-128, 127], and a
// remainder of at least one half steps t away from zero (a true compare is -1).
static inline __m256i Codes(__m256 x, const Consts& k) {
  __m256 product = _mm256_mul_ps(x, k.inv);
  __asm__("" : "+x"(product));  // GCC would fuse the multiply and the add (C++: fp-contract=fast)
  const __m256 v = _mm256_add_ps(k.zero_point, product);
  const __m256 c = _mm256_min_ps(_mm256_max_ps(v, k.qmin), k.qmax);
  __m256i t = _mm256_cvttps_epi32(c);
  const __m256 rest = _mm256_sub_ps(c, _mm256_cvtepi32_ps(t));
  t = _mm256_sub_epi32(t, _mm256_castps_si256(_mm256_cmp_ps(rest, k.half, _CMP_GE_OQ)));
  t = _mm256_add_epi32(t, _mm256_castps_si256(_mm256_cmp_ps(rest, k.minus_half, _CMP_LE_OQ)));
  return t;
}

// The eight codes of `t` (all in [-128, 127]) as bytes, in order.
static inline __m128i EightBytes(__m256i t) {
  const __m256i words = _mm256_packs_epi32(t, t);          // [t0-3 t0-3 | t4-7 t4-7]
  const __m256i bytes = _mm256_packs_epi16(words, words);  // dword 0: t0-3, dword 4: t4-7
  return _mm_unpacklo_epi32(_mm256_castsi256_si128(bytes), _mm256_extracti128_si256(bytes, 1));
}

void Quantize(const float* x, size_t n, float inv, float zero_point, float qmin, float qmax,
              int8_t* q) {
  const Consts k = {_mm256_set1_ps(inv),  _mm256_set1_ps(zero_point), _mm256_set1_ps(qmin),
                    _mm256_set1_ps(qmax), _mm256_set1_ps(0.5f),       _mm256_set1_ps(-0.5f)};
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i a = Codes(_mm256_loadu_ps(x + i), k);
    const __m256i b = Codes(_mm256_loadu_ps(x + i + 8), k);
    const __m256i c = Codes(_mm256_loadu_ps(x + i + 16), k);
    const __m256i d = Codes(_mm256_loadu_ps(x + i + 24), k);
    // Per 128-bit lane: a b c d (4 bytes each) of elements 0-3, then of 4-7.
    const __m256i bytes = _mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d));
    const __m256i ordered =
        _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + i), ordered);
  }
  for (; i + 8 <= n; i += 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(q + i),
                     EightBytes(Codes(_mm256_loadu_ps(x + i), k)));
  }
  if (i < n) {
    float block[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
    int8_t codes[8];
    std::memcpy(block, x + i, (n - i) * sizeof(float));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(codes),
                     EightBytes(Codes(_mm256_loadu_ps(block), k)));
    std::memcpy(q + i, codes, n - i);
  }
}

}  // namespace

const FQuantKernel kFQuantAvx2 = {"fquant_avx2", &Range, &Quantize};

}  // namespace octet::optimized
