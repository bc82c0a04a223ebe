// Quantized 8-bit ADD / SUB / MUL on AVX2: 8 elements per step with the two-step exact
// requantization of requant_avx2.h; the last n % 8 elements go through the portable kernel.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/qbinary/qbinary.h"
#include "kernels/optimized/x86/requant_avx2.h"

namespace octet::optimized {
namespace {

avx2::RequantLanes Uniform(int32_t multiplier, int shift) {
  return avx2::MakeRequantLanes(_mm256_set1_epi32(multiplier), _mm256_set1_epi32(shift));
}

template <bool kSigned>
static inline __m256i Load8(const uint8_t* p) {
  const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return kSigned ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes);
}

template <bool kSigned>
static inline __m256i LoadOne(const uint8_t* p) {
  return _mm256_set1_epi32(kSigned ? static_cast<int8_t>(*p) : static_cast<int32_t>(*p));
}

template <bool kSigned, QBinaryOp kOp>
void Kernel(const QBinaryParams& q, const QBinaryCall& c) {
  const avx2::RequantLanes r1 = Uniform(q.input1_multiplier, q.input1_shift);
  const avx2::RequantLanes r2 = Uniform(q.input2_multiplier, q.input2_shift);
  const avx2::RequantLanes ro = Uniform(q.output_multiplier, q.output_shift);
  const __m256i offset1 = _mm256_set1_epi32(q.input1_offset);
  const __m256i offset2 = _mm256_set1_epi32(q.input2_offset);
  const __m256i zero_point = _mm256_set1_epi32(q.output_offset);
  const __m256i act_min = _mm256_set1_epi32(q.act_min);
  const __m256i act_max = _mm256_set1_epi32(q.act_max);
  const __m128i left = _mm_cvtsi32_si128(q.left_shift);
  __m256i fixed_a = _mm256_add_epi32(LoadOne<kSigned>(c.a), offset1);
  __m256i fixed_b = _mm256_add_epi32(LoadOne<kSigned>(c.b), offset2);
  if (kOp != QBinaryOp::kMul) {
    fixed_a = avx2::MultiplyByQuantizedMultiplier(_mm256_sll_epi32(fixed_a, left), r1);
    fixed_b = avx2::MultiplyByQuantizedMultiplier(_mm256_sll_epi32(fixed_b, left), r2);
  }
  const size_t whole = c.n & ~size_t{7};
  for (size_t i = 0; i < whole; i += 8) {
    __m256i x = c.a_scalar ? fixed_a : _mm256_add_epi32(Load8<kSigned>(c.a + i), offset1);
    __m256i y = c.b_scalar ? fixed_b : _mm256_add_epi32(Load8<kSigned>(c.b + i), offset2);
    __m256i raw;
    if (kOp == QBinaryOp::kMul) {
      raw = _mm256_mullo_epi32(x, y);
    } else {
      if (!c.a_scalar) x = avx2::MultiplyByQuantizedMultiplier(_mm256_sll_epi32(x, left), r1);
      if (!c.b_scalar) y = avx2::MultiplyByQuantizedMultiplier(_mm256_sll_epi32(y, left), r2);
      raw = kOp == QBinaryOp::kSub ? _mm256_sub_epi32(x, y) : _mm256_add_epi32(x, y);
    }
    const __m256i out = avx2::FinishOutput(avx2::MultiplyByQuantizedMultiplier(raw, ro), zero_point,
                                           act_min, act_max);
    avx2::StoreLowBytes(c.out + i, out, 8);
  }
  if (whole < c.n) {
    QBinaryCall tail = c;
    tail.a = c.a_scalar ? c.a : c.a + whole;
    tail.b = c.b_scalar ? c.b : c.b + whole;
    tail.out = c.out + whole;
    tail.n = c.n - whole;
    kQBinaryScalar.run(q, tail);
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
  if (q.is_signed) {
    RunOp<true>(q, c);
  } else {
    RunOp<false>(q, c);
  }
}

}  // namespace

const QBinaryKernel kQBinaryAvx2 = {"qbinary_avx2", &Run};

}  // namespace octet::optimized
