// Quantized 8-bit ADD / SUB / MUL on AVX2: 8 elements per step with the two-step exact
// requantization of requant_avx2.h; the last n % 8 elements go through the portable kernel.
// ADD/SUB with a usable linear form (qbinary.h) run 32 elements per step as two 32-bit
// multiplies and a shift; a block with any lane near a rounding boundary is redone exactly.
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

// ADD/SUB through the linear form: whole blocks of 32, each checked lane by lane; blocks
// with a lane inside the window, and the last n % 32 elements, take the exact kernel.
template <bool kSigned, QBinaryOp kOp>
void LinearKernel(const QBinaryParams& q, const QBinaryCall& c) {
  const QBinaryLinear& l = q.linear;
  const __m256i m1 = _mm256_set1_epi32(l.m1);
  const __m256i m2 = _mm256_set1_epi32(l.m2);
  const __m256i window = _mm256_set1_epi32(l.window);
  const __m256i limit = _mm256_set1_epi32(2 * l.window + 1);
  const __m256i fraction = _mm256_set1_epi32((1 << l.frac_bits) - 1);
  const __m128i shift = _mm_cvtsi32_si128(l.frac_bits);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const __m256i act_min = _mm256_set1_epi8(static_cast<char>(q.act_min));
  const __m256i act_max = _mm256_set1_epi8(static_cast<char>(q.act_max));
  // A scalar operand's product is a constant: fold it into the bias (A stays in range, as
  // the plan bounded it over every input value).
  __m256i bias = _mm256_set1_epi32(l.bias);
  if (c.a_scalar) bias = _mm256_add_epi32(bias, _mm256_mullo_epi32(LoadOne<kSigned>(c.a), m1));
  if (c.b_scalar) bias = _mm256_add_epi32(bias, _mm256_mullo_epi32(LoadOne<kSigned>(c.b), m2));
  const size_t whole = c.n & ~size_t{31};
  for (size_t i = 0; i < whole; i += 32) {
    uint32_t near = 0;  // bit j: lane j is inside the window
    __m256i q8[4];
    for (int k = 0; k < 4; ++k) {
      __m256i acc = bias;
      if (!c.a_scalar) {
        acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(Load8<kSigned>(c.a + i + 8 * k), m1));
      }
      if (!c.b_scalar) {
        acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(Load8<kSigned>(c.b + i + 8 * k), m2));
      }
      const __m256i frac = _mm256_and_si256(_mm256_add_epi32(acc, window), fraction);
      const __m256i inside = _mm256_cmpgt_epi32(limit, frac);
      near |= static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(inside))) << (8 * k);
      q8[k] = _mm256_sra_epi32(acc, shift);
    }
    QBinaryCall block = c;
    block.a = c.a_scalar ? c.a : c.a + i;
    block.b = c.b_scalar ? c.b : c.b + i;
    block.out = c.out + i;
    // Many lanes near a boundary (scales with exact ties): the whole block exactly, in vectors.
    if (__builtin_popcount(near) > 4) {
      block.n = 32;
      Kernel<kSigned, kOp>(q, block);
      continue;
    }
    // Saturating packs keep the order of out-of-range values, so clamping after them is the
    // same as clamping the int32s.
    const __m256i halves01 = _mm256_packs_epi32(q8[0], q8[1]);
    const __m256i halves23 = _mm256_packs_epi32(q8[2], q8[3]);
    __m256i bytes =
        kSigned ? _mm256_packs_epi16(halves01, halves23) : _mm256_packus_epi16(halves01, halves23);
    bytes = _mm256_permutevar8x32_epi32(bytes, order);
    bytes = kSigned ? _mm256_min_epi8(_mm256_max_epi8(bytes, act_min), act_max)
                    : _mm256_min_epu8(_mm256_max_epu8(bytes, act_min), act_max);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(c.out + i), bytes);
    // A few: those lanes again with the portable exact arithmetic.
    for (; near != 0; near &= near - 1) {
      const int lane = __builtin_ctz(near);
      QBinaryCall one = block;
      one.a = c.a_scalar ? c.a : block.a + lane;
      one.b = c.b_scalar ? c.b : block.b + lane;
      one.out = block.out + lane;
      one.n = 1;
      kQBinaryScalar.run(q, one);
    }
  }
  if (whole < c.n) {
    QBinaryCall tail = c;
    tail.a = c.a_scalar ? c.a : c.a + whole;
    tail.b = c.b_scalar ? c.b : c.b + whole;
    tail.out = c.out + whole;
    tail.n = c.n - whole;
    Kernel<kSigned, kOp>(q, tail);
  }
}

template <bool kSigned>
void RunOp(const QBinaryParams& q, const QBinaryCall& c) {
  switch (q.op) {
    case QBinaryOp::kAdd:
      return q.linear.usable ? LinearKernel<kSigned, QBinaryOp::kAdd>(q, c)
                             : Kernel<kSigned, QBinaryOp::kAdd>(q, c);
    case QBinaryOp::kSub:
      return q.linear.usable ? LinearKernel<kSigned, QBinaryOp::kSub>(q, c)
                             : Kernel<kSigned, QBinaryOp::kSub>(q, c);
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
