// Quantized RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR (int8, uint8, int16; input and output
// share scale and zero point). Nearest-neighbour copies raw values. Bilinear is TFLite's
// integer path: coordinates in Q10 (scale = round(2^10 · in / out)), the four corner
// weights multiplied in int64 (Q20), and the sum rounded half away from zero to an integer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernels/reference/resize.h"
#include "kernels/shape.h"

namespace octet::reference {

template <typename T>
void QuantizedResizeNearestNeighbor(const ResizeParams& p, const Shape& input_shape, const T* input,
                                    const Shape& output_shape, T* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int depth = input_shape.dim(3);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  if (depth == 0) return;
  for (int b = 0; b < batches; ++b) {
    for (int y = 0; y < out_h; ++y) {
      const int iy = NearestSource(y, in_h, out_h, p);
      for (int x = 0; x < out_w; ++x) {
        const int ix = NearestSource(x, in_w, out_w, p);
        std::memcpy(output + output_shape.Offset(b, y, x, 0),
                    input + input_shape.Offset(b, iy, ix, 0), sizeof(T) * depth);
      }
    }
  }
}

// Q10 source coordinate of output index v, and its two clamped neighbours.
inline void InterpolationQ10(int32_t v, int32_t scale_10, bool half_pixel_centers, int32_t in_size,
                             int32_t* scaled, int32_t* lo, int32_t* hi) {
  *scaled = half_pixel_centers ? v * scale_10 + scale_10 / 2 - (1 << 9) : v * scale_10;
  // TFLite leaves lo unclamped above: where the rounded-up scale carries the last output
  // past the input (7 rows to 300: 299 * 24 >= 7 * 1024) it reads a row past the image. The
  // last row instead (lo == hi, so the weights give that row exactly).
  *lo = std::min(std::max(*scaled / (1 << 10), 0), in_size - 1);
  *hi = std::min((*scaled + (1 << 10) - 1) / (1 << 10), in_size - 1);
}

inline int32_t ResizeScaleQ10(int in_size, int out_size, bool align_corners) {
  if (align_corners && out_size > 1) {
    return ((1 << 10) * (in_size - 1) + (out_size - 1) / 2) / (out_size - 1);
  }
  return ((1 << 10) * in_size + out_size / 2) / out_size;
}

template <typename T>
void QuantizedResizeBilinear(const ResizeParams& p, const Shape& input_shape, const T* input,
                             const Shape& output_shape, T* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int depth = input_shape.dim(3);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const int32_t h_scale = ResizeScaleQ10(in_h, out_h, p.align_corners);
  const int32_t w_scale = ResizeScaleQ10(in_w, out_w, p.align_corners);
  constexpr int64_t kOne = 1 << 10;
  for (int b = 0; b < batches; ++b) {
    for (int y = 0; y < out_h; ++y) {
      int32_t in_y, y0, y1;
      InterpolationQ10(y, h_scale, p.half_pixel_centers, in_h, &in_y, &y0, &y1);
      const int64_t fy = in_y - kOne * y0;  // weight of row y1, in Q10
      for (int x = 0; x < out_w; ++x) {
        int32_t in_x, x0, x1;
        InterpolationQ10(x, w_scale, p.half_pixel_centers, in_w, &in_x, &x0, &x1);
        const int64_t fx = in_x - kOne * x0;
        for (int c = 0; c < depth; ++c) {
          const int64_t sum =
              static_cast<int64_t>(input[input_shape.Offset(b, y0, x0, c)]) * (kOne - fy) *
                  (kOne - fx) +
              static_cast<int64_t>(input[input_shape.Offset(b, y1, x0, c)]) * fy * (kOne - fx) +
              static_cast<int64_t>(input[input_shape.Offset(b, y0, x1, c)]) * (kOne - fy) * fx +
              static_cast<int64_t>(input[input_shape.Offset(b, y1, x1, c)]) * fy * fx;
          const int64_t round = sum > 0 ? (1 << 19) : -(1 << 19);
          output[output_shape.Offset(b, y, x, c)] = static_cast<T>((sum + round) / (1 << 20));
        }
      }
    }
  }
}

}  // namespace octet::reference
