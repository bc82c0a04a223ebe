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
