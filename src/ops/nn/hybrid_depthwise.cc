#include "ops/nn/hybrid_depthwise.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/fquant/fquant_driver.h"
#include "kernels/threads/cpu_backend_context.h"
#include "octet/kernel_info.h"

namespace octet::ops::nn {
namespace {

bool Qualifies(const WeightedGeometry& g, const WeightedOpTensors& t) {
  if (t.input->type != kTfLiteFloat32 || t.weights->type != kTfLiteInt8) return false;
  if (!IsConstantOrAbsent(t.weights)) return false;
  return optimized::QDepthwiseSupportsTaps(g.kernel_h * g.kernel_w);
}

// The filter as the quantized packer takes it: int8, no bias; the requantization arrays are
// placeholders (the raw int32 sums are used).
struct Desc {
  Desc(const WeightedGeometry& g, const WeightedOpTensors& t, int32_t input_offset)
      : multipliers(static_cast<size_t>(g.out_c), int32_t{1} << 30),
        shifts(static_cast<size_t>(g.out_c), 0) {
    d.weights = reinterpret_cast<const uint8_t*>(t.weights->data.raw);
    d.channels = g.out_c;
    d.ks = g.kernel_h * g.kernel_w;
    d.input_signed = true;
    d.input_offset = input_offset;
    d.multiplier = multipliers.data();
    d.shift = shifts.data();
    d.act_min = -128;
    d.act_max = 127;
  }
  std::vector<int32_t> multipliers;
  std::vector<int> shifts;
  optimized::QDwWeightsDesc d;
};

bool Pack(TfLiteContext* context, const optimized::QDwKernel& kernel, const WeightedGeometry& g,
          const WeightedOpTensors& t, HybridDepthwise* h) {
  const Desc base(g, t, 0);
  const size_t packed_bytes = optimized::QDwPackedSize(kernel, base.d.channels, base.d.ks);
  h->bias_slots = static_cast<size_t>((g.out_c + kernel.block - 1) / kernel.block) * kernel.block;
  auto* buffer = static_cast<uint8_t*>(
      context->AllocatePersistentBuffer(context, packed_bytes + h->bias_slots * sizeof(int32_t)));
  if (buffer == nullptr) return false;
  h->packed = optimized::QDwPack(kernel, base.d, buffer);
  // The packed bias is input_offset * Σw: packing with offset 1 gives Σw per bias slot, in
  // whatever order the kernel keeps its channels.
  const Desc shifted(g, t, 1);
  std::vector<uint8_t> scratch(packed_bytes + 64);
  void* aligned = scratch.data() + (64 - reinterpret_cast<uintptr_t>(scratch.data()) % 64) % 64;
  const optimized::QDwPacked one = optimized::QDwPack(kernel, shifted.d, aligned);
  auto* sums = reinterpret_cast<int32_t*>(buffer + packed_bytes);
  for (size_t i = 0; i < h->bias_slots; ++i) sums[i] = one.rq.bias[i];
  h->channel_sums = sums;
  return true;
}

optimized::QDwShape OneImage(const WeightedGeometry& g) {
  optimized::QDwShape s;
  static_cast<optimized::Window2D&>(s) = g;
  s.batches = 1;
  s.depth_multiplier = g.depth_multiplier;
  return s;
}

// The reference's float finish for one image, term for term: value = acc, value *=
// channel_scale * input_scale, value += bias, clamp.
void Finish(const HybridDepthwise& h, const int32_t* raw, const float* combined_scales,
            const float* bias, size_t pixels, float* out) {
  const size_t n = static_cast<size_t>(h.geometry.out_c);
  for (size_t p = 0; p < pixels; ++p) {
    const int32_t* acc = raw + p * n;
    float* o = out + p * n;
    if (bias) {
      for (size_t c = 0; c < n; ++c) {
        float value = static_cast<float>(acc[c]);
        value *= combined_scales[c];
        value += bias[c];
        o[c] = std::min(std::max(value, h.act_min), h.act_max);
      }
    } else {
      for (size_t c = 0; c < n; ++c) {
        float value = static_cast<float>(acc[c]);
        value *= combined_scales[c];
        o[c] = std::min(std::max(value, h.act_min), h.act_max);
      }
    }
  }
}

}  // namespace

TfLiteStatus PrepareHybridDepthwise(TfLiteContext* context, TfLiteNode* node,
                                    const WeightedGeometry& g, const WeightedOpTensors& t,
                                    const float* channel_scales, float act_min, float act_max,
                                    bool reference_only, NodeScratch* scratch, HybridDepthwise* h) {
  h->optimized = false;
  h->geometry = g;
  h->channel_scales = channel_scales;
  h->act_min = act_min;
  h->act_max = act_max;
  const cpu::Isa isa = reference_only ? cpu::Isa::kReference : cpu::ActiveIsa();
  const optimized::QDwKernel* kernel =
      isa == cpu::Isa::kReference ? nullptr : optimized::QDwKernelForLayer(isa, g.out_c);
  if (kernel != nullptr && Qualifies(g, t)) {
    h->optimized = h->packing.Ensure(t.weights->data.raw, kernel,
                                     [&] { return Pack(context, *kernel, g, t, h); });
  }
  if (h->optimized) {
    h->quantizer = optimized::FQuantKernelFor(isa);
    if (h->quantizer == nullptr) h->quantizer = &optimized::kFQuantScalar;
    const int64_t image = static_cast<int64_t>(g.in_h) * g.in_w * g.in_c;
    const int64_t outputs = static_cast<int64_t>(g.out_h) * g.out_w * g.out_c;
    const auto expanded = static_cast<int64_t>(optimized::QDepthwiseScratchBytes(OneImage(g)));
    TF_LITE_ENSURE_OK(context,
                      scratch->Prepare(context, node,
                                       {{kTfLiteInt8, image},
                                        {kTfLiteInt32, outputs},
                                        {kTfLiteInt32, static_cast<int64_t>(h->bias_slots)},
                                        {kTfLiteUInt8, g.out_c},
                                        {kTfLiteFloat32, g.out_c},
                                        {kTfLiteUInt8, std::max<int64_t>(expanded, 1)}}));
  }
  SetNodeKernelName(context, node, h->optimized ? kernel->name : "reference");
  return kTfLiteOk;
}

bool EvalHybridDepthwise(TfLiteContext* context, const HybridDepthwise& h,
                         const NodeScratch& scratch, const WeightedOpTensors& t) {
  if (!h.optimized) return false;
  ThreadPool* pool = GetThreadPool(context);
  const WeightedGeometry& g = h.geometry;
  const size_t image = static_cast<size_t>(g.in_h) * g.in_w * g.in_c;
  const size_t pixels = static_cast<size_t>(g.out_h) * g.out_w;
  const size_t channels = static_cast<size_t>(g.out_c);
  auto* q = scratch.Data<int8_t>(context, 0);
  auto* raw = scratch.Data<int32_t>(context, 1);
  auto* bias_slots = scratch.Data<int32_t>(context, 2);
  auto* zero_row = scratch.Data<uint8_t>(context, 3);
  auto* combined_scales = scratch.Data<float>(context, 4);
  auto* expanded = scratch.Data<uint8_t>(context, 5);
  const float* bias = t.bias ? t.bias->data.f : nullptr;
  const optimized::QDwShape shape = OneImage(g);
  for (int b = 0; b < g.batches; ++b) {
    float scale = 1.f;
    int32_t zero_point = 0;
    optimized::FQuantAsymmetric(*h.quantizer, t.input->data.f + b * image, image, q, &scale,
                                &zero_point);
    optimized::QDwPacked packed = h.packed;
    const uint32_t input_offset = 0u - static_cast<uint32_t>(zero_point);
    for (size_t i = 0; i < h.bias_slots; ++i) {
      bias_slots[i] = static_cast<int32_t>(input_offset * static_cast<uint32_t>(h.channel_sums[i]));
    }
    packed.rq.bias = bias_slots;
    std::memset(zero_row, static_cast<uint8_t>(zero_point), channels);
    optimized::RunQDepthwise(packed, shape, reinterpret_cast<const uint8_t*>(q), zero_row, expanded,
                             nullptr, pool, raw);
    // The reference's product channel_scale * input_scale, rounded once as there.
    for (size_t c = 0; c < channels; ++c) combined_scales[c] = h.channel_scales[c] * scale;
    Finish(h, raw, combined_scales, bias, pixels, t.output->data.f + b * pixels * channels);
  }
  return true;
}

}  // namespace octet::ops::nn
