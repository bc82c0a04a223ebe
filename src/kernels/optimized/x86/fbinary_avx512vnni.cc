// float ADD/SUB/MUL/DIV for the avx512vnni path: 16 lanes per step; the clamp is
// min_ps(hi, max_ps(lo, v)), which returns v for a NaN v exactly as the reference's
// std::min(std::max(v, lo), hi) does. The last partial vector runs the portable loop.
#include <immintrin.h>

#include "kernels/optimized/fbinary/fbinary_scalar.h"

namespace octet::optimized {
namespace {

constexpr size_t kLanes = 16;

template <FBinaryOp kOp>
inline __m512 Apply(__m512 x, __m512 y) {
  if constexpr (kOp == FBinaryOp::kAdd) return _mm512_add_ps(x, y);
  if constexpr (kOp == FBinaryOp::kSub) return _mm512_sub_ps(x, y);
  if constexpr (kOp == FBinaryOp::kMul) return _mm512_mul_ps(x, y);
  return _mm512_div_ps(x, y);
}

template <FBinaryOp kOp, bool kAScalar, bool kBScalar>
void Loop(const FBinaryCall& c) {
  const __m512 lo = _mm512_set1_ps(c.act_min);
  const __m512 hi = _mm512_set1_ps(c.act_max);
  const __m512 a0 = _mm512_set1_ps(c.a[0]);
  const __m512 b0 = _mm512_set1_ps(c.b[0]);
  size_t i = 0;
  for (; i + kLanes <= c.n; i += kLanes) {
    const __m512 x = kAScalar ? a0 : _mm512_loadu_ps(c.a + i);
    const __m512 y = kBScalar ? b0 : _mm512_loadu_ps(c.b + i);
    _mm512_storeu_ps(c.out + i, _mm512_min_ps(hi, _mm512_max_ps(lo, Apply<kOp>(x, y))));
  }
  if (i < c.n) {
    FBinaryCall tail = c;
    tail.a = kAScalar ? c.a : c.a + i;
    tail.b = kBScalar ? c.b : c.b + i;
    tail.out = c.out + i;
    tail.n = c.n - i;
    FBinaryScalarTail(tail);
  }
}

template <FBinaryOp kOp>
void RunOp(const FBinaryCall& c) {
  if (c.a_scalar) return Loop<kOp, true, false>(c);
  if (c.b_scalar) return Loop<kOp, false, true>(c);
  Loop<kOp, false, false>(c);
}

void Run(const FBinaryCall& c) {
  if (c.n == 0) return;
  switch (c.op) {
    case FBinaryOp::kAdd:
      return RunOp<FBinaryOp::kAdd>(c);
    case FBinaryOp::kSub:
      return RunOp<FBinaryOp::kSub>(c);
    case FBinaryOp::kMul:
      return RunOp<FBinaryOp::kMul>(c);
    case FBinaryOp::kDiv:
      return RunOp<FBinaryOp::kDiv>(c);
  }
}

}  // namespace

const FBinaryKernel kFBinaryAvx512 = {"fbinary_avx512", &Run};

}  // namespace octet::optimized
