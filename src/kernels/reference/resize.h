// Reference image resizing (NHWC, float): bilinear and nearest-neighbour, with TFLite's
// align_corners / half_pixel_centers coordinate mappings and its float arithmetic.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/shape.h"
#include "kernels/types.h"

namespace octet::reference {

using octet::ResizeParams;

// Source/destination size ratio used to map output coordinates to input coordinates.
inline float ResizeScale(int in_size, int out_size, bool align_corners) {
  if (align_corners && out_size > 1) {
    return static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1);
  }
  return static_cast<float>(in_size) / static_cast<float>(out_size);
}

// input [N,H,W,C] -> output [N,OH,OW,C].
inline void ResizeBilinear(const ResizeParams& p, const Shape& input_shape, const float* input,
                           const Shape& output_shape, float* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int depth = input_shape.dim(3);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  const float h_scale = ResizeScale(in_h, out_h, p.align_corners);
  const float w_scale = ResizeScale(in_w, out_w, p.align_corners);

  // Source coordinate of an output index and its two clamped neighbours.
  auto map = [&p](int v, float scale, int in_size, float* src, int* lo, int* hi) {
    *src = p.half_pixel_centers ? (static_cast<float>(v) + 0.5f) * scale - 0.5f
                                : static_cast<float>(v) * scale;
    // The upper clamp on lo never binds for finite sizes; it keeps reads in bounds.
    *lo = std::min(std::max(static_cast<int>(std::floor(*src)), 0), in_size - 1);
    *hi = std::min(static_cast<int>(std::ceil(*src)), in_size - 1);
  };

  for (int b = 0; b < batches; ++b) {
    for (int y = 0; y < out_h; ++y) {
      float in_y;
      int y0, y1;
      map(y, h_scale, in_h, &in_y, &y0, &y1);
      const float dy = in_y - static_cast<float>(y0);
      for (int x = 0; x < out_w; ++x) {
        float in_x;
        int x0, x1;
        map(x, w_scale, in_w, &in_x, &x0, &x1);
        const float dx = in_x - static_cast<float>(x0);
        for (int c = 0; c < depth; ++c) {
          const float v00 = input[input_shape.Offset(b, y0, x0, c)];
          const float v10 = input[input_shape.Offset(b, y1, x0, c)];
          const float v01 = input[input_shape.Offset(b, y0, x1, c)];
          const float v11 = input[input_shape.Offset(b, y1, x1, c)];
          output[output_shape.Offset(b, y, x, c)] =
              v00 * (1 - dy) * (1 - dx) + v10 * dy * (1 - dx) + v01 * (1 - dy) * dx + v11 * dy * dx;
        }
      }
    }
  }
}

// Input index an output index reads from.
inline int NearestSource(int v, int in_size, int out_size, const ResizeParams& p) {
  const float scale = ResizeScale(in_size, out_size, p.align_corners);
  const float offset = p.half_pixel_centers ? 0.5f : 0.f;
  const float src = (static_cast<float>(v) + offset) * scale;
  int index =
      p.align_corners ? static_cast<int>(std::round(src)) : static_cast<int>(std::floor(src));
  index = std::min(index, in_size - 1);
  if (p.half_pixel_centers) index = std::max(index, 0);
  return index;
}

inline void ResizeNearestNeighbor(const ResizeParams& p, const Shape& input_shape,
                                  const float* input, const Shape& output_shape, float* output) {
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int depth = input_shape.dim(3);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  if (depth == 0) return;  // nothing to copy (and the buffers may be null)
  for (int b = 0; b < batches; ++b) {
    for (int y = 0; y < out_h; ++y) {
      const int iy = NearestSource(y, in_h, out_h, p);
      for (int x = 0; x < out_w; ++x) {
        const int ix = NearestSource(x, in_w, out_w, p);
        std::memcpy(output + output_shape.Offset(b, y, x, 0),
                    input + input_shape.Offset(b, iy, ix, 0), sizeof(float) * depth);
      }
    }
  }
}

}  // namespace octet::reference
