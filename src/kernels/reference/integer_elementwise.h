// Integer (quantized) elementwise kernels, computed exactly as TFLite Micro's reference
// kernels do: per-element int32 arithmetic with the requantization helpers of
// quant/quantization_util.h and the fixed-point functions of quant/fixed_point.h.
// Parameters are derived in prepare (ops/elementwise/quantized_params.cc); everything
// here is pure math on plain integers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "quant/fixed_point.h"
#include "quant/quantization_util.h"

namespace octet::reference::integer {

template <typename T>
inline T ClampTo(int32_t v, int32_t lo, int32_t hi) {
  return static_cast<T>(std::min(hi, std::max(lo, v)));
}

// x * 2^shift with two's-complement wrap (the reference's `x * (1 << shift)`).
inline int32_t ShiftLeft(int32_t x, int shift) { return quant::ShiftLeftWrapping(x, shift); }

// ---- ADD / SUB: both inputs rescaled to a common scale (2 * max input scale) after a left
// shift of 20 (8-bit) or 15 (int16), summed, and rescaled to the output.
struct AddSubParams {
  int32_t input1_offset = 0, input2_offset = 0, output_offset = 0;
  int left_shift = 0;
  int32_t input1_multiplier = 0, input2_multiplier = 0, output_multiplier = 0;
  int input1_shift = 0, input2_shift = 0, output_shift = 0;
  int32_t act_min = 0, act_max = 0;
};

template <bool kSub, typename T>
inline T AddSub(T x, T y, const AddSubParams& p) {
  const int32_t a = ShiftLeft(p.input1_offset + x, p.left_shift);
  const int32_t b = ShiftLeft(p.input2_offset + y, p.left_shift);
  const int32_t sa =
      quant::MultiplyByQuantizedMultiplierSmallerThanOneExp(a, p.input1_multiplier, p.input1_shift);
  const int32_t sb =
      quant::MultiplyByQuantizedMultiplierSmallerThanOneExp(b, p.input2_multiplier, p.input2_shift);
  const int32_t raw = kSub ? sa - sb : sa + sb;
  const int32_t out = quant::MultiplyByQuantizedMultiplierSmallerThanOneExp(
                          raw, p.output_multiplier, p.output_shift) +
                      p.output_offset;
  return ClampTo<T>(out, p.act_min, p.act_max);
}

// ---- MUL: (x - zx)(y - zy) requantized by s1 s2 / s_out.
struct MulParams {
  int32_t input1_offset = 0, input2_offset = 0, output_offset = 0;
  int32_t output_multiplier = 0;
  int output_shift = 0;
  int32_t act_min = 0, act_max = 0;
  // The effective scale is 2^30 or more (an output scale near zero: converters give tensors
  // that are always zero such a range). Every nonzero product then lies beyond the output's
  // range; TFLite's requantization has no defined result for a shift above 30, so the
  // product's sign picks the bound, as in exact arithmetic.
  bool saturate = false;
};

template <typename T>
inline T Mul(T x, T y, const MulParams& p) {
  const int32_t a = p.input1_offset + x;
  const int32_t b = p.input2_offset + y;
  if (p.saturate) {
    const int32_t product = a * b;
    if (product == 0) return ClampTo<T>(p.output_offset, p.act_min, p.act_max);
    return static_cast<T>(product > 0 ? p.act_max : p.act_min);
  }
  const int32_t out = p.output_offset + quant::MultiplyByQuantizedMultiplier(
                                            a * b, p.output_multiplier, p.output_shift);
  return ClampTo<T>(out, p.act_min, p.act_max);
}

// ---- SQUARED_DIFFERENCE: like SUB with a left shift of 7, then squared and requantized.
struct SquaredDifferenceParams {
  int32_t input1_offset = 0, input2_offset = 0, output_offset = 0;
  int left_shift = 7;
  int32_t input1_multiplier = 0, input2_multiplier = 0, output_multiplier = 0;
  int input1_shift = 0, input2_shift = 0, output_shift = 0;
};

template <typename T>
inline T SquaredDifference(T x, T y, const SquaredDifferenceParams& p) {
  const int32_t a = ShiftLeft(p.input1_offset + x, p.left_shift);
  const int32_t b = ShiftLeft(p.input2_offset + y, p.left_shift);
  const int32_t sa =
      quant::MultiplyByQuantizedMultiplierSmallerThanOneExp(a, p.input1_multiplier, p.input1_shift);
  const int32_t sb =
      quant::MultiplyByQuantizedMultiplierSmallerThanOneExp(b, p.input2_multiplier, p.input2_shift);
  const int32_t d = sa - sb;
  const int32_t out =
      quant::MultiplyByQuantizedMultiplier(d * d, p.output_multiplier, p.output_shift) +
      p.output_offset;
  return ClampTo<T>(out, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
}

// ---- Comparisons of differently quantized inputs: both rescaled by their own scale
// after a left shift of 8, then compared.
struct CompareParams {
  int32_t input1_offset = 0, input2_offset = 0;
  int left_shift = 8;
  int32_t input1_multiplier = 0, input2_multiplier = 0;
  int input1_shift = 0, input2_shift = 0;
};

inline int32_t RescaleForCompare(int32_t v, int left_shift, int32_t multiplier, int shift) {
  const int32_t shifted = ShiftLeft(v, left_shift);
  if (shift > 0) return quant::MultiplyByQuantizedMultiplier(shifted, multiplier, shift);
  return quant::MultiplyByQuantizedMultiplierSmallerThanOneExp(shifted, multiplier, shift);
}

template <typename T, typename Cmp>
inline bool CompareQuantized(T x, T y, const CompareParams& p, Cmp cmp) {
  return cmp(
      RescaleForCompare(p.input1_offset + x, p.left_shift, p.input1_multiplier, p.input1_shift),
      RescaleForCompare(p.input2_offset + y, p.left_shift, p.input2_multiplier, p.input2_shift));
}

// ---- Requantization (QUANTIZE from a quantized input, RELU's rescale).
struct RequantizeParams {
  int32_t input_zero_point = 0, output_zero_point = 0;
  int32_t multiplier = 0;
  int shift = 0;
  int32_t act_min = 0, act_max = 0;  // the output type's range, or a RELU clamp
};

template <typename In, typename Out>
inline Out Requantize(In x, const RequantizeParams& p) {
  const int32_t out = quant::MultiplyByQuantizedMultiplier(
                          static_cast<int32_t>(x) - p.input_zero_point, p.multiplier, p.shift) +
                      p.output_zero_point;
  return ClampTo<Out>(out, p.act_min, p.act_max);
}

// RELU6 clamps raw values between the input's quantized 0 and 6 (no rescale).
template <typename T>
inline T ClampRaw(T x, int32_t lo, int32_t hi) {
  return ClampTo<T>(static_cast<int32_t>(x), lo, hi);
}

// ---- LEAKY_RELU: identity or alpha multiplier depending on the sign.
struct LeakyReluParams {
  int32_t input_offset = 0, output_offset = 0;
  int32_t multiplier_identity = 0, multiplier_alpha = 0;
  int shift_identity = 0, shift_alpha = 0;
};

template <typename T>
inline T LeakyRelu(T x, const LeakyReluParams& p) {
  const int32_t v = static_cast<int32_t>(x) - p.input_offset;
  const int32_t out =
      p.output_offset +
      (v >= 0 ? quant::MultiplyByQuantizedMultiplier(v, p.multiplier_identity, p.shift_identity)
              : quant::MultiplyByQuantizedMultiplier(v, p.multiplier_alpha, p.shift_alpha));
  return ClampTo<T>(out, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
}

// ---- PRELU: alpha is a quantized tensor broadcast against the input.
struct PreluParams {
  int32_t input_offset = 0, alpha_offset = 0, output_offset = 0;
  int32_t multiplier_1 = 0, multiplier_2 = 0;
  int shift_1 = 0, shift_2 = 0;
};

template <typename T>
inline T Prelu(T x, T alpha, const PreluParams& p) {
  const int32_t v = p.input_offset + x;
  int32_t out;
  if (v >= 0) {
    out = quant::MultiplyByQuantizedMultiplier(v, p.multiplier_1, p.shift_1);
  } else {
    const int32_t a = p.alpha_offset + alpha;
    out = quant::MultiplyByQuantizedMultiplier(v * a, p.multiplier_2, p.shift_2);
  }
  return ClampTo<T>(out + p.output_offset, std::numeric_limits<T>::min(),
                    std::numeric_limits<T>::max());
}

// ---- HARD_SWISH in int16 fixed point.
struct HardSwishParams {
  int32_t input_zero_point = 0, output_zero_point = 0;
  int16_t output_multiplier_fixedpoint_int16 = 0;
  int output_multiplier_exponent = 0;
  int16_t reluish_multiplier_fixedpoint_int16 = 0;
  int reluish_multiplier_exponent = 0;
};

// Reduces a Q0.31 multiplier to Q0.15, rounding; saturates near the top.
inline int16_t DownScaleInt32ToInt16Multiplier(int32_t multiplier) {
  constexpr int32_t kRound = 1 << 15;
  if (multiplier >= std::numeric_limits<int32_t>::max() - kRound) {
    return std::numeric_limits<int16_t>::max();
  }
  return static_cast<int16_t>((multiplier + kRound) >> 16);
}

inline int16_t SaturatingLeftShift16(int16_t v, int amount) {
  const int32_t r = static_cast<int32_t>(v) * (1 << amount);
  return static_cast<int16_t>(std::min<int32_t>(32767, std::max<int32_t>(-32768, r)));
}

// a * b / 2^15 truncated toward zero; min * min saturates.
inline int16_t SaturatingDoublingHighMul16(int16_t a, int16_t b) {
  if (a == b && a == std::numeric_limits<int16_t>::min()) {
    return std::numeric_limits<int16_t>::max();
  }
  return static_cast<int16_t>((static_cast<int32_t>(a) * b) / (1 << 15));
}

template <typename T>
inline T HardSwish(T x, const HardSwishParams& p) {
  namespace fp = quant::fixed_point;
  const int16_t input_value = static_cast<int16_t>(x - p.input_zero_point);
  const int16_t hires = static_cast<int16_t>(input_value * (1 << 7));
  const int16_t preshift_output =
      fp::SaturatingRoundingDoublingHighMul(hires, p.output_multiplier_fixedpoint_int16);
  int16_t reluish = hires;
  if (p.reluish_multiplier_exponent > 0) {
    reluish = SaturatingLeftShift16(reluish, p.reluish_multiplier_exponent - 1);
  }
  reluish = fp::SaturatingRoundingDoublingHighMul(reluish, p.reluish_multiplier_fixedpoint_int16);
  if (p.reluish_multiplier_exponent > 0) reluish = SaturatingLeftShift16(reluish, 1);
  if (p.reluish_multiplier_exponent < 0) {
    reluish = fp::RoundingDivideByPOT(reluish, -p.reluish_multiplier_exponent);
  }
  reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);  // [-1, 1] -> [0, 1]
  const int16_t preshift = SaturatingDoublingHighMul16(reluish, preshift_output);
  int16_t out = fp::RoundingDivideByPOT(preshift, -p.output_multiplier_exponent);
  out = static_cast<int16_t>(out + p.output_zero_point);
  out = std::min<int16_t>(out, std::numeric_limits<T>::max());
  out = std::max<int16_t>(out, std::numeric_limits<T>::min());
  return static_cast<T>(out);
}

// ---- LOGISTIC / TANH on 8-bit types: Q4.27 fixed point.
struct Sigmoid8Params {
  int32_t input_zero_point = 0;
  int32_t input_range_radius = 0;
  int32_t input_multiplier = 0;
  int input_left_shift = 0;
};

// LOGISTIC: output scale 1/256, zero point -128 (int8) or 0 (uint8).
template <typename T>
inline T Logistic8(T x, const Sigmoid8Params& p) {
  namespace fp = quant::fixed_point;
  constexpr int32_t kOutZero = std::is_same_v<T, int8_t> ? -128 : 0;
  constexpr int32_t kLo = std::numeric_limits<T>::min();
  constexpr int32_t kHi = std::numeric_limits<T>::max();
  const int32_t v = static_cast<int32_t>(x) - p.input_zero_point;
  if (v <= -p.input_range_radius) return static_cast<T>(kLo);
  if (v >= p.input_range_radius) return static_cast<T>(kHi);
  const int32_t q4 =
      quant::MultiplyByQuantizedMultiplier(v, p.input_multiplier, p.input_left_shift);
  const int32_t q0 = fp::logistic(fp::FixedPoint<int32_t, 4>::FromRaw(q4)).raw();
  return ClampTo<T>(quant::RoundingDivideByPOT(q0, 23) + kOutZero, kLo, kHi);
}

// TANH: output scale 1/128, zero point 0 (int8) or 128 (uint8).
template <typename T>
inline T Tanh8(T x, const Sigmoid8Params& p) {
  namespace fp = quant::fixed_point;
  constexpr int32_t kOutZero = std::is_same_v<T, int8_t> ? 0 : 128;
  constexpr int32_t kLo = std::numeric_limits<T>::min();
  constexpr int32_t kHi = std::numeric_limits<T>::max();
  const int32_t v = static_cast<int32_t>(x) - p.input_zero_point;
  if (v <= -p.input_range_radius) return static_cast<T>(kLo);
  if (v >= p.input_range_radius) return static_cast<T>(kHi);
  const int32_t q4 =
      quant::MultiplyByQuantizedMultiplier(v, p.input_multiplier, p.input_left_shift);
  const int32_t q0 = fp::tanh(fp::FixedPoint<int32_t, 4>::FromRaw(q4)).raw();
  return ClampTo<T>(quant::RoundingDivideByPOT(q0, 24) + kOutZero, kLo, kHi);
}

// ---- LOGISTIC / TANH on int16: interpolation in a 256-entry table of sigmoid(i / 24)
// in unsigned Q0.16 (tanh(x) = 2 sigmoid(2x) - 1). Output scale 2^-15, zero point 0.
inline constexpr uint16_t kSigmoidTable[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
    41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
    48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
    54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
    58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
    61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
    63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
    64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
    64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
    65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
    65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
    65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
    65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
    65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
    65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
    65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
    65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
};

struct Sigmoid16Params {
  int32_t input_multiplier = 0;  // 0: power-of-two input scale
  int input_left_shift = 0;
};

inline int16_t Logistic16(int16_t x, const Sigmoid16Params& p) {
  int32_t multiplier = p.input_multiplier;
  int shift = p.input_left_shift;
  if (multiplier == 0) {
    multiplier = 3 << shift;
    shift = 0;
  }
  const int32_t round = shift > 0 ? 1 << (shift - 1) : 0;
  const int32_t v = (static_cast<int32_t>(x) * multiplier + round) >> shift;
  const uint32_t abs_v = static_cast<uint32_t>(std::abs(v));
  const uint32_t uh = abs_v >> 9;
  uint32_t result;
  if (uh >= 255) {
    result = 0x7FFFu << 10;
  } else {
    const uint32_t ua = kSigmoidTable[uh];
    const uint32_t ub = kSigmoidTable[uh + 1];
    const uint32_t ut = abs_v & 0x1ff;
    result = (ua << 9) + ut * (ub - ua);
  }
  result = v >= 0 ? result + (1u << 9) : (1u << (16 + 9)) - result + (1u << 9) - 1;
  return static_cast<int16_t>(result >> 10);
}

inline int16_t Tanh16(int16_t x, const Sigmoid16Params& p) {
  int32_t multiplier = p.input_multiplier;
  int shift = p.input_left_shift;
  if (multiplier == 0) {
    multiplier = 3 << shift;
    shift = 0;
  }
  const int32_t round = shift > 0 ? 1 << (shift - 1) : 0;
  const int32_t v = (static_cast<int32_t>(x) * multiplier + round) >> shift;
  const uint32_t abs_v = static_cast<uint32_t>(std::abs(v));
  const uint32_t uh = abs_v >> 8;
  int32_t result;
  if (uh >= 255) {
    result = 0xFFFF << 8;
  } else {
    const uint32_t ua = kSigmoidTable[uh];
    const uint32_t ub = kSigmoidTable[uh + 1];
    const uint8_t ut = static_cast<uint8_t>(abs_v & 0xFF);
    result = static_cast<int32_t>((ua << 8) + ut * (ub - ua));
  }
  result = v >= 0 ? result - (1 << (14 + 9)) + (1 << (9 - 2))
                  : -result + (1 << (14 + 9)) + (1 << (9 - 2)) - 1;
  return static_cast<int16_t>(result >> (9 - 1));
}

}  // namespace octet::reference::integer
