// Quantized 8-bit ADD / SUB / MUL on AVX2: 8 elements per step with the two-step exact
// requantization of requant_avx2.h; the last n % 8 elements go through the portable kernel.
// ADD/SUB with a usable linear form (qbinary.h) run 32 elements per step as two 32-bit
// multiplies and a shift; a block with any lane near a rounding boundary is redone exactly.
#include <immintrin.h>

#include <cstddef>
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

// The elements [at, at + n) of a call (a scalar operand stays the same value).
static inline QBinaryCall Part(const QBinaryCall& c, size_t at, size_t n) {
  QBinaryCall part = c;
  part.a = c.a_scalar ? c.a : c.a + at;
  part.b = c.b_scalar ? c.b : c.b + at;
  part.out = c.out + at;
  part.n = n;
  return part;
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
    kQBinaryScalar.run(q, Part(c, whole, c.n - whole));
  }
}

// Lanes of one 32-element block that lie inside the window (bit j: lane j), recomputed from
// the form with the window already added (see LinearKernel).
static inline uint32_t NearLanes(const __m256i (&acc)[4], __m256i fraction, __m256i limit) {
  uint32_t near = 0;
  for (int k = 0; k < 4; ++k) {
    const __m256i inside = _mm256_cmpgt_epi32(limit, _mm256_and_si256(acc[k], fraction));
    near |= static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(inside))) << (8 * k);
  }
  return near;
}

// A block with lanes inside the window: few of them are redone one by one with the portable
// exact arithmetic (over the stored vector result), many mean the whole block exactly.
template <bool kSigned, QBinaryOp kOp>
__attribute__((noinline)) void FixBlock(const QBinaryParams& q, const QBinaryCall& block,
                                        uint32_t near) {
  if (__builtin_popcount(near) > 4) {
    Kernel<kSigned, kOp>(q, block);
    return;
  }
  for (; near != 0; near &= near - 1) {
    const int lane = __builtin_ctz(near);
    kQBinaryScalar.run(q, Part(block, static_cast<size_t>(lane), 1));
  }
}

// ADD/SUB through the linear form: whole blocks of 32; a block with any lane inside the
// window is fixed up by FixBlock, the last n % 32 elements take the exact kernel. The window
// is folded into the bias: a lane outside it has no integer step within +-window of A, so
// floor((A + window) / 2^F) = floor(A / 2^F), and the test becomes one mask and compare
// ((A + window) mod 2^F < 2 window + 1). One branch per block on the OR of the lane tests.
template <bool kSigned, QBinaryOp kOp, bool kAScalar, bool kBScalar>
void LinearKernel(const QBinaryParams& q, const QBinaryCall& c) {
  const QBinaryLinear& l = q.linear;
  const __m256i m1 = _mm256_set1_epi32(l.m1);
  const __m256i m2 = _mm256_set1_epi32(l.m2);
  const __m256i limit = _mm256_set1_epi32(2 * l.window + 1);
  const __m256i fraction = _mm256_set1_epi32((1 << l.frac_bits) - 1);
  const __m128i shift = _mm_cvtsi32_si128(l.frac_bits);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  const __m256i act_min = _mm256_set1_epi8(static_cast<char>(q.act_min));
  const __m256i act_max = _mm256_set1_epi8(static_cast<char>(q.act_max));
  // A scalar operand's product is a constant: fold it into the bias (A stays in range, as
  // the plan bounded it over every input value).
  __m256i bias = _mm256_set1_epi32(l.bias + l.window);
  if (kAScalar) bias = _mm256_add_epi32(bias, _mm256_mullo_epi32(LoadOne<kSigned>(c.a), m1));
  if (kBScalar) bias = _mm256_add_epi32(bias, _mm256_mullo_epi32(LoadOne<kSigned>(c.b), m2));
  // Locals: the byte stores below may alias the call struct, which would reload its fields.
  const uint8_t* const a = c.a;
  const uint8_t* const b = c.b;
  uint8_t* const out = c.out;
  const size_t whole = c.n & ~size_t{31};
  for (size_t i = 0; i < whole; i += 32) {
    __m256i acc[4];
    __m256i inside = _mm256_setzero_si256();
    for (int k = 0; k < 4; ++k) {
      acc[k] = bias;
      if (!kAScalar) {
        acc[k] = _mm256_add_epi32(acc[k], _mm256_mullo_epi32(Load8<kSigned>(a + i + 8 * k), m1));
      }
      if (!kBScalar) {
        acc[k] = _mm256_add_epi32(acc[k], _mm256_mullo_epi32(Load8<kSigned>(b + i + 8 * k), m2));
      }
      inside =
          _mm256_or_si256(inside, _mm256_cmpgt_epi32(limit, _mm256_and_si256(acc[k], fraction)));
    }
    // Saturating packs keep the order of out-of-range values, so clamping after them is the
    // same as clamping the int32s.
    const __m256i halves01 =
        _mm256_packs_epi32(_mm256_sra_epi32(acc[0], shift), _mm256_sra_epi32(acc[1], shift));
    const __m256i halves23 =
        _mm256_packs_epi32(_mm256_sra_epi32(acc[2], shift), _mm256_sra_epi32(acc[3], shift));
    __m256i bytes =
        kSigned ? _mm256_packs_epi16(halves01, halves23) : _mm256_packus_epi16(halves01, halves23);
    bytes = _mm256_permutevar8x32_epi32(bytes, order);
    bytes = kSigned ? _mm256_min_epi8(_mm256_max_epi8(bytes, act_min), act_max)
                    : _mm256_min_epu8(_mm256_max_epu8(bytes, act_min), act_max);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), bytes);
    if (__builtin_expect(!_mm256_testz_si256(inside, inside), 0)) {
      FixBlock<kSigned, kOp>(q, Part(c, i, 32), NearLanes(acc, fraction, limit));
    }
  }
  if (whole < c.n) {
    Kernel<kSigned, kOp>(q, Part(c, whole, c.n - whole));
  }
}

template <bool kSigned, QBinaryOp kOp>
void Linear(const QBinaryParams& q, const QBinaryCall& c) {
  if (c.a_scalar && c.b_scalar) {
    Kernel<kSigned, kOp>(q, c);
  } else if (c.a_scalar) {
    LinearKernel<kSigned, kOp, true, false>(q, c);
  } else if (c.b_scalar) {
    LinearKernel<kSigned, kOp, false, true>(q, c);
  } else {
    LinearKernel<kSigned, kOp, false, false>(q, c);
  }
}

template <bool kSigned>
void RunOp(const QBinaryParams& q, const QBinaryCall& c) {
  switch (q.op) {
    case QBinaryOp::kAdd:
      return q.linear.usable ? Linear<kSigned, QBinaryOp::kAdd>(q, c)
                             : Kernel<kSigned, QBinaryOp::kAdd>(q, c);
    case QBinaryOp::kSub:
      return q.linear.usable ? Linear<kSigned, QBinaryOp::kSub>(q, c)
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
