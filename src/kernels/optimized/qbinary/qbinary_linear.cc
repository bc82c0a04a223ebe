// The linear form of 8-bit ADD/SUB (qbinary.h), and why its floor is exact outside the window.
//
// TFLite computes, with v1 = x + offset1, v2 = y + offset2 (|v| <= 255), L = left_shift and
// every shift <= 0:
//   a = RDBP(SRDHM(v1 << L, m1), -s1),  b likewise,  w = SRDHM(a ± b, mo),
//   out = RDBP(w, -so) + zero_point
// SRDHM(p, m) is p * m / 2^31 rounded to nearest (it equals floor((p m + 2^30) / 2^31) when
// it does not saturate, which needs p = m = INT32_MIN), RDBP rounds half away from zero. So
// |a - a*| <= 1 for a* = v1 2^L m1 2^s1 / 2^31 (1/2 from each rounding), |(a ± b) - s*| <= 2,
// and |w 2^so - R| <= (2 mo / 2^31 + 1/2) 2^so < 2.5 2^so =: D, where
//   R = v1 c1 ± v2 c2,   c_i = 2^L m_i mo 2^(s_i + so) / 2^62.
// Hence out - zero_point = round_half_away(R + d) with |d| <= D. The linear form computes
//   A = v1 M1 + v2 M2 + zero_point 2^F + 2^(F-1),   M_i = round(±c_i 2^F),
// so |A / 2^F - (R + zero_point + 1/2)| <= (|v1| + |v2|) / 2^(F+1) <= 255 / 2^F. If A / 2^F
// is further than 255 / 2^F + D from every integer, no integer lies between it and
// R + d + zero_point + 1/2, which is then no tie either: floor(A / 2^F) is exactly
// round_half_away(R + d) + zero_point. The window is that distance in units of 2^-F (plus
// slack), and the offsets fold into the bias (x M1 + offset1 M1 = v1 M1 in integers).
#include "kernels/optimized/qbinary/qbinary_linear.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace octet::optimized {
namespace {

// round(m1 * mo * 2^exponent) when it fits in int32 (m1, mo < 2^31, so the product is exact
// in 64 bits), else false.
bool RoundedProduct(int32_t m1, int32_t mo, int exponent, int64_t* out) {
  const uint64_t product = static_cast<uint64_t>(m1) * static_cast<uint64_t>(mo);
  if (exponent >= 0) {
    if (exponent > 31 || product > (uint64_t{std::numeric_limits<int32_t>::max()} >> exponent)) {
      return false;
    }
    *out = static_cast<int64_t>(product << exponent);
    return true;
  }
  const int right = -exponent;
  if (right >= 64) {
    *out = 0;  // the product is below 2^62, so it rounds to zero
    return true;
  }
  const uint64_t rounded = (product >> right) + ((product >> (right - 1)) & 1);
  if (rounded > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) return false;
  *out = static_cast<int64_t>(rounded);
  return true;
}

}  // namespace

void PlanQBinaryLinear(QBinaryParams* q) {
  q->linear = QBinaryLinear{};
  if (q->op == QBinaryOp::kMul) return;
  if (q->left_shift < 0 || q->left_shift > 22) return;
  if (q->input1_multiplier <= 0 || q->input2_multiplier <= 0 || q->output_multiplier <= 0) return;
  if (q->input1_shift > 0 || q->input2_shift > 0 || q->output_shift > 0) return;
  const int64_t lo = q->is_signed ? -128 : 0, hi = q->is_signed ? 127 : 255;
  constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  // The most fraction bits whose form fits in 32 bits, down to where the window grows past
  // 1/16 of a step (then most lanes would take the exact path anyway).
  for (int frac = 24; frac >= 12; --frac) {
    int64_t m1, m2;
    const int base = q->left_shift + q->output_shift + frac - 62;
    if (!RoundedProduct(q->input1_multiplier, q->output_multiplier, base + q->input1_shift, &m1) ||
        !RoundedProduct(q->input2_multiplier, q->output_multiplier, base + q->input2_shift, &m2)) {
      continue;
    }
    if (q->op == QBinaryOp::kSub) m2 = -m2;
    const int64_t bias = q->input1_offset * m1 + q->input2_offset * m2 +
                         static_cast<int64_t>(q->output_offset) * (int64_t{1} << frac) +
                         (int64_t{1} << (frac - 1));
    const double drift = std::ceil(2.5 * std::ldexp(1.0, q->output_shift + frac));
    const int64_t window = 255 + 2 + static_cast<int64_t>(drift);
    if (window * 16 > (int64_t{1} << frac)) continue;
    // A is linear in x and y, so its extremes are at the corners of the input range.
    const int64_t x_min = std::min(lo * m1, hi * m1), x_max = std::max(lo * m1, hi * m1);
    const int64_t y_min = std::min(lo * m2, hi * m2), y_max = std::max(lo * m2, hi * m2);
    if (bias + x_min + y_min - window < kInt32Min || bias + x_max + y_max + window > kInt32Max) {
      continue;
    }
    QBinaryLinear& l = q->linear;
    l.usable = true;
    l.m1 = static_cast<int32_t>(m1);
    l.m2 = static_cast<int32_t>(m2);
    l.bias = static_cast<int32_t>(bias);
    l.frac_bits = frac;
    l.window = static_cast<int32_t>(window);
    return;
  }
}

}  // namespace octet::optimized
