#include "kernels/optimized/fquant/fquant_driver.h"

#include <cstring>

#include "kernels/reference/hybrid_quantize.h"

namespace octet::optimized {

void FQuantSymmetric(const FQuantKernel& kernel, const float* x, size_t n, int8_t* q,
                     float* scale) {
  float lo = 0.f, hi = 0.f, inv = 0.f;
  kernel.range(x, n, &lo, &hi);
  if (!reference::SymmetricQuantizeParams(lo, hi, scale, &inv)) {
    if (n > 0) std::memset(q, 0, n);
    return;
  }
  // zero + product is the product itself (or +0 for -0, which rounds to the same 0).
  kernel.quantize(x, n, inv, 0.f, -127.f, 127.f, q);
}

void FQuantAsymmetric(const FQuantKernel& kernel, const float* x, size_t n, int8_t* q, float* scale,
                      int32_t* offset) {
  float lo = 0.f, hi = 0.f, inv = 1.f;
  kernel.range(x, n, &lo, &hi);
  if (!reference::AsymmetricQuantizeParams(lo, hi, scale, offset, &inv)) {
    if (n > 0) std::memset(q, 0, n);
    return;
  }
  kernel.quantize(x, n, inv, static_cast<float>(*offset), -128.f, 127.f, q);
}

}  // namespace octet::optimized
