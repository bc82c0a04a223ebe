// Quantized and hybrid TRANSPOSE_CONV in the arithmetic of TFLite's reference kernels
// (reference_ops / reference_integer_ops TransposeConv, reference_ops HybridTransposeConv).
//
// TFLite scatters every input element into the output cells it reaches. These kernels
// gather instead: each output cell sums its contributions itself, visiting the inputs in
// the scatter's order (input y, then x, then channel), so even the float sums of the hybrid
// kernel are the same bits, and no accumulator image is needed. Per output element:
//   acc  = Σ (input + input_offset) · (filter + filter_offset)
//   acc += bias
//   out  = clamp(MultiplyByQuantizedMultiplier(acc, M[c], shift[c]) + output_offset)
// Acc is int32_t (uint8, int8, and int16 with an int32 bias) or int64_t (int16 with an int64
// bias or none), and picks the matching MultiplyByQuantizedMultiplier.
//
// Where TFLite's arithmetic is undefined this is well-defined: an int32 accumulator wraps
// (what TFLite's signed overflow does on every target it runs on), an int64 bias that would
// overflow the sum saturates it, and the 64-bit requantization gets its input clamped to the
// [-2^47, 2^47) range TFLite asserts.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/reference/hybrid_quantize.h"
#include "kernels/shape.h"
#include "kernels/types.h"
#include "quant/quantization_util.h"

namespace octet::reference {

using octet::QuantizedParams;
using octet::TransposeConvParams;

// The inputs [first, last] along one axis whose filter window covers output index `out`:
// those i with 0 <= out + pad - i * stride < filter. Empty when first > last.
inline void TransposeConvInputRange(int out, int pad, int stride, int filter, int in_size,
                                    int* first, int* last) {
  const int64_t top = int64_t{out} + pad;  // i * stride <= top
  const int64_t low = top - filter + 1;    // i * stride >= low
  const int64_t lo = low <= 0 ? 0 : (low + stride - 1) / stride;
  const int64_t hi = std::min<int64_t>(top / stride, int64_t{in_size} - 1);
  *first = static_cast<int>(lo);
  *last = static_cast<int>(std::max<int64_t>(hi, lo - 1));
}

namespace transpose_conv_detail {

// acc + v, wrapping for int32 (as TFLite's int32 scratch does in practice).
inline int32_t Accumulate(int32_t acc, int32_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(v));
}
inline int64_t Accumulate(int64_t acc, int32_t v) { return acc + v; }

inline int32_t AddBias(int32_t acc, int32_t bias) { return Accumulate(acc, bias); }
inline int64_t AddBias(int64_t acc, int64_t bias) {
  int64_t sum;
  if (__builtin_add_overflow(acc, bias, &sum)) {
    return bias > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return sum;
}

inline int32_t Requantize(int32_t acc, int32_t multiplier, int shift) {
  return quant::MultiplyByQuantizedMultiplier(acc, multiplier, shift);
}
inline int32_t Requantize(int64_t acc, int32_t multiplier, int shift) {
  constexpr int64_t kLimit = int64_t{1} << 47;
  const int64_t x = std::min(std::max(acc, -kLimit), kLimit - 1);
  return quant::MultiplyByQuantizedMultiplier(x, multiplier, shift);
}

}  // namespace transpose_conv_detail

// input [N,H,W,C], filter [O,KH,KW,C], bias [O] or nullptr, output [N,OH,OW,O]; q holds one
// multiplier and shift per output channel. int16 output has output_offset 0.
template <typename Acc, typename InT, typename WT, typename BiasT, typename OutT>
void QuantizedTransposeConv(const TransposeConvParams& p, const QuantizedParams& q,
                            const Shape& input_shape, const InT* input, const Shape& filter_shape,
                            const WT* filter, const BiasT* bias, const Shape& output_shape,
                            OutT* output) {
  static_assert(std::is_same<Acc, int32_t>::value || std::is_same<Acc, int64_t>::value, "");
  namespace d = transpose_conv_detail;
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int in_depth = input_shape.dim(3);
  const int filter_h = filter_shape.dim(1);
  const int filter_w = filter_shape.dim(2);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const int out_depth = output_shape.dim(3);

  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < out_h; ++oy) {
      int iy0, iy1;
      TransposeConvInputRange(oy, p.pad_height, p.stride_height, filter_h, in_h, &iy0, &iy1);
      for (int ox = 0; ox < out_w; ++ox) {
        int ix0, ix1;
        TransposeConvInputRange(ox, p.pad_width, p.stride_width, filter_w, in_w, &ix0, &ix1);
        for (int oc = 0; oc < out_depth; ++oc) {
          Acc acc = 0;
          for (int iy = iy0; iy <= iy1; ++iy) {
            const int fy = oy + p.pad_height - iy * p.stride_height;
            for (int ix = ix0; ix <= ix1; ++ix) {
              const int fx = ox + p.pad_width - ix * p.stride_width;
              const InT* in = input + input_shape.Offset(b, iy, ix, 0);
              const WT* w = filter + filter_shape.Offset(oc, fy, fx, 0);
              for (int ic = 0; ic < in_depth; ++ic) {
                // Each product is at most 2^16 (8-bit) or 2^22 (16x8) in magnitude.
                const int32_t product = (static_cast<int32_t>(in[ic]) + q.input_offset) *
                                        (static_cast<int32_t>(w[ic]) + q.filter_offset);
                acc = d::Accumulate(acc, product);
              }
            }
          }
          if (bias) acc = d::AddBias(acc, static_cast<Acc>(bias[oc]));
          // In int64: TFLite's int32 `scaled + output_offset` cannot overflow here.
          const int64_t v =
              int64_t{d::Requantize(acc, q.multipliers[oc], q.shifts[oc])} + q.output_offset;
          output[output_shape.Offset(b, oy, ox, oc)] =
              static_cast<OutT>(std::min<int64_t>(std::max<int64_t>(v, q.act_min), q.act_max));
        }
      }
    }
  }
}

// Hybrid: `input` is the float input already quantized per batch (AsymmetricQuantize:
// scaling_factors[b], input_offsets[b]); channel_scales holds one weight scale per output
// channel. Each product is scaled to float and summed in float, in the scatter's order.
inline void HybridTransposeConv(const TransposeConvParams& p, const Shape& input_shape,
                                const int8_t* input, const float* scaling_factors,
                                const int32_t* input_offsets, const Shape& filter_shape,
                                const int8_t* filter, const float* channel_scales,
                                const float* bias, const Shape& output_shape, float* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int in_depth = input_shape.dim(3);
  const int filter_h = filter_shape.dim(1);
  const int filter_w = filter_shape.dim(2);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const int out_depth = output_shape.dim(3);

  for (int b = 0; b < batches; ++b) {
    const float scaling_factor = scaling_factors[b];
    const int32_t input_offset = input_offsets[b];
    for (int oy = 0; oy < out_h; ++oy) {
      int iy0, iy1;
      TransposeConvInputRange(oy, p.pad_height, p.stride_height, filter_h, in_h, &iy0, &iy1);
      for (int ox = 0; ox < out_w; ++ox) {
        int ix0, ix1;
        TransposeConvInputRange(ox, p.pad_width, p.stride_width, filter_w, in_w, &ix0, &ix1);
        for (int oc = 0; oc < out_depth; ++oc) {
          const float channel_scale = channel_scales[oc];
          float sum = 0.f;
          for (int iy = iy0; iy <= iy1; ++iy) {
            const int fy = oy + p.pad_height - iy * p.stride_height;
            for (int ix = ix0; ix <= ix1; ++ix) {
              const int fx = ox + p.pad_width - ix * p.stride_width;
              const int8_t* in = input + input_shape.Offset(b, iy, ix, 0);
              const int8_t* w = filter + filter_shape.Offset(oc, fy, fx, 0);
              for (int ic = 0; ic < in_depth; ++ic) {
                const int32_t acc = (static_cast<int32_t>(in[ic]) - input_offset) * w[ic];
                // (acc * scale) * factor, each rounded to float and never fused into the sum.
                const float scaled = HybridRoundedProduct(
                    HybridRoundedProduct(static_cast<float>(acc), channel_scale), scaling_factor);
                sum += scaled;
              }
            }
          }
          if (bias) sum += bias[oc];
          output[output_shape.Offset(b, oy, ox, oc)] =
              std::min(std::max(sum, p.act_min), p.act_max);
        }
      }
    }
  }
}

}  // namespace octet::reference
