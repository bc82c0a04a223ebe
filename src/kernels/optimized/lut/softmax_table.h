// int8 SOFTMAX with its exps from a table. The reference (QuantizedSoftmax) evaluates
// exp_on_negative_values twice per element, ~100 fixed-point steps each; an int8 row has
// only 256 possible differences from its maximum, so prepare runs the reference's own
// fixed-point calls once per difference and the row loop sums and scales table entries.
// Every value is produced by the same functions in the same order: bit-identical.
// Portable (no ISA code).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "kernels/reference/integer_softmax.h"
#include "quant/fixed_point.h"
#include "quant/quantization_util.h"

namespace octet::optimized {

struct SoftmaxExpTable {
  // For d = max - x in [0, 255]: the exp in Q0.31 and its Q12.19 rescale for the sum.
  int32_t exp[256];
  int32_t exp_accumulated[256];
  int last_in_range;  // the largest d with -d >= diff_min (-1 when none)
};

inline void FillSoftmaxExpTable(const reference::QuantizedSoftmaxParams& p,
                                SoftmaxExpTable* table) {
  namespace fp = quant::fixed_point;
  using ScaledDiff = fp::FixedPoint<int32_t, 5>;
  table->last_in_range = -1;
  for (int d = 0; d < 256; ++d) {
    table->exp[d] = 0;
    table->exp_accumulated[d] = 0;
    if (-d < p.diff_min) continue;
    const ScaledDiff scaled =
        ScaledDiff::FromRaw(quant::MultiplyByQuantizedMultiplierGreaterThanOne(
            -d, p.input_multiplier, p.input_left_shift));
    const auto e = fp::exp_on_negative_values(scaled);
    table->exp[d] = e.raw();
    table->exp_accumulated[d] = fp::Rescale<12>(e).raw();
    table->last_in_range = d;
  }
}

// QuantizedSoftmax<int8_t, OutT> over `outer` rows of `depth`.
template <typename OutT>
void TableSoftmaxInt8(const SoftmaxExpTable& table, int64_t outer, int depth, const int8_t* input,
                      OutT* output) {
  namespace fp = quant::fixed_point;
  using Accum = fp::FixedPoint<int32_t, 12>;
  using F0 = fp::FixedPoint<int32_t, 0>;
  constexpr int32_t kOutMin = std::numeric_limits<OutT>::min();
  constexpr int32_t kOutMax = std::numeric_limits<OutT>::max();
  constexpr int kOutBits = static_cast<int>(sizeof(OutT) * 8);
  const int last = table.last_in_range;
  for (int64_t i = 0; i < outer; ++i) {
    const int8_t* in = input + i * depth;
    OutT* out = output + i * depth;
    int32_t max_in_row = std::numeric_limits<int8_t>::min();
    for (int c = 0; c < depth; ++c) max_in_row = std::max<int32_t>(max_in_row, in[c]);

    // Entries beyond `last` are zero, which adds nothing (the reference skips them).
    Accum sum_of_exps = Accum::Zero();
    for (int c = 0; c < depth; ++c) {
      sum_of_exps = reference::AddToSumOfExps(
          sum_of_exps, Accum::FromRaw(table.exp_accumulated[max_in_row - in[c]]));
    }
    int num_bits_over_unit = 0;
    const F0 shifted_scale =
        F0::FromRaw(fp::GetReciprocal(sum_of_exps.raw(), 12, &num_bits_over_unit));
    const int exponent = num_bits_over_unit + 31 - kOutBits;
    for (int c = 0; c < depth; ++c) {
      const int d = max_in_row - in[c];
      if (d > last) {
        out[c] = static_cast<OutT>(kOutMin);
        continue;
      }
      const int32_t unsat = reference::SoftmaxRoundingShift(
          (shifted_scale * F0::FromRaw(table.exp[d])).raw(), exponent);
      out[c] = static_cast<OutT>(std::max(std::min(unsat + kOutMin, kOutMax), kOutMin));
    }
  }
}

}  // namespace octet::optimized
