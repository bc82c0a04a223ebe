// The hybrid ("dynamic range") ops' input quantizers, as TFLite computes them: one scale (and,
// when asymmetric, one zero point) per vector from its range, then every element rounded half
// away from zero and clamped. Split into the range scan, the scalar parameters and the
// per-element step so that the optimized quantizers (kernels/optimized/fquant/) call the same
// parameter code and are tested against the same per-element definition.
//
// Where TFLite's arithmetic is undefined, this is well-defined (and the optimized kernels do
// the same):
//  - the range scan ignores NaN elements (std::minmax_element with a NaN has no defined
//    result);
//  - the element is clamped in float before the conversion to int, so values beyond the int
//    range saturate (±inf, or x * inv = ±inf when the scale underflows) and NaN (0 * inf,
//    NaN input) gives the lowest code, as x86's float-to-int conversion and the clamp gave;
//  - a NaN zero point (both ends infinite) is nudged to -128.
// For every other input this is exactly the previous code: clamp(round(v)) == round(clamp(v))
// because the bounds are integers.
//
// The asymmetric element is zero_point + x * inv with two roundings, as written and as TFLite
// computes it on x86. GCC contracts a multiply and an add into an FMA by default in C++ (even
// with -std=c++17) wherever the target has one (aarch64, -mfma), across statements, which
// would round once: HybridRoundedProduct stops that, so every build computes the same bits.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace octet::reference {

// a * b rounded to float, never fused with what follows: the empty asm makes the product an
// opaque value in a register the compiler must materialize.
inline float HybridRoundedProduct(float a, float b) {
  float p = a * b;
#if defined(__GNUC__) && defined(__SSE__)
  __asm__("" : "+x"(p));
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(p));
#elif defined(__GNUC__)
  __asm__("" : "+m"(p));
#else
  volatile float opaque = p;
  p = opaque;
#endif
  return p;
}

// lo = min(0, x...), hi = max(0, x...), NaN elements ignored. (Widening the range to include
// 0 changes neither quantizer: the symmetric one uses max(|lo|, |hi|), the asymmetric one
// widens to 0 itself.) Neither result is ever NaN or -0.
inline void HybridQuantizeRange(const float* x, int64_t n, float* lo, float* hi) {
  float mn = 0.f, mx = 0.f;
  for (int64_t i = 0; i < n; ++i) {
    mn = x[i] < mn ? x[i] : mn;
    mx = x[i] > mx ? x[i] : mx;
  }
  *lo = mn;
  *hi = mx;
}

// One element: v clamped to [qmin, qmax] (NaN to qmin), rounded half away from zero.
inline int8_t HybridQuantizeElement(float v, float qmin, float qmax) {
  const float clamped = std::min(qmax, std::max(qmin, v));  // std::max(qmin, NaN) is qmin
  return static_cast<int8_t>(static_cast<int32_t>(std::round(clamped)));
}

// Symmetric: scale = max|x| / 127, inv = 127 / max|x|; false (scale 1) for an all-zero range.
inline bool SymmetricQuantizeParams(float lo, float hi, float* scale, float* inv) {
  const float range = std::max(std::fabs(lo), std::fabs(hi));
  if (range == 0.f) {
    *scale = 1.f;
    *inv = 0.f;
    return false;
  }
  *scale = range / 127.f;
  *inv = 127.f / range;
  return true;
}

// Asymmetric over [-128, 127] with the range widened to include 0 and the zero point nudged
// to an integer; inv = 1 / scale. False (scale 1, offset 0) when the range is empty.
inline bool AsymmetricQuantizeParams(float lo, float hi, float* scale, int32_t* offset,
                                     float* inv) {
  constexpr double kQMin = -128.0;
  constexpr double kQMax = 127.0;
  const double rmin = static_cast<double>(std::min(0.f, lo));
  const double rmax = static_cast<double>(std::max(0.f, hi));
  if (rmin == rmax) {
    *scale = 1.f;
    *offset = 0;
    *inv = 1.f;
    return false;
  }
  const double s = (rmax - rmin) / (kQMax - kQMin);
  const double zp_from_min = kQMin - rmin / s;
  const double zp_from_max = kQMax - rmax / s;
  const double zp_from_min_error = std::fabs(kQMin) + std::fabs(rmin / s);
  const double zp_from_max_error = std::fabs(kQMax) + std::fabs(rmax / s);
  const double zp = zp_from_min_error < zp_from_max_error ? zp_from_min : zp_from_max;
  int32_t nudged;
  if (!(zp > kQMin)) {  // (also a NaN zero point, from an infinite range)
    nudged = -128;
  } else if (zp >= kQMax) {
    nudged = 127;
  } else {
    nudged = static_cast<int32_t>(std::round(zp));
  }
  *scale = static_cast<float>(s);
  *offset = nudged;
  *inv = 1.f / *scale;
  return true;
}

// Symmetric: q = clamp(round(x * 127 / max|x|), -127, 127). An all-zero vector quantizes to
// zeros with scale 1.
inline void SymmetricQuantize(const float* x, int64_t n, int8_t* q, float* scale) {
  float lo, hi, inv;
  HybridQuantizeRange(x, n, &lo, &hi);
  if (!SymmetricQuantizeParams(lo, hi, scale, &inv)) {
    if (n > 0) std::memset(q, 0, static_cast<size_t>(n));
    return;
  }
  for (int64_t i = 0; i < n; ++i) q[i] = HybridQuantizeElement(x[i] * inv, -127.f, 127.f);
}

// Asymmetric: q = clamp(round(zero_point + x / scale), -128, 127) (x times 1 / scale, as
// TFLite). An all-zero vector quantizes to zeros, scale 1, offset 0.
inline void AsymmetricQuantize(const float* x, int64_t n, int8_t* q, float* scale,
                               int32_t* offset) {
  float lo, hi, inv;
  HybridQuantizeRange(x, n, &lo, &hi);
  if (!AsymmetricQuantizeParams(lo, hi, scale, offset, &inv)) {
    if (n > 0) std::memset(q, 0, static_cast<size_t>(n));
    return;
  }
  const float zero_point = static_cast<float>(*offset);
  for (int64_t i = 0; i < n; ++i) {
    const float v = zero_point + HybridRoundedProduct(x[i], inv);
    q[i] = HybridQuantizeElement(v, -128.f, 127.f);
  }
}

// TFLite's zero-point correction of a hybrid int32 dot product: dot - weight_sum *
// zero_point computed in float and truncated back to int32 (clamped first, so that no input
// can make the conversion undefined).
inline int32_t HybridZeroPointCorrected(int32_t dot, int32_t weight_sum, int32_t zero_point) {
  const float v =
      static_cast<float>(dot) - static_cast<float>(weight_sum) * static_cast<float>(zero_point);
  return static_cast<int32_t>(std::min(std::max(v, -2147483648.f), 2147483520.f));
}

}  // namespace octet::reference
