#include "ops/nn/float_weighted.h"

#include <algorithm>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/threads/cpu_backend_context.h"
#include "octet/kernel_info.h"

namespace octet::ops::nn {
namespace {

bool IsConstant(const TfLiteTensor* t) {
  return t == nullptr || t->allocation_type == kTfLiteMmapRo;
}

bool Qualifies(const WeightedGeometry& g, const WeightedOpTensors& t) {
  if (t.input->type != kTfLiteFloat32 || t.weights->type != kTfLiteFloat32) return false;
  if (t.bias != nullptr && t.bias->type != kTfLiteFloat32) return false;
  if (!IsConstant(t.weights) || !IsConstant(t.bias)) return false;
  return g.op == WeightedOp::kFullyConnected || (g.op == WeightedOp::kConv && g.groups == 1);
}

bool IsPointwise(const WeightedGeometry& g) {
  return g.op == WeightedOp::kConv && g.kernel_h == 1 && g.kernel_w == 1 && g.stride_h == 1 &&
         g.stride_w == 1 && g.pad_h == 0 && g.pad_w == 0 && g.in_h == g.out_h && g.in_w == g.out_w;
}

// Packs into persistent memory: the panels, then (convolutions) a row of in_c zeros.
bool Pack(TfLiteContext* context, const optimized::FGemmKernel& kernel, const WeightedGeometry& g,
          const WeightedOpTensors& t, FloatWeighted* f) {
  const bool conv = g.op == WeightedOp::kConv;
  optimized::FGemmWeightsDesc d;
  d.weights = t.weights->data.f;
  d.bias = t.bias ? t.bias->data.f : nullptr;
  d.n = conv ? g.out_c : g.units;
  d.ks = conv ? g.kernel_h * g.kernel_w : 1;
  d.kc = conv ? g.in_c : g.depth;
  if (conv && !optimized::FGemmDriverSupportsTaps(kernel, d.ks)) return false;
  const size_t panel_floats = optimized::FGemmPackedFloats(kernel, d);
  const size_t zero_floats = conv ? static_cast<size_t>(g.in_c) : 0;
  auto* buffer = static_cast<float*>(
      context->AllocatePersistentBuffer(context, (panel_floats + zero_floats) * sizeof(float)));
  if (buffer == nullptr) return false;
  f->gemm = optimized::FGemmPack(kernel, d, buffer);
  std::fill(buffer + panel_floats, buffer + panel_floats + zero_floats, 0.f);
  f->zero_row = buffer + panel_floats;
  return true;
}

}  // namespace

TfLiteStatus PrepareFloatWeighted(TfLiteContext* context, TfLiteNode* node,
                                  const WeightedGeometry& g, const WeightedOpTensors& t,
                                  float act_min, float act_max, bool reference_only,
                                  FloatWeighted* f) {
  f->optimized = false;
  f->geometry = g;
  f->clamp = {act_min, act_max};
  f->dense = g.op == WeightedOp::kFullyConnected || IsPointwise(g);
  const cpu::Isa isa = reference_only ? cpu::Isa::kReference : cpu::ActiveIsa();
  const optimized::FGemmKernel* kernel =
      isa == cpu::Isa::kReference ? nullptr : optimized::FGemmKernelFor(isa);
  if (kernel != nullptr && Qualifies(g, t)) {
    const bool cached = f->packed_weights == t.weights->data.raw && f->packed_kernel == kernel;
    f->optimized = cached || Pack(context, *kernel, g, t, f);
    if (f->optimized) {
      f->packed_weights = t.weights->data.raw;
      f->packed_kernel = kernel;
    }
  }
  SetNodeKernelName(context, node, f->optimized ? kernel->name : "reference");
  return kTfLiteOk;
}

bool EvalFloatWeighted(TfLiteContext* context, const FloatWeighted& f, const WeightedOpTensors& t) {
  if (!f.optimized) return false;
  ThreadPool* pool = GetThreadPool(context);
  const WeightedGeometry& g = f.geometry;
  const float* input = t.input->data.f;
  float* output = t.output->data.f;
  if (g.op == WeightedOp::kFullyConnected) {
    optimized::RunFGemmRows(f.gemm, g.rows, input, static_cast<size_t>(g.depth), f.clamp, output,
                            pool);
  } else if (f.dense) {
    optimized::RunFGemmRows(f.gemm, g.batches * g.in_h * g.in_w, input, static_cast<size_t>(g.in_c),
                            f.clamp, output, pool);
  } else {
    optimized::RunFGemmConv(f.gemm, g, input, f.zero_row, f.clamp, output, pool);
  }
  return true;
}

}  // namespace octet::ops::nn
