#include "kernels/optimized/fgemm/fgemm_driver.h"

#include <algorithm>

#include "kernels/optimized/gemm_tasks.h"
#include "kernels/threads/thread_pool.h"

namespace octet::optimized {
namespace {

// Tap pointers one tile's table holds (taps x rows); 32 KiB on the task's stack.
constexpr int kMaxTable = 4096;
// Largest mr the drivers' tables are sized for.
constexpr int kMaxRows = 16;

// Each tap's offset from its pixel's top-left tap, for pixels whose window is inside the
// image (most of them): filling their table is one add per tap.
struct TapOffsets {
  explicit TapOffsets(const FConvShape& s) {
    int tap = 0;
    for (int fy = 0; fy < s.kernel_h; ++fy) {
      for (int fx = 0; fx < s.kernel_w; ++fx, ++tap) {
        offset[tap] = (static_cast<ptrdiff_t>(fy) * s.dilation_h * s.in_w +
                       static_cast<ptrdiff_t>(fx) * s.dilation_w) *
                      s.in_c;
      }
    }
    last_y = (s.kernel_h - 1) * s.dilation_h;
    last_x = (s.kernel_w - 1) * s.dilation_w;
  }
  ptrdiff_t offset[kMaxTable];
  int last_y, last_x;  // the window's extent beyond its top-left tap
};

// Output pixels in order from a starting row: one division per tile, not per pixel.
class PixelCursor {
 public:
  PixelCursor(const FConvShape& s, const TapOffsets& taps, const float* input, int r)
      : s_(s), taps_(taps) {
    const int pixels = s.out_h * s.out_w;
    const int b = r / pixels;
    oy_ = (r % pixels) / s.out_w;
    ox_ = r % s.out_w;
    image_ = input + static_cast<size_t>(b) * image_floats();
  }
  // Fills the taps of the current pixel as row `row` of a table with `stride` rows per tap.
  void Fill(const float* zero_row, const float** table, int stride, int row) const {
    const int iy0 = oy_ * s_.stride_h - s_.pad_h;
    const int ix0 = ox_ * s_.stride_w - s_.pad_w;
    const int ks = s_.kernel_h * s_.kernel_w;
    if (iy0 >= 0 && iy0 + taps_.last_y < s_.in_h && ix0 >= 0 && ix0 + taps_.last_x < s_.in_w) {
      const float* origin =
          image_ + (static_cast<size_t>(iy0) * s_.in_w + static_cast<size_t>(ix0)) *
                       static_cast<size_t>(s_.in_c);
      for (int tap = 0; tap < ks; ++tap) table[tap * stride + row] = origin + taps_.offset[tap];
      return;
    }
    int tap = 0;
    for (int fy = 0; fy < s_.kernel_h; ++fy) {
      const int iy = iy0 + fy * s_.dilation_h;
      const bool row_inside = iy >= 0 && iy < s_.in_h;
      for (int fx = 0; fx < s_.kernel_w; ++fx, ++tap) {
        const int ix = ix0 + fx * s_.dilation_w;
        table[tap * stride + row] =
            row_inside && ix >= 0 && ix < s_.in_w
                ? image_ + (static_cast<size_t>(iy) * s_.in_w + static_cast<size_t>(ix)) *
                               static_cast<size_t>(s_.in_c)
                : zero_row;
      }
    }
  }
  // Row taps: one pointer per filter row to its kernel_w * in_c contiguous floats; a row
  // crossing the left or right border is copied into `gathered` with zeros outside.
  void FillRows(const float* zero_row, const float** table, int stride, int row,
                float* gathered) const {
    const int iy0 = oy_ * s_.stride_h - s_.pad_h;
    const int ix0 = ox_ * s_.stride_w - s_.pad_w;
    const size_t in_c = static_cast<size_t>(s_.in_c);
    const bool columns_inside = ix0 >= 0 && ix0 + s_.kernel_w <= s_.in_w;
    if (columns_inside && iy0 >= 0 && iy0 + taps_.last_y < s_.in_h) {
      // The whole window inside (most pixels): filter row fy starts at the offset of its
      // first tap.
      const float* origin =
          image_ + (static_cast<size_t>(iy0) * s_.in_w + static_cast<size_t>(ix0)) * in_c;
      for (int fy = 0; fy < s_.kernel_h; ++fy) {
        table[fy * stride + row] = origin + taps_.offset[fy * s_.kernel_w];
      }
      return;
    }
    for (int fy = 0; fy < s_.kernel_h; ++fy) {
      const int iy = iy0 + fy * s_.dilation_h;
      const float** entry = &table[fy * stride + row];
      if (iy < 0 || iy >= s_.in_h) {
        *entry = zero_row;
        continue;
      }
      const float* line = image_ + static_cast<size_t>(iy) * s_.in_w * in_c;
      if (columns_inside) {
        *entry = line + static_cast<size_t>(ix0) * in_c;
        continue;
      }
      float* out = gathered + static_cast<size_t>(fy) * kFGemmMaxRowTapFloats;
      for (int fx = 0; fx < s_.kernel_w; ++fx, out += in_c) {
        const int ix = ix0 + fx;
        if (ix >= 0 && ix < s_.in_w) {
          std::copy(line + static_cast<size_t>(ix) * in_c, line + (ix + 1) * in_c, out);
        } else {
          std::fill(out, out + in_c, 0.f);
        }
      }
      *entry = gathered + static_cast<size_t>(fy) * kFGemmMaxRowTapFloats;
    }
  }
  void Next() {
    if (++ox_ < s_.out_w) return;
    ox_ = 0;
    if (++oy_ < s_.out_h) return;
    oy_ = 0;
    image_ += image_floats();
  }

 private:
  size_t image_floats() const {
    return static_cast<size_t>(s_.in_h) * static_cast<size_t>(s_.in_w) *
           static_cast<size_t>(s_.in_c);
  }
  const FConvShape& s_;
  const TapOffsets& taps_;
  const float* image_;
  int oy_, ox_;
};

// Splits rows x column blocks into tasks and runs `fill(row0, count, table)` + the kernel
// for every tile. `fill` writes the tile's table (tap-major, kernel.mr rows per tap).
template <typename Fill>
void Run(const FGemmPacked& packed, int rows, int ks, FloatClamp clamp, float* output,
         ThreadPool* pool, const Fill& fill) {
  if (rows <= 0 || packed.n <= 0) return;  // an empty tensor: nothing to compute
  const FGemmKernel& k = *packed.kernel;
  const int mr = k.mr;
  const int block_columns = k.nr * k.max_panels;
  const int m_tiles = (rows + mr - 1) / mr;
  const int n_blocks = (packed.n + block_columns - 1) / block_columns;
  const GemmTasks tasks(m_tiles, n_blocks, pool);
  tasks.Run([&](const GemmTasks::Range& range) {
    const float* table[kMaxTable];
    for (int tile = range.tile_begin; tile < range.tile_end; ++tile) {
      const int row0 = tile * mr;
      const int count = std::min(mr, rows - row0);
      fill(row0, count, table);
      for (int block = range.block_begin; block < range.block_end; ++block) {
        const int col0 = block * block_columns;
        FGemmTile t;
        t.mr = count;
        t.nc = std::min(block_columns, packed.n - col0);
        t.kc = packed.kc;
        t.ks = ks;
        t.a = table;
        t.a_stride = mr;
        t.w = packed.panels + static_cast<size_t>(col0 / k.nr) * packed.panel_floats;
        t.panel_floats = packed.panel_floats;
        t.c = output + static_cast<size_t>(row0) * static_cast<size_t>(packed.n) +
              static_cast<size_t>(col0);
        t.c_row_stride = static_cast<size_t>(packed.n);
        t.act_min = clamp.min;
        t.act_max = clamp.max;
        k.run(t);
      }
    }
  });
}

}  // namespace

bool FGemmDriverSupportsTaps(const FGemmKernel& kernel, int taps) {
  return taps >= 1 && kernel.mr <= kMaxRows && static_cast<long>(taps) * kernel.mr <= kMaxTable;
}

void RunFGemmConv(const FGemmPacked& packed, const FConvShape& shape, const float* input,
                  const float* zero_row, FloatClamp clamp, float* output, ThreadPool* pool) {
  const int rows = shape.batches * shape.out_h * shape.out_w;
  const int mr = packed.kernel->mr;
  const TapOffsets taps(shape);
  if (packed.row_taps) {
    Run(packed, rows, packed.ks, clamp, output, pool,
        [&](int row0, int count, const float** table) {
          // Per row of the tile, its filter rows' border copies.
          thread_local float gathered[kMaxRows][kFGemmMaxRowTapRows * kFGemmMaxRowTapFloats];
          PixelCursor cursor(shape, taps, input, row0);
          for (int i = 0; i < count; ++i, cursor.Next()) {
            cursor.FillRows(zero_row, table, mr, i, gathered[i]);
          }
        });
    return;
  }
  Run(packed, rows, packed.ks, clamp, output, pool, [&](int row0, int count, const float** table) {
    PixelCursor cursor(shape, taps, input, row0);
    for (int i = 0; i < count; ++i, cursor.Next()) cursor.Fill(zero_row, table, mr, i);
    // Rows past the tile's end are never written; the kernel reads only `count` rows.
  });
}

void RunFGemmRows(const FGemmPacked& packed, int rows, const float* input, size_t row_stride,
                  FloatClamp clamp, float* output, ThreadPool* pool) {
  Run(packed, rows, 1, clamp, output, pool, [&](int row0, int count, const float** table) {
    for (int i = 0; i < count; ++i) {
      table[i] = input + static_cast<size_t>(row0 + i) * row_stride;
    }
  });
}

}  // namespace octet::optimized
