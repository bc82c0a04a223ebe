// FILL (output shape from a 1-D int32/int64 dims tensor, filled with a scalar
// value) and ZEROS_LIKE. FILL's output is dynamic when dims is not a constant.
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/reference/cast.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::elementwise {
namespace {

constexpr const char *kFill = "FILL";
constexpr const char *kZerosLike = "ZEROS_LIKE";

// Bytes per element of the value types FILL copies; 0 = unsupported.
size_t FillElementSize(TfLiteType type) {
  switch (type) {
    case kTfLiteBool:
    case kTfLiteInt8:
    case kTfLiteUInt8:
      return 1;
    case kTfLiteInt16:
    case kTfLiteFloat16:
      return 2;
    case kTfLiteInt32:
    case kTfLiteFloat32:
      return 4;
    case kTfLiteInt64:
      return 8;
    default:
      return 0;
  }
}

template <typename T>
TfLiteStatus ReadDims(TfLiteContext *context, const TfLiteTensor *dims, Shape *shape) {
  const T *values = tflite::GetTensorData<T>(dims);
  const int rank = tflite::SizeOfDimension(dims, 0);
  std::vector<int> out(rank);
  int64_t elements = 1;
  for (int i = 0; i < rank; ++i) {
    const T v = values[i];
    if (v < 0) {
      TF_LITE_KERNEL_LOG(context, "%s: dimension %d is negative (%lld)", kFill, i,
                         static_cast<long long>(v));
      return kTfLiteError;
    }
    // Keep every count representable as int, as the rest of the engine indexes
    // with int.
    if (v > std::numeric_limits<int32_t>::max() ||
        (v > 0 && elements > std::numeric_limits<int32_t>::max() / v)) {
      TF_LITE_KERNEL_LOG(context, "%s: output shape is too large", kFill);
      return kTfLiteError;
    }
    elements *= v;
    out[i] = static_cast<int>(v);
  }
  *shape = Shape(std::move(out));
  return kTfLiteOk;
}

TfLiteStatus ResizeFromDims(TfLiteContext *context, const TfLiteTensor *dims,
                            TfLiteTensor *output) {
  if (RequireData(context, kFill, "dims", dims) != kTfLiteOk) return kTfLiteError;
  Shape shape;
  TF_LITE_ENSURE_STATUS(dims->type == kTfLiteInt32 ? ReadDims<int32_t>(context, dims, &shape)
                                                   : ReadDims<int64_t>(context, dims, &shape));
  return ResizeOutput(context, output, shape);
}

TfLiteStatus FillPrepare(TfLiteContext *context, TfLiteNode *node) {
  const TfLiteTensor *in[2];
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kFill, 2, in, &output));
  const TfLiteTensor *dims = in[0];
  const TfLiteTensor *value = in[1];
  if (dims->type != kTfLiteInt32 && dims->type != kTfLiteInt64) {
    TF_LITE_KERNEL_LOG(context, "%s: dims type must be INT32 or INT64, got %s", kFill,
                       TypeName(dims->type));
    return kTfLiteError;
  }
  if (tflite::NumDimensions(dims) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: dims must be 1-D, got rank %d", kFill,
                       tflite::NumDimensions(dims));
    return kTfLiteError;
  }
  if (tflite::NumDimensions(value) != 0) {
    TF_LITE_KERNEL_LOG(context, "%s: value must be a scalar, got rank %d", kFill,
                       tflite::NumDimensions(value));
    return kTfLiteError;
  }
  if (FillElementSize(value->type) == 0) {
    TF_LITE_KERNEL_LOG(context, "%s: value type %s is not supported", kFill, TypeName(value->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kFill, output, value->type));
  if (tflite::IsConstantTensor(dims)) return ResizeFromDims(context, dims, output);
  tflite::SetTensorToDynamic(output);
  return kTfLiteOk;
}

TfLiteStatus FillEval(TfLiteContext *context, TfLiteNode *node) {
  const TfLiteTensor *dims = tflite::GetInput(context, node, 0);
  const TfLiteTensor *value = tflite::GetInput(context, node, 1);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_STATUS(ResizeFromDims(context, dims, output));
  }
  TF_LITE_ENSURE_STATUS(RequireData(context, kFill, "value", value));
  TF_LITE_ENSURE_STATUS(RequireData(context, kFill, "output", output));
  const int64_t n = tflite::NumElements(output);
  switch (FillElementSize(value->type)) {
    case 1:
      reference::Fill(*tflite::GetTensorData<uint8_t>(value), n,
                      tflite::GetTensorData<uint8_t>(output));
      break;
    case 2:
      reference::Fill(*tflite::GetTensorData<uint16_t>(value), n,
                      tflite::GetTensorData<uint16_t>(output));
      break;
    case 4:
      reference::Fill(*tflite::GetTensorData<uint32_t>(value), n,
                      tflite::GetTensorData<uint32_t>(output));
      break;
    case 8:
      reference::Fill(*tflite::GetTensorData<uint64_t>(value), n,
                      tflite::GetTensorData<uint64_t>(output));
      break;
  }
  return kTfLiteOk;
}

TfLiteStatus ZerosLikePrepare(TfLiteContext *context, TfLiteNode *node) {
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kZerosLike, 1, &input, &output));
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteInt32 && input->type != kTfLiteInt64) {
    TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", kZerosLike,
                       TypeName(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kZerosLike, output, input->type));
  return ResizeOutput(context, output, Shape::Of(input));
}

TfLiteStatus ZerosLikeEval(TfLiteContext *context, TfLiteNode *node) {
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kZerosLike, "output", output));
  // All-zero bytes are 0 / 0.0f for every accepted type.
  if (output->data.raw != nullptr) std::memset(output->data.raw, 0, output->bytes);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

namespace ew = octet::ops::elementwise;

TfLiteRegistration *Register_FILL() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, ew::FillPrepare, ew::FillEval);
  return &r;
}

TfLiteRegistration *Register_ZEROS_LIKE() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, ew::ZerosLikePrepare, ew::ZerosLikeEval);
  return &r;
}

}  // namespace tflite::ops::builtin
