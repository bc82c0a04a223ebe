// Validation helpers shared by the NN kernels. Every failure is reported as one line,
// "<OP>: <problem>", through the context, and turns into kTfLiteError.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/op_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

// `what` (e.g. "input", "filter") must be float32.
TfLiteStatus RequireFloat(TfLiteContext* context, const char* op, const char* what,
                          const TfLiteTensor* t);

// `what` must have exactly `rank` dimensions, all >= 0.
TfLiteStatus RequireRank(TfLiteContext* context, const char* op, const char* what,
                         const TfLiteTensor* t, int rank);
// All dimensions >= 0 and at least `min_rank` of them.
TfLiteStatus RequireValidDims(TfLiteContext* context, const char* op, const char* what,
                              const TfLiteTensor* t, int min_rank = 0);

// Output size and leading padding of one spatial axis under SAME/VALID padding,
// as TFLite computes them (in 64-bit, so huge shapes are reported, not overflowed).
struct AxisWindow {
  int out_size = 0;
  int pad = 0;
  int pad_offset = 0;  // the extra trailing padding cell when the total is odd
};
TfLiteStatus ComputeAxisWindow(TfLiteContext* context, const char* op, const char* axis,
                               TfLitePadding padding, int in_size, int filter_size, int stride,
                               int dilation, AxisWindow* window);

// Scales of int8 weights used by a hybrid kernel: symmetric (all zero points 0), either
// one scale or one per slice of dimension `channel_dim` (`channels` of them). `per_channel`
// is left empty when there is a single scale or all scales are equal (TFLite then takes
// its per-tensor path); `scale` is the first scale.
TfLiteStatus ReadHybridWeightScales(TfLiteContext* context, const char* op,
                                    const TfLiteTensor* weights, int channel_dim, int channels,
                                    float* scale, std::vector<float>* per_channel);

}  // namespace octet::ops::nn
