// Quantized 8-bit ADD / SUB / MUL on AVX-512: 16 elements per step, widened to int32, each
// MultiplyByQuantizedMultiplier done as one rounding of a 64-bit product (requant_avx512.h)
// with per-tensor constants; the tail goes through masked loads and stores.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/qbinary/qbinary.h"
#include "kernels/optimized/x86/requant_avx512.h"

namespace octet::optimized {
namespace {

// One per-tensor multiplier as a RequantPanel (every lane the same).
avx512::RequantPanel Uniform(int32_t multiplier, int shift) {
  const int right = shift < 0 ? -shift : 0;
  avx512::RequantPanel p;
  p.multiplier = _mm512_set1_epi32(multiplier);
  p.multiplier_odd = p.multiplier;
  p.left_shift = _mm512_set1_epi32(shift > 0 ? shift : 0);
  p.add_lo = p.add_hi =
      _mm512_set1_epi64((int64_t{1} << 30) + (right > 0 ? int64_t{1} << (right + 30) : 0));
  p.sub_lo = p.sub_hi = _mm512_set1_epi64(right > 0 ? int64_t{1} << 31 : 0);
  p.shift_lo = p.shift_hi = _mm512_set1_epi64(31 + right);
  p.merge = avx512::MergeInLaneOrder();
  return p;
}

// Whole vectors use plain loads and stores, the tail masked ones (masked forms cost several
// times more on some cores: Zen 4 measured).
template <bool kSigned>
static inline __m512i Load16(const uint8_t* p, __mmask16 mask) {
  const __m128i bytes = mask == 0xFFFF ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(p))
                                       : _mm_maskz_loadu_epi8(mask, p);
  return kSigned ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
}

template <bool kSigned, QBinaryOp kOp>
void Kernel(const QBinaryParams& q, const QBinaryCall& c) {
  const avx512::RequantPanel r1 = Uniform(q.input1_multiplier, q.input1_shift);
  const avx512::RequantPanel r2 = Uniform(q.input2_multiplier, q.input2_shift);
  const avx512::RequantPanel ro = Uniform(q.output_multiplier, q.output_shift);
  const bool out_left = q.output_shift > 0;
  const __m512i offset1 = _mm512_set1_epi32(q.input1_offset);
  const __m512i offset2 = _mm512_set1_epi32(q.input2_offset);
  const __m512i zero_point = _mm512_set1_epi32(q.output_offset);
  const __m512i act_min = _mm512_set1_epi32(q.act_min);
  const __m512i act_max = _mm512_set1_epi32(q.act_max);
  const __m128i left = _mm_cvtsi32_si128(q.left_shift);
  // A scalar operand is loaded (and for ADD/SUB rescaled) once.
  __m512i fixed_a = _mm512_add_epi32(Load16<kSigned>(c.a, 1), offset1);
  __m512i fixed_b = _mm512_add_epi32(Load16<kSigned>(c.b, 1), offset2);
  fixed_a = _mm512_permutexvar_epi32(_mm512_setzero_si512(), fixed_a);
  fixed_b = _mm512_permutexvar_epi32(_mm512_setzero_si512(), fixed_b);
  if (kOp != QBinaryOp::kMul) {
    fixed_a = avx512::MultiplyByQuantizedMultiplier<false>(_mm512_sll_epi32(fixed_a, left), r1);
    fixed_b = avx512::MultiplyByQuantizedMultiplier<false>(_mm512_sll_epi32(fixed_b, left), r2);
  }
  for (size_t i = 0; i < c.n; i += 16) {
    const size_t rest = c.n - i;
    const __mmask16 mask = rest >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << rest) - 1);
    __m512i x = c.a_scalar ? fixed_a : _mm512_add_epi32(Load16<kSigned>(c.a + i, mask), offset1);
    __m512i y = c.b_scalar ? fixed_b : _mm512_add_epi32(Load16<kSigned>(c.b + i, mask), offset2);
    __m512i raw;
    if (kOp == QBinaryOp::kMul) {
      raw = _mm512_mullo_epi32(x, y);
    } else {
      if (!c.a_scalar) {
        x = avx512::MultiplyByQuantizedMultiplier<false>(_mm512_sll_epi32(x, left), r1);
      }
      if (!c.b_scalar) {
        y = avx512::MultiplyByQuantizedMultiplier<false>(_mm512_sll_epi32(y, left), r2);
      }
      raw = kOp == QBinaryOp::kSub ? _mm512_sub_epi32(x, y) : _mm512_add_epi32(x, y);
    }
    const __m512i scaled = out_left ? avx512::MultiplyByQuantizedMultiplier<true>(raw, ro)
                                    : avx512::MultiplyByQuantizedMultiplier<false>(raw, ro);
    const __m512i out = avx512::FinishOutput(scaled, zero_point, act_min, act_max);
    if (mask == 0xFFFF) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(c.out + i), _mm512_cvtepi32_epi8(out));
    } else {
      _mm512_mask_cvtepi32_storeu_epi8(c.out + i, mask, out);
    }
  }
}

template <bool kSigned>
void RunOp(const QBinaryParams& q, const QBinaryCall& c) {
  switch (q.op) {
    case QBinaryOp::kAdd:
      return Kernel<kSigned, QBinaryOp::kAdd>(q, c);
    case QBinaryOp::kSub:
      return Kernel<kSigned, QBinaryOp::kSub>(q, c);
    case QBinaryOp::kMul:
      return Kernel<kSigned, QBinaryOp::kMul>(q, c);
  }
}

void Run(const QBinaryParams& q, const QBinaryCall& c) {
  // ADD/SUB with a linear form: AVX2's two 32-bit multiplies per element beat three 64-bit
  // requantizations even at twice the width, and every AVX-512 CPU runs AVX2.
  if (q.op != QBinaryOp::kMul && q.linear.usable) {
    kQBinaryAvx2.run(q, c);
    return;
  }
  if (q.is_signed) {
    RunOp<true>(q, c);
  } else {
    RunOp<false>(q, c);
  }
}

}  // namespace

const QBinaryKernel kQBinaryAvx512Vnni = {"qbinary_avx512", &Run};

}  // namespace octet::optimized
