// Checks shared by CONV_3D and CONV_3D_TRANSPOSE: the Conv3DOptions (padding, strides,
// dilations, activation), the per-axis window arithmetic TFLite uses
// (tflite::ComputePadding3DValues), and element counts that must not overflow.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "kernels/reference/conv_3d.h"
#include "ops/op_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn3d {

namespace reference = ::octet::reference;

// Padding SAME or VALID, strides and dilations > 0 (TFLite would divide by zero or
// loop forever), and a clamp activation; fills the geometry's strides, dilations and clamp.
inline TfLiteStatus ReadOptions(TfLiteContext* context, const char* op,
                                const TfLiteConv3DParams* params, reference::Conv3DGeometry* g) {
  OCTET_OP_ENSURE(context,
                  params->padding == kTfLitePaddingSame || params->padding == kTfLitePaddingValid,
                  op, "padding %d is not SAME or VALID", static_cast<int>(params->padding));
  const struct {
    const char* name;
    int value;
  } factors[] = {{"stride_depth", params->stride_depth},
                 {"stride_height", params->stride_height},
                 {"stride_width", params->stride_width},
                 {"dilation_depth_factor", params->dilation_depth_factor},
                 {"dilation_height_factor", params->dilation_height_factor},
                 {"dilation_width_factor", params->dilation_width_factor}};
  for (const auto& f : factors) {
    OCTET_OP_ENSURE(context, f.value > 0, op, "%s must be > 0, got %d", f.name, f.value);
  }
  g->stride_depth = params->stride_depth;
  g->stride_height = params->stride_height;
  g->stride_width = params->stride_width;
  g->dilation_depth = params->dilation_depth_factor;
  g->dilation_height = params->dilation_height_factor;
  g->dilation_width = params->dilation_width_factor;
  return ActivationRange<float>(context, op, params->activation, &g->act_min, &g->act_max);
}

// One spatial axis of a forward convolution as TFLite computes it: the output size
// (ComputeOutSize; may be <= 0 for VALID when the filter is larger than the image) and the
// leading padding (ComputePaddingWithOffset). In 64 bits; fails when the window's reach
// (last origin + effective filter) does not fit in an int, so the kernels' int coordinates
// cannot overflow.
inline TfLiteStatus ForwardAxis(TfLiteContext* context, const char* op, const char* axis,
                                TfLitePadding padding, int in_size, int filter_size, int stride,
                                int dilation, int64_t* out_size, int* pad) {
  const int64_t effective = int64_t{filter_size - 1} * dilation + 1;
  const int64_t out = padding == kTfLitePaddingSame
                          ? (int64_t{in_size} + stride - 1) / stride
                          : (int64_t{in_size} + stride - effective) / stride;
  const int64_t reach = std::max<int64_t>(out - 1, 0) * stride + effective;
  OCTET_OP_ENSURE(context, reach <= std::numeric_limits<int>::max(), op,
                  "the convolution window along %s is too large", axis);
  *out_size = out;
  *pad = static_cast<int>(std::max<int64_t>(0, (out - 1) * stride + effective - in_size) / 2);
  return kTfLiteOk;
}

// The product of `dims` as a float element count, failing when it (or its byte size)
// would overflow.
inline TfLiteStatus CheckedCount(TfLiteContext* context, const char* op, const char* what,
                                 std::initializer_list<int64_t> dims, int64_t* count) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / sizeof(float);
  int64_t n = 1;
  for (int64_t d : dims) {
    OCTET_OP_ENSURE(context, d >= 0, op, "%s has a negative dimension (%lld)", what,
                    static_cast<long long>(d));
    OCTET_OP_ENSURE(context, d == 0 || n <= kMax / d, op, "%s has too many elements", what);
    n *= d;
  }
  *count = n;
  return kTfLiteOk;
}

// Present tensors must have their data before the kernel reads or writes them.
inline TfLiteStatus RequireBuffers(TfLiteContext* context, const char* op,
                                   const TfLiteTensor* input, const TfLiteTensor* filter,
                                   const TfLiteTensor* bias, const TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, RequireData(context, op, "input", input));
  TF_LITE_ENSURE_OK(context, RequireData(context, op, "filter", filter));
  if (bias != nullptr) TF_LITE_ENSURE_OK(context, RequireData(context, op, "bias", bias));
  return RequireData(context, op, "output", output);
}

}  // namespace octet::ops::nn3d
