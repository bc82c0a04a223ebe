// Shared parts of SPLIT and SPLIT_V: both cut their input along one axis into num_splits
// outputs of the input's type and quantization; a non-constant axis (or size_splits)
// makes every output dynamic.
#pragma once

#include <vector>

#include "kernels/reference/slice.h"
#include "ops/shape/common.h"

namespace octet::ops::shape {

// Sizes every output of one op from its inputs.
using SplitResizeFn = TfLiteStatus (*)(TfLiteContext*, TfLiteNode*);

// The end of prepare: outputs 0 .. n-1 present with the input's type and quantization,
// then all sized now by resize_outputs, or, when `sizes_known` is false, all marked
// dynamic for ResizeDynamicSplitOutputs at invoke.
inline TfLiteStatus PrepareSplitOutputs(TfLiteContext* context, TfLiteNode* node, const char* op,
                                        const TfLiteTensor* input, int n, bool sizes_known,
                                        SplitResizeFn resize_outputs) {
  for (int i = 0; i < n; ++i) {
    TfLiteTensor* output;
    TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, i, &output));
    TF_LITE_ENSURE_STATUS(CheckSameType(context, op, input, output, "output"));
    TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, op, input, output));
  }
  if (!sizes_known) {
    for (int i = 0; i < n; ++i) {
      tflite::SetTensorToDynamic(tflite::GetOutput(context, node, i));
    }
    return kTfLiteOk;
  }
  return resize_outputs(context, node);
}

// Invoke: sizes the outputs when prepare left them dynamic.
inline TfLiteStatus ResizeDynamicSplitOutputs(TfLiteContext* context, TfLiteNode* node,
                                              SplitResizeFn resize_outputs) {
  if (tflite::IsDynamicTensor(tflite::GetOutput(context, node, 0))) {
    TF_LITE_ENSURE_STATUS(resize_outputs(context, node));
  }
  return kTfLiteOk;
}

// Invoke: copies consecutive pieces of `input` along `axis`, sizes[i] long, to output i.
inline TfLiteStatus SplitIntoOutputs(TfLiteContext* context, TfLiteNode* node, const char* op,
                                     const TfLiteTensor* input, int axis,
                                     const std::vector<int>& sizes) {
  const int n = tflite::NumOutputs(node);
  return ByElementWidth(context, op, input, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T*> outputs(n);
    for (int i = 0; i < n; ++i) {
      outputs[i] = reinterpret_cast<T*>(tflite::GetOutput(context, node, i)->data.raw);
    }
    reference::Split(axis, Shape::Of(input), reinterpret_cast<const T*>(input->data.raw), sizes,
                     outputs);
  });
}

}  // namespace octet::ops::shape
