// Quantized SOFTMAX over the innermost axis.
//
// QuantizedSoftmax is TFLite's reference (and TFLite Micro's) fixed-point algorithm for
// int8/uint8 inputs: differences from the row maximum are rescaled by beta·input_scale
// into Q5.26, exponentiated with exp_on_negative_values, summed in Q12.19, inverted with
// GetReciprocal, and each probability is produced as exp · (1/sum) shifted down to the
// output width, offset by the output type's minimum (zero point −128 for int8, 0 for
// uint8, −32768 for int16 outputs). Differences below diff_min give the minimum output.
//
// TableSoftmaxUint8 is the float lookup-table path TFLite's optimized builtin kernel runs
// for uint8 (legacy models, whose goldens come from it).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/reference/saturate.h"
#include "quant/fixed_point.h"
#include "quant/quantization_util.h"

namespace octet::reference {

struct QuantizedSoftmaxParams {
  int32_t input_multiplier = 0;
  int input_left_shift = 0;
  int diff_min = 0;
};

// The probability's final rounding shift. With a sum of exps of 2^9 or more (many near-equal
// logits) the exponent passes 31, where TFLite's shift is undefined; the exact result, a
// non-negative int32 divided by 2^32 or more, rounds to 0.
inline int32_t SoftmaxRoundingShift(int32_t x, int exponent) {
  return exponent > 31 ? 0 : quant::RoundingDivideByPOT(x, exponent);
}

// Adds one exp (at most 1.0) to the Q12.19 sum of exps. From 4096 near-maximal logits on the
// sum passes 2^12, where TFLite's int32 addition overflows (undefined); here it saturates
// just below 4096.0, every probability is then at most 2^-12, and the result stays defined.
template <typename Accum>
Accum AddToSumOfExps(Accum sum, Accum exp) {
  const int64_t total = static_cast<int64_t>(sum.raw()) + exp.raw();
  return Accum::FromRaw(static_cast<int32_t>(
      std::min<int64_t>(total, std::numeric_limits<int32_t>::max())));
}

template <typename InT, typename OutT>
void QuantizedSoftmax(const QuantizedSoftmaxParams& p, int64_t outer, int depth, const InT* input,
                      OutT* output) {
  namespace fp = quant::fixed_point;
  constexpr int kScaledDiffIntegerBits = 5;
  constexpr int kAccumulationIntegerBits = 12;
  using ScaledDiff = fp::FixedPoint<int32_t, kScaledDiffIntegerBits>;
  using Accum = fp::FixedPoint<int32_t, kAccumulationIntegerBits>;
  using F0 = fp::FixedPoint<int32_t, 0>;
  constexpr int32_t kOutMin = std::numeric_limits<OutT>::min();
  constexpr int32_t kOutMax = std::numeric_limits<OutT>::max();
  constexpr int kOutBits = static_cast<int>(sizeof(OutT) * 8);

  auto scaled = [&](int32_t diff) {
    return ScaledDiff::FromRaw(quant::MultiplyByQuantizedMultiplierGreaterThanOne(
        diff, p.input_multiplier, p.input_left_shift));
  };
  for (int64_t i = 0; i < outer; ++i) {
    const InT* in = input + i * depth;
    OutT* out = output + i * depth;
    int32_t max_in_row = std::numeric_limits<InT>::min();
    for (int c = 0; c < depth; ++c) max_in_row = std::max<int32_t>(max_in_row, in[c]);

    Accum sum_of_exps = Accum::Zero();
    for (int c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
      if (diff >= p.diff_min) {
        sum_of_exps = AddToSumOfExps(sum_of_exps, fp::Rescale<kAccumulationIntegerBits>(
                                                      fp::exp_on_negative_values(scaled(diff))));
      }
    }
    int num_bits_over_unit = 0;
    const F0 shifted_scale = F0::FromRaw(
        fp::GetReciprocal(sum_of_exps.raw(), kAccumulationIntegerBits, &num_bits_over_unit));

    for (int c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
      if (diff >= p.diff_min) {
        const F0 exp_in_0 = fp::exp_on_negative_values(scaled(diff));
        const int32_t unsat = SoftmaxRoundingShift((shifted_scale * exp_in_0).raw(),
                                                   num_bits_over_unit + 31 - kOutBits);
        const int32_t shifted = unsat + kOutMin;
        out[c] = static_cast<OutT>(std::max(std::min(shifted, kOutMax), kOutMin));
      } else {
        out[c] = static_cast<OutT>(kOutMin);
      }
    }
  }
}

// ---- LOG_SOFTMAX, int8 (TFLite Micro) and uint8 (TFLite reference), one template: the
// output has 4 integer bits (scale 16/256) and its maximum, T's max, means log(p) = 0.
// Differences are rescaled into Q5.26 as for SOFTMAX, their exps summed in Q12.19, and
// log(sum) taken in Q5.26; output = RoundingDivideByPOT(diff − log_sum, 22) + T's max.
// Differences at or below adjusted_diff_min (the larger of diff_min − 1 and the input
// difference whose rescaled value minus log_sum would underflow Q5.26) give T's min.

struct QuantizedLogSoftmaxParams {
  int32_t input_multiplier = 0;
  int input_left_shift = 0;
  int32_t reverse_scaling_divisor = 0;
  int reverse_scaling_right_shift = 0;  // >= 0
  int diff_min = 0;
};

template <typename T>
void QuantizedLogSoftmax(const QuantizedLogSoftmaxParams& p, int64_t outer, int depth,
                         const T* input, T* output) {
  namespace fp = quant::fixed_point;
  constexpr int kInputIntegerBits = 5;
  constexpr int kAccumulationIntegerBits = 12;
  constexpr int kOutputIntegerBits = 4;
  using F5 = fp::FixedPoint<int32_t, kInputIntegerBits>;
  using F12 = fp::FixedPoint<int32_t, kAccumulationIntegerBits>;
  constexpr int32_t kMin = std::numeric_limits<T>::min();
  constexpr int32_t kMax = std::numeric_limits<T>::max();

  for (int64_t i = 0; i < outer; ++i) {
    const T* in = input + i * depth;
    T* out = output + i * depth;
    int32_t max_in_row = kMin;
    for (int c = 0; c < depth; ++c) max_in_row = std::max<int32_t>(max_in_row, in[c]);

    F12 sum_of_exps = F12::Zero();
    for (int c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
      if (diff >= p.diff_min) {
        const int32_t diff_q5 =
            quant::MultiplyByQuantizedMultiplier(diff, p.input_multiplier, p.input_left_shift);
        sum_of_exps = sum_of_exps + fp::Rescale<kAccumulationIntegerBits>(
                                        fp::exp_on_negative_values(F5::FromRaw(diff_q5)));
      }
    }
    const int32_t log_sum_q5 =
        fp::log_x_for_x_greater_than_or_equal_to_1<kInputIntegerBits>(sum_of_exps).raw();
    // The smallest Q5.26 value plus log_sum, mapped back to an input difference.
    const int32_t shifted_log_sum =
        static_cast<int32_t>(static_cast<uint32_t>(log_sum_q5) + static_cast<uint32_t>(INT32_MIN));
    const int32_t adjusted_diff_min = std::max<int32_t>(
        p.diff_min - 1,
        quant::MultiplyByQuantizedMultiplier(shifted_log_sum, p.reverse_scaling_divisor,
                                             -p.reverse_scaling_right_shift));
    for (int c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
      if (diff > adjusted_diff_min) {
        const int32_t diff_q5 =
            quant::MultiplyByQuantizedMultiplier(diff, p.input_multiplier, p.input_left_shift);
        const int32_t v = quant::RoundingDivideByPOT(fp::WrapSub(diff_q5, log_sum_q5),
                                                     31 - kInputIntegerBits - kOutputIntegerBits) +
                          kMax;
        out[c] = static_cast<T>(std::max(std::min(v, kMax), kMin));
      } else {
        out[c] = static_cast<T>(kMin);
      }
    }
  }
}

// ---- SOFTMAX int16 → int16 (TFLite Micro's LUT path). Output scale 1/32768, zero point 0.

constexpr int kInt16LutSize = 513;

// TFLite's gen_lut<float, int16_t, int16_t>: 512 samples of func over [input_min,
// input_max] (outputs scaled by 32768 for the range [-1, 1]), each biased by half the
// error of linear interpolation at the segment midpoint, plus func(input_max) as entry 512
// for the last slope. All arithmetic in float, as the reference.
template <typename Func>
void GenInt16Lut(Func func, float input_min, float input_max, int16_t* lut) {
  constexpr int kSteps = 512;
  const float step = (input_max - input_min) / kSteps;
  const float half_step = step / 2;
  const float scaling_inv = 65536.f / 2.f;
  const float lo = -32768.f, hi = 32767.f;
  for (int i = 0; i < kSteps; ++i) {
    const float val = func(input_min + static_cast<float>(i) * step);
    const float val_mid = func(input_min + static_cast<float>(i) * step + half_step);
    const float val_next = func(input_min + static_cast<float>(i + 1) * step);
    const float sample = std::round(val * scaling_inv);
    const float mid_interp =
        std::round((val_next * scaling_inv + std::round(val * scaling_inv)) / 2);
    const float mid = std::round(val_mid * scaling_inv);
    const float bias = std::round((mid_interp - mid) / 2);
    lut[i] = static_cast<int16_t>(std::min(std::max(sample - bias, lo), hi));
  }
  lut[kSteps] =
      static_cast<int16_t>(std::min(std::max(std::round(func(input_max) * scaling_inv), lo), hi));
}

// Table lookup with linear interpolation: the top 9 bits pick the segment, the low 7 the
// position inside it.
inline int16_t Int16LutLookup(int16_t value, const int16_t* lut) {
  const int index = 256 + (value >> 7);
  const int32_t offset = value & 0x7f;
  const int16_t base = lut[index];
  const int16_t slope = static_cast<int16_t>(lut[index + 1] - lut[index]);
  const int32_t delta = (static_cast<int32_t>(slope) * offset + 64) >> 7;
  return static_cast<int16_t>(base + delta);
}

struct Int16SoftmaxParams {
  int32_t input_multiplier = 0;  // beta · input_scale / (10 / 65535)
  int input_left_shift = 0;
  int16_t exp_lut[kInt16LutSize] = {};                  // exp on [-10, 0]
  int16_t one_over_one_plus_x_lut[kInt16LutSize] = {};  // 1 / (1 + x) on [0, 1]
};

inline void PopulateInt16SoftmaxLuts(Int16SoftmaxParams* p) {
  GenInt16Lut([](float v) { return std::exp(v); }, -10.f, 0.f, p->exp_lut);
  GenInt16Lut([](float v) { return 1.f / (1.f + v); }, 0.f, 1.f, p->one_over_one_plus_x_lut);
}

inline void SoftmaxInt16(const Int16SoftmaxParams& p, int64_t outer, int depth,
                         const int16_t* input, int16_t* output) {
  for (int64_t i = 0; i < outer; ++i) {
    const int16_t* in = input + i * depth;
    int16_t* out = output + i * depth;
    int32_t max_in_row = std::numeric_limits<int16_t>::min();
    for (int c = 0; c < depth; ++c) max_in_row = std::max<int32_t>(max_in_row, in[c]);

    // exp(diff) in Q0.15, kept in the output row; their sum in Q16.15.
    int32_t sum_of_exps = 0;
    for (int c = 0; c < depth; ++c) {
      const int32_t diff = static_cast<int32_t>(in[c]) - max_in_row;
      // [-65535, 0] stands for [-10, 0]; recentred to [-32768, 32767] for the table.
      const int32_t scaled =
          quant::MultiplyByQuantizedMultiplier(diff, p.input_multiplier, p.input_left_shift);
      const int32_t sym = std::min<int32_t>(std::max<int32_t>(scaled + 32767, -32768), 32767);
      out[c] = Int16LutLookup(static_cast<int16_t>(sym), p.exp_lut);
      sum_of_exps += out[c];
    }

    // 1 / sum: the sum normalised to [1, 2) in Q1.14-ish steps, x = sum − 1 recentred.
    const int headroom_plus_one =
        quant::fixed_point::CountLeadingZeros(static_cast<uint32_t>(sum_of_exps));
    const int32_t shifted_sum = static_cast<int32_t>(
        ((static_cast<int64_t>(sum_of_exps) << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    const int32_t sym_shifted_sum = shifted_sum - ((1 << 15) + (1 << 16));
    const int16_t reciprocal = Int16LutLookup(
        static_cast<int16_t>(std::min<int32_t>(std::max<int32_t>(sym_shifted_sum, -32768), 32767)),
        p.one_over_one_plus_x_lut);

    const int right_shift = 31 - headroom_plus_one;
    const int64_t round = int64_t{1} << (right_shift - 1);
    for (int c = 0; c < depth; ++c) {
      const int32_t r = static_cast<int32_t>(
          (static_cast<int64_t>(out[c]) * static_cast<int64_t>(reciprocal) + round) >> right_shift);
      out[c] = static_cast<int16_t>(std::min<int32_t>(std::max<int32_t>(r, 0), 32767));
    }
  }
}

// table[255 − v] = exp(−input_scale · beta · v) for v in [0, 255].
inline void PopulateSoftmaxTable(float input_scale, float beta, float* table) {
  const float scale = -input_scale * beta;
  for (int32_t v = 0; v <= 255; ++v) table[255 - v] = std::exp(scale * static_cast<float>(v));
}

inline void TableSoftmaxUint8(const float* table, float output_scale, int64_t outer, int depth,
                              const uint8_t* input, uint8_t* output) {
  for (int64_t i = 0; i < outer; ++i) {
    const uint8_t* in = input + i * depth;
    uint8_t* out = output + i * depth;
    int32_t max_val = 0;
    for (int c = 0; c < depth; ++c) max_val = std::max<int32_t>(max_val, in[c]);
    // table_offset[x] = exp(−input_scale · beta · (max − x)).
    const float* table_offset = table + (255 - max_val);
    float sum_exp = 0.f;
    for (int c = 0; c < depth; ++c) sum_exp += table_offset[in[c]];
    const float inv_sum_exp = 1.0f / (sum_exp * output_scale);
    for (int c = 0; c < depth; ++c) {
      const float prob_rescaled = table_offset[in[c]] * inv_sum_exp;
      // Saturating: a beta that overflows exp gives inf * 0 = NaN here, which maps to 0.
      out[c] = static_cast<uint8_t>(SaturatingTruncate(prob_rescaled + 0.5f, 0, 255));
    }
  }
}

}  // namespace octet::reference
