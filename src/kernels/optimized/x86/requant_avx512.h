// TFLite's requantization (MultiplyByQuantizedMultiplier, then the output zero point and the
// activation clamp) on 16 int32 lanes, exact for every input, and the byte stores after it. For
// AVX-512 translation units only; everything is static so no copy can leak into another ISA's code.
//
// The 64-bit products of even and odd lanes are rounded separately; the packer lays the
// per-lane 64-bit constants out to match (see QGemmKernel::interleave_halves, QDwOrder).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/qgemm/qgemm.h"

namespace octet::optimized::avx512 {

// Constants of one 16-lane accumulator, loaded once per tile. "lo" holds the even lanes'
// 64-bit constants, "hi" the odd lanes'; `merge` picks the low dword of each 64-bit result
// back into the accumulator's output order.
struct RequantPanel {
  __m512i multiplier;          // per lane
  __m512i multiplier_odd;      // the odd lanes' multipliers, in the even dwords
  __m512i left_shift;          // per lane
  __m512i add_lo, add_hi;      // round_add
  __m512i sub_lo, sub_hi;      // negative_sub
  __m512i shift_lo, shift_hi;  // total_shift
  __m512i merge;
};

// Lanes 2j / 2j + 1 hold columns j / 8 + j (QGemmKernel::interleave_halves): the merged result
// is in column order.
static inline __m512i MergeInterleavedHalves() {
  return _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
}
// Lanes in their own order (the 64-bit constants of even lanes first, then odd ones).
static inline __m512i MergeInLaneOrder() {
  return _mm512_setr_epi32(0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
}

// `column` indexes the int32 arrays (one entry per lane) and `column64` the int64 ones
// (8 even-lane entries, then 8 odd-lane entries).
static inline RequantPanel LoadRequantPanel(const QGemmRequant& rq, int column, int column64,
                                            __m512i merge) {
  RequantPanel p;
  p.multiplier = _mm512_loadu_si512(rq.multiplier + column);
  p.multiplier_odd = _mm512_srli_epi64(p.multiplier, 32);
  p.left_shift = _mm512_max_epi32(_mm512_loadu_si512(rq.shift + column), _mm512_setzero_si512());
  p.add_lo = _mm512_loadu_si512(rq.round_add + column64);
  p.add_hi = _mm512_loadu_si512(rq.round_add + column64 + 8);
  p.sub_lo = _mm512_loadu_si512(rq.negative_sub + column64);
  p.sub_hi = _mm512_loadu_si512(rq.negative_sub + column64 + 8);
  p.shift_lo = _mm512_loadu_si512(rq.total_shift + column64);
  p.shift_hi = _mm512_loadu_si512(rq.total_shift + column64 + 8);
  p.merge = merge;
  return p;
}

// One rounding of the 64-bit product (see QGemmRequant): equal to the reference's
// SaturatingRoundingDoublingHighMul followed by RoundingDivideByPOT.
static inline __m512i RoundProduct(__m512i product, __m512i add, __m512i sub, __m512i shift) {
  const __mmask8 negative =
      _mm512_cmplt_epi64_mask(product, _mm512_set1_epi64(-(int64_t{1} << 30)));
  __m512i p = _mm512_add_epi64(product, add);
  p = _mm512_mask_sub_epi64(p, negative, p, sub);
  return _mm512_srav_epi64(p, shift);
}

// MultiplyByQuantizedMultiplier per lane, merged as the panel says.
template <bool kLeftShift>
static inline __m512i MultiplyByQuantizedMultiplier(__m512i acc, const RequantPanel& p) {
  const __m512i x = kLeftShift ? _mm512_sllv_epi32(acc, p.left_shift) : acc;
  const __m512i lo =
      RoundProduct(_mm512_mul_epi32(x, p.multiplier), p.add_lo, p.sub_lo, p.shift_lo);
  const __m512i hi = RoundProduct(_mm512_mul_epi32(_mm512_srli_epi64(x, 32), p.multiplier_odd),
                                  p.add_hi, p.sub_hi, p.shift_hi);
  return _mm512_permutex2var_epi32(lo, p.merge, hi);
}

// Adds the output zero point and clamps to [act_min, act_max].
static inline __m512i FinishOutput(__m512i scaled, __m512i zero_point, __m512i act_min,
                                   __m512i act_max) {
  return _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(scaled, zero_point), act_min), act_max);
}

// Stores 4 rows of 16 int32 lanes as bytes (rows `stride` apart), all 16 columns. The packs
// saturate to the output type, so the activation clamp is applied to 64 bytes at once after.
template <bool kSigned>
static inline void StoreFourRows(uint8_t* c, size_t stride, __m512i r0, __m512i r1, __m512i r2,
                                 __m512i r3, __m512i byte_min, __m512i byte_max) {
  // Per 128-bit lane i: [r0 cols 4i..4i+3 | r1 ... | r2 ... | r3 ...] after the two packs.
  const __m512i p01 = _mm512_packs_epi32(r0, r1);
  const __m512i p23 = _mm512_packs_epi32(r2, r3);
  __m512i bytes;
  if (kSigned) {
    bytes = _mm512_min_epi8(_mm512_max_epi8(_mm512_packs_epi16(p01, p23), byte_min), byte_max);
  } else {
    bytes = _mm512_min_epu8(_mm512_max_epu8(_mm512_packus_epi16(p01, p23), byte_min), byte_max);
  }
  const __m512i rows = _mm512_permutexvar_epi32(
      _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), bytes);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(c), _mm512_castsi512_si128(rows));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(c + stride), _mm512_extracti32x4_epi32(rows, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 2 * stride), _mm512_extracti32x4_epi32(rows, 2));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(c + 3 * stride), _mm512_extracti32x4_epi32(rows, 3));
}

}  // namespace octet::optimized::avx512
