// QUANTIZE float32 -> int8/uint8 and DEQUANTIZE int8/uint8 -> float32 with per-tensor
// parameters, one implementation per kernel path. Plain declarations only (see qgemm.h).
//
// Quantize, exactly as reference::QuantizeValue: q = clamp(roundf(x / scale) + zero_point)
// with roundf rounding halves away from zero, NaN giving the type's lowest value and
// infinities clamping. Dequantize: scale * (q - zero_point), rounded once to float (the
// product of a float and an integer below 2^17 is exact in double, so one float multiply of
// the exact integer gives the same value).
#pragma once

#include <cstddef>
#include <cstdint>

namespace octet::optimized {

struct QConvertKernel {
  const char* name;
  void (*quantize)(const float* in, size_t n, float scale, int32_t zero_point, bool is_signed,
                   uint8_t* out);
  void (*dequantize)(const uint8_t* in, size_t n, float scale, int32_t zero_point, bool is_signed,
                     float* out);
};

extern const QConvertKernel kQConvertScalar;
extern const QConvertKernel kQConvertAvx2;
extern const QConvertKernel kQConvertAvx512Vnni;

}  // namespace octet::optimized
