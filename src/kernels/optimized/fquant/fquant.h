// The hybrid ops' float -> int8 input quantizer (reference::SymmetricQuantize /
// AsymmetricQuantize in kernels/reference/hybrid_quantize.h), one implementation per kernel
// path, bit-exact with the reference. Plain declarations only (see qgemm.h): a kernel has the
// two loops over the data; the scalar parameters between them (scale, inverse scale, nudged
// zero point) are the reference's own functions, called by the driver (fquant_driver.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace octet::optimized {

struct FQuantKernel {
  const char* name;
  // *lo = min(0, x[0..n)), *hi = max(0, x[0..n)), NaN elements ignored
  // (reference::HybridQuantizeRange).
  void (*range)(const float* x, size_t n, float* lo, float* hi);
  // q[i] = round_half_away(clamp(zero_point + x[i] * inv, qmin, qmax)), the product rounded to
  // float before the sum, NaN giving qmin (reference::HybridQuantizeElement). qmin and qmax
  // are integers in [-128, 127].
  void (*quantize)(const float* x, size_t n, float inv, float zero_point, float qmin, float qmax,
                   int8_t* q);
};

extern const FQuantKernel kFQuantScalar;
extern const FQuantKernel kFQuantAvx2;
extern const FQuantKernel kFQuantAvx512Vnni;

}  // namespace octet::optimized
