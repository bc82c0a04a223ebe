#include "kernels/optimized/fdw/fdw_driver.h"

#include <algorithm>

#include "kernels/threads/thread_pool.h"

namespace octet::optimized {
namespace {

constexpr int kMaxTaps = 64;
constexpr int kPixelsPerCall = 32;  // the table is kPixelsPerCall * kMaxTaps pointers

size_t Blocks(const FDwKernel& kernel, int channels) {
  return static_cast<size_t>((channels + kernel.block - 1) / kernel.block);
}

}  // namespace

size_t FDwPackedFloats(const FDwKernel& kernel, int channels, int ks) {
  return Blocks(kernel, channels) * static_cast<size_t>(kernel.block) *
         (1 + static_cast<size_t>(ks));
}

FDwPacked FDwPack(const FDwKernel& kernel, const float* weights, const float* bias, int channels,
                  int ks, float* buffer) {
  const size_t block = static_cast<size_t>(kernel.block);
  std::fill(buffer, buffer + FDwPackedFloats(kernel, channels, ks), 0.f);
  for (size_t b = 0; b < Blocks(kernel, channels); ++b) {
    float* out = buffer + b * block * (1 + static_cast<size_t>(ks));
    for (size_t j = 0; j < block; ++j) {
      const size_t c = b * block + j;
      if (c >= static_cast<size_t>(channels)) break;
      out[j] = bias ? bias[c] : 0.f;
      for (size_t t = 0; t < static_cast<size_t>(ks); ++t) {
        out[block * (1 + t) + j] = weights[t * static_cast<size_t>(channels) + c];
      }
    }
  }
  FDwPacked packed;
  packed.kernel = &kernel;
  packed.w = buffer;
  packed.channels = channels;
  packed.ks = ks;
  return packed;
}

bool FDepthwiseSupportsTaps(int taps) { return taps >= 1 && taps <= kMaxTaps; }

void RunFDepthwise(const FDwPacked& packed, const Window2D& s, const float* input,
                   const float* zero_row, FloatClamp clamp, float* output, ThreadPool* pool) {
  const int rows = s.batches * s.out_h;
  if (rows <= 0 || s.out_w <= 0 || packed.channels <= 0) return;
  const size_t channels = static_cast<size_t>(packed.channels);
  // 3x3, stride 1, undilated: whole rows to the kernel, which skips the padding itself.
  const bool by_rows = packed.kernel->run_row3x3 != nullptr && packed.ks == 9 && s.kernel_h == 3 &&
                       s.kernel_w == 3 && s.stride_h == 1 && s.stride_w == 1 && s.dilation_h == 1 &&
                       s.dilation_w == 1;
  // The output columns whose taps all lie inside the image's columns (every row's).
  int columns_begin, columns_end;
  InteriorRange(s.in_w, s.out_w, s.kernel_w, s.stride_w, s.dilation_w, s.pad_w, &columns_begin,
                &columns_end);
  auto row_task = [&](int row_begin, int row_end) {
    for (int row = row_begin; row < row_end; ++row) {
      const int b = row / s.out_h;
      const int iy0 = row % s.out_h - s.pad_h;
      const float* image = input + static_cast<size_t>(b) * s.in_h * s.in_w * channels;
      FDwRow3x3 r;
      for (int fy = 0; fy < 3; ++fy) {
        const int iy = iy0 + fy;
        r.rows[fy] =
            iy >= 0 && iy < s.in_h ? image + static_cast<size_t>(iy) * s.in_w * channels : nullptr;
      }
      r.in_w = s.in_w;
      r.out_w = s.out_w;
      r.pad_w = s.pad_w;
      r.interior_begin = columns_begin;
      r.interior_end = columns_end;
      r.channels = packed.channels;
      r.w = packed.w;
      r.c = output + static_cast<size_t>(row) * s.out_w * channels;
      r.act_min = clamp.min;
      r.act_max = clamp.max;
      packed.kernel->run_row3x3(r);
    }
  };
  if (by_rows) {
    ParallelForRanges(pool, rows, row_task);
    return;
  }
  // Tap offsets from a pixel's top-left tap, for the interior runs.
  ptrdiff_t offsets[kMaxTaps];
  for (int fy = 0, tap = 0; fy < s.kernel_h; ++fy) {
    for (int fx = 0; fx < s.kernel_w; ++fx, ++tap) {
      offsets[tap] = (static_cast<ptrdiff_t>(fy) * s.dilation_h * s.in_w +
                      static_cast<ptrdiff_t>(fx) * s.dilation_w) *
                     static_cast<ptrdiff_t>(channels);
    }
  }
  auto task = [&](int row_begin, int row_end) {
    const float* table[kPixelsPerCall * kMaxTaps];
    float* outputs[kPixelsPerCall];
    int pending = 0;  // pixels in the table
    auto flush = [&] {
      if (pending == 0) return;
      FDwTile t;
      t.channels = packed.channels;
      t.ks = packed.ks;
      t.w = packed.w;
      t.act_min = clamp.min;
      t.act_max = clamp.max;
      t.pixels = pending;
      t.a = table;
      t.c_pixels = outputs;
      packed.kernel->run(t);
      pending = 0;
    };
    for (int row = row_begin; row < row_end; ++row) {
      const int b = row / s.out_h;
      const int oy = row % s.out_h;
      const float* image = input + static_cast<size_t>(b) * s.in_h * s.in_w * channels;
      float* out_row = output + static_cast<size_t>(row) * s.out_w * channels;
      const int iy0 = oy * s.stride_h - s.pad_h;
      FDwTile t;
      t.channels = packed.channels;
      t.ks = packed.ks;
      t.w = packed.w;
      t.c_pixel_stride = channels;
      t.act_min = clamp.min;
      t.act_max = clamp.max;
      // Pixels whose whole window is inside the image need no table: one call for the run.
      const bool rows_inside = iy0 >= 0 && iy0 + (s.kernel_h - 1) * s.dilation_h < s.in_h;
      const int interior_begin = rows_inside ? columns_begin : s.out_w;
      const int interior_end = rows_inside ? columns_end : s.out_w;
      if (interior_end > interior_begin) {
        t.pixels = interior_end - interior_begin;
        t.a = nullptr;
        t.base = image + (static_cast<size_t>(iy0) * s.in_w +
                          static_cast<size_t>(interior_begin * s.stride_w - s.pad_w)) *
                             channels;
        t.pixel_step = static_cast<size_t>(s.stride_w) * channels;
        t.tap_offsets = offsets;
        t.c = out_row + static_cast<size_t>(interior_begin) * channels;
        packed.kernel->run(t);
      }
      // The other pixels join the task's table of tap pointers, several rows' borders in one
      // call (a 5-pixel row has just one border pixel on each side: alone, each was a single
      // FMA chain per channel block).
      auto to_table = [&](int begin, int end) {
        for (int ox = begin; ox < end; ++ox) {
          if (pending == kPixelsPerCall) flush();
          const int ix0 = ox * s.stride_w - s.pad_w;
          const float** entry = table + static_cast<size_t>(pending) * packed.ks;
          for (int fy = 0; fy < s.kernel_h; ++fy) {
            const int iy = iy0 + fy * s.dilation_h;
            const bool row_inside = iy >= 0 && iy < s.in_h;
            for (int fx = 0; fx < s.kernel_w; ++fx) {
              const int ix = ix0 + fx * s.dilation_w;
              *entry++ = row_inside && ix >= 0 && ix < s.in_w
                             ? image + (static_cast<size_t>(iy) * s.in_w + ix) * channels
                             : zero_row;
            }
          }
          outputs[pending++] = out_row + static_cast<size_t>(ox) * channels;
        }
      };
      to_table(0, interior_begin);
      to_table(interior_end, s.out_w);
    }
    flush();
  };
  ParallelForRanges(pool, rows, task);
}

}  // namespace octet::optimized
