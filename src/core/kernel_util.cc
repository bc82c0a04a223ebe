// Implementation of the kernel-facing helpers in tensorflow/lite/kernels/kernel_util.h.
#include "tensorflow/lite/kernels/kernel_util.h"

#include <algorithm>
#include <cmath>

#include "core/alloc_guard.h"

namespace tflite {
namespace {

// Tensor at position `index` of `list`, or nullptr when absent / out of range.
TfLiteTensor* TensorAt(const TfLiteContext* context, const TfLiteIntArray* list, int index) {
  if (list == nullptr || index < 0 || index >= list->size) return nullptr;
  const int tensor_index = list->data[index];
  if (tensor_index < 0 || static_cast<size_t>(tensor_index) >= context->tensors_size) {
    return nullptr;
  }
  return &context->tensors[tensor_index];
}

}  // namespace

const TfLiteTensor* GetInput(const TfLiteContext* context, const TfLiteNode* node, int index) {
  return TensorAt(context, node->inputs, index);
}

TfLiteTensor* GetVariableInput(TfLiteContext* context, const TfLiteNode* node, int index) {
  TfLiteTensor* t = TensorAt(context, node->inputs, index);
  return (t != nullptr && t->is_variable) ? t : nullptr;
}

TfLiteTensor* GetOutput(TfLiteContext* context, const TfLiteNode* node, int index) {
  return TensorAt(context, node->outputs, index);
}

const TfLiteTensor* GetOptionalInputTensor(const TfLiteContext* context, const TfLiteNode* node,
                                           int index) {
  return TensorAt(context, node->inputs, index);
}

TfLiteTensor* GetTemporary(TfLiteContext* context, const TfLiteNode* node, int index) {
  return TensorAt(context, node->temporaries, index);
}

const TfLiteTensor* GetIntermediates(TfLiteContext* context, const TfLiteNode* node, int index) {
  return TensorAt(context, node->intermediates, index);
}

namespace {

// The *Safe getters: report which entry of which list is missing instead of returning null.
template <typename Tensor>
TfLiteStatus Require(const TfLiteContext* context, Tensor* found, const char* list, int index,
                     Tensor** tensor) {
  *tensor = found;
  if (found == nullptr) {
    TF_LITE_KERNEL_LOG(const_cast<TfLiteContext*>(context), "node %s %d is missing", list, index);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus GetInputSafe(const TfLiteContext* context, const TfLiteNode* node, int index,
                          const TfLiteTensor** tensor) {
  return Require<const TfLiteTensor>(context, GetInput(context, node, index), "input", index,
                                     tensor);
}

TfLiteStatus GetOutputSafe(const TfLiteContext* context, const TfLiteNode* node, int index,
                           TfLiteTensor** tensor) {
  return Require(context, TensorAt(context, node->outputs, index), "output", index, tensor);
}

TfLiteStatus GetTemporarySafe(const TfLiteContext* context, const TfLiteNode* node, int index,
                              TfLiteTensor** tensor) {
  return Require(context, TensorAt(context, node->temporaries, index), "temporary", index, tensor);
}

bool HaveSameShapes(const TfLiteTensor* a, const TfLiteTensor* b) {
  return TfLiteIntArrayEqual(a->dims, b->dims) != 0;
}

namespace {

TfLiteStatus BroadcastShapes(TfLiteContext* context, std::initializer_list<const TfLiteTensor*> ts,
                             TfLiteIntArray** output_shape) {
  int rank = 0;
  for (const TfLiteTensor* t : ts) rank = std::max(rank, NumDimensions(t));
  std::vector<int> out(rank, 1);
  for (const TfLiteTensor* t : ts) {
    const int r = NumDimensions(t);
    for (int i = 0; i < r; ++i) {
      const int d = t->dims->data[r - 1 - i];
      int& o = out[rank - 1 - i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      TF_LITE_KERNEL_LOG(context, "shapes cannot be broadcast together: dimension %d is %d vs %d",
                         rank - 1 - i, o, d);
      return kTfLiteError;
    }
  }
  // A dimension of 0 in any operand makes the broadcast dimension 0.
  for (const TfLiteTensor* t : ts) {
    const int r = NumDimensions(t);
    for (int i = 0; i < r; ++i) {
      if (t->dims->data[r - 1 - i] == 0) out[rank - 1 - i] = 0;
    }
  }
  *output_shape = CreateIntArray(out);
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus CalculateShapeForBroadcast(TfLiteContext* context, const TfLiteTensor* a,
                                        const TfLiteTensor* b, TfLiteIntArray** output_shape) {
  return BroadcastShapes(context, {a, b}, output_shape);
}

TfLiteStatus CalculateShapeForBroadcast(TfLiteContext* context, const TfLiteTensor* a,
                                        const TfLiteTensor* b, const TfLiteTensor* c,
                                        TfLiteIntArray** output_shape) {
  return BroadcastShapes(context, {a, b, c}, output_shape);
}

void CalculateActivationRange(TfLiteFusedActivation activation, float* min, float* max) {
  *min = std::numeric_limits<float>::lowest();
  *max = std::numeric_limits<float>::max();
  switch (activation) {
    case kTfLiteActRelu:
      *min = 0.f;
      break;
    case kTfLiteActRelu6:
      *min = 0.f;
      *max = 6.f;
      break;
    case kTfLiteActReluN1To1:
      *min = -1.f;
      *max = 1.f;
      break;
    default:
      break;
  }
}

TfLiteStatus CalculateActivationRangeQuantized(TfLiteContext* context,
                                               TfLiteFusedActivation activation,
                                               TfLiteTensor* output, int32_t* act_min,
                                               int32_t* act_max) {
  int32_t qmin = 0, qmax = 0;
  switch (output->type) {
    case kTfLiteUInt8:
      qmin = 0;
      qmax = 255;
      break;
    case kTfLiteInt8:
      qmin = -128;
      qmax = 127;
      break;
    case kTfLiteInt16:
      qmin = -32768;
      qmax = 32767;
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "fused activation on a %s output is not quantized",
                         TfLiteTypeGetName(output->type));
      return kTfLiteError;
  }
  const float scale = output->params.scale;
  const int32_t zp = output->params.zero_point;
  if (!(scale > 0.f) || !std::isfinite(scale)) {
    TF_LITE_KERNEL_LOG(context, "output '%s' has invalid quantization scale %g",
                       output->name ? output->name : "", scale);
    return kTfLiteError;
  }
  // Quantize a real bound the way the reference kernels do: round(x / scale) + zero point.
  auto quantize = [&](float x) -> int32_t {
    const float q = std::round(x / scale);
    return zp + static_cast<int32_t>(q);
  };
  switch (activation) {
    case kTfLiteActRelu:
      *act_min = std::max(qmin, quantize(0.f));
      *act_max = qmax;
      break;
    case kTfLiteActRelu6:
      *act_min = std::max(qmin, quantize(0.f));
      *act_max = std::min(qmax, quantize(6.f));
      break;
    case kTfLiteActReluN1To1:
      *act_min = std::max(qmin, quantize(-1.f));
      *act_max = std::min(qmax, quantize(1.f));
      break;
    case kTfLiteActNone:
      *act_min = qmin;
      *act_max = qmax;
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "fused activation %d is not supported on quantized outputs",
                         static_cast<int>(activation));
      return kTfLiteError;
  }
  return kTfLiteOk;
}

int ComputeOutSize(TfLitePadding padding, int image_size, int filter_size, int stride,
                   int dilation_rate) {
  const int effective_filter = (filter_size - 1) * dilation_rate + 1;
  if (stride <= 0) return 0;
  switch (padding) {
    case kTfLitePaddingSame:
      return (image_size + stride - 1) / stride;
    case kTfLitePaddingValid:
      return (image_size + stride - effective_filter) / stride;
    default:
      return 0;
  }
}

int ComputePaddingWithOffset(int stride, int dilation_rate, int in_size, int filter_size,
                             int out_size, int* offset) {
  const int effective_filter = (filter_size - 1) * dilation_rate + 1;
  int total = ((out_size - 1) * stride + effective_filter - in_size);
  total = total > 0 ? total : 0;
  *offset = total % 2;
  return total / 2;
}

TfLitePaddingValues ComputePaddingHeightWidth(int stride_height, int stride_width,
                                              int dilation_rate_height, int dilation_rate_width,
                                              int in_height, int in_width, int filter_height,
                                              int filter_width, TfLitePadding padding,
                                              int* out_height, int* out_width) {
  *out_width = ComputeOutSize(padding, in_width, filter_width, stride_width, dilation_rate_width);
  *out_height =
      ComputeOutSize(padding, in_height, filter_height, stride_height, dilation_rate_height);
  TfLitePaddingValues values{};
  int offset = 0;
  values.height = ComputePaddingWithOffset(stride_height, dilation_rate_height, in_height,
                                           filter_height, *out_height, &offset);
  values.height_offset = offset;
  values.width = ComputePaddingWithOffset(stride_width, dilation_rate_width, in_width, filter_width,
                                          *out_width, &offset);
  values.width_offset = offset;
  return values;
}

TfLiteIntArray* CreateIntArray(const std::vector<int>& values) {
  TfLiteIntArray* a = octet::OrThrow(TfLiteIntArrayCreate(static_cast<int>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) a->data[i] = values[i];
  return a;
}

}  // namespace tflite
