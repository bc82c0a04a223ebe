// Choosing quantization parameters (seed 000's int8 spec): asymmetric activations from an
// observed range, symmetric weights from their largest magnitude. Plain math, shared by the
// quantizer (octet quantize) and anything else that picks parameters.
#ifndef OCTET_QUANT_CHOOSE_PARAMS_H_
#define OCTET_QUANT_CHOOSE_PARAMS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace octet::quant {

struct AffineParams {
  float scale;
  int32_t zero_point;
};

// The range is widened to hold 0 (zero must be exact: padding and ReLU depend on it), then
// spread over [qmin, qmax]; the zero point is the code of real 0, rounded and clamped. An
// empty or degenerate range gets scale 1 (any positive scale represents all-zeros exactly).
inline AffineParams AsymmetricParams(float min, float max, int32_t qmin, int32_t qmax) {
  min = std::min(min, 0.0f);
  max = std::max(max, 0.0f);
  if (!(max > min) || !std::isfinite(min) || !std::isfinite(max))
    return {1.0f, qmin < 0 && qmax > 0 ? 0 : qmin};
  const double scale = (static_cast<double>(max) - min) / (qmax - qmin);
  const double zero = qmin - min / scale;
  const int32_t zp = static_cast<int32_t>(std::round(std::clamp<double>(zero, qmin, qmax)));
  return {static_cast<float>(scale), zp};
}

// Symmetric weights: zero point 0, scale so the largest magnitude maps to qmax (127 for int8:
// the spec's [-127, 127], so -128 never appears).
inline float SymmetricScale(float max_abs, int32_t qmax) {
  return max_abs > 0.0f && std::isfinite(max_abs) ? max_abs / static_cast<float>(qmax) : 1.0f;
}

// round(value / scale) + zero_point, clamped to [qmin, qmax].
inline int32_t QuantizeValue(float value, float scale, int32_t zero_point, int32_t qmin,
                             int32_t qmax) {
  const double q = std::round(static_cast<double>(value) / scale) + zero_point;
  return static_cast<int32_t>(std::clamp<double>(q, qmin, qmax));
}

}  // namespace octet::quant

#endif  // OCTET_QUANT_CHOOSE_PARAMS_H_
