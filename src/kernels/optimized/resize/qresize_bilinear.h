// Quantized RESIZE_BILINEAR's driver (TFLite's integer path, reference::QuantizedResizeBilinear)
// on the two exact passes of qresize.h: per output row, the two source rows blended once
// (vertical), then every output pixel's two columns (horizontal). 8-bit types run the
// path's kernel; int16 runs portable loops (its column blend needs int64 products). Output
// rows are split into slices, each with its own blended-row buffer, across the thread pool.
// Portable code (includes the inline reference): for the op glue and tests, not ISA units.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/optimized/resize/qresize.h"
#include "kernels/reference/integer_resize.h"
#include "kernels/shape.h"
#include "kernels/threads/thread_pool.h"

namespace octet::optimized {

// Slices the output rows are split into at most: one blended-row buffer each.
constexpr int kQResizeSlices = 4;

// int32 elements of the scratch QuantizedResizeBilinear takes: the column table, then one
// padded blended row per slice.
inline size_t QResizeScratchInts(const Shape& input_shape, const Shape& output_shape) {
  const size_t row = static_cast<size_t>(input_shape.dim(2)) * input_shape.dim(3) +
                     static_cast<size_t>(kQResizeRowPadding);
  return 3 * static_cast<size_t>(output_shape.dim(2)) + kQResizeSlices * row;
}

// The source rows/columns of output index v and the second one's Q10 weight in [0, 1024]
// (0 where both are the same clamped one; see QResizeColumn).
inline void QResizeSource(int v, int32_t scale, bool half_pixel_centers, int in_size, int32_t* lo,
                          int32_t* hi, int32_t* weight) {
  int32_t scaled;
  reference::InterpolationQ10(v, scale, half_pixel_centers, in_size, &scaled, lo, hi);
  *weight = *lo == *hi ? 0 : scaled - (1 << 10) * *lo;
}

// The two passes element by element (qresize.h), for values of type T: the portable 8-bit
// kernel (Acc int32, the output's low byte) and the driver's int16 path (Acc int64: its
// column products overflow int32).
template <typename T>
void BlendRowsPortable(const T* row0, const T* row1, size_t n, int32_t fy, int32_t* v) {
  const int32_t gy = 1024 - fy;
  for (size_t i = 0; i < n; ++i) v[i] = row0[i] * gy + row1[i] * fy;
}

template <typename Acc, typename Out>
void BlendColumnsPortable(const int32_t* v, const QResizeColumn* columns, int out_w, int depth,
                          Out* out) {
  for (int x = 0; x < out_w; ++x, out += depth) {
    const QResizeColumn& col = columns[x];
    const Acc gx = 1024 - col.fx;
    for (int c = 0; c < depth; ++c) {
      const Acc sum =
          static_cast<Acc>(v[col.x0 + c]) * gx + static_cast<Acc>(v[col.x1 + c]) * col.fx;
      const Acc round = sum > 0 ? (1 << 19) : -(1 << 19);
      out[c] = static_cast<Out>((sum + round) / (1 << 20));
    }
  }
}

// `kernel` runs the 8-bit passes (unused for int16); `scratch` holds QResizeScratchInts.
template <typename T>
void QuantizedResizeBilinear(const QResizeKernel& kernel, const reference::ResizeParams& p,
                             const Shape& input_shape, const T* input, const Shape& output_shape,
                             T* output, int32_t* scratch, ThreadPool* pool) {
  static_assert(sizeof(T) <= 2, "8- and 16-bit values");
  const int batches = input_shape.dim(0);
  const int in_h = input_shape.dim(1);
  const int in_w = input_shape.dim(2);
  const int depth = input_shape.dim(3);
  const int out_h = output_shape.dim(1);
  const int out_w = output_shape.dim(2);
  if (depth == 0 || batches == 0 || out_h == 0 || out_w == 0) return;
  const int32_t h_scale = reference::ResizeScaleQ10(in_h, out_h, p.align_corners);
  const int32_t w_scale = reference::ResizeScaleQ10(in_w, out_w, p.align_corners);
  auto* columns = reinterpret_cast<QResizeColumn*>(scratch);
  for (int x = 0; x < out_w; ++x) {
    QResizeColumn& col = columns[x];
    QResizeSource(x, w_scale, p.half_pixel_centers, in_w, &col.x0, &col.x1, &col.fx);
    col.x0 *= depth;
    col.x1 *= depth;
  }
  const size_t row_elements = static_cast<size_t>(in_w) * depth;
  int32_t* const rows = scratch + 3 * static_cast<size_t>(out_w);

  const int total_rows = batches * out_h;
  const size_t row_outputs = static_cast<size_t>(out_w) * depth;
  const int min_rows =
      static_cast<int>(std::max<size_t>(1, (kElementwiseChunk + row_outputs - 1) / row_outputs));
  const int threads = pool ? pool->threads() : 1;
  const int slices = std::max(1, std::min({kQResizeSlices, threads, total_rows / min_rows}));
  const int per_slice = (total_rows + slices - 1) / slices;
  auto run_slice = [&](size_t slice) {
    int32_t* v = rows + slice * (row_elements + kQResizeRowPadding);
    const int end = std::min(total_rows, static_cast<int>(slice + 1) * per_slice);
    for (int r = static_cast<int>(slice) * per_slice; r < end; ++r) {
      const int b = r / out_h, y = r % out_h;
      int32_t y0, y1, fy;
      QResizeSource(y, h_scale, p.half_pixel_centers, in_h, &y0, &y1, &fy);
      const T* image = input + static_cast<size_t>(b) * in_h * row_elements;
      const auto* row0 = reinterpret_cast<const uint8_t*>(image + y0 * row_elements);
      const auto* row1 = reinterpret_cast<const uint8_t*>(image + y1 * row_elements);
      T* out = output + static_cast<size_t>(r) * row_outputs;
      if constexpr (sizeof(T) == 1) {
        kernel.vertical(row0, row1, row_elements, fy, std::is_signed_v<T>, v);
        kernel.horizontal(v, columns, out_w, depth, reinterpret_cast<uint8_t*>(out));
      } else {
        BlendRowsPortable(reinterpret_cast<const T*>(row0), reinterpret_cast<const T*>(row1),
                          row_elements, fy, v);
        BlendColumnsPortable<int64_t>(v, columns, out_w, depth, out);
      }
    }
  };
  if (slices == 1) {
    run_slice(0);
  } else {
    pool->ParallelFor(static_cast<size_t>(slices), run_slice);
  }
}

}  // namespace octet::optimized
