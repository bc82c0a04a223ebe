#include "kernels/optimized/qgemm/qgemm_driver.h"

#include <algorithm>
#include <cstring>

#include "kernels/threads/thread_pool.h"

namespace octet::optimized {
namespace {

// Where the rows of A come from.
struct RowSource {
  // Dense rows: row r at base + r * row_stride (ks == 1).
  const uint8_t* base = nullptr;
  size_t row_stride = 0;
  // Convolution: taps of output pixel r; used when conv != nullptr.
  const QConvShape* conv = nullptr;
  const uint8_t* zero_row = nullptr;
};

// Where output pixel r's receptive field starts: its image and the input row and column of
// the filter's top-left tap (possibly in the padding).
struct PixelOrigin {
  const uint8_t* image;
  int iy0;
  int ix0;
};

PixelOrigin OriginOf(const RowSource& src, int r) {
  const QConvShape& s = *src.conv;
  const int pixels = s.out_h * s.out_w;
  const int b = r / pixels;
  const int oy = (r % pixels) / s.out_w;
  const int ox = r % s.out_w;
  return {src.base + static_cast<size_t>(b) * s.in_h * s.in_w * s.in_c, oy * s.stride_h - s.pad_h,
          ox * s.stride_w - s.pad_w};
}

// Fills table[tap * mr_max + i] for rows [row0, row0 + rows); rows beyond repeat row0.
void BuildTable(const RowSource& src, int mr_max, int row0, int rows, const uint8_t** table) {
  for (int i = 0; i < mr_max; ++i) {
    const int r = row0 + (i < rows ? i : 0);
    if (src.conv == nullptr) {
      table[i] = src.base + static_cast<size_t>(r) * src.row_stride;
      continue;
    }
    const QConvShape& s = *src.conv;
    const PixelOrigin o = OriginOf(src, r);
    int tap = 0;
    for (int fy = 0; fy < s.kernel_h; ++fy) {
      const int iy = o.iy0 + fy * s.dilation_h;
      for (int fx = 0; fx < s.kernel_w; ++fx, ++tap) {
        const int ix = o.ix0 + fx * s.dilation_w;
        const bool inside = iy >= 0 && iy < s.in_h && ix >= 0 && ix < s.in_w;
        table[tap * mr_max + i] =
            inside ? o.image + (static_cast<size_t>(iy) * s.in_w + ix) * s.in_c : src.zero_row;
      }
    }
  }
}

constexpr int kIm2colRows = 16;        // >= any kernel's mr
constexpr int kMaxIm2colBytes = 2048;  // >= the longest im2col row (see QGemmUseIm2col)

// A short copy in 8-, 4- and 1-byte moves: im2col pieces are a few bytes long.
inline uint8_t* CopyShort(uint8_t* dst, const uint8_t* src, int n) {
  for (; n >= 8; n -= 8, src += 8, dst += 8) std::memcpy(dst, src, 8);
  if (n >= 4) {
    std::memcpy(dst, src, 4);
    n -= 4, src += 4, dst += 4;
  }
  for (; n > 0; --n) *dst++ = *src++;
  return dst;
}

// Copies the receptive field of rows [row0, row0 + mr_max) (rows past `rows` repeat row0) into
// gathered[i], tap after tap, and points table[i] at it. A filter row that lies inside the
// image with no dilation is one contiguous run of kernel_w * in_c bytes.
void GatherIm2col(const RowSource& src, int mr_max, int row0, int rows,
                  uint8_t (*gathered)[kMaxIm2colBytes], const uint8_t** table) {
  const QConvShape& s = *src.conv;
  const int run = s.kernel_w * s.in_c;
  for (int i = 0; i < mr_max; ++i) {
    const PixelOrigin o = OriginOf(src, row0 + (i < rows ? i : 0));
    uint8_t* out = gathered[i];
    for (int fy = 0; fy < s.kernel_h; ++fy) {
      const int iy = o.iy0 + fy * s.dilation_h;
      const bool row_inside = iy >= 0 && iy < s.in_h;
      const uint8_t* line = o.image + static_cast<size_t>(row_inside ? iy : 0) * s.in_w * s.in_c;
      if (row_inside && s.dilation_w == 1 && o.ix0 >= 0 && o.ix0 + s.kernel_w <= s.in_w) {
        out = CopyShort(out, line + static_cast<size_t>(o.ix0) * s.in_c, run);
        continue;
      }
      for (int fx = 0; fx < s.kernel_w; ++fx) {
        const int ix = o.ix0 + fx * s.dilation_w;
        const bool inside = row_inside && ix >= 0 && ix < s.in_w;
        out =
            CopyShort(out, inside ? line + static_cast<size_t>(ix) * s.in_c : src.zero_row, s.in_c);
      }
    }
    table[i] = gathered[i];
  }
}

// row_offsets[i] = factor * Σ over taps of the row's input bytes (uint8 quads kernels).
void RowSums(const uint8_t* const* table, int ks, int kc, int mr_max, int rows, int32_t factor,
             int32_t* row_offsets) {
  for (int i = 0; i < rows; ++i) {
    uint32_t sum = 0;
    for (int s = 0; s < ks; ++s) {
      const uint8_t* p = table[s * mr_max + i];
      for (int c = 0; c < kc; ++c) sum += p[c];
    }
    row_offsets[i] = static_cast<int32_t>(sum * static_cast<uint32_t>(factor));
  }
}

void Run(const QGemmPacked& packed, const RowSource& src, int rows, uint8_t* output,
         ThreadPool* pool) {
  const QGemmKernel& k = *packed.kernel;
  const int mr = k.mr;
  const int block_columns = k.nr * k.max_panels;
  const int m_tiles = (rows + mr - 1) / mr;
  const int n_blocks = (packed.n + block_columns - 1) / block_columns;
  const int threads = pool ? pool->threads() : 1;
  // Rows are split first; columns too when there are too few row tiles to keep threads busy.
  const int col_tasks =
      (m_tiles >= 2 * threads) ? 1 : std::max(1, std::min(n_blocks, 2 * threads / m_tiles));
  const int row_tasks = static_cast<int>(std::max<size_t>(
      1,
      SuggestedTaskCount(static_cast<size_t>(m_tiles), threads) / static_cast<size_t>(col_tasks)));
  const int tiles_per_task = (m_tiles + row_tasks - 1) / row_tasks;
  const int blocks_per_task = (n_blocks + col_tasks - 1) / col_tasks;

  auto task = [&](size_t index) {
    const int rt = static_cast<int>(index) / col_tasks;
    const int ct = static_cast<int>(index) % col_tasks;
    const int block_begin = ct * blocks_per_task;
    const int block_end = std::min(n_blocks, block_begin + blocks_per_task);
    const uint8_t* table[kMaxIndirection];
    int32_t row_offsets[16];
    // im2col: each row's taps copied into one contiguous row of ks * kc bytes.
    alignas(64) uint8_t gathered[kIm2colRows][kMaxIm2colBytes];
    const int ks = packed.im2col ? 1 : packed.ks;
    const int kc = packed.im2col ? packed.ks * packed.kc : packed.kc;
    for (int tile = rt * tiles_per_task; tile < std::min(m_tiles, (rt + 1) * tiles_per_task);
         ++tile) {
      const int row0 = tile * mr;
      const int tile_rows = std::min(mr, rows - row0);
      if (packed.im2col) {
        GatherIm2col(src, mr, row0, tile_rows, gathered, table);
      } else {
        BuildTable(src, mr, row0, tile_rows, table);
      }
      if (packed.row_sum_factor != 0) {
        RowSums(table, ks, kc, mr, tile_rows, packed.row_sum_factor, row_offsets);
      }
      for (int block = block_begin; block < block_end; ++block) {
        const int col0 = block * block_columns;
        QGemmTile t;
        t.mr = tile_rows;
        t.nc = std::min(block_columns, packed.n - col0);
        t.kc = kc;
        t.ks = ks;
        t.a = table;
        t.w = packed.panels + static_cast<size_t>(col0 / k.nr) * packed.panel_bytes;
        t.panel_bytes = packed.panel_bytes;
        t.rq = packed.rq;
        t.rq.bias += col0;
        t.rq.multiplier += col0;
        t.rq.shift += col0;
        t.rq.round_add += col0;
        t.rq.negative_sub += col0;
        t.rq.total_shift += col0;
        t.row_offsets = packed.row_sum_factor != 0 ? row_offsets : nullptr;
        t.input_signed = packed.input_signed;
        t.c = output + static_cast<size_t>(row0) * packed.n + col0;
        t.c_row_stride = static_cast<size_t>(packed.n);
        k.run(t);
      }
    }
  };
  const size_t tasks = static_cast<size_t>(row_tasks) * col_tasks;
  if (pool) {
    pool->ParallelFor(tasks, task);
  } else {
    for (size_t i = 0; i < tasks; ++i) task(i);
  }
}

}  // namespace

bool QGemmDriverSupportsTaps(const QGemmKernel& kernel, int taps) {
  return taps >= 1 && kernel.mr <= 16 && static_cast<long>(taps) * kernel.mr <= kMaxIndirection;
}

void RunQGemmConv(const QGemmPacked& packed, const QConvShape& shape, const uint8_t* input,
                  const uint8_t* zero_row, uint8_t* output, ThreadPool* pool) {
  RowSource src;
  src.base = input;
  const bool pointwise = shape.kernel_h == 1 && shape.kernel_w == 1 && shape.stride_h == 1 &&
                         shape.stride_w == 1 && shape.pad_h == 0 && shape.pad_w == 0 &&
                         shape.in_h == shape.out_h && shape.in_w == shape.out_w;
  if (pointwise) {
    src.row_stride = static_cast<size_t>(shape.in_c);
  } else {
    src.conv = &shape;
    src.zero_row = zero_row;
  }
  Run(packed, src, shape.batches * shape.out_h * shape.out_w, output, pool);
}

void RunQGemmRows(const QGemmPacked& packed, int rows, const uint8_t* input, size_t row_stride,
                  uint8_t* output, ThreadPool* pool) {
  RowSource src;
  src.base = input;
  src.row_stride = row_stride;
  Run(packed, src, rows, output, pool);
}

}  // namespace octet::optimized
