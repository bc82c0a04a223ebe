#include "quant/spec_checks.h"

#include <cmath>

#include "quant/quantization_util.h"

namespace octet::quant {
namespace {

const char* NameOf(const TfLiteTensor* t) { return t && t->name ? t->name : ""; }

bool ZeroPointRange(TfLiteType type, int32_t* lo, int32_t* hi) {
  switch (type) {
    case kTfLiteInt8:
      *lo = -128;
      *hi = 127;
      return true;
    case kTfLiteUInt8:
      *lo = 0;
      *hi = 255;
      return true;
    case kTfLiteInt16:
      *lo = -32768;
      *hi = 32767;
      return true;
    case kTfLiteInt32:
    case kTfLiteInt64:
      *lo = 0;
      *hi = 0;
      return true;
    default:
      return false;
  }
}

}  // namespace

const TfLiteAffineQuantization* AffineOf(const TfLiteTensor* t) {
  if (t == nullptr || t->quantization.type != kTfLiteAffineQuantization) return nullptr;
  const auto* q = static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
  if (q == nullptr || q->scale == nullptr || q->zero_point == nullptr || q->scale->size == 0) {
    return nullptr;
  }
  return q;
}

TfLiteStatus CheckAffineParams(TfLiteContext* context, const char* op, const char* role,
                               const TfLiteTensor* t) {
  const TfLiteAffineQuantization* q = AffineOf(t);
  if (q == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: %s '%s' (%s) has no quantization parameters", op, role,
                       NameOf(t), TfLiteTypeGetName(t->type));
    return kTfLiteError;
  }
  if (q->zero_point->size != q->scale->size) {
    TF_LITE_KERNEL_LOG(context, "%s: %s '%s' has %d scales but %d zero points", op, role, NameOf(t),
                       q->scale->size, q->zero_point->size);
    return kTfLiteError;
  }
  int32_t lo = 0, hi = 0;
  const bool ranged = ZeroPointRange(t->type, &lo, &hi);
  for (int i = 0; i < q->scale->size; ++i) {
    const float s = q->scale->data[i];
    if (!(s > 0.f) || !std::isfinite(s)) {
      TF_LITE_KERNEL_LOG(context, "%s: %s '%s' scale[%d] = %g must be finite and > 0", op, role,
                         NameOf(t), i, s);
      return kTfLiteError;
    }
    const int32_t zp = q->zero_point->data[i];
    if (ranged && t->type != kTfLiteInt32 && t->type != kTfLiteInt64 && (zp < lo || zp > hi)) {
      TF_LITE_KERNEL_LOG(context, "%s: %s '%s' zero_point[%d] = %d is outside %s range [%d, %d]",
                         op, role, NameOf(t), i, zp, TfLiteTypeGetName(t->type), lo, hi);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus CheckPerTensor(TfLiteContext* context, const char* op, const char* role,
                            const TfLiteTensor* t) {
  TF_LITE_ENSURE_STATUS(CheckAffineParams(context, op, role, t));
  const TfLiteAffineQuantization* q = AffineOf(t);
  if (q->scale->size != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: %s '%s' must be quantized per-tensor, has %d scales", op, role,
                       NameOf(t), q->scale->size);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckActivation(TfLiteContext* context, const char* op, const char* role,
                             const TfLiteTensor* t) {
  TF_LITE_ENSURE_STATUS(CheckPerTensor(context, op, role, t));
  const TfLiteAffineQuantization* q = AffineOf(t);
  if (t->type == kTfLiteInt16 && q->zero_point->data[0] != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: %s '%s' is int16 and must have zero_point 0, has %d", op, role,
                       NameOf(t), q->zero_point->data[0]);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckFixedOutputParams(TfLiteContext* context, const char* op,
                                    const TfLiteTensor* output, float scale, int32_t zero_point) {
  TF_LITE_ENSURE_STATUS(CheckActivation(context, op, "output", output));
  const float got_scale = output->params.scale;
  const int32_t got_zp = output->params.zero_point;
  if (std::fabs(got_scale - scale) > scale * 1e-6f || got_zp != zero_point) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: %s output '%s' must have scale %g and zero_point %d (spec), has "
                       "scale %g and zero_point %d",
                       op, TfLiteTypeGetName(output->type), NameOf(output), scale, zero_point,
                       got_scale, got_zp);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckSameParams(TfLiteContext* context, const char* op, const char* role_a,
                             const TfLiteTensor* a, const char* role_b, const TfLiteTensor* b) {
  if (a->params.scale != b->params.scale || a->params.zero_point != b->params.zero_point) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: %s '%s' (scale %g, zero_point %d) and %s '%s' (scale %g, zero_point "
                       "%d) must have the same quantization",
                       op, role_a, NameOf(a), a->params.scale, a->params.zero_point, role_b,
                       NameOf(b), b->params.scale, b->params.zero_point);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckWeights(TfLiteContext* context, const char* op, const TfLiteTensor* weights,
                          int channel_dim, int channels) {
  TF_LITE_ENSURE_STATUS(CheckAffineParams(context, op, "weights", weights));
  const TfLiteAffineQuantization* q = AffineOf(weights);
  if (q->scale->size != 1) {
    if (q->scale->size != channels) {
      TF_LITE_KERNEL_LOG(context, "%s: weights '%s' have %d per-axis scales for %d channels", op,
                         NameOf(weights), q->scale->size, channels);
      return kTfLiteError;
    }
    if (q->quantized_dimension != channel_dim) {
      TF_LITE_KERNEL_LOG(context, "%s: weights '%s' are quantized along dimension %d, expected %d",
                         op, NameOf(weights), q->quantized_dimension, channel_dim);
      return kTfLiteError;
    }
  }
  if (weights->type != kTfLiteUInt8) {
    for (int i = 0; i < q->zero_point->size; ++i) {
      if (q->zero_point->data[i] != 0) {
        TF_LITE_KERNEL_LOG(context,
                           "%s: %s weights '%s' must be symmetric (zero_point 0), "
                           "zero_point[%d] = %d",
                           op, TfLiteTypeGetName(weights->type), NameOf(weights), i,
                           q->zero_point->data[i]);
        return kTfLiteError;
      }
    }
  }
  return kTfLiteOk;
}

TfLiteStatus CheckBias(TfLiteContext* context, const char* op, const TfLiteTensor* bias,
                       const TfLiteTensor* input, const TfLiteTensor* weights) {
  const TfLiteAffineQuantization* bq = AffineOf(bias);
  const TfLiteAffineQuantization* wq = AffineOf(weights);
  if (bq == nullptr || wq == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: bias '%s' must be quantized like its weights", op,
                       NameOf(bias));
    return kTfLiteError;
  }
  if (bq->scale->size != wq->scale->size && bq->scale->size != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: bias '%s' has %d scales, weights have %d", op, NameOf(bias),
                       bq->scale->size, wq->scale->size);
    return kTfLiteError;
  }
  for (int i = 0; i < bq->scale->size; ++i) {
    if (bq->zero_point->size > i && bq->zero_point->data[i] != 0) {
      TF_LITE_KERNEL_LOG(context, "%s: bias '%s' zero_point[%d] = %d must be 0", op, NameOf(bias),
                         i, bq->zero_point->data[i]);
      return kTfLiteError;
    }
    const double expected =
        static_cast<double>(input->params.scale) * wq->scale->data[wq->scale->size == 1 ? 0 : i];
    const double got = bq->scale->data[i];
    if (!(std::fabs(got - expected) <= 1e-5 * std::fabs(expected) + 1e-12)) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: bias '%s' scale[%d] = %g must equal input_scale * weight_scale = %g",
                         op, NameOf(bias), i, got, expected);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus QuantizeMultiplierChecked(TfLiteContext* context, const char* op, const char* role,
                                       const TfLiteTensor* t, const char* what, double real,
                                       int32_t* multiplier, int* shift, ShiftRange range,
                                       bool allow_negative) {
  *multiplier = 0;
  *shift = 0;
  if (!std::isfinite(real) || (real < 0 && !allow_negative)) {
    TF_LITE_KERNEL_LOG(context, "%s: %s '%s': effective scale %s = %g must be finite%s", op, role,
                       NameOf(t), what, real, allow_negative ? "" : " and >= 0");
    return kTfLiteError;
  }
  int32_t m = 0;
  int s = 0;
  QuantizeMultiplier(real, &m, &s);
  if (m != 0 && (s < range.min || s > range.max)) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: %s '%s': effective scale %s = %g is not representable: it needs a "
                       "shift of %d bits, the kernel supports [%d, %d] (%s)",
                       op, role, NameOf(t), what, real, s, range.min, range.max,
                       s > range.max ? "scale too large" : "scale too small");
    return kTfLiteError;
  }
  *multiplier = m;
  *shift = s;
  return kTfLiteOk;
}

}  // namespace octet::quant
