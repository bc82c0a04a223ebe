// Element conversions CAST needs beyond reference/cast.h: bfloat16 and a
// float64 -> float32 narrowing that never relies on an out-of-range
// conversion. float16 uses FloatToHalf / HalfToFloat from quantize.h.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

namespace octet::reference {

// float64 -> float32 rounded to nearest even, as IEEE 754 defines it. C++
// leaves the conversion undefined past float's range, so that part is spelled
// out: up to the midpoint between FLT_MAX and 2^128 the nearest-even result is
// FLT_MAX, from the midpoint on infinity. NaN passes through.
inline float DoubleToFloat(double d) {
  constexpr float kMax = std::numeric_limits<float>::max();
  constexpr double kOverflow = 0x1.ffffffp127;  // 2^128 - 2^103
  if (d >= kOverflow) return std::numeric_limits<float>::infinity();
  if (d <= -kOverflow) return -std::numeric_limits<float>::infinity();
  if (d > kMax) return kMax;
  if (d < -kMax) return -kMax;
  return static_cast<float>(d);
}

// bfloat16 is the top half of a float32.
inline float BFloat16ToFloat(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// float32 -> bfloat16 bits, rounded to nearest even (large finite values carry
// into infinity); NaN becomes the quiet NaN 0x7fc0 with its sign, as Eigen's
// bfloat16 (TFLite's) does.
inline uint16_t FloatToBFloat16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return sign | 0x7fc0u;
  // Adding just under half a unit, plus one when the kept part is odd, rounds
  // the dropped 16 bits to nearest with ties to even.
  const uint32_t odd = (bits >> 16) & 1u;
  return static_cast<uint16_t>((bits + 0x7fffu + odd) >> 16);
}

}  // namespace octet::reference
