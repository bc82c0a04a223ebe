// Affine (de)quantization between float32 and int8/uint8/int16, per-tensor and
// per-axis, and IEEE half -> float conversion for fp16-quantized models.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "kernels/shape.h"

namespace octet::reference {

// round(x / scale) + zero_point clamped to T, rounding half away from zero as
// TFLite's AffineQuantize does. Arithmetic that would overflow int32 in TFLite
// (huge values, NaN) is done in double here and clamps; NaN maps to the lowest
// value like x86 TFLite.
template <typename T>
inline T QuantizeValue(float x, float scale, int32_t zero_point) {
  const float rounded = std::round(x / scale);
  if (std::isnan(rounded)) return std::numeric_limits<T>::lowest();
  double q = static_cast<double>(rounded) + zero_point;
  q = std::min<double>(std::max<double>(q, std::numeric_limits<T>::lowest()),
                       std::numeric_limits<T>::max());
  return static_cast<T>(q);
}

template <typename T>
inline void AffineQuantize(const float *in, int64_t n, float scale, int32_t zero_point, T *out) {
  for (int64_t i = 0; i < n; ++i) out[i] = QuantizeValue<T>(in[i], scale, zero_point);
}

// Splits a shape around axis `axis` into outer * channels * inner for per-axis
// loops.
struct AxisSplit {
  int64_t outer = 1, channels = 1, inner = 1;
};
inline AxisSplit SplitAtAxis(const Shape &shape, int axis) {
  AxisSplit s;
  s.outer = shape.SizeBetween(0, axis);
  s.channels = shape.dim(axis);
  s.inner = shape.SizeBetween(axis + 1, shape.rank());
  return s;
}

// Per-axis: element i of slice c along `axis` uses scales[c], zero_points[c].
template <typename T>
inline void PerAxisQuantize(const Shape &shape, int axis, const float *in, const float *scales,
                            const int32_t *zero_points, T *out) {
  const AxisSplit s = SplitAtAxis(shape, axis);
  int64_t i = 0;
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t c = 0; c < s.channels; ++c) {
      for (int64_t k = 0; k < s.inner; ++k, ++i) {
        out[i] = QuantizeValue<T>(in[i], scales[c], zero_points[c]);
      }
    }
  }
}

// scale * (q - zero_point), evaluated in double and rounded once, as TFLite
// does.
template <typename T>
inline void Dequantize(const T *in, int64_t n, float scale, int32_t zero_point, float *out) {
  const double s = scale;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<float>(s * (static_cast<int32_t>(in[i]) - zero_point));
  }
}

template <typename T>
inline void PerAxisDequantize(const Shape &shape, int axis, const T *in, const float *scales,
                              const int32_t *zero_points, float *out) {
  const AxisSplit s = SplitAtAxis(shape, axis);
  int64_t i = 0;
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t c = 0; c < s.channels; ++c) {
      for (int64_t k = 0; k < s.inner; ++k, ++i) {
        // float * float is exact before the final rounding, like TFLite's
        // per-channel path.
        out[i] = scales[c] * static_cast<float>(static_cast<int32_t>(in[i]) - zero_points[c]);
      }
    }
  }
}

// IEEE 754 binary16 bits -> float (exact; subnormals, infinities and NaN
// preserved).
inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal half: normalise into a float exponent.
    int e = -1;
    do {
      ++e;
      mantissa <<= 1;
    } while ((mantissa & 0x400u) == 0);
    bits = sign | ((112u - e) << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// float -> IEEE 754 binary16 bits, rounded to nearest even (overflow gives infinity, NaN a
// quiet NaN of the same sign), as Eigen::half's and TFLite's fp16 conversions.
inline uint16_t FloatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u;   // NaN
  if (magnitude >= 0x47800000u) return sign | 0x7c00u;  // >= 65536: infinity
  const uint32_t exponent = magnitude >> 23;
  if (exponent < 113) {  // below 2^-14: a subnormal half (or zero)
    const uint32_t shift = 126 - exponent;
    if (shift > 24) return sign;
    const uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    uint32_t h = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = ((exponent - 112) << 10) | ((magnitude >> 13) & 0x3ffu);
  const uint32_t rest = magnitude & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry may reach infinity
  return static_cast<uint16_t>(sign | h);
}

inline void HalfToFloat(const uint16_t *in, int64_t n, float *out) {
  for (int64_t i = 0; i < n; ++i) out[i] = HalfToFloat(in[i]);
}

}  // namespace octet::reference
