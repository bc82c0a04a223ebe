#include "ops/nn/hybrid_weighted.h"

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
  if (t.bias != nullptr && t.bias->type != kTfLiteFloat32) return false;
  if (!IsConstantOrAbsent(t.weights) || !IsConstantOrAbsent(t.bias)) return false;
  return g.op == WeightedOp::kFullyConnected || (g.op == WeightedOp::kConv && g.groups == 1);
}

// The weights as the quantized packer takes them: int8, no offsets, no bias; the
// requantization arrays are placeholders (the raw int32 sums are used).
struct Desc {
  Desc(const WeightedGeometry& g, const WeightedOpTensors& t, int32_t input_offset) {
    const bool conv = g.op == WeightedOp::kConv;
    const int n = conv ? g.out_c : g.units;
    multipliers.assign(static_cast<size_t>(n), int32_t{1} << 30);
    shifts.assign(static_cast<size_t>(n), 0);
    d.weights = reinterpret_cast<const uint8_t*>(t.weights->data.raw);
    d.n = n;
    d.ks = conv ? g.kernel_h * g.kernel_w : 1;
    d.kc = conv ? g.in_c : g.depth;
    d.kernel_w = conv ? g.kernel_w : 1;
    d.dilation_w = conv ? g.dilation_w : 1;
    d.input_signed = true;
    d.input_offset = input_offset;
    d.multiplier = multipliers.data();
    d.shift = shifts.data();
  }
  std::vector<int32_t> multipliers;
  std::vector<int> shifts;
  optimized::QGemmWeightsDesc d;
};

bool Pack(TfLiteContext* context, const optimized::QGemmKernel& kernel, const WeightedGeometry& g,
          const WeightedOpTensors& t, HybridWeighted* h) {
  const bool conv = g.op == WeightedOp::kConv;
  const Desc base(g, t, 0);
  if (conv && !optimized::QGemmDriverSupportsTaps(kernel, base.d.ks)) return false;
  const int n = base.d.n;
  h->bias_slots = static_cast<size_t>((n + kernel.nr - 1) / kernel.nr) * kernel.nr;
  const size_t packed_bytes = optimized::QGemmPackedSize(kernel, base.d);
  const size_t sums = conv ? h->bias_slots : static_cast<size_t>(n);
  auto* buffer = static_cast<uint8_t*>(
      context->AllocatePersistentBuffer(context, packed_bytes + sums * sizeof(int32_t)));
  if (buffer == nullptr) return false;
  h->gemm = optimized::QGemmPack(kernel, base.d, buffer);
  auto* sum_array = reinterpret_cast<int32_t*>(buffer + packed_bytes);
  if (conv) {
    // The packed bias is affine in the input offset: packing again with offset 1 gives
    // Σw per bias slot, in whatever order the kernel keeps its columns.
    const Desc shifted(g, t, 1);
    std::vector<uint8_t> scratch(packed_bytes + 16);
    void* aligned = scratch.data() + (16 - reinterpret_cast<uintptr_t>(scratch.data()) % 16) % 16;
    const optimized::QGemmPacked one = optimized::QGemmPack(kernel, shifted.d, aligned);
    for (size_t i = 0; i < h->bias_slots; ++i) {
      sum_array[i] = static_cast<int32_t>(static_cast<uint32_t>(one.rq.bias[i]) -
                                          static_cast<uint32_t>(h->gemm.rq.bias[i]));
    }
    h->column_sums = sum_array;
  } else {
    // The reference's per-unit Σw (64-bit, then truncated to int32 as TFLite's int32 sum).
    const int8_t* w = t.weights->data.int8;
    for (int u = 0; u < n; ++u) {
      int64_t sum = 0;
      for (int k = 0; k < g.depth; ++k) sum += w[static_cast<size_t>(u) * g.depth + k];
      sum_array[u] = static_cast<int32_t>(sum);
    }
    h->unit_sums = sum_array;
  }
  return true;
}

// out = clamp(float(raw) [* channel_scale] * scale [+ bias]) over rows of n channels, with the
// choices outside the loop and no aliasing, so the compiler vectorizes it (it was a quarter of
// a hybrid model's time as a scalar loop with both branches inside).
template <bool kChannelScales, bool kBias>
void FinishRows(const int32_t* __restrict raw, size_t rows, size_t n,
                const float* __restrict channel_scales, float scale, const float* __restrict bias,
                float act_min, float act_max, float* __restrict out) {
  for (size_t r = 0; r < rows; ++r, raw += n, out += n) {
    for (size_t oc = 0; oc < n; ++oc) {
      const float acc = static_cast<float>(raw[oc]);
      float value = kChannelScales ? acc * channel_scales[oc] * scale : acc * scale;
      if (kBias) value += bias[oc];
      out[oc] = std::min(std::max(value, act_min), act_max);
    }
  }
}

void EvalConv(TfLiteContext* context, const HybridWeighted& h, const NodeScratch& scratch,
              const WeightedOpTensors& t, ThreadPool* pool) {
  const WeightedGeometry& g = h.geometry;
  const size_t image = static_cast<size_t>(g.in_h) * g.in_w * g.in_c;
  const size_t pixels = static_cast<size_t>(g.out_h) * g.out_w;
  const size_t n = static_cast<size_t>(g.out_c);
  auto* q = scratch.Data<int8_t>(context, 0);
  auto* scales = scratch.Data<float>(context, 1);
  auto* offsets = scratch.Data<int32_t>(context, 2);
  auto* raw = scratch.Data<int32_t>(context, 3);
  auto* bias_slots = scratch.Data<int32_t>(context, 4);
  auto* zero_row = scratch.Data<uint8_t>(context, 5);
  const size_t zero_bytes = optimized::QGemmZeroRowBytes(h.gemm);
  optimized::Window2D one_image = g;
  one_image.batches = 1;
  for (int b = 0; b < g.batches; ++b) {
    const float* in = t.input->data.f + b * image;
    int8_t* qb = q + b * image;
    if (h.asymmetric) {
      optimized::FQuantAsymmetric(*h.quantizer, in, image, qb, &scales[b], &offsets[b]);
    } else {
      optimized::FQuantSymmetric(*h.quantizer, in, image, qb, &scales[b]);
      scales[b] *= h.weights_scale;
      offsets[b] = 0;
    }
    optimized::QGemmPacked packed = h.gemm;
    if (offsets[b] != 0) {
      const auto zero_point = static_cast<uint32_t>(offsets[b]);
      for (size_t i = 0; i < h.bias_slots; ++i) {
        bias_slots[i] = static_cast<int32_t>(static_cast<uint32_t>(h.gemm.rq.bias[i]) -
                                             zero_point * static_cast<uint32_t>(h.column_sums[i]));
      }
      packed.rq.bias = bias_slots;
    }
    std::memset(zero_row, static_cast<uint8_t>(offsets[b]), zero_bytes);
    optimized::RunQGemmConv(packed, one_image, reinterpret_cast<const uint8_t*>(qb), image,
                            zero_row, nullptr, pool, raw + b * pixels * n);
  }
  // The reference's float finish, term for term.
  const float* bias = t.bias ? t.bias->data.f : nullptr;
  float* out = t.output->data.f;
  for (int b = 0; b < g.batches; ++b) {
    const size_t at = b * pixels * n;
    if (h.channel_scales != nullptr) {
      if (bias != nullptr) {
        FinishRows<true, true>(raw + at, pixels, n, h.channel_scales, scales[b], bias, h.act_min,
                               h.act_max, out + at);
      } else {
        FinishRows<true, false>(raw + at, pixels, n, h.channel_scales, scales[b], bias, h.act_min,
                                h.act_max, out + at);
      }
    } else if (bias != nullptr) {
      FinishRows<false, true>(raw + at, pixels, n, nullptr, scales[b], bias, h.act_min, h.act_max,
                              out + at);
    } else {
      FinishRows<false, false>(raw + at, pixels, n, nullptr, scales[b], bias, h.act_min, h.act_max,
                               out + at);
    }
  }
}

void EvalFullyConnected(TfLiteContext* context, const HybridWeighted& h, const NodeScratch& scratch,
                        const WeightedOpTensors& t, ThreadPool* pool) {
  const WeightedGeometry& g = h.geometry;
  const size_t depth = static_cast<size_t>(g.depth);
  const size_t units = static_cast<size_t>(g.units);
  auto* q = scratch.Data<int8_t>(context, 0);
  auto* scales = scratch.Data<float>(context, 1);
  auto* offsets = scratch.Data<int32_t>(context, 2);
  auto* raw = scratch.Data<int32_t>(context, 3);
  for (int r = 0; r < g.rows; ++r) {
    const float* in = t.input->data.f + r * depth;
    scales[r] = 1.f;
    offsets[r] = 0;
    if (h.asymmetric) {
      optimized::FQuantAsymmetric(*h.quantizer, in, depth, q + r * depth, &scales[r], &offsets[r]);
    } else {
      optimized::FQuantSymmetric(*h.quantizer, in, depth, q + r * depth, &scales[r]);
    }
    if (h.channel_scales == nullptr) scales[r] *= h.weights_scale;
  }
  optimized::RunQGemmRows(h.gemm, g.rows, reinterpret_cast<const uint8_t*>(q), depth, nullptr, pool,
                          raw);
  // The reference's float finish, term for term.
  const float* bias = t.bias ? t.bias->data.f : nullptr;
  for (int r = 0; r < g.rows; ++r) {
    float* out = t.output->data.f + r * units;
    for (size_t o = 0; o < units; ++o) out[o] = bias ? bias[o] : 0.f;
    for (size_t o = 0; o < units; ++o) {
      int32_t dot = raw[r * units + o];
      if (h.asymmetric) {
        dot = reference::HybridZeroPointCorrected(dot, h.unit_sums[o], offsets[r]);
      }
      const float s = h.channel_scales ? scales[r] * h.channel_scales[o] : scales[r];
      out[o] += static_cast<float>(dot) * s;
    }
    for (size_t o = 0; o < units; ++o) out[o] = std::min(std::max(out[o], h.act_min), h.act_max);
  }
}

}  // namespace

TfLiteStatus PrepareHybridWeighted(TfLiteContext* context, TfLiteNode* node,
                                   const WeightedGeometry& g, const WeightedOpTensors& t,
                                   float weights_scale, const float* channel_scales,
                                   bool asymmetric, float act_min, float act_max,
                                   bool reference_only, NodeScratch* scratch, HybridWeighted* h) {
  h->optimized = false;
  h->geometry = g;
  h->weights_scale = weights_scale;
  h->channel_scales = channel_scales;
  h->asymmetric = asymmetric;
  h->act_min = act_min;
  h->act_max = act_max;
  const cpu::Isa isa = reference_only ? cpu::Isa::kReference : cpu::ActiveIsa();
  const optimized::QGemmKernel* kernel = GemmKernelFor(isa, g);
  if (kernel != nullptr && Qualifies(g, t)) {
    h->optimized = h->packing.Ensure(t.weights->data.raw, kernel,
                                     [&] { return Pack(context, *kernel, g, t, h); });
  }
  if (h->optimized) {
    h->quantizer = optimized::FQuantKernelFor(isa);
    if (h->quantizer == nullptr) h->quantizer = &optimized::kFQuantScalar;
    if (g.op == WeightedOp::kConv) {
      const int64_t image = static_cast<int64_t>(g.in_h) * g.in_w * g.in_c;
      const int64_t outputs = static_cast<int64_t>(g.batches) * g.out_h * g.out_w * g.out_c;
      TF_LITE_ENSURE_OK(
          context,
          scratch->Prepare(
              context, node,
              {{kTfLiteInt8, image * g.batches},
               {kTfLiteFloat32, g.batches},
               {kTfLiteInt32, g.batches},
               {kTfLiteInt32, outputs},
               {kTfLiteInt32, static_cast<int64_t>(h->bias_slots)},
               {kTfLiteUInt8, static_cast<int64_t>(optimized::QGemmZeroRowBytes(h->gemm))}}));
    } else {
      TF_LITE_ENSURE_OK(context,
                        scratch->Prepare(context, node,
                                         {{kTfLiteInt8, static_cast<int64_t>(g.rows) * g.depth},
                                          {kTfLiteFloat32, g.rows},
                                          {kTfLiteInt32, g.rows},
                                          {kTfLiteInt32, static_cast<int64_t>(g.rows) * g.units}}));
    }
  }
  SetNodeKernelName(context, node, h->optimized ? kernel->name : "reference");
  return kTfLiteOk;
}

bool EvalHybridWeighted(TfLiteContext* context, const HybridWeighted& h, const NodeScratch& scratch,
                        const WeightedOpTensors& t) {
  if (!h.optimized) return false;
  ThreadPool* pool = GetThreadPool(context);
  if (h.geometry.op == WeightedOp::kConv) {
    EvalConv(context, h, scratch, t, pool);
  } else {
    EvalFullyConnected(context, h, scratch, t, pool);
  }
  return true;
}

}  // namespace octet::ops::nn
