// The portable float ADD/SUB/MUL/DIV: the reference's expression element by element, also
// used by the SIMD kernels for the elements that do not fill a vector.
#include "kernels/optimized/fbinary/fbinary_scalar.h"

namespace octet::optimized {
namespace {

// One element as the reference computes it: the operation in single precision, then
// min(max(v, lo), hi) with NaN passing through (std::max / std::min return their first
// argument when the comparison is false).
template <FBinaryOp kOp>
float FBinaryOne(float x, float y, float lo, float hi) {
  float v;
  if constexpr (kOp == FBinaryOp::kAdd) v = x + y;
  if constexpr (kOp == FBinaryOp::kSub) v = x - y;
  if constexpr (kOp == FBinaryOp::kMul) v = x * y;
  if constexpr (kOp == FBinaryOp::kDiv) v = x / y;
  const float bounded_below = v < lo ? lo : v;
  return hi < bounded_below ? hi : bounded_below;
}

template <FBinaryOp kOp>
void Loop(const FBinaryCall& c) {
  for (size_t i = 0; i < c.n; ++i) {
    const float x = c.a[c.a_scalar ? 0 : i];
    const float y = c.b[c.b_scalar ? 0 : i];
    c.out[i] = FBinaryOne<kOp>(x, y, c.act_min, c.act_max);
  }
}

void Run(const FBinaryCall& c) {
  switch (c.op) {
    case FBinaryOp::kAdd:
      return Loop<FBinaryOp::kAdd>(c);
    case FBinaryOp::kSub:
      return Loop<FBinaryOp::kSub>(c);
    case FBinaryOp::kMul:
      return Loop<FBinaryOp::kMul>(c);
    case FBinaryOp::kDiv:
      return Loop<FBinaryOp::kDiv>(c);
  }
}

}  // namespace

void FBinaryScalarTail(const FBinaryCall& call) { Run(call); }

const FBinaryKernel kFBinaryScalar = {"fbinary_scalar", &Run};

}  // namespace octet::optimized
