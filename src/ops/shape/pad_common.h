// Shared prepare/eval of PAD and PADV2: input 0 the tensor, input 1 the paddings
// ([rank, 2] int32/int64, non-negative), optional input 2 the fill value (one element of
// the input type). Without it, quantized tensors fill with the output zero point, others
// with 0. Non-constant paddings make the output dynamic.
#pragma once

#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/reference/pad.h"
#include "ops/shape/common.h"

namespace octet::ops::shape {

constexpr int kMaxPadRank = 8;

inline TfLiteStatus ReadPaddings(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                                 const TfLiteTensor* paddings, bool allow_negative,
                                 std::vector<int>* before, std::vector<int>* after) {
  const int rank = tflite::NumDimensions(input);
  std::vector<int64_t> v;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, op, paddings, "paddings", &v));
  before->resize(rank);
  after->resize(rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t b = v[2 * d], a = v[2 * d + 1];
    OCTET_ENSURE(context, allow_negative || (b >= 0 && a >= 0),
                 "%s: negative padding (%lld, %lld) on dim %d", op, static_cast<long long>(b),
                 static_cast<long long>(a), d);
    const int64_t size = input->dims->data[d] + b + a;
    OCTET_ENSURE(context, size >= 0 && size <= (int64_t{1} << 31) - 1,
                 "%s: padded dim %d has invalid size %lld", op, d, static_cast<long long>(size));
    (*before)[d] = static_cast<int>(b);
    (*after)[d] = static_cast<int>(a);
  }
  return kTfLiteOk;
}

inline TfLiteStatus CheckPaddingsShape(TfLiteContext* context, const char* op,
                                       const TfLiteTensor* input, const TfLiteTensor* paddings) {
  const int rank = tflite::NumDimensions(input);
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, op, paddings, "paddings"));
  OCTET_ENSURE(context,
               tflite::NumDimensions(paddings) == 2 && paddings->dims->data[0] == rank &&
                   paddings->dims->data[1] == 2,
               "%s: paddings must have shape [%d, 2]", op, rank);
  OCTET_ENSURE(context, rank <= kMaxPadRank, "%s: input rank %d exceeds %d", op, rank, kMaxPadRank);
  return kTfLiteOk;
}

inline TfLiteStatus PadResize(TfLiteContext* context, TfLiteNode* node, const char* op) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  std::vector<int> before, after;
  TF_LITE_ENSURE_STATUS(
      ReadPaddings(context, op, input, tflite::GetInput(context, node, 1), false, &before, &after));
  std::vector<int> dims = DimsOf(input);
  for (size_t d = 0; d < dims.size(); ++d) dims[d] += before[d] + after[d];
  return ResizeOutput(context, tflite::GetOutput(context, node, 0), dims);
}

inline TfLiteStatus PadPrepare(TfLiteContext* context, TfLiteNode* node, const char* op) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, op, 2, 3, 1));
  const TfLiteTensor *input, *paddings;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 1, &paddings));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, op, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, op, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, op, input, output));
  TF_LITE_ENSURE_STATUS(CheckPaddingsShape(context, op, input, paddings));
  const TfLiteTensor* value = tflite::NumInputs(node) == 3 && !tflite::IsOptionalTensor(node, 2)
                                  ? tflite::GetInput(context, node, 2)
                                  : nullptr;
  if (value != nullptr) {
    TF_LITE_ENSURE_STATUS(CheckSameType(context, op, input, value, "constant_values"));
    OCTET_ENSURE(context, tflite::NumElements(value) == 1,
                 "%s: constant_values must hold one element, got %d", op,
                 static_cast<int>(tflite::NumElements(value)));
    if (IsQuantizedType(value->type)) {
      OCTET_ENSURE(context,
                   value->params.scale == output->params.scale &&
                       value->params.zero_point == output->params.zero_point,
                   "%s: constant_values quantization differs from the output's", op);
    }
  }
  if (!IsConstant(paddings)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return PadResize(context, node, op);
}

inline TfLiteStatus PadEval(TfLiteContext* context, TfLiteNode* node, const char* op) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::IsDynamicTensor(output)) TF_LITE_ENSURE_STATUS(PadResize(context, node, op));
  std::vector<int> before, after;
  TF_LITE_ENSURE_STATUS(
      ReadPaddings(context, op, input, tflite::GetInput(context, node, 1), false, &before, &after));
  const TfLiteTensor* value = tflite::NumInputs(node) == 3 && !tflite::IsOptionalTensor(node, 2)
                                  ? tflite::GetInput(context, node, 2)
                                  : nullptr;
  return ByElementWidth(context, op, input, [&](auto tag) {
    using T = decltype(tag);
    T fill{};
    if (value != nullptr) {
      std::memcpy(&fill, value->data.raw, sizeof(T));
    } else if (IsQuantizedType(output->type)) {
      // The zero point's two's-complement bit pattern in the element width.
      const int32_t zp = output->params.zero_point;
      fill = static_cast<T>(static_cast<std::make_signed_t<T>>(zp));
    }
    reference::Pad(Shape::Of(input), before, reinterpret_cast<const T*>(input->data.raw), fill,
                   Shape::Of(output), reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace octet::ops::shape
