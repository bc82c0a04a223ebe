// The float ADD/SUB/MUL/DIV loop shared by the x86 paths, over a vector-traits type `Vec`
// (lanes, load, store, broadcast, the four operations, min and max). Included only by the
// ISA translation units; everything here has internal linkage, so each path compiles its own
// copy with its own instruction set and none can stand in for another at link time.
//
// The clamp is Min(hi, Max(lo, v)): x86 min/max return their second operand when the first
// comparison fails, so a NaN v passes through exactly as in the reference's
// std::min(std::max(v, lo), hi). The last partial vector runs the portable loop.
#pragma once

#include "kernels/optimized/fbinary/fbinary_scalar.h"

namespace octet::optimized {
namespace {

template <typename Vec, FBinaryOp kOp>
inline typename Vec::V Apply(typename Vec::V x, typename Vec::V y) {
  if constexpr (kOp == FBinaryOp::kAdd) return Vec::Add(x, y);
  if constexpr (kOp == FBinaryOp::kSub) return Vec::Sub(x, y);
  if constexpr (kOp == FBinaryOp::kMul) return Vec::Mul(x, y);
  return Vec::Div(x, y);
}

template <typename Vec, FBinaryOp kOp, bool kAScalar, bool kBScalar>
void SimdLoop(const FBinaryCall& c) {
  using V = typename Vec::V;
  const V lo = Vec::Set1(c.act_min);
  const V hi = Vec::Set1(c.act_max);
  const V a0 = Vec::Set1(c.a[0]);
  const V b0 = Vec::Set1(c.b[0]);
  size_t i = 0;
  for (; i + Vec::kLanes <= c.n; i += Vec::kLanes) {
    const V x = kAScalar ? a0 : Vec::Load(c.a + i);
    const V y = kBScalar ? b0 : Vec::Load(c.b + i);
    Vec::Store(c.out + i, Vec::Min(hi, Vec::Max(lo, Apply<Vec, kOp>(x, y))));
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

template <typename Vec, FBinaryOp kOp>
void SimdOp(const FBinaryCall& c) {
  if (c.a_scalar) return SimdLoop<Vec, kOp, true, false>(c);
  if (c.b_scalar) return SimdLoop<Vec, kOp, false, true>(c);
  SimdLoop<Vec, kOp, false, false>(c);
}

template <typename Vec>
void SimdRun(const FBinaryCall& c) {
  if (c.n == 0) return;
  switch (c.op) {
    case FBinaryOp::kAdd:
      return SimdOp<Vec, FBinaryOp::kAdd>(c);
    case FBinaryOp::kSub:
      return SimdOp<Vec, FBinaryOp::kSub>(c);
    case FBinaryOp::kMul:
      return SimdOp<Vec, FBinaryOp::kMul>(c);
    case FBinaryOp::kDiv:
      return SimdOp<Vec, FBinaryOp::kDiv>(c);
  }
}

}  // namespace
}  // namespace octet::optimized
