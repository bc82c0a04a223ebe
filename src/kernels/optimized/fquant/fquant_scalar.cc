// The portable hybrid quantizer (every CPU, aarch64 included): the same operations as the
// reference, with the rounding done without libm (the clamped value's integer part and the
// exact remainder decide it).
#include <cstddef>
#include <cstdint>

#include "kernels/optimized/fquant/fquant.h"
#include "kernels/reference/hybrid_quantize.h"

namespace octet::optimized {
namespace {

// `a < b ? a : b` keeps the accumulator when x is NaN; four accumulators for throughput.
void Range(const float* x, size_t n, float* lo, float* hi) {
  float mn[4] = {0.f, 0.f, 0.f, 0.f}, mx[4] = {0.f, 0.f, 0.f, 0.f};
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int j = 0; j < 4; ++j) {
      mn[j] = x[i + j] < mn[j] ? x[i + j] : mn[j];
      mx[j] = x[i + j] > mx[j] ? x[i + j] : mx[j];
    }
  }
  for (; i < n; ++i) {
    mn[0] = x[i] < mn[0] ? x[i] : mn[0];
    mx[0] = x[i] > mx[0] ? x[i] : mx[0];
  }
  // No accumulator is NaN, and the sign of a zero minimum or maximum does not matter to the
  // quantizers (reference::HybridQuantizeRange).
  for (int j = 1; j < 4; ++j) {
    mn[0] = mn[j] < mn[0] ? mn[j] : mn[0];
    mx[0] = mx[j] > mx[0] ? mx[j] : mx[0];
  }
  *lo = mn[0];
  *hi = mx[0];
}

void Quantize(const float* x, size_t n, float inv, float zero_point, float qmin, float qmax,
              int8_t* q) {
  for (size_t i = 0; i < n; ++i) {
    // The product rounded on its own, never fused into an FMA with the sum.
    const float v = zero_point + reference::HybridRoundedProduct(x[i], inv);
    float c = v > qmin ? v : qmin;  // NaN gives qmin
    c = c < qmax ? c : qmax;
    // Within [-128, 127] the conversion truncates exactly and c - t is exact.
    int32_t t = static_cast<int32_t>(c);
    const float rest = c - static_cast<float>(t);
    t += static_cast<int32_t>(rest >= 0.5f) - static_cast<int32_t>(rest <= -0.5f);
    q[i] = static_cast<int8_t>(t);
  }
}

}  // namespace

const FQuantKernel kFQuantScalar = {"fquant_scalar", &Range, &Quantize};

}  // namespace octet::optimized
