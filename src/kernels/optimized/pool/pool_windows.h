// The output pixels of a 2-D pooling and their windows clipped to the input, in the output's
// raster order: the loop head qpool and fpool share. Portable code.
#pragma once

#include <algorithm>
#include <cstddef>

#include "kernels/shape.h"
#include "kernels/types.h"

namespace octet::optimized {

// One output pixel's window: input cells (in_y0 + fy, in_x0 + fx) for fy in [fy_begin,
// fy_end) and fx in [fx_begin, fx_end), all inside the image.
struct PoolWindow {
  int in_y0, in_x0;
  int fy_begin, fy_end, fx_begin, fx_end;
  int cells() const { return (fy_end - fy_begin) * (fx_end - fx_begin); }
  // Element offset of cell (fy, fx)'s channel 0 within its image of in_w x depth.
  size_t Offset(int fy, int fx, int in_w, size_t depth) const {
    return (static_cast<size_t>(in_y0 + fy) * in_w + (in_x0 + fx)) * depth;
  }
};

// Calls visit(image_offset, window, pixel) for every output pixel (pixel counts them in
// raster order over all batches; image_offset is its batch's first input element). False,
// before visiting it, at the first window with no cell inside the input (the reference
// refuses those).
template <typename Visit>
bool ForEachPoolWindow(const PoolParams& p, const Shape& input_shape, const Shape& output_shape,
                       Visit&& visit) {
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const size_t image = static_cast<size_t>(in_h) * in_w * static_cast<size_t>(input_shape.dim(3));
  size_t pixel = 0;
  for (int b = 0; b < input_shape.dim(0); ++b) {
    for (int oy = 0; oy < output_shape.dim(1); ++oy) {
      PoolWindow w;
      w.in_y0 = oy * p.stride_height - p.pad_height;
      w.fy_begin = std::max(0, -w.in_y0);
      w.fy_end = std::min(p.filter_height, in_h - w.in_y0);
      for (int ox = 0; ox < output_shape.dim(2); ++ox, ++pixel) {
        w.in_x0 = ox * p.stride_width - p.pad_width;
        w.fx_begin = std::max(0, -w.in_x0);
        w.fx_end = std::min(p.filter_width, in_w - w.in_x0);
        if (w.fy_end <= w.fy_begin || w.fx_end <= w.fx_begin) return false;
        visit(static_cast<size_t>(b) * image, static_cast<const PoolWindow&>(w), pixel);
      }
    }
  }
  return true;
}

}  // namespace octet::optimized
