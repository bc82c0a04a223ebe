#include "kernels/optimized/qdw/qdw_driver.h"

#include <algorithm>
#include <cstring>

#include "kernels/threads/thread_pool.h"

namespace octet::optimized {
namespace {

constexpr int kMaxTablePointers = 2048;

}  // namespace

size_t QDepthwiseScratchBytes(const QDwShape& s) {
  if (s.depth_multiplier == 1) return 0;
  return static_cast<size_t>(s.batches) * s.in_h * s.in_w * s.in_c * s.depth_multiplier;
}

bool QDepthwiseSupportsTaps(int taps) { return taps >= 1 && taps <= kMaxTablePointers; }

bool QDepthwiseRowKernelApplies(const QDwShape& s, bool input_signed) {
  return input_signed && s.kernel_h == 3 && s.kernel_w == 3 && s.dilation_h == 1 &&
         s.dilation_w == 1 && (s.stride_w == 1 || s.stride_w == 2);
}

namespace {

// A row kernel: each output row is one call given its three input rows, or with vertical
// stride 1 two rows of one image per call given their four (QDwRow3x3::c_next).
void RunRows3x3(const QDwPacked& packed, const QDwShape& s, const uint8_t* input,
                const uint8_t* zero_row, uint8_t* output, ThreadPool* pool) {
  const int channels = s.in_c * s.depth_multiplier;
  const size_t pixel_bytes = static_cast<size_t>(channels);
  ParallelForRanges(pool, s.batches * s.out_h, [&](int row_begin, int row_end) {
    QDwRow3x3 r;
    r.in_w = s.in_w;
    r.out_w = s.out_w;
    r.pad_w = s.pad_w;
    r.stride_w = s.stride_w;
    r.channels = channels;
    r.input_zero_point = zero_row[0];
    r.w = packed.weights;
    r.rq = packed.rq;
    for (int row = row_begin; row < row_end;) {
      const int b = row / s.out_h;
      const int oy = row % s.out_h;
      const bool two = s.stride_h == 1 && row + 1 < row_end && oy + 1 < s.out_h;
      const uint8_t* image = input + static_cast<size_t>(b) * s.in_h * s.in_w * pixel_bytes;
      for (int fy = 0; fy < (two ? 4 : 3); ++fy) {
        const int iy = oy * s.stride_h - s.pad_h + fy;
        const bool inside = iy >= 0 && iy < s.in_h;
        r.rows[fy] = inside ? image + static_cast<size_t>(iy) * s.in_w * pixel_bytes : zero_row;
        r.column_step[fy] = inside ? pixel_bytes : 0;
      }
      r.c = output + static_cast<size_t>(row) * s.out_w * pixel_bytes;
      r.c_next = two ? r.c + static_cast<size_t>(s.out_w) * pixel_bytes : nullptr;
      packed.kernel->run_row3x3(r);
      row += two ? 2 : 1;
    }
  });
}

}  // namespace

void RunQDepthwise(const QDwPacked& packed, const QDwShape& s, const uint8_t* input,
                   const uint8_t* zero_row, uint8_t* scratch, uint8_t* output, ThreadPool* pool,
                   int32_t* raw_output) {
  const int channels = s.in_c * s.depth_multiplier;
  if (s.depth_multiplier > 1) {
    // Output channel ic * multiplier + m reads input channel ic.
    const size_t pixels = static_cast<size_t>(s.batches) * s.in_h * s.in_w;
    for (size_t p = 0; p < pixels; ++p) {
      const uint8_t* in = input + p * s.in_c;
      uint8_t* out = scratch + p * channels;
      for (int ic = 0; ic < s.in_c; ++ic) {
        for (int m = 0; m < s.depth_multiplier; ++m) *out++ = in[ic];
      }
    }
    input = scratch;
  }
  if (packed.kernel->run_row3x3 != nullptr) {
    // Row kernels take only layers QDepthwiseRowKernelApplies accepts, with byte outputs.
    if (raw_output == nullptr) RunRows3x3(packed, s, input, zero_row, output, pool);
    return;
  }
  const int ks = s.kernel_h * s.kernel_w;
  const size_t pixel_bytes = static_cast<size_t>(channels);
  int interior_begin, interior_end;
  InteriorRange(s.in_w, s.out_w, s.kernel_w, s.stride_w, s.dilation_w, s.pad_w, &interior_begin,
                &interior_end);
  // Tap offsets from a pixel's top-left tap, for rows whose taps are all inside the image.
  ptrdiff_t tap_offsets[kMaxTablePointers];
  for (int fy = 0, t = 0; fy < s.kernel_h; ++fy) {
    for (int fx = 0; fx < s.kernel_w; ++fx, ++t) {
      tap_offsets[t] =
          (static_cast<ptrdiff_t>(fy) * s.dilation_h * s.in_w + fx * s.dilation_w) * channels;
    }
  }
  const int chunk = std::max(1, kMaxTablePointers / ks);
  const int rows = s.batches * s.out_h;

  // Where the outputs from element `at` on go: requantized bytes, or the raw sums.
  auto set_output = [&](QDwTile* t, size_t at) {
    t->c = raw_output ? nullptr : output + at;
    t->c32 = raw_output ? raw_output + at : nullptr;
    t->c_pixel_stride = pixel_bytes;
  };
  // Pixel (oy, ox)'s taps into entry[0, ks).
  auto fill_taps = [&](const uint8_t* image, int oy, int ox, const uint8_t** entry) {
    const int iy0 = oy * s.stride_h - s.pad_h;
    const int ix0 = ox * s.stride_w - s.pad_w;
    for (int fy = 0; fy < s.kernel_h; ++fy) {
      const int iy = iy0 + fy * s.dilation_h;
      for (int fx = 0; fx < s.kernel_w; ++fx) {
        const int ix = ix0 + fx * s.dilation_w;
        const bool inside = iy >= 0 && iy < s.in_h && ix >= 0 && ix < s.in_w;
        *entry++ =
            inside ? image + (static_cast<size_t>(iy) * s.in_w + ix) * pixel_bytes : zero_row;
      }
    }
  };
  auto run_table = [&](const uint8_t* image, int oy, int ox0, int pixels, size_t out,
                       const uint8_t** table) {
    for (int i = 0; i < pixels; ++i) fill_taps(image, oy, ox0 + i, table + i * ks);
    QDwTile t{};
    t.pixels = pixels;
    t.channels = channels;
    t.ks = ks;
    t.a = table;
    t.w = packed.weights;
    t.rq = packed.rq;
    t.input_signed = packed.input_signed;
    set_output(&t, out);
    packed.kernel->run(t);
  };

  // Byte outputs on a kernel with per-pixel outputs: the pixels near padding of several rows
  // share one call (a 5-pixel row has one on each side; alone, each call set up every channel
  // block's constants for a single pixel).
  const bool gather_edges = raw_output == nullptr && packed.kernel->pixel_outputs;
  ParallelForRanges(pool, rows, [&](int row_begin, int row_end) {
    const uint8_t* table[kMaxTablePointers];
    uint8_t* edge_outputs[kMaxTablePointers];
    int pending = 0;  // edge pixels in the table
    auto flush = [&] {
      if (pending == 0) return;
      QDwTile t{};
      t.pixels = pending;
      t.channels = channels;
      t.ks = ks;
      t.a = table;
      t.w = packed.weights;
      t.rq = packed.rq;
      t.input_signed = packed.input_signed;
      t.c_pixel_stride = pixel_bytes;
      t.c_pixels = edge_outputs;
      packed.kernel->run(t);
      pending = 0;
    };
    auto edges = [&](const uint8_t* image, int oy, int begin, int end, size_t out_row) {
      if (!gather_edges) {
        for (int ox = begin; ox < end; ox += chunk) {
          run_table(image, oy, ox, std::min(chunk, end - ox), out_row + ox * pixel_bytes, table);
        }
        return;
      }
      for (int ox = begin; ox < end; ++ox) {
        if (pending == chunk) flush();
        fill_taps(image, oy, ox, table + pending * ks);
        edge_outputs[pending++] = output + out_row + ox * pixel_bytes;
      }
    };
    for (int row = row_begin; row < row_end; ++row) {
      const int b = row / s.out_h;
      const int oy = row % s.out_h;
      const uint8_t* image = input + static_cast<size_t>(b) * s.in_h * s.in_w * pixel_bytes;
      const size_t out_row = static_cast<size_t>(row) * s.out_w * pixel_bytes;
      const int iy0 = oy * s.stride_h - s.pad_h;
      const bool rows_inside = iy0 >= 0 && iy0 + (s.kernel_h - 1) * s.dilation_h < s.in_h;
      const int begin = rows_inside ? interior_begin : s.out_w;
      const int end = rows_inside ? interior_end : s.out_w;
      // Edge pixels through the table, the interior run through the tap offsets.
      edges(image, oy, 0, begin, out_row);
      if (end > begin) {
        QDwTile t{};
        t.pixels = end - begin;
        t.channels = channels;
        t.ks = ks;
        t.base = image + (static_cast<size_t>(iy0) * s.in_w +
                          (static_cast<size_t>(begin) * s.stride_w - s.pad_w)) *
                             pixel_bytes;
        t.pixel_step = static_cast<size_t>(s.stride_w) * pixel_bytes;
        t.tap_offsets = tap_offsets;
        t.w = packed.weights;
        t.rq = packed.rq;
        t.input_signed = packed.input_signed;
        set_output(&t, out_row + begin * pixel_bytes);
        packed.kernel->run(t);
      }
      edges(image, oy, std::max(begin, end), s.out_w, out_row);
    }
    flush();
  });
}

}  // namespace octet::optimized
