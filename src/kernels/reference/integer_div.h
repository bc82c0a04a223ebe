// Quantized (uint8) DIV as TFLite's reference computes it: the divisor's reciprocal from
// GetReciprocal, the dividend normalised by its sign-bit headroom, one doubling high
// multiply, then a single rounding shift by output_shift - reciprocal shift - headroom.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "quant/fixed_point.h"
#include "quant/quantization_util.h"

namespace octet::reference::integer {

struct DivParams {
  int32_t input1_offset = 0, input2_offset = 0, output_offset = 0;
  int32_t output_multiplier = 0;
  int output_shift = 0;
  int32_t act_min = 0, act_max = 0;
};

// Redundant sign bits of x (31 for 0).
inline int CountLeadingSignBits(int32_t x) {
  if (x == std::numeric_limits<int32_t>::min()) return 0;
  if (x >= 0) return quant::fixed_point::CountLeadingZeros(static_cast<uint32_t>(x)) - 1;
  return quant::fixed_point::CountLeadingZeros(2 * static_cast<uint32_t>(-x) - 1);
}

// gemmlowp's RoundingDivideByPOT for any exponent >= 0, as TFLite's builds execute it.
// Small quotients with a large reciprocal shift reach exponents of 32 and more, which
// TFLite leaves to the machine: its mask (1 << exponent) - 1 is taken in 64 bits and
// truncated to 32, and both shift counts wrap (modulo 64 and 32; x86 and WebAssembly
// alike). Reproduced on purpose, for the same bits; below 32 this is the exact rounding.
inline int32_t RoundingDivideByPOTWrapped(int32_t x, int exponent) {
  const uint64_t wide_mask = (uint64_t{1} << (exponent & 63)) - 1;
  const auto mask = static_cast<int32_t>(static_cast<uint32_t>(wide_mask));
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  // Wrapping add (x = INT32_MAX with a wrapped shift of 0).
  return static_cast<int32_t>(static_cast<uint32_t>(x >> (exponent & 31)) +
                              (remainder > threshold ? 1u : 0u));
}

// Requires input2_offset + y != 0 (prepare/eval reject a zero divisor).
template <typename T>
inline T Div(T x, T y, const DivParams& p) {
  int32_t a = p.input1_offset + x;
  int32_t b = p.input2_offset + y;
  if (b < 0) {  // the reciprocal multiplier must be positive
    a = -a;
    b = -b;
  }
  int recip_shift;
  const int32_t inv = quant::fixed_point::GetReciprocal(b, 31, &recip_shift);
  const int headroom = CountLeadingSignBits(a);
  const int32_t unscaled = quant::MultiplyByQuantizedMultiplierGreaterThanOne(a, inv, headroom);
  // Prepare bounds output_shift so that this is never a left shift.
  const int exponent = recip_shift + headroom - p.output_shift;
  const int32_t scaled = RoundingDivideByPOTWrapped(
      quant::SaturatingRoundingDoublingHighMul(unscaled, p.output_multiplier), exponent);
  return static_cast<T>(std::min(p.act_max, std::max(p.act_min, p.output_offset + scaled)));
}

}  // namespace octet::reference::integer
