// Float -> integer conversion that is defined for every input. C++ leaves converting NaN, an
// infinity or a value outside the destination's range undefined (x86 returns INT_MIN, other
// CPUs saturate or wrap), so kernels that turn computed floats into integer codes go through
// this instead of a bare static_cast. See docs/nonfinite.md.
#pragma once

#include <cstdint>

namespace octet::reference {

// v truncated toward zero and clamped to [lo, hi]; NaN gives lo, as x86's conversion
// (INT_MIN) followed by a clamp does; +inf and values above hi give hi. For every finite v
// this equals clamp(int(v), lo, hi) computed without overflow. Double holds every int32
// exactly, so the bounds compare exactly.
inline int32_t SaturatingTruncate(double v, int32_t lo, int32_t hi) {
  if (!(v > lo)) return lo;  // also NaN
  if (v >= hi) return hi;
  return static_cast<int32_t>(v);
}

}  // namespace octet::reference
