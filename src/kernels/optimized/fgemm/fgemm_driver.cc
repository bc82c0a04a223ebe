#include "kernels/optimized/fgemm/fgemm_driver.h"

#include <algorithm>

#include "kernels/optimized/gemm_tasks.h"
#include "kernels/optimized/pad_image.h"
#include "kernels/threads/thread_pool.h"

namespace octet::optimized {
namespace {

// Tap pointers one tile's table holds (taps x rows); 32 KiB on the task's stack.
constexpr int kMaxTable = 4096;
// Largest mr the drivers' tables are sized for.
constexpr int kMaxRows = 16;

// The output pixels whose whole window lies inside the image (interior) form a rectangle per
// image; the rest (border) need padding taps. The two kinds run in separate tiles so that
// interior tiles fill their table with one add per tap and may use row taps.
struct PixelSplit {
  explicit PixelSplit(const FConvShape& s) : s(s) {
    InteriorRange(s.in_h, s.out_h, s.kernel_h, s.stride_h, s.dilation_h, s.pad_h, &oy_lo, &oy_hi);
    InteriorRange(s.in_w, s.out_w, s.kernel_w, s.stride_w, s.dilation_w, s.pad_w, &ox_lo, &ox_hi);
    if (oy_lo == oy_hi || ox_lo == ox_hi) oy_lo = oy_hi = ox_lo = ox_hi = 0;
    interior_w = ox_hi - ox_lo;
    interior_per_image = (oy_hi - oy_lo) * interior_w;
    border_per_image = s.out_h * s.out_w - interior_per_image;
  }
  int interior() const { return s.batches * interior_per_image; }
  int border() const { return s.batches * border_per_image; }

  const FConvShape& s;
  int oy_lo, oy_hi, ox_lo, ox_hi;
  int interior_w, interior_per_image, border_per_image;
};

// Each table tap's offset from its pixel's top-left tap (interior pixels): every filter
// position, or with row taps the first of each filter row.
struct TapOffsets {
  TapOffsets(const FConvShape& s, bool row_taps) {
    int tap = 0;
    for (int fy = 0; fy < s.kernel_h; ++fy) {
      for (int fx = 0; fx < (row_taps ? 1 : s.kernel_w); ++fx, ++tap) {
        offset[tap] = (static_cast<ptrdiff_t>(fy) * s.dilation_h * s.in_w +
                       static_cast<ptrdiff_t>(fx) * s.dilation_w) *
                      s.in_c;
      }
    }
  }
  ptrdiff_t offset[kMaxTable];
};

// A pixel of the output in the coordinates the table and the output pointer need.
struct Pixel {
  int b, oy, ox;
};

size_t PixelIndex(const FConvShape& s, const Pixel& p) {
  return (static_cast<size_t>(p.b) * static_cast<size_t>(s.out_h) + static_cast<size_t>(p.oy)) *
             static_cast<size_t>(s.out_w) +
         static_cast<size_t>(p.ox);
}

// The i-th interior pixel in raster order, and the next one.
Pixel InteriorPixel(const PixelSplit& split, int i) {
  const int b = i / split.interior_per_image;
  const int r = i % split.interior_per_image;
  return {b, split.oy_lo + r / split.interior_w, split.ox_lo + r % split.interior_w};
}
void NextInterior(const PixelSplit& split, Pixel* p) {
  if (++p->ox < split.ox_hi) return;
  p->ox = split.ox_lo;
  if (++p->oy < split.oy_hi) return;
  p->oy = split.oy_lo;
  ++p->b;
}

// The i-th border pixel in raster order (rows above the interior, then the left and right
// ends of the interior's rows, then the rows below), and the next one.
Pixel BorderPixel(const PixelSplit& split, int i) {
  const FConvShape& s = split.s;
  const int b = i / split.border_per_image;
  int r = i % split.border_per_image;
  const int above = split.oy_lo * s.out_w;
  if (r < above) return {b, r / s.out_w, r % s.out_w};
  r -= above;
  const int ends = s.out_w - split.interior_w;  // border pixels in an interior row
  const int beside = (split.oy_hi - split.oy_lo) * ends;
  if (r < beside) {
    const int j = r % ends;
    return {b, split.oy_lo + r / ends, j < split.ox_lo ? j : split.ox_hi + (j - split.ox_lo)};
  }
  r -= beside;
  return {b, split.oy_hi + r / s.out_w, r % s.out_w};
}
void NextBorder(const PixelSplit& split, Pixel* p) {
  const FConvShape& s = split.s;
  ++p->ox;
  for (;;) {  // ends within one image's rows: every image has the same border pixels
    const bool interior_row = p->oy >= split.oy_lo && p->oy < split.oy_hi;
    if (interior_row && p->ox == split.ox_lo) p->ox = split.ox_hi;  // jump the interior run
    if (p->ox < s.out_w) return;
    p->ox = 0;
    if (++p->oy == s.out_h) {
      p->oy = 0;
      ++p->b;
    }
  }
}

// Border pixels of a row-tap convolution, ordered so that runs of them share one clipped
// window (taps in the padding skipped, as the reference skips them): per image, the middle
// of each row above the interior and below it (filter rows clipped; consecutive pixels),
// each column left of the interior and right of it (filter columns clipped; pixels a row
// apart), then the corners (both clipped, a few pixels: tables with padding taps).
struct BorderRuns {
  explicit BorderRuns(const PixelSplit& split)
      : split(split),
        top(split.oy_lo),
        bottom(split.s.out_h - split.oy_hi),
        left(split.ox_lo),
        right(split.s.out_w - split.ox_hi),
        middle_w(split.interior_w),
        middle_h(split.oy_hi - split.oy_lo),
        rows_end((top + bottom) * middle_w),
        columns_end(rows_end + (left + right) * middle_h) {}

  // A run: its first pixel (image-relative), its length and whether it steps down a column.
  struct Run {
    int oy, ox, length;
    bool vertical;
  };
  // The run from border pixel r (< columns_end) of an image, at most `limit` long.
  Run At(int r, int limit) const {
    if (r < rows_end) {
      const int row = r / middle_w;
      const int ox = split.ox_lo + r % middle_w;
      return {row < top ? row : split.oy_hi + (row - top), ox, std::min(limit, split.ox_hi - ox),
              false};
    }
    r -= rows_end;
    const int column = r / middle_h;
    const int oy = split.oy_lo + r % middle_h;
    return {oy, column < left ? column : split.ox_hi + (column - left),
            std::min(limit, split.oy_hi - oy), true};
  }
  // Corner pixel j of an image (j < (top + bottom) * (left + right)).
  Pixel Corner(int b, int j) const {
    const int row = j / (left + right), column = j % (left + right);
    return {b, row < top ? row : split.oy_hi + (row - top),
            column < left ? column : split.ox_hi + (column - left)};
  }

  const PixelSplit& split;
  int top, bottom, left, right, middle_w, middle_h;
  int rows_end, columns_end;  // where each kind of run ends in an image's border order
};

// What a tile's fill decided: its rows (at most the kernel's mr unless uniform), taps and
// floats per tap, and whether the table holds one pointer per row plus these tap offsets
// (FGemmTile).
struct TileShape {
  int rows, ks, kc;
  const ptrdiff_t* tap_offsets = nullptr;
  // Uniform rows (see FGemmTile::a0): no table and no per-row outputs were written, and
  // `rows` may exceed the kernel's mr.
  const float* a0 = nullptr;
  size_t a_row_step = 0;
  float* c0 = nullptr;  // column 0
  size_t c_row_step = 0;
  int k_skip = 0;  // clipped windows (FGemmTile)
  int kc_stride = 0;
  // Row slots the tile used up when more than `rows` (the slack after the last interior
  // pixel, up to the tile-aligned start of the border rows).
  int slots = 0;
};

// One kernel call: the tile's rows (table: tap-major, kernel.mr rows per tap; outputs already
// at column col0) by the column block starting at col0.
// `output`: the GEMM's whole output (column 0 of row 0), which a residual is laid out like.
void RunTile(const FGemmPacked& packed, const TileShape& shape, const float* const* table,
             float* const* outputs, int col0, FloatClamp clamp, bool split_k,
             const FGemmResidual* residual, const float* output) {
  const FGemmKernel& k = *packed.kernel;
  FGemmTile t;
  t.mr = shape.rows;
  t.nc = std::min(k.nr * k.max_panels, packed.n - col0);
  t.kc = shape.kc;
  t.ks = shape.ks;
  t.a = table;
  t.a_stride = k.mr;
  t.tap_offsets = shape.tap_offsets;
  t.a0 = shape.a0;
  t.a_row_step = shape.a_row_step;
  t.c0 = shape.c0 != nullptr ? shape.c0 + col0 : nullptr;
  t.c_row_step = shape.c_row_step;
  t.w = packed.panels + static_cast<size_t>(col0 / k.nr) * packed.panel_floats;
  t.k_skip = shape.k_skip;
  t.kc_stride = shape.kc_stride;
  t.panel_floats = packed.panel_floats;
  t.c = outputs;
  t.act_min = clamp.min;
  t.act_max = clamp.max;
  t.split_k = split_k;
  if (residual != nullptr) {
    t.residual = residual->values;
    t.c_base = output;
    t.residual_min = residual->clamp.min;
    t.residual_max = residual->clamp.max;
  }
  k.run(t);
}

// Splits `rows` (tile-aligned slots) x column blocks into tasks and runs
// `fill(row0, limit, table, row_output)` + the kernel for every tile of a task's rows. `fill`
// writes the tile's table (tap-major, kernel.mr rows per tap) and its rows' output pointers
// for at most min(limit, mr) rows, or returns uniform rows (no table) for up to `limit`.
// `dense`: rows are plain input rows (no taps to cut differently), so a one-row GEMM may
// split its sums (FGemmTile::split_k).
template <typename Fill>
void Run(const FGemmPacked& packed, int rows, FloatClamp clamp, ThreadPool* pool, const Fill& fill,
         const FGemmResidual* residual, const float* output, bool dense = false) {
  if (rows <= 0 || packed.n <= 0) return;  // an empty tensor: nothing to compute
  const FGemmKernel& k = *packed.kernel;
  const int mr = k.mr;
  const int block_columns = k.nr * k.max_panels;
  const int m_tiles = (rows + mr - 1) / mr;
  const int n_blocks = (packed.n + block_columns - 1) / block_columns;
  const GemmTasks tasks(m_tiles, n_blocks, pool,
                        static_cast<double>(rows) * packed.n * packed.ks * packed.kc);
  tasks.Run([&](const GemmTasks::Range& range) {
    const float* table[kMaxTable];
    float* row_output[kMaxRows] = {};  // unused by uniform rows
    float* tile_output[kMaxRows];
    const int row_end = std::min(rows, range.tile_end * mr);
    for (int row0 = range.tile_begin * mr; row0 < row_end;) {
      const TileShape shape = fill(row0, row_end - row0, table, row_output);
      row0 += std::max(shape.rows, shape.slots);
      for (int block = range.block_begin; block < range.block_end; ++block) {
        const int col0 = block * block_columns;
        if (shape.c0 == nullptr) {
          for (int i = 0; i < shape.rows; ++i) tile_output[i] = row_output[i] + col0;
        }
        RunTile(packed, shape, table, tile_output, col0, clamp, dense && rows == 1, residual,
                output);
      }
    }
  });
}

}  // namespace

bool FGemmDriverSupportsTaps(const FGemmKernel& kernel, int taps) {
  return taps >= 1 && kernel.mr <= kMaxRows && static_cast<long>(taps) * kernel.mr <= kMaxTable;
}

size_t FConvPaddedInputFloats(const FGemmPacked& packed, const FConvShape& s) {
  // Row-tap convolutions clip their border windows instead (cheaper than the copy and than
  // the interior: the taps in the padding are skipped); the others' border tiles gather a
  // table of taps, which the copy saves where border pixels are many.
  return !packed.row_taps && PaddedCopyPays(s, false) ? PaddedImageElements(s) : 0;
}

void RunFGemmConv(const FGemmPacked& packed, const FConvShape& shape, const float* input,
                  const float* zero_row, FloatClamp clamp, float* output, ThreadPool* pool,
                  float* padded_input, const FGemmResidual* residual) {
  if (padded_input != nullptr) {
    PadImage(shape, input, 0.f, padded_input, pool);
    RunFGemmConv(packed, PaddedWindow(shape), padded_input, zero_row, clamp, output, pool, nullptr,
                 residual);
    return;
  }
  const FConvShape& s = shape;
  // An empty output (a zero batch or channel count) may still have spatial sizes whose
  // product overflows int in the pixel split: there is nothing to compute.
  if (s.batches == 0 || packed.n == 0 || s.out_h == 0 || s.out_w == 0) return;
  const int mr = packed.kernel->mr;
  const PixelSplit split(s);
  const TapOffsets taps(s, packed.row_taps);
  const size_t n = static_cast<size_t>(packed.n);
  const size_t in_c = static_cast<size_t>(s.in_c);
  const size_t image_floats = static_cast<size_t>(s.in_h) * static_cast<size_t>(s.in_w) * in_c;
  // Interior tiles first, then border tiles; a tile never mixes the two.
  const int interior_tiles = (split.interior() + mr - 1) / mr;
  const int interior_rows = interior_tiles * mr;  // row index where border tiles start
  const TileShape interior_shape =
      packed.row_taps ? TileShape{0, packed.ks / s.kernel_w, packed.kc * s.kernel_w, taps.offset}
                      : TileShape{0, packed.ks, packed.kc, taps.offset};
  const int rows = interior_rows + split.border();
  // Row-tap convolutions run their border pixels as clipped windows (FGemmTile::k_skip).
  const bool clip = packed.row_taps;
  const BorderRuns runs(split);
  const int row_channels = packed.kc * s.kernel_w;  // a filter row's packed channels
  auto ClippedRun = [&](int b, const BorderRuns::Run& run) -> TileShape {
    const int iy0 = run.oy * s.stride_h - s.pad_h;
    const int ix0 = run.ox * s.stride_w - s.pad_w;  // row taps: no horizontal dilation
    const int dh = s.dilation_h;
    const int fy_lo = iy0 < 0 ? (-iy0 + dh - 1) / dh : 0;
    const int fy_hi = std::min(s.kernel_h, s.in_h > iy0 ? (s.in_h - iy0 + dh - 1) / dh : 0);
    const int fx_lo = std::max(0, -ix0);
    const int fx_hi = std::min(s.kernel_w, s.in_w - ix0);
    TileShape shape{run.length, 0, 0, taps.offset};
    shape.a0 = input + static_cast<size_t>(b) * image_floats;  // no taps: any valid pointer
    if (fy_lo < fy_hi && fx_lo < fx_hi) {
      shape.ks = fy_hi - fy_lo;
      shape.kc = (fx_hi - fx_lo) * s.in_c;
      shape.a0 += (static_cast<size_t>(iy0 + fy_lo * dh) * static_cast<size_t>(s.in_w) +
                   static_cast<size_t>(ix0 + fx_lo)) *
                  in_c;
      shape.k_skip = fy_lo * row_channels + fx_lo * s.in_c;
      shape.kc_stride = row_channels;
    }
    const size_t out_stride = run.vertical ? static_cast<size_t>(s.out_w) * n : n;
    shape.a_row_step = run.vertical
                           ? static_cast<size_t>(s.stride_h) * static_cast<size_t>(s.in_w) * in_c
                           : static_cast<size_t>(s.stride_w) * in_c;
    shape.c0 = output + PixelIndex(s, Pixel{b, run.oy, run.ox}) * n;
    shape.c_row_step = out_stride;
    return shape;
  };
  Run(
      packed, rows, clamp, pool,
      [&](int row0, int limit, const float** table, float** row_output) -> TileShape {
        if (row0 < interior_rows) {
          const int left = std::min(limit, split.interior() - row0);
          // A pointer per row (the kernel adds the tap offsets). Everything in locals,
          // stepped from pixel to pixel: the table's pointer stores could alias captured
          // variables, which the compiler would then reload after every store.
          const size_t out_step = n;
          const size_t in_step = static_cast<size_t>(s.stride_w) * in_c;
          Pixel p = InteriorPixel(split, row0);
          auto origin_of = [&](const Pixel& q) {
            return input + static_cast<size_t>(q.b) * image_floats +
                   (static_cast<size_t>(q.oy * s.stride_h - s.pad_h) * static_cast<size_t>(s.in_w) +
                    static_cast<size_t>(q.ox * s.stride_w - s.pad_w)) *
                       in_c;
          };
          const float* origin = origin_of(p);
          float* out = output + PixelIndex(s, p) * n;
          int ox = p.ox;
          const int ox_end = split.ox_hi;
          TileShape shape = interior_shape;
          // The interior slots after the last interior pixel are skipped with it.
          auto used = [&](int count) {
            shape.rows = count;
            if (row0 + count == split.interior()) shape.slots = interior_rows - row0;
            return shape;
          };
          const int in_row = std::min(left, ox_end - ox);  // the rest of this output row
          if (in_row >= std::min(left, mr)) {              // uniform rows: one call for all of them
            shape.a0 = origin;
            shape.a_row_step = in_step;
            shape.c0 = out;
            shape.c_row_step = out_step;
            return used(in_row);
          }
          // Narrow interiors: a tile across output rows, one pointer per row.
          const int count = std::min(left, mr);
          used(count);
          for (int i = 0; i < count; ++i) {
            table[i] = origin;
            row_output[i] = out;
            if (++ox < ox_end) {  // the next pixel of the same interior row
              origin += in_step;
              out += out_step;
            } else if (i + 1 < count) {  // the next interior row (or image)
              p.ox = ox - 1;
              NextInterior(split, &p);
              ox = p.ox;
              origin = origin_of(p);
              out = output + PixelIndex(s, p) * n;
            }
          }
          return shape;
        }
        const int border_row = row0 - interior_rows;
        Pixel pixels[kMaxRows];
        int count = 0;
        if (clip) {  // runs of clipped windows, then the corners' tables
          const int b = border_row / split.border_per_image;
          const int r = border_row % split.border_per_image;
          if (r < runs.columns_end) return ClippedRun(b, runs.At(r, limit));
          count = std::min({limit, mr, split.border_per_image - r});
          for (int i = 0; i < count; ++i) pixels[i] = runs.Corner(b, r - runs.columns_end + i);
        } else {
          count = std::min(limit, mr);
          Pixel p = BorderPixel(split, border_row);
          for (int i = 0; i < count; ++i, NextBorder(split, &p)) pixels[i] = p;
        }
        // Locals again (the table's stores could alias captured pointers), one multiply per
        // filter row: 3x3 layers of 8x8-32x32 pixels have 12-44% border pixels.
        const int kernel_h = s.kernel_h, kernel_w = s.kernel_w;
        const int dilation_h = s.dilation_h, dilation_w = s.dilation_w;
        const int in_h = s.in_h, in_w = s.in_w;
        const size_t row_floats = static_cast<size_t>(in_w) * in_c;
        const float* const padding = zero_row;
        for (int i = 0; i < count; ++i) {
          const Pixel& p = pixels[i];
          const float* image = input + static_cast<size_t>(p.b) * image_floats;
          const int iy0 = p.oy * s.stride_h - s.pad_h;
          const int ix0 = p.ox * s.stride_w - s.pad_w;
          const float** entry = table + i;
          for (int fy = 0; fy < kernel_h; ++fy) {
            const int iy = iy0 + fy * dilation_h;
            if (iy < 0 || iy >= in_h) {
              for (int fx = 0; fx < kernel_w; ++fx, entry += mr) *entry = padding;
              continue;
            }
            const float* row = image + static_cast<size_t>(iy) * row_floats;
            for (int fx = 0, ix = ix0; fx < kernel_w; ++fx, ix += dilation_w, entry += mr) {
              *entry = ix >= 0 && ix < in_w ? row + static_cast<size_t>(ix) * in_c : padding;
            }
          }
          row_output[i] = output + PixelIndex(s, p) * n;
        }
        return TileShape{count, packed.ks, packed.kc};
      },
      residual, output);
}

void RunFGemmRows(const FGemmPacked& packed, int rows, const float* input, size_t row_stride,
                  FloatClamp clamp, float* output, ThreadPool* pool,
                  const FGemmResidual* residual) {
  const size_t n = static_cast<size_t>(packed.n);
  const FGemmKernel& k = *packed.kernel;
  if (rows > 0 && rows <= k.mr && packed.n > 0 && packed.n <= k.nr * k.max_panels) {
    // One tile, one column block (tiny FULLY_CONNECTEDs): straight to the kernel, without
    // the task split and the tap table sized for convolutions.
    const float* table[kMaxRows];
    float* row_output[kMaxRows];
    for (int i = 0; i < rows; ++i) {
      table[i] = input + static_cast<size_t>(i) * row_stride;
      row_output[i] = output + static_cast<size_t>(i) * n;
    }
    RunTile(packed, TileShape{rows, 1, packed.kc}, table, row_output, 0, clamp, rows == 1, residual,
            output);
    return;
  }
  Run(
      packed, rows, clamp, pool,
      [&](int row0, int limit, const float**, float**) -> TileShape {
        // Evenly spaced rows: the task's rows in one call.
        static constexpr ptrdiff_t kOneTap[1] = {0};
        TileShape shape{limit, 1, packed.kc, kOneTap};
        shape.a0 = input + static_cast<size_t>(row0) * row_stride;
        shape.a_row_step = row_stride;
        shape.c0 = output + static_cast<size_t>(row0) * n;
        shape.c_row_step = n;
        return shape;
      },
      residual, output, /*dense=*/true);
}

}  // namespace octet::optimized
