// Scalar math of GELU, ELU, RELU_0_TO_1, SIGN, ATAN2, BITWISE_XOR and RIGHT_SHIFT, as
// TFLite's reference kernels compute it, and SELECT (v1)'s run-wise selection.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace octet::reference {

// 0.5 * x * (1 + erf(x / sqrt(2))), written with erfc as TFLite does: no cancellation for
// large negative x.
inline float Gelu(float x) {
  return 0.5f * x * std::erfc(x * static_cast<float>(-0.70710678118654752440));
}

// 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
inline float GeluApproximate(float x) {
  constexpr float kSqrt2OverPi =
      static_cast<float>(1.12837916709551257390 * 0.70710678118654752440);
  return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}

inline float Elu(float x) { return x < 0.0f ? std::expm1(x) : x; }

inline float Relu0To1(float x) { return std::min(std::max(0.0f, x), 1.0f); }

// -1, 0 or 1 (0 for NaN, as (0 < x) - (x < 0) gives).
template <typename T>
inline T Sign(T x) {
  return static_cast<T>((T(0) < x) - (x < T(0)));
}

template <typename T>
inline T Atan2(T y, T x) {
  return std::atan2(y, x);
}

template <typename T>
inline T BitwiseXor(T a, T b) {
  return static_cast<T>(a ^ b);
}

// x >> y with y clamped to [0, bits - 1] (no undefined shifts); arithmetic for signed x.
template <typename T>
inline T RightShift(T x, T y) {
  constexpr int kMaxShift = static_cast<int>(sizeof(T) * CHAR_BIT) - 1;
  int shift = 0;
  if constexpr (std::is_signed_v<T>) {
    shift = y < 0 ? 0 : (static_cast<int64_t>(y) > kMaxShift ? kMaxShift : static_cast<int>(y));
  } else {
    shift = static_cast<uint64_t>(y) > static_cast<uint64_t>(kMaxShift) ? kMaxShift
                                                                        : static_cast<int>(y);
  }
  return static_cast<T>(x >> shift);
}

// SELECT (v1): cond has `outer` values, each choosing a run of `inner` consecutive elements
// of x or y (outer == n and inner == 1 when cond has the inputs' shape).
template <typename T>
void SelectRuns(const uint8_t* cond, int64_t outer, int64_t inner, const T* x, const T* y, T* out) {
  for (int64_t i = 0; i < outer; ++i) {
    const T* src = (cond[i] != 0 ? x : y) + i * inner;
    for (int64_t k = 0; k < inner; ++k) out[i * inner + k] = src[k];
  }
}

}  // namespace octet::reference
