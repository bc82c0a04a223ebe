// TRANSPOSE_CONV. Inputs: output_shape (int32 [4]), weights [O,KH,KW,C], input [N,H,W,C],
// optional bias [O]. Float32 (reference or fgemm + col2im), uint8, int8 (per-tensor or
// per-channel weights), int16x8 and hybrid (float input, int8 weights): the integer and
// hybrid kernels are in transpose_conv_quantized.cc. A constant output_shape is applied in
// prepare; otherwise the output is dynamic and sized (and checked) at invoke.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/fgemm/col2im.h"
#include "kernels/optimized/fgemm/fgemm_driver.h"
#include "kernels/reference/conv_transpose.h"
#include "kernels/shape.h"
#include "kernels/threads/cpu_backend_context.h"
#include "octet/kernel_info.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_util.h"
#include "ops/nn/packing_cache.h"
#include "ops/nn/transpose_conv_quantized.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::transpose_conv {
namespace {

constexpr int kOutputShape = 0;
constexpr int kWeights = 1;
constexpr int kInput = 2;
constexpr int kBias = 3;
constexpr int kOutput = 0;

using KernelFn = void (*)(const reference::TransposeConvParams&, const Shape&, const float*,
                          const Shape&, const float*, const float*, const Shape&, float*);

enum class Family { kFloat, kQuantized, kHybrid };

struct OpData {
  reference::TransposeConvParams params;
  TfLitePadding padding = kTfLitePaddingSame;
  Family family = Family::kFloat;
  KernelFn kernel = nullptr;
  QuantizedData quantized;  // kQuantized and kHybrid
  // Optimized: GEMM of each input pixel with every tap (fgemm), then col2im.
  bool optimized = false;
  optimized::FGemmPacked gemm;
  optimized::Window2D geometry;
  PackingCache packing;
  NodeScratch scratch;  // the GEMM's columns (float), or the quantized input (hybrid)
};
void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context, 3) != kTfLiteOk) return nullptr;
  return data.release();
}

// With a static output shape and constant weights, packs the weights as the GEMM's columns
// (tap-major, then output channel) and sizes the column scratch.
TfLiteStatus ChooseKernel(TfLiteContext* context, TfLiteNode* node, OpData* data,
                          const TfLiteTensor* weights, const TfLiteTensor* input,
                          const TfLiteTensor* output, bool reference_only) {
  data->optimized = false;
  const cpu::Isa isa = reference_only ? cpu::Isa::kReference : cpu::ActiveIsa();
  const optimized::FGemmKernel* kernel =
      isa == cpu::Isa::kReference ? nullptr : optimized::FGemmKernelFor(isa);
  if (kernel == nullptr || !tflite::IsConstantTensor(weights) || tflite::IsDynamicTensor(output) ||
      tflite::NumElements(input) == 0) {
    SetNodeKernelName(context, node, "reference");
    return kTfLiteOk;
  }
  const int out_c = weights->dims->data[0], kh = weights->dims->data[1];
  const int kw = weights->dims->data[2], in_c = weights->dims->data[3];
  const size_t taps = static_cast<size_t>(kh) * kw;
  optimized::FGemmWeightsDesc d;
  d.n = static_cast<int>(taps) * out_c;
  d.kc = in_c;
  const bool packed = data->packing.Ensure(weights->data.raw, kernel, [&] {
    std::vector<float> columns(static_cast<size_t>(d.n) * in_c);
    for (size_t t = 0; t < taps; ++t) {
      for (int oc = 0; oc < out_c; ++oc) {
        const float* from = weights->data.f + (static_cast<size_t>(oc) * taps + t) * in_c;
        std::copy(from, from + in_c, columns.data() + (t * out_c + oc) * in_c);
      }
    }
    d.weights = columns.data();
    auto* buffer = static_cast<float*>(context->AllocatePersistentBuffer(
        context, optimized::FGemmPackedFloats(*kernel, d) * sizeof(float)));
    if (buffer == nullptr) return false;
    data->gemm = optimized::FGemmPack(*kernel, d, buffer);
    return true;
  });
  if (!packed) {
    SetNodeKernelName(context, node, "reference");
    return kTfLiteOk;
  }
  optimized::Window2D& g = data->geometry;
  g.batches = input->dims->data[0];
  g.in_h = input->dims->data[1];
  g.in_w = input->dims->data[2];
  g.in_c = in_c;
  g.out_h = output->dims->data[1];
  g.out_w = output->dims->data[2];
  g.kernel_h = kh;
  g.kernel_w = kw;
  g.stride_h = data->params.stride_height;
  g.stride_w = data->params.stride_width;
  g.pad_h = data->params.pad_height;
  g.pad_w = data->params.pad_width;
  const int64_t rows = static_cast<int64_t>(g.batches) * g.in_h * g.in_w;
  TF_LITE_ENSURE_OK(context, data->scratch.Prepare(context, node, {{kTfLiteFloat32, rows * d.n}}));
  data->optimized = true;
  SetNodeKernelName(context, node, kernel->name);
  return kTfLiteOk;
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// One spatial axis of the forward convolution that maps an image of `out_size` back to the
// input, as TFLite computes it: its output size (which must be the input's size) and its
// leading padding.
struct ForwardAxis {
  int64_t size;
  int pad;
};
ForwardAxis ForwardConvAxis(TfLitePadding padding, int out_size, int filter, int stride) {
  const int64_t size = padding == kTfLitePaddingSame
                           ? (int64_t{out_size} + stride - 1) / stride
                           : (int64_t{out_size} + stride - filter) / stride;
  const int64_t total = std::max<int64_t>(0, (size - 1) * stride + filter - out_size);
  return {size, static_cast<int>(total / 2)};
}

// Checks the requested output shape, resizes the output and derives the padding.
TfLiteStatus ApplyOutputShape(TfLiteContext* context, OpData* data, const TfLiteTensor* shape,
                              const TfLiteTensor* weights, const TfLiteTensor* input,
                              TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output_shape", shape));
  const int32_t* s = shape->data.i32;
  OCTET_OP_ENSURE(context, s[0] == input->dims->data[0], kOp,
                  "output batch (%d) must equal input batch (%d)", s[0], input->dims->data[0]);
  OCTET_OP_ENSURE(context, s[3] == weights->dims->data[0], kOp,
                  "output channels (%d) must equal the weights' output channels (%d)", s[3],
                  weights->dims->data[0]);
  OCTET_OP_ENSURE(context, s[1] > 0 && s[2] > 0, kOp,
                  "output height and width must be > 0, got %d and %d", s[1], s[2]);
  const int64_t reach_h = int64_t{s[1]} + weights->dims->data[1];
  const int64_t reach_w = int64_t{s[2]} + weights->dims->data[2];
  OCTET_OP_ENSURE(
      context,
      reach_h <= std::numeric_limits<int>::max() && reach_w <= std::numeric_limits<int>::max(), kOp,
      "output shape is too large");
  const ForwardAxis h =
      ForwardConvAxis(data->padding, s[1], weights->dims->data[1], data->params.stride_height);
  const ForwardAxis w =
      ForwardConvAxis(data->padding, s[2], weights->dims->data[2], data->params.stride_width);
  const char* padding = data->padding == kTfLitePaddingSame ? "SAME" : "VALID";
  OCTET_OP_ENSURE(context, h.size == input->dims->data[1], kOp,
                  "output height %d does not fit input height %d: %s padding with stride %d and "
                  "filter height %d maps it to %lld",
                  s[1], input->dims->data[1], padding, data->params.stride_height,
                  weights->dims->data[1], static_cast<long long>(h.size));
  OCTET_OP_ENSURE(context, w.size == input->dims->data[2], kOp,
                  "output width %d does not fit input width %d: %s padding with stride %d and "
                  "filter width %d maps it to %lld",
                  s[2], input->dims->data[2], padding, data->params.stride_width,
                  weights->dims->data[2], static_cast<long long>(w.size));
  data->params.pad_height = h.pad;
  data->params.pad_width = w.pad;
  return ResizeOutput(context, output, {s[0], s[1], s[2], s[3]});
}

// The kernel family the input and weights types select.
TfLiteStatus SelectFamily(TfLiteContext* context, const TfLiteTensor* input,
                          const TfLiteTensor* weights, Family* family) {
  if (input->type == kTfLiteFloat32) {
    OCTET_OP_ENSURE(context, weights->type == kTfLiteFloat32 || weights->type == kTfLiteInt8, kOp,
                    "FLOAT32 input needs FLOAT32 or INT8 (hybrid) weights, got %s",
                    TfLiteTypeGetName(weights->type));
    *family = weights->type == kTfLiteInt8 ? Family::kHybrid : Family::kFloat;
    return kTfLiteOk;
  }
  OCTET_OP_ENSURE(context, IsQuantizedType(input->type), kOp,
                  "input type %s is not FLOAT32, UINT8, INT8 or INT16",
                  TfLiteTypeGetName(input->type));
  *family = Family::kQuantized;
  return kTfLiteOk;
}

// `reference_only` pins the reference kernel (Register_TRANSPOSE_CONV_REF).
template <bool reference_only>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteTransposeConvParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, kOp, 3, 4, 1));
  const TfLiteTensor* shape;
  const TfLiteTensor* weights;
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kOutputShape, &shape));
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kWeights, &weights));
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kInput, &input));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kOutput, &output));
  const TfLiteTensor* bias = tflite::GetOptionalInputTensor(context, node, kBias);

  OCTET_OP_ENSURE(context, shape->type == kTfLiteInt32, kOp, "output_shape type %s is not INT32",
                  TfLiteTypeGetName(shape->type));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(shape) == 1 && shape->dims->data[0] == 4, kOp,
                  "output_shape must be a 1-D tensor of 4 elements");
  TF_LITE_ENSURE_OK(context, SelectFamily(context, input, weights, &data->family));
  const bool quantized = data->family == Family::kQuantized;
  if (!quantized) {
    if (data->family == Family::kFloat) {
      TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "weights", weights));
    }
    TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "output", output));
  }
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "input", input, 4));
  TF_LITE_ENSURE_OK(context, RequireRank(context, kOp, "weights", weights, 4));
  const int out_ch = weights->dims->data[0];
  OCTET_OP_ENSURE(context, weights->dims->data[3] == input->dims->data[3], kOp,
                  "weights input channels (%d) must equal input channels (%d)",
                  weights->dims->data[3], input->dims->data[3]);
  OCTET_OP_ENSURE(context, out_ch > 0 && weights->dims->data[1] > 0 && weights->dims->data[2] > 0,
                  kOp, "weights dimensions must be > 0");
  OCTET_OP_ENSURE(context,
                  input->dims->data[1] > 0 && input->dims->data[2] > 0 && input->dims->data[3] > 0,
                  kOp, "input height, width and channels must be > 0");
  TF_LITE_ENSURE_OK(context,
                    CheckWeightedOpBias(context, kOp, bias, quantized, out_ch, "output channels"));
  OCTET_OP_ENSURE(context, params->stride_height > 0, kOp, "stride_height must be > 0, got %d",
                  params->stride_height);
  OCTET_OP_ENSURE(context, params->stride_width > 0, kOp, "stride_width must be > 0, got %d",
                  params->stride_width);
  OCTET_OP_ENSURE(context, params->stride_height <= INT16_MAX && params->stride_width <= INT16_MAX,
                  kOp, "strides must be <= %d, got %d and %d", INT16_MAX, params->stride_height,
                  params->stride_width);
  OCTET_OP_ENSURE(context,
                  params->padding == kTfLitePaddingSame || params->padding == kTfLitePaddingValid,
                  kOp, "padding %d is not SAME or VALID", static_cast<int>(params->padding));
  // Scatter origins (input index * stride) must stay within int.
  OCTET_OP_ENSURE(context,
                  int64_t{input->dims->data[1]} * params->stride_height <=
                          std::numeric_limits<int>::max() / 2 &&
                      int64_t{input->dims->data[2]} * params->stride_width <=
                          std::numeric_limits<int>::max() / 2,
                  kOp, "input size times stride is too large");

  reference::TransposeConvParams& p = data->params;
  // Only the clamps (NONE, RELU, RELU_N1_TO_1, RELU6) are fused activations here.
  TF_LITE_ENSURE_OK(
      context, ActivationRange<float>(context, kOp, params->activation, &p.act_min, &p.act_max));
  p.stride_height = params->stride_height;
  p.stride_width = params->stride_width;
  data->padding = params->padding;
  data->kernel = &reference::TransposeConv;
  if (quantized) {
    TF_LITE_ENSURE_OK(
        context, PrepareQuantized(context, params, input, weights, bias, output, &data->quantized));
  } else if (data->family == Family::kHybrid) {
    TF_LITE_ENSURE_OK(
        context, PrepareHybrid(context, node, input, weights, &data->quantized, &data->scratch));
  }

  if (!tflite::IsConstantTensor(shape)) {
    tflite::SetTensorToDynamic(output);
  } else {
    TF_LITE_ENSURE_OK(context, ApplyOutputShape(context, data, shape, weights, input, output));
  }
  if (data->family != Family::kFloat) {
    data->optimized = false;
    SetNodeKernelName(context, node, "reference");
    return kTfLiteOk;
  }
  // The reference if dynamic.
  return ChooseKernel(context, node, data, weights, input, output, reference_only);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* shape = tflite::GetInput(context, node, kOutputShape);
  const TfLiteTensor* weights = tflite::GetInput(context, node, kWeights);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor* bias = tflite::GetOptionalInputTensor(context, node, kBias);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ApplyOutputShape(context, data, shape, weights, input, output));
  }
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "weights", weights));
  if (bias) TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "bias", bias));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output", output));
  switch (data->family) {
    case Family::kQuantized:
      EvalQuantized(data->params, data->quantized, input, weights, bias, output);
      return kTfLiteOk;
    case Family::kHybrid:
      EvalHybrid(context, data->params, data->quantized, data->scratch, input, weights, bias,
                 output);
      return kTfLiteOk;
    case Family::kFloat:
      break;
  }
  if (data->optimized && !tflite::IsDynamicTensor(output)) {
    float* columns = data->scratch.Data<float>(context, 0);
    const optimized::Window2D& g = data->geometry;
    optimized::RunFGemmRows(
        data->gemm, g.batches * g.in_h * g.in_w, input->data.f, static_cast<size_t>(g.in_c),
        {-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()}, columns,
        GetThreadPool(context));
    optimized::Col2ImAdd(g, weights->dims->data[0], columns, bias ? bias->data.f : nullptr,
                         {data->params.act_min, data->params.act_max}, output->data.f);
    return kTfLiteOk;
  }
  data->kernel(data->params, Shape::Of(input), input->data.f, Shape::Of(weights), weights->data.f,
               bias ? bias->data.f : nullptr, Shape::Of(output), output->data.f);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::transpose_conv

namespace tflite::ops::builtin {

TfLiteRegistration* Register_TRANSPOSE_CONV() {
  namespace op = octet::ops::nn::transpose_conv;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare<false>, op::Eval);
  return &r;
}

TfLiteRegistration* Register_TRANSPOSE_CONV_REF() {
  namespace op = octet::ops::nn::transpose_conv;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare<true>, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
