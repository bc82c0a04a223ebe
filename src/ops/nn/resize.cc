// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR, float32 and int8/uint8/int16, NHWC, output size from
// an int32 [2] tensor (height, width). A constant size is applied in prepare; otherwise the output
// is dynamic and resized at invoke.
#include "kernels/reference/resize.h"

#include <memory>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/resize/qresize_bilinear.h"
#include "kernels/reference/integer_resize.h"
#include "kernels/shape.h"
#include "kernels/threads/cpu_backend_context.h"
#include "octet/kernel_info.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_quant.h"
#include "ops/nn/nn_util.h"
#include "ops/scratch.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::resize {
namespace {

constexpr int kInput = 0;
constexpr int kSize = 1;
constexpr int kOutput = 0;

using KernelFn = void (*)(const reference::ResizeParams&, const Shape&, const float*, const Shape&,
                          float*);

struct OpData {
  reference::ResizeParams params;
  KernelFn kernel = nullptr;
  bool quantized = false;  // int8 / uint8 / int16, same params in and out
  // Quantized bilinear with a constant size off the reference path: the two-pass driver on
  // this kernel, with its column table and blended rows in a node temporary.
  const optimized::QResizeKernel* qresize = nullptr;
  NodeScratch scratch;
};

template <bool kBilinear>
constexpr const char* OpName() {
  return kBilinear ? "RESIZE_BILINEAR" : "RESIZE_NEAREST_NEIGHBOR";
}

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context, 1) != kTfLiteOk) return nullptr;
  return data.release();
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// Reads and checks the requested size, then resizes the output to it.
TfLiteStatus ResizeToSize(TfLiteContext* context, const char* op, const TfLiteTensor* input,
                          const TfLiteTensor* size, TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, RequireData(context, op, "size", size));
  const int height = size->data.i32[0];
  const int width = size->data.i32[1];
  OCTET_OP_ENSURE(context, height > 0 && width > 0, op,
                  "output size must be > 0, got height %d width %d", height, width);
  return ResizeOutput(context, output, {input->dims->data[0], height, width, input->dims->data[3]});
}

// `reference_only` pins the reference kernel (Register_RESIZE_BILINEAR_REF).
template <bool kBilinear, bool reference_only = false>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = OpName<kBilinear>();
  auto* data = static_cast<OpData*>(node->user_data);
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor* input;
  const TfLiteTensor* size;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kInput, &input));
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kSize, &size));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kOutput, &output));
  data->quantized = IsQuantizedType(input->type);
  if (data->quantized) {
    OCTET_OP_ENSURE(context, output->type == input->type, kOp,
                    "output type %s must match input type %s", TfLiteTypeGetName(output->type),
                    TfLiteTypeGetName(input->type));
    TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "input", input));
    TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "output", output));
    TF_LITE_ENSURE_OK(context,
                      quant::CheckSameParams(context, kOp, "input", input, "output", output));
  } else {
    TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "input", input));
    TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "output", output));
  }
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "input", input, 4));
  OCTET_OP_ENSURE(context, input->dims->data[1] > 0 && input->dims->data[2] > 0, kOp,
                  "input height and width must be > 0, got %d and %d", input->dims->data[1],
                  input->dims->data[2]);
  OCTET_OP_ENSURE(context, size->type == kTfLiteInt32, kOp, "size type %s is not INT32",
                  TfLiteTypeGetName(size->type));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(size) == 1 && size->dims->data[0] == 2, kOp,
                  "size must be a 1-D tensor of 2 elements (height, width)");

  // Both option structs have the same two flags; absent options mean both false.
  bool align_corners = false;
  bool half_pixel_centers = false;
  if (kBilinear) {
    const auto* params = static_cast<const TfLiteResizeBilinearParams*>(node->builtin_data);
    if (params) {
      align_corners = params->align_corners;
      half_pixel_centers = params->half_pixel_centers;
    }
    OCTET_OP_ENSURE(context, !(align_corners && half_pixel_centers), kOp,
                    "align_corners and half_pixel_centers cannot both be true");
    data->kernel = &reference::ResizeBilinear;
  } else {
    const auto* params = static_cast<const TfLiteResizeNearestNeighborParams*>(node->builtin_data);
    if (params) {
      align_corners = params->align_corners;
      half_pixel_centers = params->half_pixel_centers;
    }
    data->kernel = &reference::ResizeNearestNeighbor;
  }
  data->params.align_corners = align_corners;
  data->params.half_pixel_centers = half_pixel_centers;
  data->qresize = nullptr;
  if (!tflite::IsConstantTensor(size)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  TF_LITE_ENSURE_OK(context, ResizeToSize(context, kOp, input, size, output));
  if (kBilinear && data->quantized && !reference_only) {
    data->qresize = optimized::QResizeKernelFor(cpu::ActiveIsa());
    if (data->qresize != nullptr) {
      const size_t ints = optimized::QResizeScratchInts(Shape::Of(input), Shape::Of(output));
      TF_LITE_ENSURE_OK(context, data->scratch.Prepare(
                                     context, node, {{kTfLiteInt32, static_cast<int64_t>(ints)}}));
      SetNodeKernelName(context, node, data->qresize->name);
    }
  }
  return kTfLiteOk;
}

template <bool kBilinear, typename T>
void RunQuantized(TfLiteContext* context, const OpData* data, const TfLiteTensor* input,
                  TfLiteTensor* output) {
  if (kBilinear && data->qresize != nullptr) {
    optimized::QuantizedResizeBilinear<T>(
        *data->qresize, data->params, Shape::Of(input), tflite::GetTensorData<T>(input),
        Shape::Of(output), tflite::GetTensorData<T>(output),
        data->scratch.Data<int32_t>(context, 0), GetThreadPool(context));
  } else if (kBilinear) {
    reference::QuantizedResizeBilinear<T>(data->params, Shape::Of(input),
                                          tflite::GetTensorData<T>(input), Shape::Of(output),
                                          tflite::GetTensorData<T>(output));
  } else {
    reference::QuantizedResizeNearestNeighbor<T>(data->params, Shape::Of(input),
                                                 tflite::GetTensorData<T>(input), Shape::Of(output),
                                                 tflite::GetTensorData<T>(output));
  }
}

template <bool kBilinear>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = OpName<kBilinear>();
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor* size = tflite::GetInput(context, node, kSize);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ResizeToSize(context, kOp, input, size, output));
  }
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output", output));
  if (data->quantized) {
    switch (input->type) {
      case kTfLiteInt8:
        RunQuantized<kBilinear, int8_t>(context, data, input, output);
        break;
      case kTfLiteUInt8:
        RunQuantized<kBilinear, uint8_t>(context, data, input, output);
        break;
      default:
        RunQuantized<kBilinear, int16_t>(context, data, input, output);
        break;
    }
    return kTfLiteOk;
  }
  data->kernel(data->params, Shape::Of(input), input->data.f, Shape::Of(output), output->data.f);
  return kTfLiteOk;
}

template <bool kBilinear, bool reference_only = false>
TfLiteRegistration* Registration() {
  static TfLiteRegistration r =
      MakeRegistration(Init, Free, Prepare<kBilinear, reference_only>, Eval<kBilinear>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::nn::resize

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RESIZE_BILINEAR() {
  return octet::ops::nn::resize::Registration<true>();
}

TfLiteRegistration* Register_RESIZE_BILINEAR_REF() {
  return octet::ops::nn::resize::Registration<true, true>();
}

TfLiteRegistration* Register_RESIZE_NEAREST_NEIGHBOR() {
  return octet::ops::nn::resize::Registration<false>();
}

}  // namespace tflite::ops::builtin
