// The portable 8-bit ADD/SUB/MUL: the reference arithmetic, element by element (ADD/SUB
// through the linear form where it is exact), also used by the SIMD kernels for the
// elements that do not fill a vector.
#include <algorithm>

#include "kernels/optimized/qbinary/qbinary_linear.h"
#include "quant/quantization_util.h"

namespace octet::optimized {
namespace {

int32_t Load(const uint8_t* p, bool is_signed) {
  return is_signed ? static_cast<int32_t>(static_cast<int8_t>(*p)) : static_cast<int32_t>(*p);
}

uint8_t One(const QBinaryParams& q, int32_t x, int32_t y) {
  int32_t raw;
  if (q.op == QBinaryOp::kMul) {
    raw = quant::MultiplyByQuantizedMultiplier((x + q.input1_offset) * (y + q.input2_offset),
                                               q.output_multiplier, q.output_shift);
  } else {
    const int32_t a = quant::MultiplyByQuantizedMultiplier(
        (x + q.input1_offset) * (1 << q.left_shift), q.input1_multiplier, q.input1_shift);
    const int32_t b = quant::MultiplyByQuantizedMultiplier(
        (y + q.input2_offset) * (1 << q.left_shift), q.input2_multiplier, q.input2_shift);
    raw = quant::MultiplyByQuantizedMultiplier(q.op == QBinaryOp::kSub ? a - b : a + b,
                                               q.output_multiplier, q.output_shift);
  }
  return static_cast<uint8_t>(std::min(std::max(raw + q.output_offset, q.act_min), q.act_max));
}

void RunScalar(const QBinaryParams& q, const QBinaryCall& c) {
  if (q.op != QBinaryOp::kMul && q.linear.usable) {
    // The linear form where it is exact (nearly everywhere), the full arithmetic elsewhere.
    const QBinaryLinear& l = q.linear;
    for (size_t i = 0; i < c.n; ++i) {
      const int32_t x = Load(c.a + (c.a_scalar ? 0 : i), q.is_signed);
      const int32_t y = Load(c.b + (c.b_scalar ? 0 : i), q.is_signed);
      // In 64 bits: a product alone may leave int32 although the sum (PlanQBinaryLinear's
      // bound) does not.
      const auto form = static_cast<int32_t>(static_cast<int64_t>(x) * l.m1 +
                                             static_cast<int64_t>(y) * l.m2 + l.bias);
      c.out[i] =
          QBinaryLinearExactAt(l, form)
              ? static_cast<uint8_t>(std::min(std::max(form >> l.frac_bits, q.act_min), q.act_max))
              : One(q, x, y);
    }
    return;
  }
  for (size_t i = 0; i < c.n; ++i) {
    const int32_t x = Load(c.a + (c.a_scalar ? 0 : i), q.is_signed);
    const int32_t y = Load(c.b + (c.b_scalar ? 0 : i), q.is_signed);
    c.out[i] = One(q, x, y);
  }
}

}  // namespace

const QBinaryKernel kQBinaryScalar = {"qbinary_scalar", &RunScalar};

}  // namespace octet::optimized
