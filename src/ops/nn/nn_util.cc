#include "ops/nn/nn_util.h"

#include <algorithm>
#include <limits>

#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn {

TfLiteStatus RequireFloat(TfLiteContext* context, const char* op, const char* what,
                          const TfLiteTensor* t) {
  OCTET_OP_ENSURE(context, t->type == kTfLiteFloat32, op,
                  "%s type %s is not supported (only FLOAT32)", what, TfLiteTypeGetName(t->type));
  return kTfLiteOk;
}

TfLiteStatus RequireValidDims(TfLiteContext* context, const char* op, const char* what,
                              const TfLiteTensor* t, int min_rank) {
  const int rank = tflite::NumDimensions(t);
  OCTET_OP_ENSURE(context, rank >= min_rank, op, "%s must have at least %d dimensions, got %d",
                  what, min_rank, rank);
  for (int i = 0; i < rank; ++i) {
    OCTET_OP_ENSURE(context, t->dims->data[i] >= 0, op, "%s dimension %d is negative (%d)", what, i,
                    t->dims->data[i]);
  }
  return kTfLiteOk;
}

TfLiteStatus RequireRank(TfLiteContext* context, const char* op, const char* what,
                         const TfLiteTensor* t, int rank) {
  const int actual = tflite::NumDimensions(t);
  OCTET_OP_ENSURE(context, actual == rank, op, "%s must have %d dimensions, got %d", what, rank,
                  actual);
  return RequireValidDims(context, op, what, t, rank);
}

TfLiteStatus ComputeAxisWindow(TfLiteContext* context, const char* op, const char* axis,
                               TfLitePadding padding, int in_size, int filter_size, int stride,
                               int dilation, AxisWindow* window) {
  OCTET_OP_ENSURE(context, stride > 0, op, "stride_%s must be > 0, got %d", axis, stride);
  OCTET_OP_ENSURE(context, dilation > 0, op, "dilation_%s_factor must be > 0, got %d", axis,
                  dilation);
  OCTET_OP_ENSURE(context, filter_size > 0, op, "filter %s must be > 0, got %d", axis, filter_size);
  OCTET_OP_ENSURE(context, in_size > 0, op, "input %s must be > 0, got %d", axis, in_size);
  const int64_t effective = int64_t{filter_size - 1} * dilation + 1;
  int64_t out = 0;
  if (padding == kTfLitePaddingSame) {
    out = (int64_t{in_size} + stride - 1) / stride;
  } else if (padding == kTfLitePaddingValid) {
    out = (int64_t{in_size} + stride - effective) / stride;
  } else {
    TF_LITE_KERNEL_LOG(context, "%s: padding %d is not SAME or VALID", op,
                       static_cast<int>(padding));
    return kTfLiteError;
  }
  OCTET_OP_ENSURE(context, out > 0, op,
                  "output %s must be > 0 (input %d, effective filter %lld, stride %d)", axis,
                  in_size, static_cast<long long>(effective), stride);
  // Keeps every window coordinate the kernels compute within int range.
  const int64_t span = (out - 1) * stride + effective;
  OCTET_OP_ENSURE(context, span <= std::numeric_limits<int>::max(), op,
                  "window along %s is too large", axis);
  const int64_t total = std::max<int64_t>(0, span - in_size);
  window->out_size = static_cast<int>(out);
  window->pad = static_cast<int>(total / 2);
  window->pad_offset = static_cast<int>(total % 2);
  return kTfLiteOk;
}

TfLiteStatus ReadHybridWeightScales(TfLiteContext* context, const char* op,
                                    const TfLiteTensor* weights, int channel_dim, int channels,
                                    float* scale, std::vector<float>* per_channel) {
  per_channel->clear();
  const auto* q = weights->quantization.type == kTfLiteAffineQuantization
                      ? static_cast<const TfLiteAffineQuantization*>(weights->quantization.params)
                      : nullptr;
  OCTET_OP_ENSURE(context, q != nullptr && q->scale != nullptr && q->scale->size > 0, op,
                  "INT8 weights of a hybrid op need quantization scales");
  const int n = q->scale->size;
  OCTET_OP_ENSURE(context, n == 1 || (n == channels && q->quantized_dimension == channel_dim), op,
                  "INT8 weights have %d scales; expected 1 or %d along dimension %d", n, channels,
                  channel_dim);
  if (q->zero_point != nullptr) {
    for (int i = 0; i < q->zero_point->size; ++i) {
      OCTET_OP_ENSURE(context, q->zero_point->data[i] == 0, op,
                      "INT8 weights of a hybrid op must be symmetric (zero point %d)",
                      q->zero_point->data[i]);
    }
  }
  *scale = q->scale->data[0];
  for (int i = 1; i < n; ++i) {
    if (q->scale->data[i] != *scale) {
      per_channel->assign(q->scale->data, q->scale->data + n);
      break;
    }
  }
  return kTfLiteOk;
}

}  // namespace octet::ops::nn
