#include "ops/nn/lstm_integer_checker.h"

#include <cmath>
#include <cstdarg>
#include <string>

#include "ops/nn/lstm_inputs.h"
#include "ops/op_util.h"
#include "quant/quantization_util.h"

namespace octet::ops::nn {

TfLiteStatus LstmIntegerChecker::Fail(const char* fmt, ...) const {
  va_list args;
  va_start(args, fmt);
  const TfLiteStatus status = OpFailV(context, op, fmt, args);
  va_end(args);
  return status;
}

TfLiteStatus LstmIntegerChecker::Shape(int index, const TfLiteTensor* t,
                                       std::initializer_list<int> dims) const {
  bool ok = t->dims && t->dims->size == static_cast<int>(dims.size());
  int i = 0;
  for (int d : dims) ok = ok && t->dims->data[i++] == d;
  if (ok) return kTfLiteOk;
  std::string want;
  for (int d : dims) want += (want.empty() ? "" : ", ") + std::to_string(d);
  return Fail("%s must have shape [%s], got %s", kLstmInputNames[index], want.c_str(),
              DimsString(t).c_str());
}

TfLiteStatus LstmIntegerChecker::Type(const char* role, const TfLiteTensor* t,
                                      TfLiteType want) const {
  if (t->type == want) return kTfLiteOk;
  return Fail("%s must be %s, got %s", role, TfLiteTypeGetName(want), TfLiteTypeGetName(t->type));
}

TfLiteStatus LstmIntegerChecker::Scale(const char* role, const TfLiteTensor* t, float* scale,
                                       int32_t* zero_point, int32_t zp_min, int32_t zp_max) const {
  const auto* q = quant::AffineOf(t);
  if (q == nullptr || q->scale == nullptr || q->scale->size != 1 || q->zero_point == nullptr ||
      q->zero_point->size != 1) {
    return Fail("%s must be quantized per-tensor (one scale and zero point)", role);
  }
  const float s = q->scale->data[0];
  if (!(s > 0.f) || !std::isfinite(s)) {
    return Fail("%s scale must be finite and > 0, got %g", role, static_cast<double>(s));
  }
  const int32_t zp = q->zero_point->data[0];
  if (zero_point == nullptr && zp != 0) return Fail("%s zero point must be 0, got %d", role, zp);
  if (zero_point != nullptr && (zp < zp_min || zp > zp_max)) {
    return Fail("%s zero point %d is outside [%d, %d]", role, zp, zp_min, zp_max);
  }
  *scale = s;
  if (zero_point) *zero_point = zp;
  return kTfLiteOk;
}

}  // namespace octet::ops::nn
