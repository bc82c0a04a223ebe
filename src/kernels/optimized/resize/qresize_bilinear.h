// Quantized RESIZE_BILINEAR (TFLite's integer path, reference::QuantizedResizeBilinear) with
// the per-pixel work hoisted: the Q10 source coordinates and the four corner weights are
// computed once per output row and column instead of once per channel, and 8-bit inputs
// accumulate in int32 (|sum| < 255 * 2048^2 < 2^31 even where half-pixel centres
// extrapolate at the borders; int16 keeps int64). Integer products are exact, so
// (x * wy) * wx = x * (wy * wx) and the sums and roundings are the reference's: the same
// bytes. Portable.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/reference/integer_resize.h"
#include "kernels/shape.h"

namespace octet::optimized {

template <typename T>
void QuantizedResizeBilinear(const reference::ResizeParams& p, const Shape& input_shape,
                             const T* input, const Shape& output_shape, T* output) {
  using Acc = std::conditional_t<sizeof(T) == 1, int32_t, int64_t>;
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int depth = input_shape.dim(3);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  if (depth == 0) return;
  const int32_t h_scale = reference::ResizeScaleQ10(in_h, out_h, p.align_corners);
  const int32_t w_scale = reference::ResizeScaleQ10(in_w, out_w, p.align_corners);
  constexpr int32_t kOne = 1 << 10;
  struct Column {
    int32_t x0, x1, fx;
  };
  std::vector<Column> columns(static_cast<size_t>(out_w));
  for (int x = 0; x < out_w; ++x) {
    int32_t in_x;
    Column& col = columns[static_cast<size_t>(x)];
    reference::InterpolationQ10(x, w_scale, p.half_pixel_centers, in_w, &in_x, &col.x0, &col.x1);
    col.fx = in_x - kOne * col.x0;
  }
  const size_t row_stride = static_cast<size_t>(in_w) * depth;
  for (int b = 0; b < batches; ++b) {
    const T* image = input + static_cast<size_t>(b) * in_h * row_stride;
    for (int y = 0; y < out_h; ++y) {
      int32_t in_y, y0, y1;
      reference::InterpolationQ10(y, h_scale, p.half_pixel_centers, in_h, &in_y, &y0, &y1);
      const Acc fy = in_y - kOne * y0;
      const T* row0 = image + static_cast<size_t>(y0) * row_stride;
      const T* row1 = image + static_cast<size_t>(y1) * row_stride;
      T* out = output + ((static_cast<size_t>(b) * out_h + y) * out_w) * depth;
      for (int x = 0; x < out_w; ++x, out += depth) {
        const Column& col = columns[static_cast<size_t>(x)];
        const Acc fx = col.fx;
        const Acc w00 = (kOne - fy) * (kOne - fx), w10 = fy * (kOne - fx);
        const Acc w01 = (kOne - fy) * fx, w11 = fy * fx;
        const T* p00 = row0 + static_cast<size_t>(col.x0) * depth;
        const T* p01 = row0 + static_cast<size_t>(col.x1) * depth;
        const T* p10 = row1 + static_cast<size_t>(col.x0) * depth;
        const T* p11 = row1 + static_cast<size_t>(col.x1) * depth;
        for (int c = 0; c < depth; ++c) {
          const Acc sum = p00[c] * w00 + p10[c] * w10 + p01[c] * w01 + p11[c] * w11;
          const Acc round = sum > 0 ? (1 << 19) : -(1 << 19);
          out[c] = static_cast<T>((sum + round) / (1 << 20));
        }
      }
    }
  }
}

}  // namespace octet::optimized
