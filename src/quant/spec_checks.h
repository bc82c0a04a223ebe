// Prepare-time checks of the TFLite int8 quantization spec (seed 000). Each failure is
// reported as one line naming the op, the tensor's role and name, and the rule broken.
#pragma once

#include <cstdint>

#include "tensorflow/lite/c/common.h"

namespace octet::quant {

// The tensor's affine quantization (or nullptr when it has none).
const TfLiteAffineQuantization* AffineOf(const TfLiteTensor* t);

// The tensor has affine quantization whose scales are finite and > 0 and whose zero points
// are representable in its type (int8 [-128,127], uint8 [0,255], int16 [-32768,32767]).
TfLiteStatus CheckAffineParams(TfLiteContext* context, const char* op, const char* role,
                               const TfLiteTensor* t);

// Valid affine params with a single scale (no rule on the int16 zero point).
TfLiteStatus CheckPerTensor(TfLiteContext* context, const char* op, const char* role,
                            const TfLiteTensor* t);

// An activation: valid affine params, one scale (per-tensor), and zero point 0 for int16.
TfLiteStatus CheckActivation(TfLiteContext* context, const char* op, const char* role,
                             const TfLiteTensor* t);

// Output params fixed by the spec (e.g. LOGISTIC int8: 1/256, -128).
TfLiteStatus CheckFixedOutputParams(TfLiteContext* context, const char* op,
                                    const TfLiteTensor* output, float scale, int32_t zero_point);

// Where the spec says "same scale/zero_point" (e.g. input and output of RESHAPE, MAX_POOL).
TfLiteStatus CheckSameParams(TfLiteContext* context, const char* op, const char* role_a,
                             const TfLiteTensor* a, const char* role_b, const TfLiteTensor* b);

// Weights: symmetric (every zero point 0 for int8/int16; uint8 legacy weights are exempt),
// and either one scale or one per channel along `channel_dim` (with channel count
// `channels`).
TfLiteStatus CheckWeights(TfLiteContext* context, const char* op, const TfLiteTensor* weights,
                          int channel_dim, int channels);

// Bias: int32 (or int64 for int16 activations), zero points 0, and scale[c] equal to
// input_scale · weight_scale[c] within float tolerance. Its quantized_dimension is not
// checked (real files carry out-of-range values that TFLite Micro accepts).
TfLiteStatus CheckBias(TfLiteContext* context, const char* op, const TfLiteTensor* bias,
                       const TfLiteTensor* input, const TfLiteTensor* weights);

// The shifts a requantization's arithmetic supports. The int32 MultiplyByQuantizedMultiplier
// takes [-31, 30] (TFLite's own bound: a left shift of 31 or more overflows x * 2^shift in
// its reference, and reaching ShiftLeftWrapping with >= 32 is undefined); the int64 variant
// of the 16x8 kernels [-31, 7].
struct ShiftRange {
  int min;
  int max;
};
inline constexpr ShiftRange kRequantShifts{-31, 30};
inline constexpr ShiftRange kRequant64Shifts{-31, 7};

// QuantizeMultiplier(real) for the requantization `what` of `op`'s `role` tensor `t` (e.g.
// "input_scale * weight_scale / output_scale"), refused at prepare with one line naming
// them when `real` is not finite, is negative (unless `allow_negative`: LEAKY_RELU's alpha),
// or needs a shift outside `range`. Zero, and values so small that every bit is shifted out,
// give multiplier 0 (the result is the output zero point), as in TFLite.
TfLiteStatus QuantizeMultiplierChecked(TfLiteContext* context, const char* op, const char* role,
                                       const TfLiteTensor* t, const char* what, double real,
                                       int32_t* multiplier, int* shift,
                                       ShiftRange range = kRequantShifts,
                                       bool allow_negative = false);

}  // namespace octet::quant
