// BATCH_MATMUL, float32, int8 and int16x8 (per-tensor, rhs zero point 0; int16 operands
// and output have zero point 0), and hybrid (float lhs and output, int8 rhs with one scale or
// one per output column): lhs [..., M, K] x rhs [..., K, N] with adj_x / adj_y transposes and
// NumPy-style broadcasting of up to three batch dimensions (ranks 2 to 5).
#include "kernels/reference/batch_matmul.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "kernels/reference/batch_matmul_hybrid.h"
#include "kernels/shape.h"
#include "octet/kernel_info.h"
#include "ops/nn/float_matmul.h"
#include "ops/nn/hybrid_batch_matmul.h"
#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_util.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn::batch_matmul {
namespace {

constexpr char kOp[] = "BATCH_MATMUL";
constexpr int kLhs = 0;
constexpr int kRhs = 1;
constexpr int kOutput = 0;

using KernelFn = void (*)(const Shape&, const float*, bool, const Shape&, const float*, bool,
                          const Shape&, float*);

struct OpData {
  bool adj_x = false;
  bool adj_y = false;
  KernelFn kernel = nullptr;
  TfLiteType type = kTfLiteFloat32;
  TfLiteType rhs_type = kTfLiteFloat32;  // quantized: the lhs type, or INT8 under INT16 (16x8)
  reference::QuantizedBatchMatMulParams q;
  FloatMatMul fast;     // float32 on the optimized GEMM when prepare chose it
  NodeScratch scratch;  // its per-invoke packed rhs (non-constant rhs), or hybrid scratch
  // Hybrid (float lhs, int8 rhs): the rhs scales and the kernel prepare chose.
  bool hybrid = false;
  std::vector<float> channel_scales;
  reference::HybridBatchMatMulParams hybrid_params;
  HybridBatchMatMulKernel hybrid_fast;
};

// Quantized operands: the lhs type everywhere (int8, int16), or int16 lhs and output with an
// int8 rhs (TFLite's 16x8); per-tensor params, rhs symmetric; the multiplier
// lhs_scale · rhs_scale / output_scale is computed once.
TfLiteStatus PrepareQuantized(TfLiteContext* context, const TfLiteTensor* lhs,
                              const TfLiteTensor* rhs, TfLiteTensor* output, OpData* data) {
  const TfLiteType t = lhs->type;
  OCTET_OP_ENSURE(context, t == kTfLiteInt8 || t == kTfLiteInt16, kOp,
                  "lhs type %s is not supported (FLOAT32, INT8, INT16)", TfLiteTypeGetName(t));
  const bool rhs_ok = rhs->type == t || (t == kTfLiteInt16 && rhs->type == kTfLiteInt8);
  OCTET_OP_ENSURE(context, rhs_ok && output->type == t, kOp,
                  "rhs (%s) and output (%s) must have the lhs type %s (or an INT8 rhs with INT16)",
                  TfLiteTypeGetName(rhs->type), TfLiteTypeGetName(output->type),
                  TfLiteTypeGetName(t));
  data->rhs_type = rhs->type;
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "lhs", lhs));
  TF_LITE_ENSURE_OK(context, quant::CheckPerTensor(context, kOp, "rhs", rhs));
  TF_LITE_ENSURE_OK(context, quant::CheckActivation(context, kOp, "output", output));
  OCTET_OP_ENSURE(context, rhs->params.zero_point == 0, kOp,
                  "rhs '%s' must have zero_point 0 (spec), has %d", rhs->name ? rhs->name : "",
                  rhs->params.zero_point);
  reference::QuantizedBatchMatMulParams& q = data->q;
  q.lhs_offset = -lhs->params.zero_point;
  q.rhs_offset = 0;
  q.output_offset = output->params.zero_point;
  q.act_min = t == kTfLiteInt8 ? -128 : -32768;
  q.act_max = t == kTfLiteInt8 ? 127 : 32767;
  const double real = static_cast<double>(lhs->params.scale) *
                      static_cast<double>(rhs->params.scale) /
                      static_cast<double>(output->params.scale);
  return quant::QuantizeMultiplierChecked(
      context, kOp, "output", output, "lhs_scale * rhs_scale / output_scale", real, &q.multiplier,
      &q.shift, t == kTfLiteInt16 ? quant::kRequant64Shifts : quant::kRequantShifts);
}

void* Init(TfLiteContext* context, const char*, size_t) {
  auto data = std::make_unique<OpData>();
  if (data->scratch.Reserve(context, kHybridBatchMatMulScratchCount) != kTfLiteOk) return nullptr;
  return data.release();
}

void Free(TfLiteContext*, void* buffer) { delete static_cast<OpData*>(buffer); }

// Hybrid operands: float output, int8 rhs symmetric with one finite positive scale or one
// per output column (along the rhs dimension that holds N).
TfLiteStatus PrepareHybrid(TfLiteContext* context, const TfLiteTensor* rhs,
                           const TfLiteTensor* output, bool asymmetric, int n, OpData* data) {
  TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "output", output));
  const int n_axis = rhs->dims->size - (data->adj_y ? 2 : 1);
  float scale = 1.f;
  TF_LITE_ENSURE_OK(
      context, ReadHybridWeightScales(context, kOp, rhs, n_axis, n, &scale, &data->channel_scales));
  const auto* q = static_cast<const TfLiteAffineQuantization*>(rhs->quantization.params);
  for (int i = 0; i < q->scale->size; ++i) {
    const float s = q->scale->data[i];
    OCTET_OP_ENSURE(context, s > 0.f && s <= std::numeric_limits<float>::max(), kOp,
                    "rhs '%s' scale %d is %g; it must be finite and > 0",
                    rhs->name ? rhs->name : "", i, static_cast<double>(s));
  }
  reference::HybridBatchMatMulParams& p = data->hybrid_params;
  p.adj_x = data->adj_x;
  p.adj_y = data->adj_y;
  p.asymmetric = asymmetric;
  p.weights_scale = scale;
  p.channel_scales = data->channel_scales.empty() ? nullptr : data->channel_scales.data();
  return kTfLiteOk;
}

// `reference_only` pins the reference kernels (Register_BATCH_MATMUL_REF).
TfLiteStatus PrepareImpl(TfLiteContext* context, TfLiteNode* node, bool reference_only) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteBatchMatMulParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor* lhs;
  const TfLiteTensor* rhs;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kLhs, &lhs));
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kRhs, &rhs));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kOutput, &output));
  data->type = lhs->type;
  data->hybrid = lhs->type == kTfLiteFloat32 && rhs->type == kTfLiteInt8;
  if (data->hybrid) {
    // Checked below, once the shapes are known.
  } else if (lhs->type == kTfLiteFloat32) {
    OCTET_OP_ENSURE(context, rhs->type == kTfLiteFloat32, kOp,
                    "with a FLOAT32 lhs the rhs must be FLOAT32 or INT8 (hybrid), got %s",
                    TfLiteTypeGetName(rhs->type));
    TF_LITE_ENSURE_OK(context, RequireFloat(context, kOp, "output", output));
  } else {
    TF_LITE_ENSURE_OK(context, PrepareQuantized(context, lhs, rhs, output, data));
  }
  TF_LITE_ENSURE_OK(context, RequireValidDims(context, kOp, "lhs", lhs, 2));
  TF_LITE_ENSURE_OK(context, RequireValidDims(context, kOp, "rhs", rhs, 2));
  const int lhs_rank = lhs->dims->size;
  const int rhs_rank = rhs->dims->size;
  OCTET_OP_ENSURE(context, lhs_rank <= 5 && rhs_rank <= 5, kOp,
                  "operands must have at most 5 dimensions, got %d and %d", lhs_rank, rhs_rank);

  // Absent options mean no transposes.
  data->adj_x = params != nullptr && params->adj_x;
  data->adj_y = params != nullptr && params->adj_y;
  const int* l = lhs->dims->data;
  const int* r = rhs->dims->data;
  const int m = data->adj_x ? l[lhs_rank - 1] : l[lhs_rank - 2];
  const int lhs_k = data->adj_x ? l[lhs_rank - 2] : l[lhs_rank - 1];
  const int rhs_k = data->adj_y ? r[rhs_rank - 1] : r[rhs_rank - 2];
  const int n = data->adj_y ? r[rhs_rank - 2] : r[rhs_rank - 1];
  OCTET_OP_ENSURE(context, lhs_k == rhs_k, kOp,
                  "contraction dimensions differ: lhs has %d, rhs has %d", lhs_k, rhs_k);

  const int out_rank = std::max(lhs_rank, rhs_rank);
  std::vector<int> out_dims(out_rank);
  for (int i = 0; i < out_rank - 2; ++i) {
    // Align from the right; a missing dimension acts as 1.
    const int li = i - (out_rank - lhs_rank);
    const int ri = i - (out_rank - rhs_rank);
    const int ld = li >= 0 ? l[li] : 1;
    const int rd = ri >= 0 ? r[ri] : 1;
    OCTET_OP_ENSURE(context, ld == rd || ld == 1 || rd == 1, kOp,
                    "batch dimension %d cannot broadcast: lhs has %d, rhs has %d", i, ld, rd);
    out_dims[i] = ld == 1 ? rd : ld;
  }
  out_dims[out_rank - 2] = m;
  out_dims[out_rank - 1] = n;
  data->kernel = &reference::BatchMatMul;
  data->fast.optimized = false;
  data->hybrid_fast.optimized = false;
  if (data->hybrid) {
    TF_LITE_ENSURE_OK(
        context, PrepareHybrid(context, rhs, output,
                               params != nullptr && params->asymmetric_quantize_inputs, n, data));
    TF_LITE_ENSURE_OK(
        context, PrepareHybridBatchMatMul(context, node, lhs, rhs, out_dims, data->hybrid_params,
                                          reference_only, &data->scratch, &data->hybrid_fast));
    if (!data->hybrid_fast.optimized) {
      // The reference's scratch: one lhs row as floats and quantized.
      TF_LITE_ENSURE_OK(context, data->scratch.Prepare(context, node,
                                                       {{kTfLiteFloat32, std::max(lhs_k, 1)},
                                                        {kTfLiteInt8, std::max(lhs_k, 1)}}));
    }
  } else if (data->type == kTfLiteFloat32 && !reference_only) {
    TF_LITE_ENSURE_OK(context, PrepareFloatMatMul(context, node, lhs, rhs, out_dims, data->adj_x,
                                                  data->adj_y, &data->scratch, &data->fast));
  } else {
    SetNodeKernelName(context, node, "reference");
  }
  return ResizeOutput(context, output, out_dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  return PrepareImpl(context, node, false);
}
TfLiteStatus PrepareReference(TfLiteContext* context, TfLiteNode* node) {
  return PrepareImpl(context, node, true);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* lhs = tflite::GetInput(context, node, kLhs);
  const TfLiteTensor* rhs = tflite::GetInput(context, node, kRhs);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "lhs", lhs));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "rhs", rhs));
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output", output));
  if (data->hybrid) {
    if (EvalHybridBatchMatMul(context, data->hybrid_fast, data->scratch, lhs, output)) {
      return kTfLiteOk;
    }
    reference::HybridBatchMatMul(data->hybrid_params, Shape::Of(lhs), lhs->data.f, Shape::Of(rhs),
                                 rhs->data.int8, Shape::Of(output), output->data.f,
                                 data->scratch.Data<float>(context, 0),
                                 data->scratch.Data<int8_t>(context, 1));
    return kTfLiteOk;
  }
  if (data->type == kTfLiteInt8) {
    reference::QuantizedBatchMatMul<int8_t, int32_t>(
        data->q, Shape::Of(lhs), lhs->data.int8, data->adj_x, Shape::Of(rhs), rhs->data.int8,
        data->adj_y, Shape::Of(output), output->data.int8);
    return kTfLiteOk;
  }
  if (data->type == kTfLiteInt16 && data->rhs_type == kTfLiteInt8) {
    reference::QuantizedBatchMatMul<int16_t, int64_t, int8_t>(
        data->q, Shape::Of(lhs), lhs->data.i16, data->adj_x, Shape::Of(rhs), rhs->data.int8,
        data->adj_y, Shape::Of(output), output->data.i16);
    return kTfLiteOk;
  }
  if (data->type == kTfLiteInt16) {
    reference::QuantizedBatchMatMul<int16_t, int64_t>(
        data->q, Shape::Of(lhs), lhs->data.i16, data->adj_x, Shape::Of(rhs), rhs->data.i16,
        data->adj_y, Shape::Of(output), output->data.i16);
    return kTfLiteOk;
  }
  if (EvalFloatMatMul(context, data->fast, data->scratch, lhs, rhs, output)) return kTfLiteOk;
  data->kernel(Shape::Of(lhs), lhs->data.f, data->adj_x, Shape::Of(rhs), rhs->data.f, data->adj_y,
               Shape::Of(output), output->data.f);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn::batch_matmul

namespace tflite::ops::builtin {

TfLiteRegistration* Register_BATCH_MATMUL() {
  namespace op = octet::ops::nn::batch_matmul;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::Prepare, op::Eval);
  return &r;
}

TfLiteRegistration* Register_BATCH_MATMUL_REF() {
  namespace op = octet::ops::nn::batch_matmul;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(op::Init, op::Free, op::PrepareReference, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
