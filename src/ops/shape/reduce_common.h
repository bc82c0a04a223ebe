// Shared prepare/eval of the axis reductions (MEAN, SUM, REDUCE_MAX/MIN/PROD): input 0 the
// tensor, input 1 the axes (int32/int64; negative count from the back, duplicates
// ignored), keep_dims option. A non-constant axes tensor makes the output dynamic.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/reduce/qmean.h"
#include "kernels/reference/quantized_reduce_prod.h"
#include "kernels/reference/reduce.h"
#include "octet/kernel_info.h"
#include "ops/shape/common.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"

namespace octet::ops::shape {

enum class ReduceKind { kMean, kSum, kMax, kMin, kProd };

struct ReducePlan {
  std::vector<bool> reduced;
  std::vector<int> output_dims;
};

inline TfLiteStatus MakeReducePlan(TfLiteContext* context, TfLiteNode* node, const char* op,
                                   ReducePlan* plan) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* axes_t = tflite::GetInput(context, node, 1);
  const auto* params = static_cast<const TfLiteReducerParams*>(node->builtin_data);
  const bool keep_dims = params != nullptr && params->keep_dims;
  const int rank = tflite::NumDimensions(input);
  std::vector<int64_t> axes;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, op, axes_t, "axis", &axes));
  plan->reduced.assign(rank, false);
  for (int64_t a : axes) {
    int axis;
    OCTET_ENSURE(context, NormalizeAxis(a, rank, &axis), "%s: axis %lld out of range for rank %d",
                 op, static_cast<long long>(a), rank);
    plan->reduced[axis] = true;
  }
  plan->output_dims.clear();
  for (int d = 0; d < rank; ++d) {
    if (!plan->reduced[d]) {
      plan->output_dims.push_back(input->dims->data[d]);
    } else if (keep_dims) {
      plan->output_dims.push_back(1);
    }
  }
  return kTfLiteOk;
}

inline bool ReduceTypeSupported(ReduceKind kind, TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
    case kTfLiteInt32:
    case kTfLiteInt64:
      return true;
    case kTfLiteInt8:
    case kTfLiteUInt8:
    case kTfLiteInt16:
      // PROD: int8/int16 (quantized or raw), as TFLite; no uint8.
      return kind != ReduceKind::kProd || type != kTfLiteUInt8;
    case kTfLiteBool:
      return kind == ReduceKind::kMax || kind == ReduceKind::kMin;
    default:
      return false;
  }
}

// MEAN (int8/uint8/int16) and SUM (int8/uint8) requantize from the input's scale and zero
// point to the output's, as TFLite does; int16 SUM, MAX and MIN work on raw values and need
// equal quantization.
inline bool RequantizesQuantized(ReduceKind kind, TfLiteType type) {
  if (kind == ReduceKind::kMean) return IsQuantizedType(type);
  if (kind == ReduceKind::kSum) return type == kTfLiteInt8 || type == kTfLiteUInt8;
  return false;
}

// TFLite requantizes a PROD of int8/int16 whenever the input carries quantization (raw
// products otherwise).
inline bool QuantizedProd(ReduceKind kind, const TfLiteTensor* input) {
  return kind == ReduceKind::kProd && (input->type == kTfLiteInt8 || input->type == kTfLiteInt16) &&
         input->quantization.type != kTfLiteNoQuantization;
}

// The per-step rescale of a quantized PROD reducing `count` elements per output.
inline TfLiteStatus QuantizedProdMultiplier(TfLiteContext* context, const char* op,
                                            const TfLiteTensor* input, const TfLiteTensor* output,
                                            int64_t count, int32_t* multiplier, int* shift) {
  *multiplier = 0;
  *shift = 0;
  if (count == 0) return kTfLiteOk;  // empty: nothing is multiplied
  return quant::QuantizeMultiplierChecked(
      context, op, "output", output, "input_scale / output_scale^(1/reduced_count)",
      reference::QuantizedProdScaling(input->params.scale, output->params.scale, count), multiplier,
      shift, quant::kRequant64Shifts);
}

inline int64_t ReducedCount(const Shape& shape, const std::vector<bool>& reduced) {
  int64_t count = 1;
  for (int d = 0; d < shape.rank(); ++d) {
    if (reduced[d]) count *= shape.dim(d);
  }
  return count;
}

inline TfLiteStatus ReducePrepare(TfLiteContext* context, TfLiteNode* node, const char* op,
                                  ReduceKind kind) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, op, 2, 2, 1));
  const TfLiteTensor *input, *axes;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 1, &axes));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, op, input, output, "output"));
  OCTET_ENSURE(context, ReduceTypeSupported(kind, input->type), "%s: unsupported element type %s",
               op, TfLiteTypeGetName(input->type));
  if (QuantizedProd(kind, input)) {
    TF_LITE_ENSURE_STATUS(quant::CheckPerTensor(context, op, "input", input));
    TF_LITE_ENSURE_STATUS(quant::CheckPerTensor(context, op, "output", output));
    if (input->type == kTfLiteInt16) {
      OCTET_ENSURE(context, input->params.zero_point == 0 && output->params.zero_point == 0,
                   "%s: int16 input and output zero points must be 0", op);
    }
  } else if (RequantizesQuantized(kind, input->type)) {
    OCTET_ENSURE(context, input->params.scale > 0 && output->params.scale > 0,
                 "%s: quantized input and output need positive scales", op);
    // Eval derives the same multiplier again; refuse here what it could not represent.
    int32_t multiplier;
    int shift;
    TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(
        context, op, "output", output, "input_scale / output_scale",
        static_cast<double>(input->params.scale) / static_cast<double>(output->params.scale),
        &multiplier, &shift));
    if (input->type == kTfLiteInt16) {
      OCTET_ENSURE(context, input->params.zero_point == 0 && output->params.zero_point == 0,
                   "%s: int16 input and output zero points must be 0", op);
    }
  } else {
    TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, op, input, output));
  }
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, op, axes, "axis"));
  OCTET_ENSURE(context, tflite::NumDimensions(axes) <= 1,
               "%s: axis must be a scalar or vector, got rank %d", op, tflite::NumDimensions(axes));
  if (!IsConstant(axes)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  ReducePlan plan;
  TF_LITE_ENSURE_STATUS(MakeReducePlan(context, node, op, &plan));
  if (QuantizedProd(kind, input)) {  // eval derives it again; refuse here what it cannot
    int32_t multiplier;
    int shift;
    TF_LITE_ENSURE_STATUS(QuantizedProdMultiplier(context, op, input, output,
                                                  ReducedCount(Shape::Of(input), plan.reduced),
                                                  &multiplier, &shift));
  }
  int64_t outer, count, inner;
  if (RequantizesQuantized(kind, input->type) && cpu::ActiveIsa() != cpu::Isa::kReference &&
      optimized::ContiguousReduction(Shape::Of(input), plan.reduced, &outer, &count, &inner)) {
    SetNodeKernelName(context, node, "reduce_contiguous");  // what ReduceEval will run
  }
  return ResizeOutput(context, output, plan.output_dims);
}

// Integer sums and products wrap (two's complement) instead of overflowing.
template <typename T>
T WrappingAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <typename T>
T WrappingMul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
}

template <typename T>
void ReduceTyped(ReduceKind kind, const Shape& shape, const std::vector<bool>& reduced,
                 const T* input, int64_t output_size, T* output) {
  if constexpr (std::is_same_v<T, bool>) {
    // Only max/min reach here for bool (see ReduceTypeSupported).
    if (kind == ReduceKind::kMax) {
      reference::Reduce(
          shape, reduced, input, output_size, false,
          [](bool acc, bool x) { return x > acc ? x : acc; }, output);
    } else {
      reference::Reduce(
          shape, reduced, input, output_size, true,
          [](bool acc, bool x) { return x < acc ? x : acc; }, output);
    }
    return;
  } else {
    switch (kind) {
      case ReduceKind::kMean:
        if constexpr (std::is_floating_point_v<T>) {
          reference::Mean<T, T>(shape, reduced, input, output_size, output);
        } else {
          reference::Mean<T, int64_t>(shape, reduced, input, output_size, output);
        }
        break;
      case ReduceKind::kSum:
        if constexpr (std::is_floating_point_v<T>) {
          reference::Reduce(
              shape, reduced, input, output_size, T(0), [](T acc, T x) { return acc + x; }, output);
        } else {
          reference::Reduce(shape, reduced, input, output_size, T(0), WrappingAdd<T>, output);
        }
        break;
      case ReduceKind::kProd:
        if constexpr (std::is_floating_point_v<T>) {
          reference::Reduce(
              shape, reduced, input, output_size, T(1), [](T acc, T x) { return acc * x; }, output);
        } else {
          reference::Reduce(shape, reduced, input, output_size, T(1), WrappingMul<T>, output);
        }
        break;
      case ReduceKind::kMax:
        reference::Reduce(
            shape, reduced, input, output_size, std::numeric_limits<T>::lowest(),
            [](T acc, T x) { return x > acc ? x : acc; }, output);
        break;
      case ReduceKind::kMin:
        reference::Reduce(
            shape, reduced, input, output_size, std::numeric_limits<T>::max(),
            [](T acc, T x) { return x < acc ? x : acc; }, output);
        break;
    }
  }
}

inline TfLiteStatus ReduceEval(TfLiteContext* context, TfLiteNode* node, const char* op,
                               ReduceKind kind) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  ReducePlan plan;
  TF_LITE_ENSURE_STATUS(MakeReducePlan(context, node, op, &plan));
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, plan.output_dims));
  }
  const Shape shape = Shape::Of(input);
  const int64_t n = tflite::NumElements(output);
  if (QuantizedProd(kind, input)) {
    int32_t multiplier;
    int shift;
    TF_LITE_ENSURE_STATUS(QuantizedProdMultiplier(
        context, op, input, output, ReducedCount(shape, plan.reduced), &multiplier, &shift));
    const int32_t in_zp = input->params.zero_point, out_zp = output->params.zero_point;
    if (input->type == kTfLiteInt8) {
      reference::QuantizedReduceProd(shape, plan.reduced, input->data.int8, in_zp, multiplier,
                                     shift, out_zp, n, output->data.int8);
    } else {
      reference::QuantizedReduceProd(shape, plan.reduced, input->data.i16, in_zp, multiplier, shift,
                                     out_zp, n, output->data.i16);
    }
    return kTfLiteOk;
  }
  if (RequantizesQuantized(kind, input->type)) {
    int32_t multiplier;
    int shift;
    quant::QuantizeMultiplier(
        static_cast<double>(input->params.scale) / static_cast<double>(output->params.scale),
        &multiplier, &shift);
    const bool sum = kind == ReduceKind::kSum;
    const int32_t in_zp = input->params.zero_point, out_zp = output->params.zero_point;
    int64_t outer, count, inner;
    if (cpu::ActiveIsa() != cpu::Isa::kReference &&
        optimized::ContiguousReduction(shape, plan.reduced, &outer, &count, &inner)) {
      switch (input->type) {
        case kTfLiteInt8:
          optimized::QuantizedMeanOrSumContiguous(outer, count, inner, input->data.int8, in_zp,
                                                  multiplier, shift, out_zp, sum,
                                                  output->data.int8);
          break;
        case kTfLiteUInt8:
          optimized::QuantizedMeanOrSumContiguous(outer, count, inner, input->data.uint8, in_zp,
                                                  multiplier, shift, out_zp, sum,
                                                  output->data.uint8);
          break;
        default:
          optimized::QuantizedMeanOrSumContiguous(outer, count, inner, input->data.i16, in_zp,
                                                  multiplier, shift, out_zp, sum, output->data.i16);
          break;
      }
      return kTfLiteOk;
    }
    switch (input->type) {
      case kTfLiteInt8:
        reference::QuantizedMeanOrSum(shape, plan.reduced, input->data.int8, in_zp, multiplier,
                                      shift, out_zp, n, sum, output->data.int8);
        break;
      case kTfLiteUInt8:
        reference::QuantizedMeanOrSum(shape, plan.reduced, input->data.uint8, in_zp, multiplier,
                                      shift, out_zp, n, sum, output->data.uint8);
        break;
      default:
        reference::QuantizedMeanOrSum(shape, plan.reduced, input->data.i16, in_zp, multiplier,
                                      shift, out_zp, n, sum, output->data.i16);
        break;
    }
    return kTfLiteOk;
  }
  switch (input->type) {
    case kTfLiteFloat32:
      ReduceTyped(kind, shape, plan.reduced, input->data.f, n, output->data.f);
      break;
    case kTfLiteInt32:
      ReduceTyped(kind, shape, plan.reduced, input->data.i32, n, output->data.i32);
      break;
    case kTfLiteInt64:
      ReduceTyped(kind, shape, plan.reduced, input->data.i64, n, output->data.i64);
      break;
    case kTfLiteInt8:
      ReduceTyped(kind, shape, plan.reduced, input->data.int8, n, output->data.int8);
      break;
    case kTfLiteUInt8:
      ReduceTyped(kind, shape, plan.reduced, input->data.uint8, n, output->data.uint8);
      break;
    case kTfLiteInt16:
      ReduceTyped(kind, shape, plan.reduced, input->data.i16, n, output->data.i16);
      break;
    case kTfLiteBool:
      ReduceTyped(kind, shape, plan.reduced, input->data.b, n, output->data.b);
      break;
    default:
      OCTET_ENSURE(context, false, "%s: unsupported element type %s", op,
                   TfLiteTypeGetName(input->type));
  }
  return kTfLiteOk;
}

}  // namespace octet::ops::shape
