#include "ops/nn/quantized_weighted.h"

#include <cstring>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/reference/integer_conv.h"
#include "kernels/shape.h"
#include "kernels/threads/cpu_backend_context.h"
#include "octet/kernel_info.h"
#include "ops/nn/nn_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn {
namespace {

// Most FULLY_CONNECTED rows for which weights are packed for streaming (see
// optimized::QGemmFewRowsKernelFor).
constexpr int kFewRows = 8;

// Whether a depthwise node runs as a convolution (QuantizedWeighted::depthwise_as_conv).
bool DepthwiseAsConv(const WeightedGeometry& g) {
  return g.op == WeightedOp::kDepthwise && g.in_c == 1 && g.out_c > 1;
}

// Whether the active path has an optimized kernel for this node.
bool OptimizedApplies(const WeightedGeometry& g, const WeightedOpTensors& t) {
  if (t.input->type != kTfLiteInt8 && t.input->type != kTfLiteUInt8) return false;
  if (!IsConstantOrAbsent(t.weights) || !IsConstantOrAbsent(t.bias)) return false;
  switch (g.op) {
    case WeightedOp::kConv:
      return g.groups == 1;
    case WeightedOp::kDepthwise:  // the GEMM route checks its taps when packing
      return DepthwiseAsConv(g) || optimized::QDepthwiseSupportsTaps(g.kernel_h * g.kernel_w);
    case WeightedOp::kFullyConnected:
      return true;
  }
  return false;
}

// The node's quantization in the packers' terms.
optimized::QuantizationDesc QuantizationOf(const WeightedOpTensors& t,
                                           const QuantizedWeightsData& quant) {
  optimized::QuantizationDesc d;
  d.input_signed = t.input->type == kTfLiteInt8;
  d.bias = t.bias ? tflite::GetTensorData<int32_t>(t.bias) : nullptr;
  d.input_offset = quant.params.input_offset;
  d.filter_offset = quant.params.filter_offset;
  d.multiplier = quant.multipliers.data();
  d.shift = quant.shifts.data();
  d.output_zero_point = quant.params.output_offset;
  d.act_min = quant.params.act_min;
  d.act_max = quant.params.act_max;
  return d;
}

// Packs the weights for `gemm` (conv, FC, or a one-channel depthwise) into persistent memory;
// false if out of memory.
// The weights as the GEMM packer sees them.
optimized::QGemmWeightsDesc GemmDescOf(const WeightedGeometry& g, const WeightedOpTensors& t,
                                       const QuantizedWeightsData& quant) {
  const bool conv = g.op != WeightedOp::kFullyConnected;
  optimized::QGemmWeightsDesc d;
  d.weights = reinterpret_cast<const uint8_t*>(t.weights->data.raw);
  if (g.op == WeightedOp::kDepthwise) {
    // Depthwise filters are [1][taps][channels]: column (channel) c, tap k at k * channels + c.
    d.column_stride = 1;
    d.k_stride = static_cast<size_t>(g.out_c);
  }
  d.n = conv ? g.out_c : g.units;
  d.ks = conv ? g.kernel_h * g.kernel_w : 1;
  d.kc = conv ? g.in_c : g.depth;
  static_cast<optimized::QuantizationDesc&>(d) = QuantizationOf(t, quant);
  d.kernel_w = conv ? g.kernel_w : 1;
  d.dilation_w = conv ? g.dilation_w : 1;
  return d;
}

bool PackGemm(TfLiteContext* context, const optimized::QGemmKernel& kernel,
              const WeightedGeometry& g, const WeightedOpTensors& t, QuantizedWeighted* q) {
  const bool conv = g.op != WeightedOp::kFullyConnected;
  const optimized::QGemmWeightsDesc d = GemmDescOf(g, t, q->quant);
  if (conv && !optimized::QGemmDriverSupportsTaps(kernel, d.ks)) return false;
  const size_t packed_bytes = optimized::QGemmPackedSize(kernel, d);
  // The zero row stands for one tap of the layout the packer picks: a filter position, a
  // filter row, or (im2col) the whole window.
  const optimized::QGemmLayout layout = optimized::ChooseQGemmLayout(kernel, d);
  const int taps_per_row = layout == optimized::QGemmLayout::kIm2col    ? d.ks
                           : layout == optimized::QGemmLayout::kRowTaps ? d.kernel_w
                                                                        : 1;
  const size_t element = kernel.wide_input ? 2 : 1;
  const size_t zero_bytes =
      element * (static_cast<size_t>(taps_per_row) * static_cast<size_t>(d.kc) + 64);
  auto* buffer =
      static_cast<uint8_t*>(context->AllocatePersistentBuffer(context, packed_bytes + zero_bytes));
  if (buffer == nullptr) return false;
  q->gemm = optimized::QGemmPack(kernel, d, buffer);
  if (optimized::QGemmZeroRowBytes(q->gemm) > zero_bytes) return false;
  uint8_t* zero_row = buffer + packed_bytes;
  const int32_t zero_point = -q->quant.params.input_offset;
  if (kernel.wide_input) {
    // The input zero point as the kernel reads a widened value.
    const auto wide = static_cast<int16_t>(zero_point);
    for (size_t i = 0; i < zero_bytes; i += 2) std::memcpy(zero_row + i, &wide, 2);
  } else {
    std::memset(zero_row, static_cast<uint8_t>(zero_point), zero_bytes);
  }
  q->zero_row = zero_row;
  q->kernel_name = kernel.name;
  return true;
}

bool PackDepthwise(TfLiteContext* context, const optimized::QDwKernel& kernel,
                   const WeightedGeometry& g, const WeightedOpTensors& t, QuantizedWeighted* q) {
  optimized::QDwWeightsDesc d;
  d.weights = reinterpret_cast<const uint8_t*>(t.weights->data.raw);
  d.channels = g.out_c;
  d.ks = g.kernel_h * g.kernel_w;
  static_cast<optimized::QuantizationDesc&>(d) = QuantizationOf(t, q->quant);
  const size_t packed_bytes = optimized::QDwPackedSize(kernel, d.channels, d.ks);
  auto* buffer = static_cast<uint8_t*>(
      context->AllocatePersistentBuffer(context, packed_bytes + static_cast<size_t>(d.channels)));
  if (buffer == nullptr) return false;
  q->depthwise = optimized::QDwPack(kernel, d, buffer);
  uint8_t* zero_row = buffer + packed_bytes;
  std::memset(zero_row, static_cast<uint8_t>(-q->quant.params.input_offset),
              static_cast<size_t>(d.channels));
  q->zero_row = zero_row;
  q->kernel_name = kernel.name;
  return true;
}

const optimized::QConvShape& ConvShapeOf(const WeightedGeometry& g) { return g; }

optimized::QDwShape DepthwiseShapeOf(const WeightedGeometry& g) {
  optimized::QDwShape s;
  static_cast<optimized::Window2D&>(s) = g;
  s.depth_multiplier = g.depth_multiplier;
  return s;
}

// The reference kernels, as before the optimized ones existed.
void EvalReference(const QuantizedWeighted& q, const WeightedOpTensors& t) {
  const WeightedGeometry& g = q.geometry;
  DispatchQuantizedWeighted(t.input, t.bias, [&](auto types) {
    using Types = decltype(types);
    const auto* input = tflite::GetTensorData<typename Types::T>(t.input);
    const auto* weights = tflite::GetTensorData<typename Types::W>(t.weights);
    const auto* bias = t.bias ? tflite::GetTensorData<typename Types::B>(t.bias) : nullptr;
    auto* output = tflite::GetTensorData<typename Types::T>(t.output);
    switch (g.op) {
      case WeightedOp::kConv: {
        reference::ConvParams p;
        p.stride_height = g.stride_h;
        p.stride_width = g.stride_w;
        p.dilation_height = g.dilation_h;
        p.dilation_width = g.dilation_w;
        p.pad_height = g.pad_h;
        p.pad_width = g.pad_w;
        reference::QuantizedConv<typename Types::Acc>(p, q.quant.params, Shape::Of(t.input), input,
                                                      Shape::Of(t.weights), weights, bias,
                                                      Shape::Of(t.output), output);
        break;
      }
      case WeightedOp::kDepthwise: {
        reference::DepthwiseParams p;
        p.stride_height = g.stride_h;
        p.stride_width = g.stride_w;
        p.dilation_height = g.dilation_h;
        p.dilation_width = g.dilation_w;
        p.pad_height = g.pad_h;
        p.pad_width = g.pad_w;
        p.depth_multiplier = g.depth_multiplier;
        reference::QuantizedDepthwiseConv<typename Types::Acc>(
            p, q.quant.params, Shape::Of(t.input), input, Shape::Of(t.weights), weights, bias,
            Shape::Of(t.output), output);
        break;
      }
      case WeightedOp::kFullyConnected:
        reference::QuantizedFullyConnected<typename Types::Acc>(
            q.quant.params, g.rows, g.depth, g.units, input, weights, bias, output);
        break;
    }
  });
}

// A convolution's kernel on `isa` when it has a wide-input variant that fits the layer
// (see optimized::QGemmConvTakesWideInput), else nullptr.
const optimized::QGemmKernel* WideInputKernelFor(cpu::Isa isa, const WeightedGeometry& g,
                                                 const WeightedOpTensors& t,
                                                 const QuantizedWeightsData& quant) {
  if (g.op != WeightedOp::kConv) return nullptr;
  if (t.input->type != kTfLiteInt8 && t.input->type != kTfLiteUInt8) return nullptr;
  const optimized::QGemmKernel* kernel = optimized::QGemmWideInputKernelFor(isa);
  if (kernel == nullptr || !optimized::QGemmConvTakesWideInput(*kernel, GemmDescOf(g, t, quant))) {
    return nullptr;
  }
  return kernel;
}

// Few rows read each weight once or twice: the smaller weights then win. A convolution's
// rows are its output pixels (a classifier head: a 1x1 CONV_2D on a 1x1 image).
bool HasFewRows(const WeightedGeometry& g) {
  if (g.op == WeightedOp::kDepthwise) return false;
  const int64_t rows = g.op == WeightedOp::kFullyConnected
                           ? g.rows
                           : static_cast<int64_t>(g.batches) * g.out_h * g.out_w;
  return rows <= kFewRows;
}

}  // namespace

const optimized::QGemmKernel* GemmKernelFor(cpu::Isa isa, const WeightedGeometry& g) {
  if (isa == cpu::Isa::kReference) return nullptr;
  return HasFewRows(g) ? optimized::QGemmFewRowsKernelFor(isa) : optimized::QGemmKernelFor(isa);
}

TfLiteStatus PrepareQuantizedWeighted(TfLiteContext* context, TfLiteNode* node, const char* op,
                                      const WeightedGeometry& g, const WeightedOpTensors& t,
                                      TfLiteFusedActivation activation, bool reference_only,
                                      NodeScratch* scratch, QuantizedWeighted* q) {
  const int channel_dim = g.op == WeightedOp::kDepthwise ? 3 : 0;
  const int channels = g.op == WeightedOp::kFullyConnected ? g.units : g.out_c;
  TF_LITE_ENSURE_OK(context,
                    PrepareQuantizedWeightedOp(context, op, t.input, t.weights, t.bias, t.output,
                                               activation, channel_dim, channels, &q->quant));
  q->geometry = g;
  q->optimized = false;
  q->kernel_name = "reference";
  const cpu::Isa isa = reference_only ? cpu::Isa::kReference : cpu::ActiveIsa();
  q->depthwise_as_conv = false;
  q->padded_input = false;
  q->scratch = nullptr;
  if (isa != cpu::Isa::kReference && OptimizedApplies(g, t)) {
    if (g.op == WeightedOp::kDepthwise && !DepthwiseAsConv(g)) {
      const bool row_form =
          optimized::QDepthwiseRowKernelApplies(DepthwiseShapeOf(g), t.input->type == kTfLiteInt8);
      const optimized::QDwKernel* kernel = row_form ? optimized::QDwRowKernelFor(isa) : nullptr;
      if (kernel == nullptr) kernel = optimized::QDwKernelForLayer(isa, g.out_c);
      if (kernel != nullptr) {
        q->optimized = q->packing.Ensure(t.weights->data.raw, kernel,
                                         [&] { return PackDepthwise(context, *kernel, g, t, q); });
        if (q->optimized) {
          q->kernel_name = kernel->name;
          const size_t bytes = optimized::QDepthwiseScratchBytes(DepthwiseShapeOf(g));
          if (bytes > 0) {
            TF_LITE_ENSURE_OK(
                context,
                scratch->Prepare(context, node, {{kTfLiteUInt8, static_cast<int64_t>(bytes)}}));
            q->scratch = scratch;
          }
        }
      }
    } else {
      // The wide-input variant needs a node temporary for the widened input.
      const optimized::QGemmKernel* kernel =
          scratch != nullptr && !HasFewRows(g) ? WideInputKernelFor(isa, g, t, q->quant) : nullptr;
      if (kernel == nullptr) kernel = GemmKernelFor(isa, g);
      if (kernel != nullptr) {
        q->optimized = q->packing.Ensure(t.weights->data.raw, kernel,
                                         [&] { return PackGemm(context, *kernel, g, t, q); });
        if (q->optimized) {
          q->kernel_name = kernel->name;
          q->depthwise_as_conv = g.op == WeightedOp::kDepthwise;
        }
        if (q->optimized && kernel->wide_input) {
          // The input widened to int16 once per invoke (padded when that pays).
          const auto elements =
              static_cast<int64_t>(optimized::QGemmConvWideInputElements(q->gemm, ConvShapeOf(g)));
          TF_LITE_ENSURE_OK(context, scratch->Prepare(context, node, {{kTfLiteInt16, elements}}));
          q->scratch = scratch;
        } else if (q->optimized && scratch != nullptr) {
          // Many border pixels, or row taps: the input inside a border of its zero point.
          const size_t bytes = optimized::QGemmConvPaddedInputBytes(q->gemm, ConvShapeOf(g));
          if (bytes > 0) {
            TF_LITE_ENSURE_OK(
                context,
                scratch->Prepare(context, node, {{kTfLiteUInt8, static_cast<int64_t>(bytes)}}));
            q->scratch = scratch;
            q->padded_input = true;
          }
        }
      }
    }
  }
  SetNodeKernelName(context, node, q->kernel_name);
  return kTfLiteOk;
}

void EvalQuantizedWeighted(TfLiteContext* context, TfLiteNode* node, const QuantizedWeighted& q,
                           const WeightedOpTensors& t) {
  if (!q.optimized) {
    EvalReference(q, t);
    return;
  }
  ThreadPool* pool = GetThreadPool(context);
  const auto* input = reinterpret_cast<const uint8_t*>(t.input->data.raw);
  auto* output = reinterpret_cast<uint8_t*>(t.output->data.raw);
  const WeightedGeometry& g = q.geometry;
  uint8_t* padded = q.padded_input ? q.scratch->Data<uint8_t>(context, 0) : nullptr;
  switch (g.op) {
    case WeightedOp::kConv:
      if (q.gemm.kernel->wide_input) {
        int16_t* wide = q.scratch->Data<int16_t>(context, 0);
        const optimized::QConvShape shape =
            optimized::WidenConvInput(q.gemm, ConvShapeOf(g), input, t.input->type == kTfLiteInt8,
                                      -q.quant.params.input_offset, wide, pool);
        const size_t wide_bytes = 2 * static_cast<size_t>(shape.batches) * shape.in_h * shape.in_w *
                                  static_cast<size_t>(shape.in_c);
        optimized::RunQGemmConv(q.gemm, shape, reinterpret_cast<const uint8_t*>(wide), wide_bytes,
                                q.zero_row, output, pool);
        break;
      }
      optimized::RunQGemmConv(q.gemm, ConvShapeOf(g), input, t.input->bytes, q.zero_row, output,
                              pool, nullptr, padded);
      break;
    case WeightedOp::kFullyConnected:
      optimized::RunQGemmRows(q.gemm, g.rows, input, static_cast<size_t>(g.depth), output, pool);
      break;
    case WeightedOp::kDepthwise: {
      if (q.depthwise_as_conv) {
        optimized::RunQGemmConv(q.gemm, ConvShapeOf(g), input, t.input->bytes, q.zero_row, output,
                                pool, nullptr, padded);
        break;
      }
      uint8_t* scratch = q.scratch ? q.scratch->Data<uint8_t>(context, 0) : nullptr;
      optimized::RunQDepthwise(q.depthwise, DepthwiseShapeOf(g), input, q.zero_row, scratch, output,
                               pool);
      break;
    }
  }
}

}  // namespace octet::ops::nn
