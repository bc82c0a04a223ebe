// float ADD/SUB/MUL/DIV for the avx2 path: 8 lanes per step; the clamp is
// min_ps(hi, max_ps(lo, v)), which returns v for a NaN v exactly as the reference's
// std::min(std::max(v, lo), hi) does. The last partial vector runs the portable loop.
#include <immintrin.h>

#include "kernels/optimized/fbinary/fbinary_scalar.h"

namespace octet::optimized {
namespace {

constexpr size_t kLanes = 8;

template <FBinaryOp kOp>
inline __m256 Apply(__m256 x, __m256 y) {
  if constexpr (kOp == FBinaryOp::kAdd) return _mm256_add_ps(x, y);
  if constexpr (kOp == FBinaryOp::kSub) return _mm256_sub_ps(x, y);
  if constexpr (kOp == FBinaryOp::kMul) return _mm256_mul_ps(x, y);
  return _mm256_div_ps(x, y);
}

template <FBinaryOp kOp, bool kAScalar, bool kBScalar>
void Loop(const FBinaryCall& c) {
  const __m256 lo = _mm256_set1_ps(c.act_min);
  const __m256 hi = _mm256_set1_ps(c.act_max);
  const __m256 a0 = _mm256_set1_ps(c.a[0]);
  const __m256 b0 = _mm256_set1_ps(c.b[0]);
  size_t i = 0;
  for (; i + kLanes <= c.n; i += kLanes) {
    const __m256 x = kAScalar ? a0 : _mm256_loadu_ps(c.a + i);
    const __m256 y = kBScalar ? b0 : _mm256_loadu_ps(c.b + i);
    _mm256_storeu_ps(c.out + i, _mm256_min_ps(hi, _mm256_max_ps(lo, Apply<kOp>(x, y))));
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

const FBinaryKernel kFBinaryAvx2 = {"fbinary_avx2", &Run};

}  // namespace octet::optimized
