// QUANTIZE (float32 -> int8/uint8/int16, per-tensor or per-axis) and DEQUANTIZE
// (int8/uint8/int16 -> float32, per-tensor or per-axis; float16 -> float32; constant INT4,
// two values per byte as TFLite's op version 6 takes it, per-tensor or per-axis).
#include "kernels/reference/quantize.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/lut/byte_table.h"
#include "kernels/reference/activations.h"
#include "kernels/reference/integer_elementwise.h"
#include "kernels/threads/cpu_backend_context.h"
#include "octet/kernel_info.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "ops/nn/int4_weights.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::elementwise {
namespace {

constexpr const char *kQuantize = "QUANTIZE";
constexpr const char *kDequantize = "DEQUANTIZE";

struct QuantData;
using QuantFn = void (*)(const QuantData &, const TfLiteTensor *, TfLiteTensor *);

// Affine parameters copied out of the quantized tensor in prepare.
struct QuantData {
  std::vector<float> scales;
  std::vector<int32_t> zero_points;
  int axis = -1;  // -1: per-tensor
  Shape shape;
  QuantFn fn = nullptr;
  reference::integer::RequantizeParams requant;        // quantized input -> quantized output
  optimized::ByteTable table;                          // 8-bit -> 8-bit requantization
  const optimized::QConvertKernel *convert = nullptr;  // per-tensor float <-> 8-bit
  ThreadPool *pool = nullptr;                          // set by Eval for the optimized kernels
  // DEQUANTIZE of a constant (float16 / int8 weights): done once in prepare into persistent
  // memory; `folded_from` is the input data it was computed from.
  const void *folded_from = nullptr;
};

// Reads and validates the affine quantization of `t` (the quantized side of the
// op).
TfLiteStatus ReadQuantization(TfLiteContext *context, const char *op, const TfLiteTensor *t,
                              QuantData *data) {
  const auto *affine = static_cast<const TfLiteAffineQuantization *>(t->quantization.params);
  if (t->quantization.type != kTfLiteAffineQuantization || affine == nullptr ||
      affine->scale == nullptr || affine->scale->size < 1) {
    TF_LITE_KERNEL_LOG(context, "%s: %s tensor has no affine quantization", op, TypeName(t->type));
    return kTfLiteError;
  }
  const int n = affine->scale->size;
  if (affine->zero_point == nullptr || affine->zero_point->size != n) {
    TF_LITE_KERNEL_LOG(context, "%s: %d scales but %d zero points", op, n,
                       affine->zero_point ? affine->zero_point->size : 0);
    return kTfLiteError;
  }
  data->scales.assign(affine->scale->data, affine->scale->data + n);
  data->zero_points.assign(affine->zero_point->data, affine->zero_point->data + n);
  data->shape = Shape::Of(t);
  data->axis = -1;
  if (n > 1) {
    const int axis = affine->quantized_dimension;
    if (axis < 0 || axis >= data->shape.rank() || data->shape.dim(axis) != n) {
      TF_LITE_KERNEL_LOG(context,
                         "%s: %d per-axis scales do not match quantized dimension %d of %s", op, n,
                         axis, ShapeString(data->shape).c_str());
      return kTfLiteError;
    }
    data->axis = axis;
  }
  for (int i = 0; i < n; ++i) {
    if (!(data->scales[i] > 0.0f) || !std::isfinite(data->scales[i])) {
      TF_LITE_KERNEL_LOG(context, "%s: scale %g is not a positive finite number", op,
                         static_cast<double>(data->scales[i]));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

template <typename T>
void QuantizeKernel(const QuantData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  const float *src = tflite::GetTensorData<float>(in);
  T *dst = tflite::GetTensorData<T>(out);
  if (d.axis < 0) {
    reference::AffineQuantize(src, tflite::NumElements(in), d.scales[0], d.zero_points[0], dst);
  } else {
    reference::PerAxisQuantize(d.shape, d.axis, src, d.scales.data(), d.zero_points.data(), dst);
  }
}

// Per-tensor float <-> int8/uint8 on the optimized kernel of the active path.
void QuantizeOptimized(const QuantData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  d.convert->quantize(tflite::GetTensorData<float>(in),
                      static_cast<size_t>(tflite::NumElements(in)), d.scales[0], d.zero_points[0],
                      out->type == kTfLiteInt8, reinterpret_cast<uint8_t *>(out->data.raw));
}
void DequantizeOptimized(const QuantData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  d.convert->dequantize(reinterpret_cast<const uint8_t *>(in->data.raw),
                        static_cast<size_t>(tflite::NumElements(in)), d.scales[0], d.zero_points[0],
                        in->type == kTfLiteInt8, tflite::GetTensorData<float>(out));
}

// Switches a per-tensor 8-bit QUANTIZE / DEQUANTIZE to the optimized kernel when the active
// path has one.
void ChooseConvertKernel(TfLiteContext *context, TfLiteNode *node, TfLiteType bytes_type,
                         bool quantize, QuantData *data) {
  if (data->axis >= 0 || (bytes_type != kTfLiteInt8 && bytes_type != kTfLiteUInt8)) return;
  data->convert = optimized::QConvertKernelFor(cpu::ActiveIsa());
  if (data->convert == nullptr) return;
  data->fn = quantize ? QuantizeOptimized : DequantizeOptimized;
  SetNodeKernelName(context, node, data->convert->name);
}

template <typename T>
void DequantizeKernel(const QuantData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  const T *src = tflite::GetTensorData<T>(in);
  float *dst = tflite::GetTensorData<float>(out);
  if (d.axis < 0) {
    reference::Dequantize(src, tflite::NumElements(in), d.scales[0], d.zero_points[0], dst);
  } else {
    reference::PerAxisDequantize(d.shape, d.axis, src, d.scales.data(), d.zero_points.data(), dst);
  }
}

// INT4: unpacked to int8 (sign-extended nibbles, low first), then (q - zero_point) * scale
// as int8. Runs once, at prepare (the input is a constant).
void Int4Kernel(const QuantData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  const auto n = static_cast<size_t>(tflite::NumElements(in));
  std::vector<int8_t> q(n);
  nn::UnpackInt4(reinterpret_cast<const uint8_t *>(in->data.raw_const), n, q.data());
  float *dst = tflite::GetTensorData<float>(out);
  if (d.axis < 0) {
    reference::Dequantize(q.data(), static_cast<int64_t>(n), d.scales[0], d.zero_points[0], dst);
  } else {
    reference::PerAxisDequantize(d.shape, d.axis, q.data(), d.scales.data(), d.zero_points.data(),
                                 dst);
  }
}

void HalfKernel(const QuantData &, const TfLiteTensor *in, TfLiteTensor *out) {
  reference::HalfToFloat(tflite::GetTensorData<uint16_t>(in), tflite::NumElements(in),
                         tflite::GetTensorData<float>(out));
}

template <typename In, typename Out>
void RequantizeKernel(const QuantData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  const auto &p = d.requant;
  reference::MapElements(tflite::GetTensorData<In>(in), tflite::NumElements(in),
                         tflite::GetTensorData<Out>(out),
                         [&p](In x) { return reference::integer::Requantize<In, Out>(x, p); });
}

// 8-bit -> 8-bit requantization through the table prepare filled from the reference.
void TableKernel(const QuantData &d, const TfLiteTensor *in, TfLiteTensor *out) {
  const auto *src = reinterpret_cast<const uint8_t *>(in->data.raw);
  auto *dst = reinterpret_cast<uint8_t *>(out->data.raw);
  ParallelForChunks(d.pool, static_cast<size_t>(tflite::NumElements(in)), kElementwiseChunk,
                    [&](size_t begin, size_t end) {
                      optimized::ApplyByteTable(d.table, src + begin, dst + begin, end - begin);
                    });
}

template <typename In, typename Out>
void FillTable(QuantData *d) {
  const auto &p = d->requant;
  optimized::FillByteTable<In, Out>(
      [&p](In x) { return reference::integer::Requantize<In, Out>(x, p); }, &d->table);
}

// Requantization as TFLite Micro: MultiplyByQuantizedMultiplier(x - zp_in) + zp_out with the
// multiplier s_in / s_out.
template <typename In>
QuantFn PickRequantize(TfLiteType out) {
  switch (out) {
    case kTfLiteInt8:
      return RequantizeKernel<In, int8_t>;
    case kTfLiteUInt8:
      return RequantizeKernel<In, uint8_t>;
    case kTfLiteInt16:
      return RequantizeKernel<In, int16_t>;
    case kTfLiteInt32:
      return RequantizeKernel<In, int32_t>;
    default:
      return nullptr;
  }
}

template <typename Out>
void SetTypeRange(reference::integer::RequantizeParams *p) {
  p->act_min = std::numeric_limits<Out>::min();
  p->act_max = std::numeric_limits<Out>::max();
}

TfLiteStatus RequantizePrepare(TfLiteContext *context, TfLiteNode *node, const TfLiteTensor *input,
                               TfLiteTensor *output, QuantData *data) {
  QuantFn fn = nullptr;
  if (input->type == kTfLiteInt8) fn = PickRequantize<int8_t>(output->type);
  if (input->type == kTfLiteUInt8) fn = PickRequantize<uint8_t>(output->type);
  if (input->type == kTfLiteInt16) fn = PickRequantize<int16_t>(output->type);
  // TFLite requantizes int8/uint8 -> int8/uint8 and int16 -> int8/int16; TFLite Micro adds
  // int8 -> int16/int32 and int16 -> int32.
  const bool supported = (input->type == kTfLiteUInt8)
                             ? output->type == kTfLiteInt8 || output->type == kTfLiteUInt8
                             : output->type != kTfLiteUInt8 || input->type == kTfLiteInt8;
  if (fn == nullptr || !supported) {
    TF_LITE_KERNEL_LOG(context, "%s: requantizing %s to %s is not supported", kQuantize,
                       TypeName(input->type), TypeName(output->type));
    return kTfLiteError;
  }
  // The input may be an int16 SOFTMAX output, which TFLite Micro gives zero point -32768.
  TF_LITE_ENSURE_STATUS(quant::CheckPerTensor(context, kQuantize, "input", input));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, kQuantize, "output", output));
  data->fn = fn;
  auto &p = data->requant;
  p.input_zero_point = input->params.zero_point;
  p.output_zero_point = output->params.zero_point;
  TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
      context, kQuantize, "output", output, "input_scale / output_scale",
      static_cast<double>(input->params.scale) / static_cast<double>(output->params.scale),
      &p.multiplier, &p.shift));
  if (output->type == kTfLiteInt8) SetTypeRange<int8_t>(&p);
  if (output->type == kTfLiteUInt8) SetTypeRange<uint8_t>(&p);
  if (output->type == kTfLiteInt16) SetTypeRange<int16_t>(&p);
  if (output->type == kTfLiteInt32) SetTypeRange<int32_t>(&p);
  // Between 8-bit types every input value's result fits a 256-entry table.
  const bool bytes_in = input->type == kTfLiteInt8 || input->type == kTfLiteUInt8;
  const bool bytes_out = output->type == kTfLiteInt8 || output->type == kTfLiteUInt8;
  if (bytes_in && bytes_out && cpu::ActiveIsa() != cpu::Isa::kReference) {
    if (input->type == kTfLiteInt8) {
      output->type == kTfLiteInt8 ? FillTable<int8_t, int8_t>(data)
                                  : FillTable<int8_t, uint8_t>(data);
    } else {
      output->type == kTfLiteInt8 ? FillTable<uint8_t, int8_t>(data)
                                  : FillTable<uint8_t, uint8_t>(data);
    }
    data->fn = TableKernel;
    SetNodeKernelName(context, node, "byte_table");
  }
  return ResizeOutput(context, output, Shape::Of(input));
}

TfLiteStatus QuantizePrepare(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<QuantData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kQuantize, 1, &input, &output));
  if (IsQuantizedType(input->type)) return RequantizePrepare(context, node, input, output, data);
  if (input->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported (only FLOAT32)", kQuantize,
                       TypeName(input->type));
    return kTfLiteError;
  }
  switch (output->type) {
    case kTfLiteInt8:
      data->fn = QuantizeKernel<int8_t>;
      break;
    case kTfLiteUInt8:
      data->fn = QuantizeKernel<uint8_t>;
      break;
    case kTfLiteInt16:
      data->fn = QuantizeKernel<int16_t>;
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: output type %s is not supported", kQuantize,
                         TypeName(output->type));
      return kTfLiteError;
  }
  // The output's quantization is checked against the input's shape (same as
  // output's).
  TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, Shape::Of(input)));
  TF_LITE_ENSURE_STATUS(ReadQuantization(context, kQuantize, output, data));
  ChooseConvertKernel(context, node, output->type, true, data);
  return kTfLiteOk;
}

TfLiteStatus DequantizePrepare(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<QuantData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kDequantize, 1, &input, &output));
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kDequantize, output, kTfLiteFloat32));
  switch (input->type) {
    case kTfLiteInt8:
      data->fn = DequantizeKernel<int8_t>;
      break;
    case kTfLiteUInt8:
      data->fn = DequantizeKernel<uint8_t>;
      break;
    case kTfLiteInt16:
      data->fn = DequantizeKernel<int16_t>;
      break;
    case kTfLiteFloat16:
      data->fn = HalfKernel;
      break;
    case kTfLiteInt4: {
      // Octet holds no INT4 activations: only a constant (weights) can be INT4, and it is
      // dequantized below, once.
      size_t elements = 0;
      TF_LITE_ENSURE_STATUS(nn::CheckInt4Constant(context, kDequantize, "input", input, &elements));
      data->fn = Int4Kernel;
      break;
    }
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", kDequantize,
                         TypeName(input->type));
      return kTfLiteError;
  }
  if (input->type != kTfLiteFloat16) {
    TF_LITE_ENSURE_STATUS(ReadQuantization(context, kDequantize, input, data));
    ChooseConvertKernel(context, node, input->type, false, data);
  }
  TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, Shape::Of(input)));
  // Constant input (weights stored as float16 or int8 and dequantized by the graph): the
  // result is computed once, here, into persistent memory. Invoke then does nothing, and the
  // consuming op sees constant float weights it can pack in its own prepare.
  if (tflite::IsConstantTensor(input) && input->data.raw != nullptr) {
    if (data->folded_from == input->data.raw && output->allocation_type == kTfLitePersistentRo) {
      return kTfLiteOk;
    }
    void *buffer = context->AllocatePersistentBuffer(context, output->bytes);
    if (buffer == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: out of memory for the dequantized constant", kDequantize);
      return kTfLiteError;
    }
    output->allocation_type = kTfLitePersistentRo;
    output->data.raw = static_cast<char *>(buffer);
    data->pool = nullptr;
    data->fn(*data, input, output);
    data->folded_from = input->data.raw;
    SetNodeKernelName(context, node, "folded_at_prepare");
  } else {
    data->folded_from = nullptr;
  }
  return kTfLiteOk;
}

template <const char *const *kName>
TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  auto &data = *static_cast<QuantData *>(node->user_data);
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, *kName, "input 0", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, *kName, "output", output));
  if (data.folded_from != nullptr) return kTfLiteOk;  // a constant, computed in prepare
  data.pool = GetThreadPool(context);                 // the pool can change with SetNumThreads
  data.fn(data, input, output);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

namespace ew = octet::ops::elementwise;

TfLiteRegistration *Register_QUANTIZE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::QuantData>, octet::ops::FreeData<ew::QuantData>, ew::QuantizePrepare,
      ew::Eval<&ew::kQuantize>);
  return &r;
}

TfLiteRegistration *Register_DEQUANTIZE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<ew::QuantData>, octet::ops::FreeData<ew::QuantData>,
      ew::DequantizePrepare, ew::Eval<&ew::kDequantize>);
  return &r;
}

}  // namespace tflite::ops::builtin
