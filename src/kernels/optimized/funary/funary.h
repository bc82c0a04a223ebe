// float32 LOGISTIC, TANH and exp (SOFTMAX) over contiguous elements, one implementation per kernel
// path. The portable path computes the reference's functions (reference/activations.h) element by
// element, so its bits are the reference's; the x86 paths evaluate exp and tanh eight lanes
// at a time with glibc's vector math library (libmvec, documented to within 4 ulp of the
// true value), so their results are the reference's within a few ulp, not bit for bit.
// Plain aggregates only (see qgemm.h).
#pragma once

#include <cstddef>

namespace octet::optimized {

// out[i] = f(in[i]) for i < n (in and out may be the same array).
using FUnaryFn = void (*)(const float* in, float* out, size_t n);

struct FUnaryKernel {
  const char* name;
  // TFLite's reference logistic: 1 above 16.619..., exp(x) below -9, else 1 / (1 + exp(-x)).
  FUnaryFn logistic;
  FUnaryFn tanh;
  FUnaryFn exp;
};

extern const FUnaryKernel kFUnaryScalar;
extern const FUnaryKernel kFUnaryAvx2;

}  // namespace octet::optimized
