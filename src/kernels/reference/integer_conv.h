// Quantized CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED in the integer arithmetic of
// TFLite's reference kernels (seed 002): per output element
//   acc  = Σ (filter + filter_offset) · (input + input_offset)      (padding adds nothing)
//   acc += bias
//   out  = clamp(MultiplyByQuantizedMultiplier(acc, M[c], shift[c]) + output_offset)
// filter_offset is 0 except for legacy uint8 weights. 8-bit kernels accumulate in int32;
// int16x8 kernels accumulate in int64 and requantize with the 64-bit multiplier variant.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/reference/conv.h"
#include "kernels/reference/depthwise_conv.h"
#include "kernels/shape.h"
#include "kernels/types.h"
#include "quant/quantization_util.h"

namespace octet::reference {

using octet::QuantizedParams;

// Requantizes an accumulator to the output type's integer domain (before the clamp).
inline int32_t Requantize(int32_t acc, int32_t multiplier, int shift) {
  return quant::MultiplyByQuantizedMultiplier(acc, multiplier, shift);
}
inline int32_t Requantize(int64_t acc, int32_t multiplier, int shift) {
  return quant::MultiplyByQuantizedMultiplier(acc, multiplier, shift);
}

template <typename OutT>
inline OutT FinishOutput(const QuantizedParams& q, int32_t scaled) {
  const int32_t v = scaled + q.output_offset;
  return static_cast<OutT>(std::min(std::max(v, q.act_min), q.act_max));
}

// Acc is int32_t for 8-bit inputs and int64_t for int16 inputs.
template <typename Acc, typename InT, typename WT, typename BiasT, typename OutT>
void QuantizedConv(const ConvParams& p, const QuantizedParams& q, const Shape& input_shape,
                   const InT* input, const Shape& filter_shape, const WT* filter, const BiasT* bias,
                   const Shape& output_shape, OutT* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int filter_h = filter_shape.dim(1);
  const int filter_w = filter_shape.dim(2);
  const int filter_depth = filter_shape.dim(3);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const int out_depth = output_shape.dim(3);
  const int groups = input_shape.dim(3) / filter_depth;
  const int filters_per_group = out_depth / groups;

  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < out_h; ++oy) {
      const int in_y0 = oy * p.stride_height - p.pad_height;
      for (int ox = 0; ox < out_w; ++ox) {
        const int in_x0 = ox * p.stride_width - p.pad_width;
        for (int oc = 0; oc < out_depth; ++oc) {
          const int channel_base = (oc / filters_per_group) * filter_depth;
          Acc acc = 0;
          for (int fy = 0; fy < filter_h; ++fy) {
            const int iy = in_y0 + p.dilation_height * fy;
            for (int fx = 0; fx < filter_w; ++fx) {
              const int ix = in_x0 + p.dilation_width * fx;
              // A padding cell holds the input zero point: (zp + input_offset) = 0.
              if (iy < 0 || iy >= in_h || ix < 0 || ix >= in_w) continue;
              const InT* in = input + input_shape.Offset(b, iy, ix, channel_base);
              const WT* w = filter + filter_shape.Offset(oc, fy, fx, 0);
              for (int ic = 0; ic < filter_depth; ++ic) {
                acc += static_cast<Acc>(static_cast<int32_t>(w[ic]) + q.filter_offset) *
                       static_cast<Acc>(static_cast<int32_t>(in[ic]) + q.input_offset);
              }
            }
          }
          if (bias) acc += static_cast<Acc>(bias[oc]);
          output[output_shape.Offset(b, oy, ox, oc)] =
              FinishOutput<OutT>(q, Requantize(acc, q.multipliers[oc], q.shifts[oc]));
        }
      }
    }
  }
}

template <typename Acc, typename InT, typename WT, typename BiasT, typename OutT>
void QuantizedDepthwiseConv(const DepthwiseParams& p, const QuantizedParams& q,
                            const Shape& input_shape, const InT* input, const Shape& filter_shape,
                            const WT* filter, const BiasT* bias, const Shape& output_shape,
                            OutT* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int in_depth = input_shape.dim(3);
  const int filter_h = filter_shape.dim(1);
  const int filter_w = filter_shape.dim(2);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const int mult = p.depth_multiplier;

  for (int b = 0; b < batches; ++b) {
    for (int oy = 0; oy < out_h; ++oy) {
      const int in_y0 = oy * p.stride_height - p.pad_height;
      for (int ox = 0; ox < out_w; ++ox) {
        const int in_x0 = ox * p.stride_width - p.pad_width;
        for (int ic = 0; ic < in_depth; ++ic) {
          for (int m = 0; m < mult; ++m) {
            const int oc = m + ic * mult;
            Acc acc = 0;
            for (int fy = 0; fy < filter_h; ++fy) {
              const int iy = in_y0 + p.dilation_height * fy;
              for (int fx = 0; fx < filter_w; ++fx) {
                const int ix = in_x0 + p.dilation_width * fx;
                if (iy < 0 || iy >= in_h || ix < 0 || ix >= in_w) continue;
                const int32_t in_v = input[input_shape.Offset(b, iy, ix, ic)];
                const int32_t w_v = filter[filter_shape.Offset(0, fy, fx, oc)];
                acc += static_cast<Acc>(w_v + q.filter_offset) *
                       static_cast<Acc>(in_v + q.input_offset);
              }
            }
            if (bias) acc += static_cast<Acc>(bias[oc]);
            output[output_shape.Offset(b, oy, ox, oc)] =
                FinishOutput<OutT>(q, Requantize(acc, q.multipliers[oc], q.shifts[oc]));
          }
        }
      }
    }
  }
}

// input [batches, depth], weights [units, depth], bias [units] or nullptr.
template <typename Acc, typename InT, typename WT, typename BiasT, typename OutT>
void QuantizedFullyConnected(const QuantizedParams& q, int batches, int depth, int units,
                             const InT* input, const WT* weights, const BiasT* bias, OutT* output) {
  for (int b = 0; b < batches; ++b) {
    const InT* in = input + static_cast<int64_t>(b) * depth;
    for (int o = 0; o < units; ++o) {
      const WT* w = weights + static_cast<int64_t>(o) * depth;
      Acc acc = 0;
      for (int d = 0; d < depth; ++d) {
        acc += static_cast<Acc>(static_cast<int32_t>(w[d]) + q.filter_offset) *
               static_cast<Acc>(static_cast<int32_t>(in[d]) + q.input_offset);
      }
      if (bias) acc += static_cast<Acc>(bias[o]);
      output[static_cast<int64_t>(b) * units + o] =
          FinishOutput<OutT>(q, Requantize(acc, q.multipliers[o], q.shifts[o]));
    }
  }
}

}  // namespace octet::reference
