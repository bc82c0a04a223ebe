// CAST between float32, int32, int64, int16, int8, uint8 and bool (the output
// tensor's type is the target). Float -> integer saturates and maps NaN to 0
// (see reference/cast.h).
#include "kernels/reference/cast.h"

#include <cstdint>
#include <type_traits>

#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"

namespace octet::ops::elementwise {
namespace {

constexpr const char *kOp = "CAST";

using CastFn = void (*)(const TfLiteTensor *, TfLiteTensor *);

struct CastData {
  CastFn fn = nullptr;
};

// Marks a bool element read as a byte, so any nonzero byte counts as true.
struct BoolByte {};

template <typename From, typename To>
void CastKernel(const TfLiteTensor *in, TfLiteTensor *out) {
  const int64_t n = tflite::NumElements(in);
  To *dst = tflite::GetTensorData<To>(out);
  if constexpr (std::is_same_v<From, BoolByte>) {
    const uint8_t *src = tflite::GetTensorData<uint8_t>(in);
    for (int64_t i = 0; i < n; ++i) dst[i] = reference::CastValue<To>(uint8_t{src[i] != 0});
  } else {
    reference::Cast(tflite::GetTensorData<From>(in), n, dst);
  }
}

template <typename From>
CastFn PickTarget(TfLiteType to) {
  switch (to) {
    case kTfLiteFloat32:
      return CastKernel<From, float>;
    case kTfLiteInt32:
      return CastKernel<From, int32_t>;
    case kTfLiteInt64:
      return CastKernel<From, int64_t>;
    case kTfLiteInt16:
      return CastKernel<From, int16_t>;
    case kTfLiteInt8:
      return CastKernel<From, int8_t>;
    case kTfLiteUInt8:
      return CastKernel<From, uint8_t>;
    case kTfLiteBool:
      return CastKernel<From, bool>;
    default:
      return nullptr;
  }
}

CastFn PickCast(TfLiteType from, TfLiteType to) {
  switch (from) {
    case kTfLiteFloat32:
      return PickTarget<float>(to);
    case kTfLiteInt32:
      return PickTarget<int32_t>(to);
    case kTfLiteInt64:
      return PickTarget<int64_t>(to);
    case kTfLiteInt16:
      return PickTarget<int16_t>(to);
    case kTfLiteInt8:
      return PickTarget<int8_t>(to);
    case kTfLiteUInt8:
      return PickTarget<uint8_t>(to);
    case kTfLiteBool:
      return PickTarget<BoolByte>(to);
    default:
      return nullptr;
  }
}

TfLiteStatus Prepare(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<CastData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kOp, 1, &input, &output));
  data->fn = PickCast(input->type, output->type);
  if (data->fn == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: cast from %s to %s is not supported", kOp,
                       TypeName(input->type), TypeName(output->type));
    return kTfLiteError;
  }
  return ResizeOutput(context, output, Shape::Of(input));
}

TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const CastData *>(node->user_data);
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input 0", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  data.fn(input, output);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

TfLiteRegistration *Register_CAST() {
  namespace ew = octet::ops::elementwise;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::InitData<ew::CastData>,
                                   octet::ops::FreeData<ew::CastData>, ew::Prepare, ew::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
