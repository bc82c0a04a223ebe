// A convolution's input copied inside a border of padding values, so that every output pixel's
// window lies inside the copy: the GEMM drivers then run every pixel as an interior one (no
// border tiles with per-tap tables or gathered rows). Portable code for the drivers only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/optimized/window.h"
#include "kernels/threads/thread_pool.h"

namespace octet::optimized {

// The image every window of `s` reads, padding included, as a window with no padding left.
Window2D PaddedWindow(const Window2D& s);

// Output pixels of one image whose window reaches into the padding.
int64_t BorderPixels(const Window2D& s);

// Elements of the padded copy of all images (PaddedWindow(s)).
size_t PaddedImageElements(const Window2D& s);

// Whether a GEMM convolution gains from the padded copy: a quarter or more of its pixels are
// border ones, or a sixteenth when `border_gathers` (the int8 GEMM's border pixels gather
// their filter rows; not for a 224x224 first layer's 2%, a 150 KB copy per invoke).
bool PaddedCopyPays(const Window2D& s, bool border_gathers);

// Writes the padded copy (PaddedWindow(s) per image) into `padded`: `fill` outside the image,
// and copy_row(at, n, out) for each row's n image elements starting at element `at` of the
// input (the caller's copy may convert, e.g. widen). Rewritten whole on every call: the
// buffer is an arena temporary. The rows are split across the pool in order, as the GEMM's
// row tasks are, so that each thread mostly reads back rows it wrote (one thread writing the
// whole copy made two threads 5% slower on ResNet8 float: the other core read its half from
// this one's cache).
template <typename T, typename CopyRow>
void PadImageWith(const Window2D& s, T fill, T* padded, ThreadPool* pool, const CopyRow& copy_row) {
  const Window2D p = PaddedWindow(s);
  const size_t c = static_cast<size_t>(s.in_c);
  const int columns = std::max(0, std::min(s.in_w, p.in_w - s.pad_w));  // copied per row
  const size_t row = static_cast<size_t>(p.in_w) * c;
  const size_t left = static_cast<size_t>(s.pad_w) * c;
  const size_t copied = static_cast<size_t>(columns) * c;
  const size_t rows = static_cast<size_t>(s.batches) * static_cast<size_t>(p.in_h);
  const size_t min_rows = std::max<size_t>(1, 16384 / std::max<size_t>(1, row * sizeof(T)));
  ParallelForChunks(pool, rows, min_rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      T* out = padded + r * row;
      const size_t b = r / static_cast<size_t>(p.in_h);
      const int iy = static_cast<int>(r % static_cast<size_t>(p.in_h)) - s.pad_h;
      if (iy < 0 || iy >= s.in_h || columns == 0) {
        std::fill(out, out + row, fill);
        continue;
      }
      std::fill(out, out + left, fill);
      copy_row((b * static_cast<size_t>(s.in_h) + static_cast<size_t>(iy)) *
                   static_cast<size_t>(s.in_w) * c,
               copied, out + left);
      std::fill(out + left + copied, out + row, fill);
    }
  });
}

// PadImageWith copying the input's elements as they are.
template <typename T>
void PadImage(const Window2D& s, const T* input, T fill, T* padded, ThreadPool* pool) {
  PadImageWith(s, fill, padded, pool, [input](size_t at, size_t n, T* out) {
    std::copy(input + at, input + at + n, out);
  });
}

}  // namespace octet::optimized
