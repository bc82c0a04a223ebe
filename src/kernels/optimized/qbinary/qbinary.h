// Quantized 8-bit ADD / SUB / MUL over contiguous elements (equal shapes, or one operand a
// single value), one implementation per kernel path. Plain aggregates only (see qgemm.h).
//
// ADD/SUB (TFLite's integer path):
//   a = MBQM((x + offset1) << left_shift, m1, s1); b = MBQM((y + offset2) << left_shift, m2, s2)
//   out = clamp(MBQM(a ± b, m_out, s_out) + output_offset)
// MUL: out = clamp(MBQM((x + offset1) * (y + offset2), m_out, s_out) + output_offset)
// where MBQM is MultiplyByQuantizedMultiplier (shifts <= 0 for ADD/SUB, any for MUL).
#pragma once

#include <cstddef>
#include <cstdint>

namespace octet::optimized {

enum class QBinaryOp : int { kAdd = 0, kSub = 1, kMul = 2 };

// ADD/SUB as one fixed-point linear form, A = x * m1 + y * m2 + bias (int32, frac_bits
// fraction bits), whose floor is TFLite's exact result wherever A's fraction is more than
// `window` from an integer (the bound is derived in qbinary_linear.cc); lanes inside the
// window take the exact arithmetic. Lets SIMD kernels replace three 64-bit requantizations
// per element by two 32-bit multiplies.
struct QBinaryLinear {
  bool usable = false;
  int32_t m1 = 0;
  int32_t m2 = 0;
  int32_t bias = 0;
  int frac_bits = 0;
  int32_t window = 0;
};

struct QBinaryParams {
  QBinaryOp op;
  bool is_signed;  // int8 (else uint8)
  int32_t input1_offset;
  int32_t input2_offset;
  int32_t output_offset;
  int left_shift;  // ADD/SUB only
  int32_t input1_multiplier;
  int input1_shift;
  int32_t input2_multiplier;
  int input2_shift;
  int32_t output_multiplier;
  int output_shift;
  int32_t act_min;
  int32_t act_max;
  QBinaryLinear linear;  // filled by PlanQBinaryLinear; unused for MUL
};

// out[i] = op(a[i], b[i]) for i < n; with b_scalar, op(a[i], b[0]); with a_scalar, op(a[0], b[i]).
struct QBinaryCall {
  const uint8_t* a;
  const uint8_t* b;
  uint8_t* out;
  size_t n;
  bool a_scalar;
  bool b_scalar;
};

using QBinaryFn = void (*)(const QBinaryParams& params, const QBinaryCall& call);

struct QBinaryKernel {
  const char* name;
  QBinaryFn run;
};

extern const QBinaryKernel kQBinaryScalar;
extern const QBinaryKernel kQBinaryAvx2;
extern const QBinaryKernel kQBinaryAvx512Vnni;

}  // namespace octet::optimized
