// One element of the float binary kernels, as the reference computes it: the operation in
// single precision, then min(max(v, lo), hi) with NaN passing through (std::max / std::min
// return their first argument when the comparison is false).
#pragma once

#include "kernels/optimized/fbinary/fbinary.h"

namespace octet::optimized {

template <FBinaryOp kOp>
inline float FBinaryOne(float x, float y, float lo, float hi) {
  float v;
  if constexpr (kOp == FBinaryOp::kAdd) v = x + y;
  if constexpr (kOp == FBinaryOp::kSub) v = x - y;
  if constexpr (kOp == FBinaryOp::kMul) v = x * y;
  if constexpr (kOp == FBinaryOp::kDiv) v = x / y;
  const float bounded_below = v < lo ? lo : v;
  return hi < bounded_below ? hi : bounded_below;
}

// The portable kernel on a whole call (the SIMD kernels' tails). Defined in the portable
// translation unit, so no ISA code is compiled into it.
void FBinaryScalarTail(const FBinaryCall& call);

}  // namespace octet::optimized
