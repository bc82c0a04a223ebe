// The int8 SOFTMAX exp-table kernel against the reference QuantizedSoftmax: random input
// scales and betas (including ones where diff_min cuts the table short), depths from 1 to
// past the Q12.19 sum's comfortable range, rows of equal values, -128 and 127 extremes, int8
// and int16 outputs. Portable code: one path.
#include "kernels/optimized/lut/softmax_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/reference/integer_softmax.h"
#include "quant/fixed_point.h"
#include "quant/quantization_util.h"

namespace octet::optimized {
namespace {

// SOFTMAX's prepare: the Q5.26 difference multiplier and the cut-off (see ops/nn/softmax.cc).
reference::QuantizedSoftmaxParams ParamsFor(double input_scale, double beta) {
  const double real = std::min(beta * input_scale * double{1 << 26}, double{(1ll << 31) - 1});
  reference::QuantizedSoftmaxParams p;
  int shift = 0;
  quant::QuantizeMultiplierGreaterThanOne(real, &p.input_multiplier, &shift);
  p.input_left_shift = shift;
  p.diff_min = -quant::fixed_point::CalculateInputRadius(5, shift);
  return p;
}

std::vector<int8_t> RandomRows(std::mt19937& rng, int64_t outer, int depth) {
  std::vector<int8_t> v(static_cast<size_t>(outer * depth));
  const int pattern = static_cast<int>(rng() % 4);
  const int8_t constant = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
  for (int8_t& x : v) {
    switch (pattern) {
      case 0:  // one value everywhere
        x = constant;
        break;
      case 1:  // the extremes only
        x = rng() % 2 ? int8_t{-128} : int8_t{127};
        break;
      case 2:  // a narrow band
        x = static_cast<int8_t>(
            std::clamp<int>(constant + static_cast<int>(rng() % 9) - 4, -128, 127));
        break;
      default:
        x = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
    }
  }
  return v;
}

template <typename OutT>
void ExpectMatchesReference(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> log_scale(-4.0, 0.5);
  const double betas[] = {1.0, 0.5, 2.0, 0.01, 25.0};
  const int depths[] = {1, 2, 3, 10, 17, 64, 255, 1001, 5000};
  int cut_short = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const double scale = std::pow(10.0, log_scale(rng));
    const double beta = betas[rng() % 5];
    const reference::QuantizedSoftmaxParams p = ParamsFor(scale, beta);
    SoftmaxExpTable table;
    FillSoftmaxExpTable(p, &table);
    if (table.last_in_range < 255) ++cut_short;
    const int depth = depths[rng() % 9];
    const int64_t outer = 1 + rng() % 3;
    const std::vector<int8_t> in = RandomRows(rng, outer, depth);
    std::vector<OutT> want(in.size()), got(in.size());
    reference::QuantizedSoftmax(p, outer, depth, in.data(), want.data());
    TableSoftmaxInt8(table, outer, depth, in.data(), got.data());
    ASSERT_EQ(want, got) << "scale " << scale << " beta " << beta << " depth " << depth << " outer "
                         << outer;
  }
  // Both regimes were exercised: a full table and one cut short by diff_min.
  EXPECT_GT(cut_short, 0);
  EXPECT_LT(cut_short, 400);
}

TEST(SoftmaxTable, Int8OutputMatchesReference) { ExpectMatchesReference<int8_t>(1); }

TEST(SoftmaxTable, Int16OutputMatchesReference) { ExpectMatchesReference<int16_t>(2); }

// 4096 or more equal logits take the Q12.19 sum of exps past 2^12 (TFLite's int32 sum
// overflows; 8192 wrapped it to exactly 0, a fuzz finding that shifted by 32). The sum now
// saturates: each probability, 1/depth < 2^-12, is 0 in int8 units on both kernels.
TEST(SoftmaxTable, MoreThan4096EqualLogitsGiveZeroProbabilities) {
  for (int depth : {4096, 4097, 8192, 20000}) {
    const reference::QuantizedSoftmaxParams p = ParamsFor(0.1, 1.0);
    SoftmaxExpTable table;
    FillSoftmaxExpTable(p, &table);
    const std::vector<int8_t> in(static_cast<size_t>(depth), int8_t{17});
    std::vector<int8_t> want(in.size()), got(in.size());
    reference::QuantizedSoftmax(p, 1, depth, in.data(), want.data());
    TableSoftmaxInt8(table, 1, depth, in.data(), got.data());
    EXPECT_EQ(want, got) << depth;
    EXPECT_EQ(std::count(got.begin(), got.end(), int8_t{-128}), depth) << depth;
  }
}

}  // namespace
}  // namespace octet::optimized
