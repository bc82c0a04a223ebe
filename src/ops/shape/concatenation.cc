// CONCATENATION: joins inputs along `axis` (negative counts from the back; rank-0 inputs
// stack into a vector). uint8 inputs with other quantization are requantized; int8 and
// int16 must already share the output's. Fused activation is honoured for float only.
// Off the reference path, each requantized uint8 input maps its bytes through a 256-entry
// table the reference arithmetic fills in prepare (SSD MobileNet's class-score concat: 0.9
// ms of float rounding per invoke on the reference).
#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/lut/byte_table.h"
#include "kernels/reference/concat.h"
#include "octet/kernel_info.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "CONCATENATION";

struct OpData {
  // uint8 off the reference path: one table per input (identity where its quantization is
  // the output's); empty otherwise.
  std::vector<optimized::ByteTable> tables;
};

void* Init(TfLiteContext*, const char*, size_t) { return std::make_unique<OpData>().release(); }

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// Fills data->tables for a uint8 concatenation that requantizes some input.
void PlanTables(TfLiteContext* context, TfLiteNode* node,
                const std::vector<const TfLiteTensor*>& inputs, const TfLiteTensor* output,
                OpData* data) {
  data->tables.assign(inputs.size(), optimized::ByteTable{});
  bool any_requantized = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TfLiteTensor* in = inputs[i];
    if (in->params.scale == output->params.scale &&
        in->params.zero_point == output->params.zero_point) {
      optimized::FillByteTable<uint8_t, uint8_t>([](uint8_t q) { return q; }, &data->tables[i]);
      continue;
    }
    any_requantized = true;
    const reference::ConcatRescale r =
        reference::ConcatRescaleOf(in->params.scale, in->params.zero_point, output->params.scale);
    const int32_t zero_point = output->params.zero_point;
    optimized::FillByteTable<uint8_t, uint8_t>(
        [&](uint8_t q) { return reference::RequantizeForConcat(q, r.scale, r.bias, zero_point); },
        &data->tables[i]);
  }
  if (!any_requantized) {
    data->tables.clear();  // plain copies: the generic path
    return;
  }
  SetNodeKernelName(context, node, "byte_table");
}

// Axis in [0, rank) (0 for rank-0 inputs).
TfLiteStatus ResolveAxis(TfLiteContext* context, TfLiteNode* node, int* axis) {
  const auto* params = static_cast<const TfLiteConcatenationParams*>(node->builtin_data);
  OCTET_ENSURE(context, params != nullptr, "%s: missing options", kOp);
  const TfLiteTensor* t0 = tflite::GetInput(context, node, 0);
  const int rank = tflite::NumDimensions(t0);
  if (rank == 0 && params->axis == 0) {
    *axis = 0;
    return kTfLiteOk;
  }
  OCTET_ENSURE(context, NormalizeAxis(params->axis, rank, axis),
               "%s: axis %d out of range for rank %d", kOp, params->axis, rank);
  return kTfLiteOk;
}

TfLiteStatus ActivationRange(TfLiteContext* context, TfLiteFusedActivation act, float* lo,
                             float* hi) {
  *lo = -std::numeric_limits<float>::infinity();
  *hi = std::numeric_limits<float>::infinity();
  switch (act) {
    case kTfLiteActNone:
      return kTfLiteOk;
    case kTfLiteActRelu:
      *lo = 0.f;
      return kTfLiteOk;
    case kTfLiteActRelu6:
      *lo = 0.f;
      *hi = 6.f;
      return kTfLiteOk;
    case kTfLiteActReluN1To1:
      *lo = -1.f;
      *hi = 1.f;
      return kTfLiteOk;
    default:
      OCTET_ENSURE(context, false, "%s: unsupported fused activation %d", kOp,
                   static_cast<int>(act));
  }
  return kTfLiteOk;
}

// `reference_only` pins the reference kernel (Register_CONCATENATION_REF).
template <bool reference_only>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  data->tables.clear();
  const int n = tflite::NumInputs(node);
  OCTET_ENSURE(context, n >= 1, "%s: expected at least 1 input, got %d", kOp, n);
  OCTET_ENSURE(context, tflite::NumOutputs(node) == 1, "%s: expected 1 output, got %d", kOp,
               tflite::NumOutputs(node));
  std::vector<const TfLiteTensor*> inputs(n);
  for (int i = 0; i < n; ++i)
    TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, i, &inputs[i]));
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  const TfLiteTensor* t0 = inputs[0];
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, t0->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, t0, output, "output"));
  int axis;
  TF_LITE_ENSURE_STATUS(ResolveAxis(context, node, &axis));
  const auto* params = static_cast<const TfLiteConcatenationParams*>(node->builtin_data);
  OCTET_ENSURE(context, params->activation == kTfLiteActNone || t0->type == kTfLiteFloat32,
               "%s: fused activation is only supported for float32", kOp);
  float lo, hi;
  TF_LITE_ENSURE_STATUS(ActivationRange(context, params->activation, &lo, &hi));

  const int rank = tflite::NumDimensions(t0);
  int64_t axis_sum = 0;
  for (int i = 0; i < n; ++i) {
    const TfLiteTensor* t = inputs[i];
    OCTET_ENSURE(context, t->type == t0->type, "%s: input %d type %s differs from %s", kOp, i,
                 TfLiteTypeGetName(t->type), TfLiteTypeGetName(t0->type));
    OCTET_ENSURE(context, tflite::NumDimensions(t) == rank,
                 "%s: input %d has rank %d, input 0 has rank %d", kOp, i, tflite::NumDimensions(t),
                 rank);
    for (int d = 0; d < rank; ++d) {
      if (d == axis) continue;
      OCTET_ENSURE(context, t->dims->data[d] == t0->dims->data[d],
                   "%s: input %d dim %d is %d, input 0 has %d", kOp, i, d, t->dims->data[d],
                   t0->dims->data[d]);
    }
    axis_sum += rank == 0 ? 1 : t->dims->data[axis];
    OCTET_ENSURE(context, axis_sum <= std::numeric_limits<int>::max(),
                 "%s: concatenated dim overflows", kOp);
    if (t0->type == kTfLiteInt8) {
      OCTET_ENSURE(context,
                   t->params.scale == output->params.scale &&
                       t->params.zero_point == output->params.zero_point,
                   "%s: int8 input %d quantization differs from the output's", kOp, i);
    }
    if (t0->type == kTfLiteInt16) {
      OCTET_ENSURE(context, t->params.zero_point == 0, "%s: int16 input %d has nonzero zero point",
                   kOp, i);
    }
    if (t0->type == kTfLiteUInt8 && t->quantization.type != kTfLiteNoQuantization) {
      OCTET_ENSURE(context, t->params.scale > 0, "%s: uint8 input %d has scale <= 0", kOp, i);
    }
  }
  if (t0->type == kTfLiteInt16) {
    OCTET_ENSURE(context, output->params.zero_point == 0, "%s: int16 output has nonzero zero point",
                 kOp);
  }
  if (t0->type == kTfLiteUInt8) {
    for (int i = 0; i < n; ++i) {
      const bool same = inputs[i]->params.scale == output->params.scale &&
                        inputs[i]->params.zero_point == output->params.zero_point;
      OCTET_ENSURE(context, same || output->params.scale > 0,
                   "%s: uint8 output scale must be > 0 to requantize", kOp);
    }
  }
  if (t0->type == kTfLiteUInt8 && !reference_only && cpu::ActiveIsa() != cpu::Isa::kReference) {
    PlanTables(context, node, inputs, output, data);
  }
  std::vector<int> out_dims = rank == 0 ? std::vector<int>{n} : DimsOf(t0);
  if (rank > 0) out_dims[axis] = static_cast<int>(axis_sum);
  return ResizeOutput(context, output, out_dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  int axis;
  TF_LITE_ENSURE_STATUS(ResolveAxis(context, node, &axis));
  const auto* params = static_cast<const TfLiteConcatenationParams*>(node->builtin_data);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const int n = tflite::NumInputs(node);
  std::vector<const TfLiteTensor*> inputs(n);
  std::vector<Shape> shapes(n);
  for (int i = 0; i < n; ++i) {
    inputs[i] = tflite::GetInput(context, node, i);
    // Rank-0 inputs behave as [1] vectors.
    shapes[i] = inputs[i]->dims->size == 0 ? Shape({1}) : Shape::Of(inputs[i]);
  }
  const Shape out_shape = Shape::Of(output);

  if (output->type == kTfLiteUInt8) {
    std::vector<const uint8_t*> data(n);
    for (int i = 0; i < n; ++i) data[i] = inputs[i]->data.uint8;
    const auto* op_data = static_cast<const OpData*>(node->user_data);
    if (!op_data->tables.empty()) {
      reference::ConcatenateSlabs(
          axis, data, shapes, out_shape, output->data.uint8,
          [op_data](size_t i, const uint8_t* src, uint8_t* dst, int64_t count) {
            optimized::ApplyByteTable(op_data->tables[i], src, dst, static_cast<size_t>(count));
          });
      return kTfLiteOk;
    }
    std::vector<float> scales(n);
    std::vector<int32_t> zps(n);
    for (int i = 0; i < n; ++i) {
      scales[i] = inputs[i]->params.scale;
      zps[i] = inputs[i]->params.zero_point;
    }
    reference::ConcatenationWithScaling(axis, data, shapes, scales, zps, output->params.scale,
                                        output->params.zero_point, out_shape, output->data.uint8);
    return kTfLiteOk;
  }

  TF_LITE_ENSURE_STATUS(ByElementWidth(context, kOp, output, [&](auto tag) {
    using T = decltype(tag);
    std::vector<const T*> data(n);
    for (int i = 0; i < n; ++i) data[i] = reinterpret_cast<const T*>(inputs[i]->data.raw);
    reference::Concatenation(axis, data, shapes, out_shape, reinterpret_cast<T*>(output->data.raw));
  }));

  if (output->type == kTfLiteFloat32 && params->activation != kTfLiteActNone) {
    float lo, hi;
    TF_LITE_ENSURE_STATUS(ActivationRange(context, params->activation, &lo, &hi));
    const int64_t count = tflite::NumElements(output);
    for (int64_t i = 0; i < count; ++i) {
      output->data.f[i] = std::min(std::max(output->data.f[i], lo), hi);
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_CONCATENATION() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::shape::Init, octet::ops::shape::Free,
                                   octet::ops::shape::Prepare<false>, octet::ops::shape::Eval);
  return &r;
}

TfLiteRegistration* Register_CONCATENATION_REF() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::shape::Init, octet::ops::shape::Free,
                                   octet::ops::shape::Prepare<true>, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
