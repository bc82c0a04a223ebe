// Helpers shared by the shape / data-movement kernels in this folder: checked tensor
// access, int32/int64 index tensors, output resizing and one-line error reporting.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/reference/shape_util.h"
#include "ops/op_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::shape {

namespace reference = ::octet::reference;

inline std::vector<int> DimsOf(const TfLiteTensor* t) {
  return std::vector<int>(t->dims->data, t->dims->data + t->dims->size);
}

// Tensors whose value is known at prepare time (so outputs they shape need not be dynamic).
inline bool IsConstant(const TfLiteTensor* t) { return tflite::IsConstantTensor(t); }

// Element types the data-movement kernels accept (they move elements by width only).
inline bool IsMovableType(TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteInt16:
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteBool:
      return true;
    default:
      return false;
  }
}

inline TfLiteStatus CheckMovableType(TfLiteContext* context, const char* op, TfLiteType type) {
  OCTET_ENSURE(context, IsMovableType(type), "%s: unsupported element type %s", op,
               TfLiteTypeGetName(type));
  return kTfLiteOk;
}

inline TfLiteStatus CheckSameType(TfLiteContext* context, const char* op, const TfLiteTensor* a,
                                  const TfLiteTensor* b, const char* what) {
  OCTET_ENSURE(context, a->type == b->type, "%s: %s type %s does not match input type %s", op, what,
               TfLiteTypeGetName(b->type), TfLiteTypeGetName(a->type));
  return kTfLiteOk;
}

// Ops that only relabel dims (RESHAPE, EXPAND_DIMS, SQUEEZE) take any fixed-size type.
inline TfLiteStatus CheckFixedSizeType(TfLiteContext* context, const char* op,
                                       const TfLiteTensor* input) {
  OCTET_ENSURE(context, TfLiteTypeGetSize(input->type) > 0, "%s: unsupported element type %s", op,
               TfLiteTypeGetName(input->type));
  return kTfLiteOk;
}

// The invoke of an op that only relabels dims: the bytes are copied unchanged, unless the
// runtime lets the output share the input's buffer (in-place).
inline void CopyUnlessShared(const TfLiteTensor* input, TfLiteTensor* output) {
  if (output->data.raw != input->data.raw) {
    reference::CopyBytes(output->data.raw, input->data.raw, input->bytes);
  }
}

// Computes an output's dims from the node's inputs.
using OutputDimsFn = TfLiteStatus (*)(TfLiteContext*, TfLiteNode*, std::vector<int>*);

// Prepare: sizes `output` from output_dims now when `dims_known` (the inputs that shape it
// are constant); otherwise marks it dynamic, for ResizeDynamicOutput at invoke.
inline TfLiteStatus ResizeOrMarkDynamic(TfLiteContext* context, TfLiteNode* node,
                                        TfLiteTensor* output, bool dims_known,
                                        OutputDimsFn output_dims) {
  if (!dims_known) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  std::vector<int> dims;
  TF_LITE_ENSURE_STATUS(output_dims(context, node, &dims));
  return ResizeOutput(context, output, dims);
}

// Invoke: sizes `output` from output_dims when prepare left it dynamic.
inline TfLiteStatus ResizeDynamicOutput(TfLiteContext* context, TfLiteNode* node,
                                        TfLiteTensor* output, OutputDimsFn output_dims) {
  if (tflite::IsDynamicTensor(output)) {
    std::vector<int> dims;
    TF_LITE_ENSURE_STATUS(output_dims(context, node, &dims));
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, dims));
  }
  return kTfLiteOk;
}

// Raw-copy kernels are only exact when input and output share scale and zero point.
inline TfLiteStatus CheckSameQuantization(TfLiteContext* context, const char* op,
                                          const TfLiteTensor* input, const TfLiteTensor* output) {
  if (!IsQuantizedType(input->type)) return kTfLiteOk;
  OCTET_ENSURE(context,
               input->params.scale == output->params.scale &&
                   input->params.zero_point == output->params.zero_point,
               "%s: input and output quantization differ (scale %g zp %d vs scale %g zp %d)", op,
               input->params.scale, input->params.zero_point, output->params.scale,
               output->params.zero_point);
  return kTfLiteOk;
}

// Reads an int32 or int64 tensor as int64 values.
inline TfLiteStatus ReadIndices(TfLiteContext* context, const char* op, const TfLiteTensor* t,
                                const char* what, std::vector<int64_t>* values) {
  const int64_t n = tflite::NumElements(t);
  values->resize(n);
  if (t->type == kTfLiteInt32) {
    for (int64_t i = 0; i < n; ++i) (*values)[i] = t->data.i32[i];
  } else if (t->type == kTfLiteInt64) {
    for (int64_t i = 0; i < n; ++i) (*values)[i] = t->data.i64[i];
  } else {
    OCTET_ENSURE(context, false, "%s: %s must be int32 or int64, got %s", op, what,
                 TfLiteTypeGetName(t->type));
  }
  return kTfLiteOk;
}

inline TfLiteStatus CheckIndexType(TfLiteContext* context, const char* op, const TfLiteTensor* t,
                                   const char* what) {
  OCTET_ENSURE(context, t->type == kTfLiteInt32 || t->type == kTfLiteInt64,
               "%s: %s must be int32 or int64, got %s", op, what, TfLiteTypeGetName(t->type));
  return kTfLiteOk;
}

// Normalises a possibly negative axis into [0, rank); false when out of range.
inline bool NormalizeAxis(int64_t axis, int rank, int* out) {
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return false;
  *out = static_cast<int>(axis);
  return true;
}

// Calls f(T{}) with an unsigned type of the tensor's element width.
template <typename F>
TfLiteStatus ByElementWidth(TfLiteContext* context, const char* op, const TfLiteTensor* t, F&& f) {
  OCTET_ENSURE(
      context,
      IsMovableType(t->type) && reference::DispatchByElementSize(TfLiteTypeGetSize(t->type), f),
      "%s: unsupported element type %s", op, TfLiteTypeGetName(t->type));
  return kTfLiteOk;
}

}  // namespace octet::ops::shape
