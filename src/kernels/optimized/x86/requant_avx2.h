// TFLite's requantization on 8 int32 lanes with AVX2, exact for every input. For AVX2
// translation units only; everything is static.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace octet::optimized::avx2 {

// A block of 8 lanes' requantization constants, everything that does not depend on the
// accumulator computed once (kernels keep these per channel block, not per output).
struct RequantLanes {
  __m256i multiplier;
  __m256i multiplier_odd;  // the odd lanes' multipliers moved to the low halves of 64 bits
  __m256i left_shift;
  __m256i right_shift;
  __m256i mask;       // (1 << right_shift) - 1: the bits the rounding divide drops
  __m256i half_mask;  // mask >> 1: the rounding threshold for non-negative values
};

static inline RequantLanes MakeRequantLanes(__m256i multiplier, __m256i shift) {
  RequantLanes r;
  const __m256i zero = _mm256_setzero_si256();
  const __m256i one = _mm256_set1_epi32(1);
  r.multiplier = multiplier;
  r.multiplier_odd = _mm256_srli_epi64(multiplier, 32);
  r.left_shift = _mm256_max_epi32(shift, zero);
  r.right_shift = _mm256_max_epi32(_mm256_sub_epi32(zero, shift), zero);
  r.mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, r.right_shift), one);
  r.half_mask = _mm256_srli_epi32(r.mask, 1);
  return r;
}

static inline RequantLanes LoadRequantLanes(const int32_t* multiplier, const int32_t* shift) {
  return MakeRequantLanes(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(multiplier)),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(shift)));
}

// See requant_avx512.h: SRDHM as (x * multiplier + 2^30) >> 31 on 64-bit products, then
// RoundingDivideByPOT (half away from zero).
static inline __m256i MultiplyByQuantizedMultiplier(__m256i acc, const RequantLanes& r) {
  const __m256i x = _mm256_sllv_epi32(acc, r.left_shift);
  const __m256i half = _mm256_set1_epi64x(int64_t{1} << 30);
  __m256i even = _mm256_mul_epi32(x, r.multiplier);
  __m256i odd = _mm256_mul_epi32(_mm256_srli_epi64(x, 32), r.multiplier_odd);
  even = _mm256_srli_epi64(_mm256_add_epi64(even, half), 31);
  odd = _mm256_slli_epi64(_mm256_add_epi64(odd, half), 1);
  const __m256i v = _mm256_blend_epi32(even, odd, 0xAA);
  const __m256i remainder = _mm256_and_si256(v, r.mask);
  const __m256i threshold = _mm256_add_epi32(r.half_mask, _mm256_srli_epi32(v, 31));
  const __m256i shifted = _mm256_srav_epi32(v, r.right_shift);
  // cmpgt gives -1 where the remainder rounds up: subtracting it adds 1.
  return _mm256_sub_epi32(shifted, _mm256_cmpgt_epi32(remainder, threshold));
}

static inline __m256i FinishOutput(__m256i scaled, __m256i zero_point, __m256i act_min,
                                   __m256i act_max) {
  return _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(scaled, zero_point), act_min), act_max);
}

// The low byte of each of the 8 lanes (values already clamped to the output type), stored to
// `count` <= 8 bytes at p.
static inline void StoreLowBytes(uint8_t* p, __m256i v, int count) {
  const __m256i pick =
      _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1,
                       -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i bytes = _mm256_shuffle_epi8(v, pick);
  const __m256i packed =
      _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
  const uint64_t low = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm256_castsi256_si128(packed)));
  if (count >= 8) {
    __builtin_memcpy(p, &low, 8);
  } else {
    for (int i = 0; i < count; ++i) p[i] = static_cast<uint8_t>(low >> (8 * i));
  }
}

// The first `count` (< 16) bytes of v stored at p, in 8-, 4-, 2- and 1-byte moves: a store
// through a stack buffer and a variable-length memcpy stalls on store forwarding (it showed
// as a quarter of an 8-channel depthwise layer).
static inline void StorePartialBytes(uint8_t* p, __m128i v, int count) {
  if (count & 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p), v);
    v = _mm_srli_si128(v, 8);
    p += 8;
  }
  uint64_t rest = static_cast<uint64_t>(_mm_cvtsi128_si64(v));
  if (count & 4) {
    const uint32_t word = static_cast<uint32_t>(rest);
    __builtin_memcpy(p, &word, 4);
    rest >>= 32;
    p += 4;
  }
  if (count & 2) {
    const uint16_t half = static_cast<uint16_t>(rest);
    __builtin_memcpy(p, &half, 2);
    rest >>= 16;
    p += 2;
  }
  if (count & 1) *p = static_cast<uint8_t>(rest);
}

}  // namespace octet::optimized::avx2
