// Prepare-time checks shared by the TFLite-exact integer LSTMs (8x8_16 in lstm_integer_full,
// 8x8_8 in lstm_integer_8x8_8): each failure is one "<op>: <what is wrong>" line.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "quant/spec_checks.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

struct LstmIntegerChecker {
  TfLiteContext* context;
  const char* op;

  // Logs "<op>: <fmt...>" and returns kTfLiteError.
  TfLiteStatus Fail(const char* fmt, ...) const;

  // Node input `index` (named as in kLstmInputNames) has exactly these dims.
  TfLiteStatus Shape(int index, const TfLiteTensor* t, std::initializer_list<int> dims) const;

  TfLiteStatus Type(const char* role, const TfLiteTensor* t, TfLiteType want) const;

  // One finite scale > 0 (TFLite reads params.scale). Without `zero_point` the zero point
  // must be 0; with it, it is returned and must lie in [zp_min, zp_max].
  TfLiteStatus Scale(const char* role, const TfLiteTensor* t, float* scale,
                     int32_t* zero_point = nullptr, int32_t zp_min = 0, int32_t zp_max = 0) const;

  // `real` as a (multiplier, shift) pair in `m` (any struct with those two fields), refused by
  // name when the shift leaves `range`.
  template <typename M>
  TfLiteStatus Multiplier(const char* role, const TfLiteTensor* t, const char* what, double real,
                          M* m, quant::ShiftRange range = quant::kRequantShifts) const {
    return quant::QuantizeMultiplierChecked(context, op, role, t, what, real, &m->multiplier,
                                            &m->shift, range);
  }
};

}  // namespace octet::ops::nn
