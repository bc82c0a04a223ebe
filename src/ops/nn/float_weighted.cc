#include "ops/nn/float_weighted.h"

#include <algorithm>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/threads/cpu_backend_context.h"
#include "octet/kernel_info.h"

namespace octet::ops::nn {
namespace {

bool Qualifies(const WeightedGeometry& g, const WeightedOpTensors& t) {
  if (t.input->type != kTfLiteFloat32 || t.weights->type != kTfLiteFloat32) return false;
  if (t.bias != nullptr && t.bias->type != kTfLiteFloat32) return false;
  if (!IsConstantOrAbsent(t.weights) || !IsConstantOrAbsent(t.bias)) return false;
  switch (g.op) {
    case WeightedOp::kFullyConnected:
      return true;
    case WeightedOp::kConv:
      return g.groups == 1;
    case WeightedOp::kDepthwise:
      return g.depth_multiplier == 1 ? optimized::FDepthwiseSupportsTaps(g.kernel_h * g.kernel_w)
                                     : g.in_c == 1;
  }
  return false;
}

// A depthwise node with one input channel runs as a convolution on fgemm.
bool DepthwiseAsConv(const WeightedGeometry& g) {
  return g.op == WeightedOp::kDepthwise && g.depth_multiplier > 1 && g.in_c == 1;
}

bool IsPointwise(const WeightedGeometry& g) {
  return g.op == WeightedOp::kConv && g.kernel_h == 1 && g.kernel_w == 1 && g.stride_h == 1 &&
         g.stride_w == 1 && g.pad_h == 0 && g.pad_w == 0 && g.in_h == g.out_h && g.in_w == g.out_w;
}

// Packs for fgemm into persistent memory: the panels, then (convolutions) a row of in_c
// zeros.
bool PackGemm(TfLiteContext* context, const optimized::FGemmKernel& kernel,
              const WeightedGeometry& g, const WeightedOpTensors& t, FloatWeighted* f) {
  const bool conv = g.op != WeightedOp::kFullyConnected;
  optimized::FGemmWeightsDesc d;
  d.weights = t.weights->data.f;
  if (g.op == WeightedOp::kDepthwise) {
    // Depthwise filters are [1][taps][channels]: column (channel) c, tap k at k * channels + c.
    d.column_stride = 1;
    d.k_stride = static_cast<size_t>(g.out_c);
  }
  d.bias = t.bias ? t.bias->data.f : nullptr;
  d.n = conv ? g.out_c : g.units;
  d.ks = conv ? g.kernel_h * g.kernel_w : 1;
  d.kc = conv ? g.in_c : g.depth;
  d.kernel_w = conv ? g.kernel_w : 1;
  d.dilation_w = conv ? g.dilation_w : 1;
  if (conv && !optimized::FGemmDriverSupportsTaps(kernel, d.ks)) return false;
  const size_t panel_floats = optimized::FGemmPackedFloats(kernel, d);
  // A padding tap: in_c floats, or a whole filter row with row taps.
  const size_t zero_floats = conv ? static_cast<size_t>(g.in_c) : 0;
  auto* buffer = static_cast<float*>(
      context->AllocatePersistentBuffer(context, (panel_floats + zero_floats) * sizeof(float)));
  if (buffer == nullptr) return false;
  f->gemm = optimized::FGemmPack(kernel, d, buffer);
  std::fill(buffer + panel_floats, buffer + panel_floats + zero_floats, 0.f);
  f->zero_row = buffer + panel_floats;
  return true;
}

// Packs for fdw: the blocks, then a row of in_c zeros.
bool PackDepthwise(TfLiteContext* context, const optimized::FDwKernel& kernel,
                   const WeightedGeometry& g, const WeightedOpTensors& t, FloatWeighted* f) {
  const int ks = g.kernel_h * g.kernel_w;
  const size_t packed_floats = optimized::FDwPackedFloats(kernel, g.out_c, ks);
  const size_t zero_floats = static_cast<size_t>(g.in_c);
  auto* buffer = static_cast<float*>(
      context->AllocatePersistentBuffer(context, (packed_floats + zero_floats) * sizeof(float)));
  if (buffer == nullptr) return false;
  f->dw = optimized::FDwPack(kernel, t.weights->data.f, t.bias ? t.bias->data.f : nullptr, g.out_c,
                             ks, buffer);
  std::fill(buffer + packed_floats, buffer + packed_floats + zero_floats, 0.f);
  f->zero_row = buffer + packed_floats;
  return true;
}

}  // namespace

TfLiteStatus PrepareFloatWeighted(TfLiteContext* context, TfLiteNode* node,
                                  const WeightedGeometry& g, const WeightedOpTensors& t,
                                  float act_min, float act_max, bool reference_only,
                                  FloatWeighted* f, NodeScratch* scratch) {
  f->optimized = false;
  f->geometry = g;
  f->clamp = {act_min, act_max};
  f->dense = g.op == WeightedOp::kFullyConnected || IsPointwise(g);
  f->depthwise = g.op == WeightedOp::kDepthwise && !DepthwiseAsConv(g);
  const cpu::Isa isa = reference_only ? cpu::Isa::kReference : cpu::ActiveIsa();
  const char* name = "reference";
  if (isa != cpu::Isa::kReference && Qualifies(g, t)) {
    if (f->depthwise) {
      const optimized::FDwKernel* dw = optimized::FDwKernelForLayer(isa, g.out_c);
      f->optimized = dw != nullptr && f->packing.Ensure(t.weights->data.raw, dw, [&] {
        return PackDepthwise(context, *dw, g, t, f);
      });
      if (f->optimized) name = dw->name;
    } else {
      const optimized::FGemmKernel* gemm = optimized::FGemmKernelFor(isa);
      f->optimized = gemm != nullptr && f->packing.Ensure(t.weights->data.raw, gemm, [&] {
        return PackGemm(context, *gemm, g, t, f);
      });
      if (f->optimized) name = gemm->name;
      const size_t padded = f->optimized && !f->dense && scratch != nullptr
                                ? optimized::FConvPaddedInputFloats(f->gemm, g)
                                : 0;
      f->padded_input = nullptr;
      if (padded > 0) {
        TF_LITE_ENSURE_OK(
            context,
            scratch->Prepare(context, node, {{kTfLiteFloat32, static_cast<int64_t>(padded)}}));
        f->padded_input = scratch;
      } else if (scratch != nullptr) {
        TF_LITE_ENSURE_OK(context, scratch->Prepare(context, node, {}));  // none after a resize
      }
    }
  }
  SetNodeKernelName(context, node, name);
  return kTfLiteOk;
}

bool EvalFloatWeighted(TfLiteContext* context, const FloatWeighted& f, const WeightedOpTensors& t,
                       const optimized::FGemmResidual* residual, float* fused_output) {
  if (!f.optimized) return false;
  ThreadPool* pool = GetThreadPool(context);
  const WeightedGeometry& g = f.geometry;
  const float* input = t.input->data.f;
  float* output = residual != nullptr ? fused_output : t.output->data.f;
  if (residual != nullptr && (g.op != WeightedOp::kConv || f.depthwise)) return false;
  if (g.op == WeightedOp::kFullyConnected) {
    optimized::RunFGemmRows(f.gemm, g.rows, input, static_cast<size_t>(g.depth), f.clamp, output,
                            pool);
  } else if (f.depthwise) {
    optimized::RunFDepthwise(f.dw, g, input, f.zero_row, f.clamp, output, pool);
  } else if (f.dense) {
    optimized::RunFGemmRows(f.gemm, g.batches * g.in_h * g.in_w, input, static_cast<size_t>(g.in_c),
                            f.clamp, output, pool, residual);
  } else {
    float* padded = f.padded_input ? f.padded_input->Data<float>(context, 0) : nullptr;
    optimized::RunFGemmConv(f.gemm, g, input, f.zero_row, f.clamp, output, pool, padded, residual);
  }
  return true;
}

}  // namespace octet::ops::nn
