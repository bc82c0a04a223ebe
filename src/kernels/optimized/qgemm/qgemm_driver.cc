#include "kernels/optimized/qgemm/qgemm_driver.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "kernels/optimized/gemm_tasks.h"
#include "kernels/optimized/pad_image.h"
#include "kernels/threads/thread_pool.h"

namespace octet::optimized {
namespace {

constexpr int kGatherRows = 16;  // >= any kernel's mr

size_t RoundUp(size_t x, size_t m) { return (x + m - 1) / m * m; }

// Where the rows of A come from.
struct RowSource {
  // Dense rows: row r at base + r * row_stride (one tap).
  const uint8_t* base = nullptr;
  size_t row_stride = 0;
  // Convolution: taps of output pixel r; used when conv != nullptr.
  const QConvShape* conv = nullptr;
  const uint8_t* zero_row = nullptr;
  // Input addresses up to this one have a whole padded tap readable (0: none).
  uintptr_t last_padded_start = 0;
  // One past the input's last byte (convolutions).
  uintptr_t input_end = 0;
};

// The last address from which `padded_tap` bytes stay within `bytes` bytes at `base`.
uintptr_t LastPaddedStart(const uint8_t* base, size_t bytes, size_t padded_tap) {
  return bytes >= padded_tap ? reinterpret_cast<uintptr_t>(base) + (bytes - padded_tap) : 0;
}

// Output pixel r's image and the input row and column of its filter's top-left tap.
struct PixelOrigin {
  const uint8_t* image;
  int iy0;
  int ix0;
};

// Walks output pixels in order from a starting row: one division per tile, not per pixel
// (with few output channels the divisions cost as much as the tile's MACs).
class PixelCursor {
 public:
  PixelCursor(const QConvShape& s, const uint8_t* base, int r) : s_(s) {
    const int pixels = s.out_h * s.out_w;
    b_ = r / pixels;
    oy_ = (r % pixels) / s.out_w;
    ox_ = r % s.out_w;
    image_ = base + static_cast<size_t>(b_) * image_bytes();
  }
  PixelOrigin origin() const {
    return {image_, oy_ * s_.stride_h - s_.pad_h, ox_ * s_.stride_w - s_.pad_w};
  }
  // Whether the next n pixels lie in the current output row.
  bool RowHolds(int n) const { return ox_ + n <= s_.out_w; }
  // Moves n pixels on within the row (RowHolds(n) must be true).
  void Skip(int n) {
    ox_ += n - 1;
    Next();
  }
  void Next() {
    if (++ox_ < s_.out_w) return;
    ox_ = 0;
    if (++oy_ < s_.out_h) return;
    oy_ = 0;
    ++b_;
    image_ += image_bytes();
  }

 private:
  size_t image_bytes() const { return static_cast<size_t>(s_.in_h) * s_.in_w * s_.in_c; }
  const QConvShape& s_;
  const uint8_t* image_;
  int b_, oy_, ox_;
};

// A short copy in 8-, 4- and 1-byte moves: gathered pieces are a few bytes long.
inline uint8_t* CopyShort(uint8_t* dst, const uint8_t* src, int n) {
  for (; n >= 8; n -= 8, src += 8, dst += 8) std::memcpy(dst, src, 8);
  if (n >= 4) {
    std::memcpy(dst, src, 4);
    n -= 4, src += 4, dst += 4;
  }
  for (; n > 0; --n) *dst++ = *src++;
  return dst;
}

// Copies n bytes in whole 16-byte moves when the source has them readable (the destination
// always has: gathered rows keep 16 bytes of slack); the bytes past n are overwritten by the
// next piece or ignored. A 3-channel filter row (9 bytes) is then one move, not nine.
inline uint8_t* CopyRun(uint8_t* dst, const uint8_t* src, int n, uintptr_t src_end) {
  const size_t whole = RoundUp(static_cast<size_t>(n), 16);
  if (reinterpret_cast<uintptr_t>(src) + whole > src_end) return CopyShort(dst, src, n);
  for (size_t i = 0; i < whole; i += 16) std::memcpy(dst + i, src + i, 16);
  return dst + n;
}

// One tile's rows of a convolution: the table of tap pointers (a[tap * mr + row]) and, for
// rows that need it, their gathered bytes.
class TileRows {
 public:
  TileRows(const QGemmPacked& packed, const RowSource& src, int mr)
      : packed_(packed), src_(src), mr_(mr) {}

  // Fills the table for rows [row0, row0 + rows); rows beyond repeat row0. Returns whether
  // every tap pointer has a whole padded tap readable.
  bool Build(int row0, int rows) {
    padded_ok_ = true;
    // A task's tiles are consecutive: the cursor carries on from the previous tile instead of
    // dividing the row index again (two divisions per tile showed in small layers).
    if (!cursor_ || row0 != next_row_) cursor_.emplace(*src_.conv, src_.base, row0);
    next_row_ = row0 + rows;
    PixelCursor& cursor = *cursor_;
    const PixelOrigin first = cursor.origin();
    if (rows == mr_ && cursor.RowHolds(rows) &&
        (packed_.layout == QGemmLayout::kIm2col ? Im2colRowInside(first, rows)
                                                : SameRowInside(first, rows))) {
      cursor.Skip(rows);
      return padded_ok_;
    }
    for (int i = 0; i < mr_; ++i) {
      // Rows past the tile's end repeat its first row.
      const PixelOrigin o = i < rows ? cursor.origin() : first;
      if (i < rows) cursor.Next();
      switch (packed_.layout) {
        case QGemmLayout::kTaps:
          Taps(o, i);
          break;
        case QGemmLayout::kRowTaps:
          RowTaps(o, i);
          break;
        case QGemmLayout::kIm2col:
          Im2col(o, i);
          break;
      }
    }
    return padded_ok_;
  }

  const uint8_t* const* table() const { return table_; }

 private:
  void Set(int tap, int row, const uint8_t* p) {
    table_[tap * mr_ + row] = p;
    // The zero row and gathered rows have slack; input pointers near its end do not.
    const uintptr_t at = reinterpret_cast<uintptr_t>(p);
    const uintptr_t gathered = reinterpret_cast<uintptr_t>(gathered_[0]);
    const bool slack = p == src_.zero_row || (at >= gathered && at < gathered + sizeof(gathered_));
    if (!slack && at > src_.last_padded_start) padded_ok_ = false;
  }

  // The table of a whole tile whose pixels are consecutive in one output row with every
  // filter window inside the image horizontally (most tiles): each tap's pointers for rows
  // 1.. are row 0's plus a fixed step, so the tile's taps are worked out once, not per row.
  // Returns false, doing nothing, when the tile does not qualify.
  bool SameRowInside(const PixelOrigin& o, int rows) {
    const QConvShape& s = *src_.conv;
    const int kernel_h = s.kernel_h, kernel_w = s.kernel_w, in_h = s.in_h, in_w = s.in_w;
    const int dilation_h = s.dilation_h, dilation_w = s.dilation_w;
    const size_t in_c = static_cast<size_t>(s.in_c);
    const int last_ix0 = o.ix0 + (rows - 1) * s.stride_w;
    if (o.ix0 < 0 || last_ix0 + (kernel_w - 1) * dilation_w >= in_w) return false;
    const size_t step = static_cast<size_t>(s.stride_w) * in_c;
    const size_t last_offset = (rows - 1) * step;
    const bool row_taps = packed_.layout == QGemmLayout::kRowTaps;
    const int taps_per_row = row_taps ? 1 : kernel_w;
    const uint8_t* const zero_row = src_.zero_row;
    const uintptr_t last_padded_start = src_.last_padded_start;
    const int mr = mr_;
    const uint8_t** entry = table_;
    bool padded_ok = true;
    for (int fy = 0; fy < kernel_h; ++fy) {
      const int iy = o.iy0 + fy * dilation_h;
      if (iy < 0 || iy >= in_h) {
        for (int i = 0; i < taps_per_row * mr; ++i) entry[i] = zero_row;
        entry += taps_per_row * mr;
        continue;
      }
      const uint8_t* line = o.image + (static_cast<size_t>(iy) * in_w + o.ix0) * in_c;
      for (int fx = 0; fx < taps_per_row; ++fx, entry += mr) {
        const uint8_t* p = line + static_cast<size_t>(fx) * dilation_w * in_c;
        for (int i = 0; i < mr; ++i) entry[i] = p + i * step;
        padded_ok = padded_ok && reinterpret_cast<uintptr_t>(p + last_offset) <= last_padded_start;
      }
    }
    padded_ok_ = padded_ok;
    return true;
  }

  // Im2col rows of a whole tile in one output row whose windows lie inside the image, filter
  // rows of at most 16 bytes (few-channel first layers): one 16-byte move per filter row.
  bool Im2colRowInside(const PixelOrigin& o, int rows) {
    const QConvShape& s = *src_.conv;
    const int kernel_h = s.kernel_h, kernel_w = s.kernel_w, in_c = s.in_c;
    const int run = kernel_w * in_c;
    if (s.dilation_w != 1 || run > 16 || o.ix0 < 0 ||
        o.ix0 + (rows - 1) * s.stride_w + kernel_w > s.in_w || o.iy0 < 0 ||
        o.iy0 + (kernel_h - 1) * s.dilation_h >= s.in_h) {
      return false;
    }
    const size_t step = static_cast<size_t>(s.stride_w) * in_c;
    const size_t line = static_cast<size_t>(s.dilation_h) * s.in_w * in_c;
    const uint8_t* base = o.image + (static_cast<size_t>(o.iy0) * s.in_w + o.ix0) * in_c;
    const uintptr_t last_read =
        reinterpret_cast<uintptr_t>(base + (rows - 1) * step + (kernel_h - 1) * line) + 16;
    if (last_read > src_.input_end) return false;
    for (int i = 0; i < rows; ++i) {
      uint8_t* out = gathered_[i];
      const uint8_t* src = base + i * step;
      for (int fy = 0; fy < kernel_h; ++fy, src += line, out += run) std::memcpy(out, src, 16);
      PadGathered(out);
      table_[i] = gathered_[i];
    }
    padded_ok_ = true;
    return true;
  }

  // Zeroes the bytes after a gathered row up to its channel-group padding (they are read).
  static void PadGathered(uint8_t* end) { std::memset(end, 0, 16); }

  // One tap per filter position. Locals only in the loop (see RowTapsInside).
  void Taps(const PixelOrigin& o, int row) {
    const QConvShape& s = *src_.conv;
    const int kernel_h = s.kernel_h, kernel_w = s.kernel_w, in_h = s.in_h, in_w = s.in_w;
    const int dilation_h = s.dilation_h, dilation_w = s.dilation_w;
    const size_t in_c = static_cast<size_t>(s.in_c);
    const uint8_t* const zero_row = src_.zero_row;
    const uintptr_t last_padded_start = src_.last_padded_start;
    const uint8_t** entry = table_ + row;
    const int mr = mr_;
    bool padded_ok = true;
    for (int fy = 0; fy < kernel_h; ++fy) {
      const int iy = o.iy0 + fy * dilation_h;
      const bool row_inside = iy >= 0 && iy < in_h;
      for (int fx = 0; fx < kernel_w; ++fx, entry += mr) {
        const int ix = o.ix0 + fx * dilation_w;
        if (!row_inside || ix < 0 || ix >= in_w) {
          *entry = zero_row;
          continue;
        }
        const uint8_t* p = o.image + (static_cast<size_t>(iy) * in_w + ix) * in_c;
        *entry = p;
        padded_ok = padded_ok && reinterpret_cast<uintptr_t>(p) <= last_padded_start;
      }
    }
    padded_ok_ = padded_ok_ && padded_ok;
  }

  // One tap per filter row: its kernel_w pixels are contiguous when inside the image; a row
  // crossing the left or right border is gathered with zero-point padding.
  void RowTaps(const PixelOrigin& o, int row) {
    const QConvShape& s = *src_.conv;
    if (o.ix0 >= 0 && o.ix0 + s.kernel_w <= s.in_w) {
      RowTapsInside(o, row);
      return;
    }
    const int run = s.kernel_w * s.in_c;
    const size_t stride = RoundUp(static_cast<size_t>(run), 16);
    for (int fy = 0; fy < s.kernel_h; ++fy) {
      const int iy = o.iy0 + fy * s.dilation_h;
      if (iy < 0 || iy >= s.in_h) {
        Set(fy, row, src_.zero_row);
        continue;
      }
      const uint8_t* line = o.image + static_cast<size_t>(iy) * s.in_w * s.in_c;
      if (o.ix0 >= 0 && o.ix0 + s.kernel_w <= s.in_w) {
        Set(fy, row, line + static_cast<size_t>(o.ix0) * s.in_c);
        continue;
      }
      uint8_t* out = gathered_[row] + fy * stride;
      uint8_t* p = out;
      for (int fx = 0; fx < s.kernel_w; ++fx) {
        const int ix = o.ix0 + fx;
        p = CopyShort(
            p, ix >= 0 && ix < s.in_w ? line + static_cast<size_t>(ix) * s.in_c : src_.zero_row,
            s.in_c);
      }
      PadGathered(p);
      Set(fy, row, out);
    }
  }

  // RowTaps for a pixel whose filter rows all lie inside the image horizontally (most
  // pixels): pointers only. Everything it reads is held in locals, since the table's pointer
  // stores could otherwise alias the source's fields and force a reload per tap.
  void RowTapsInside(const PixelOrigin& o, int row) {
    const QConvShape& s = *src_.conv;
    const int kernel_h = s.kernel_h, dilation_h = s.dilation_h, in_h = s.in_h;
    const size_t line_bytes = static_cast<size_t>(s.in_w) * s.in_c;
    const uint8_t* const zero_row = src_.zero_row;
    const uintptr_t last_padded_start = src_.last_padded_start;
    const uint8_t* const first = o.image + static_cast<size_t>(o.ix0) * s.in_c;
    const uint8_t** entry = table_ + row;
    const int mr = mr_;
    bool padded_ok = true;
    for (int fy = 0; fy < kernel_h; ++fy, entry += mr) {
      const int iy = o.iy0 + fy * dilation_h;
      if (iy < 0 || iy >= in_h) {
        *entry = zero_row;
        continue;
      }
      const uint8_t* p = first + static_cast<size_t>(iy) * line_bytes;
      *entry = p;
      padded_ok = padded_ok && reinterpret_cast<uintptr_t>(p) <= last_padded_start;
    }
    padded_ok_ = padded_ok_ && padded_ok;
  }

  // Every tap copied into one row; a filter row inside the image without dilation is one run.
  // The shape is read into locals: stores through the byte pointer could alias its fields.
  void Im2col(const PixelOrigin& o, int row) {
    const QConvShape& s = *src_.conv;
    const int kernel_h = s.kernel_h, kernel_w = s.kernel_w, in_h = s.in_h, in_w = s.in_w;
    const int dilation_h = s.dilation_h, dilation_w = s.dilation_w, in_c = s.in_c;
    const size_t line_bytes = static_cast<size_t>(in_w) * in_c;
    const uint8_t* const zero_row = src_.zero_row;
    // The zero row holds at least a whole 16-byte multiple of in_c bytes.
    const uintptr_t zero_end = reinterpret_cast<uintptr_t>(zero_row) + RoundUp(in_c, 16);
    const uintptr_t input_end = src_.input_end;
    const bool row_run = dilation_w == 1 && o.ix0 >= 0 && o.ix0 + kernel_w <= in_w;
    uint8_t* out = gathered_[row];
    for (int fy = 0; fy < kernel_h; ++fy) {
      const int iy = o.iy0 + fy * dilation_h;
      const bool row_inside = iy >= 0 && iy < in_h;
      const uint8_t* line = o.image + static_cast<size_t>(row_inside ? iy : 0) * line_bytes;
      if (row_inside && row_run) {
        out = CopyRun(out, line + static_cast<size_t>(o.ix0) * in_c, kernel_w * in_c, input_end);
        continue;
      }
      for (int fx = 0; fx < kernel_w; ++fx) {
        const int ix = o.ix0 + fx * dilation_w;
        if (row_inside && ix >= 0 && ix < in_w) {
          out = CopyRun(out, line + static_cast<size_t>(ix) * in_c, in_c, input_end);
        } else {
          out = CopyRun(out, zero_row, in_c, zero_end);
        }
      }
    }
    PadGathered(out);
    Set(0, row, gathered_[row]);
  }

  const QGemmPacked& packed_;
  const RowSource& src_;
  const int mr_;
  std::optional<PixelCursor> cursor_;
  int next_row_ = 0;
  bool padded_ok_ = true;
  const uint8_t* table_[kMaxIndirection];
  alignas(64) uint8_t gathered_[kGatherRows][kQGemmMaxGatheredRow];
};

// The rows of a dense GEMM (FULLY_CONNECTED, pointwise convolutions): one tap per row at
// base + r * row_stride; no table to build beyond the tile's own pointers.
class DenseRows {
 public:
  DenseRows(const QGemmPacked&, const RowSource& src, int mr) : src_(src), mr_(mr) {}
  bool Build(int row0, int rows) {
    for (int i = 0; i < mr_; ++i) {
      table_[i] = src_.base + static_cast<size_t>(row0 + (i < rows ? i : 0)) * src_.row_stride;
    }
    // Rows ascend: the last one decides whether whole channel groups are readable.
    return reinterpret_cast<uintptr_t>(table_[rows - 1]) <= src_.last_padded_start;
  }
  const uint8_t* const* table() const { return table_; }

 private:
  const RowSource& src_;
  const int mr_;
  const uint8_t* table_[kGatherRows];
};

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

// Where a GEMM's results go: requantized bytes, or the raw int32 sums.
struct Output {
  uint8_t* bytes = nullptr;
  int32_t* raw = nullptr;
  // Points tile `t` at row `row`, column `column` of the output.
  void Place(QGemmTile& t, int row, int column, int n) const {
    const size_t offset = static_cast<size_t>(row) * static_cast<size_t>(n) + column;
    t.c = raw ? nullptr : bytes + offset;
    t.c32 = raw ? raw + offset : nullptr;
    t.c_row_stride = static_cast<size_t>(n);
  }
};

// Rows is TileRows (convolutions) or DenseRows.
template <typename Rows>
void Run(const QGemmPacked& packed, const RowSource& src, int rows, const Output& output,
         ThreadPool* pool) {
  if (rows <= 0 || packed.n <= 0) return;  // an empty tensor: nothing to compute
  const QGemmKernel& k = *packed.kernel;
  const int mr = k.mr;
  const int block_columns = k.nr * k.max_panels;
  const int m_tiles = (rows + mr - 1) / mr;
  const int n_blocks = (packed.n + block_columns - 1) / block_columns;
  const int ks = packed.exec_ks;
  // The kernels read whole channel groups when every tap has them readable: the packed weights
  // of the padding channels are zero, so the extra bytes add nothing.
  const int kc_padded = static_cast<int>(RoundUp(static_cast<size_t>(packed.exec_kc), k.kr));

  const GemmTasks tasks(m_tiles, n_blocks, pool,
                        static_cast<double>(rows) * packed.n * ks * packed.exec_kc);
  tasks.Run([&](const GemmTasks::Range& range) {
    Rows tile_rows(packed, src, mr);
    int32_t row_offsets[kGatherRows];
    // What every tile of the task shares is set once: with few input channels a tile is a
    // few dozen instructions, and rebuilding the whole call per tile (a division for the
    // panel index among it) drew 8% of MobileNetV2's perf samples (1.3% after).
    QGemmTile t;
    t.ks = ks;
    t.a = tile_rows.table();
    t.panel_bytes = packed.panel_bytes;
    t.row_offsets = packed.row_sum_factor != 0 ? row_offsets : nullptr;
    t.input_signed = packed.input_signed;
    const uint8_t* first_panel =
        packed.panels + static_cast<size_t>(range.block_begin) * k.max_panels * packed.panel_bytes;
    const size_t block_bytes = static_cast<size_t>(k.max_panels) * packed.panel_bytes;
    for (int tile = range.tile_begin; tile < range.tile_end; ++tile) {
      const int row0 = tile * mr;
      t.mr = std::min(mr, rows - row0);
      const bool padded = tile_rows.Build(row0, t.mr);
      if (packed.row_sum_factor != 0) {
        // The sums cover the real channels only (padding bytes need not be zero points).
        RowSums(tile_rows.table(), ks, packed.exec_kc, mr, t.mr, packed.row_sum_factor,
                row_offsets);
      }
      // Whole groups only when the weights make the extra bytes irrelevant for every
      // signedness: uint8 quads add a row sum computed above over the real channels.
      t.kc = padded ? kc_padded : packed.exec_kc;
      t.w = first_panel;
      int col0 = range.block_begin * block_columns;
      for (int block = range.block_begin; block < range.block_end; ++block, col0 += block_columns) {
        t.nc = std::min(block_columns, packed.n - col0);
        t.rq = packed.rq;
        t.rq.bias += col0;
        t.rq.multiplier += col0;
        t.rq.shift += col0;
        t.rq.round_add += col0;
        t.rq.negative_sub += col0;
        t.rq.total_shift += col0;
        output.Place(t, row0, col0, packed.n);
        k.run(t);
        t.w = static_cast<const uint8_t*>(t.w) + block_bytes;
      }
    }
  });
}

}  // namespace

bool QGemmDriverSupportsTaps(const QGemmKernel& kernel, int taps) {
  return taps >= 1 && kernel.mr <= kGatherRows &&
         static_cast<long>(taps) * kernel.mr <= kMaxIndirection;
}

bool QGemmConvTakesWideInput(const QGemmKernel& kernel, const QGemmWeightsDesc& d) {
  // A 1x1 layer reads each input value about once per column block: widening the whole
  // input costs more than it saves (MobileNetV2's pointwise layers measured no faster, a
  // 1x1 stride-2 one a third slower). KxK filters read each value ks / stride^2 times.
  if (d.ks <= 1) return false;
  switch (ChooseQGemmLayout(kernel, d)) {
    case QGemmLayout::kTaps:
      return true;
    case QGemmLayout::kRowTaps: {
      // RowTaps gathers a border pixel's filter rows, each padded to 16 bytes, then 16 more.
      const long kernel_h = d.ks / std::max(1, d.kernel_w);
      const long row = static_cast<long>(RoundUp(2 * static_cast<size_t>(d.kernel_w) * d.kc, 16));
      return kernel_h * row + 16 <= kQGemmMaxGatheredRow;
    }
    case QGemmLayout::kIm2col:
      return false;
  }
  return false;
}

void WidenToInt16(const uint8_t* in, size_t n, bool is_signed, int16_t* out) {
  if (is_signed) {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<int8_t>(in[i]);
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = in[i];
  }
}

size_t QGemmZeroRowBytes(const QGemmPacked& packed) {
  const size_t element = packed.kernel->wide_input ? 2 : 1;
  return element * (RoundUp(static_cast<size_t>(std::max(packed.exec_kc, packed.kc)), 16) + 16);
}

namespace {

// Whether the padded copy pays (QGemmConvPaddedInputBytes, QGemmConvWideInputElements):
// border pixels gather their filter rows under row taps and im2col.
bool PaddingPays(const QGemmPacked& packed, const QConvShape& s) {
  return PaddedCopyPays(s, packed.layout != QGemmLayout::kTaps);
}

// Slack after a wide image: a padded tap's whole channel groups may read past its end.
constexpr size_t kWideSlack = 64;

}  // namespace

size_t QGemmConvPaddedInputBytes(const QGemmPacked& packed, const QConvShape& s) {
  if (packed.kernel->wide_input || !PaddingPays(packed, s)) return 0;
  return PaddedImageElements(s);
}

size_t QGemmConvWideInputElements(const QGemmPacked& packed, const QConvShape& s) {
  const size_t image = PaddingPays(packed, s) ? PaddedImageElements(s)
                                              : static_cast<size_t>(s.batches) * s.in_h * s.in_w *
                                                    static_cast<size_t>(s.in_c);
  return image + kWideSlack;
}

QConvShape WidenConvInput(const QGemmPacked& packed, const QConvShape& s, const uint8_t* input,
                          bool is_signed, int32_t zero_point, int16_t* wide, ThreadPool* pool) {
  if (!PaddingPays(packed, s)) {
    WidenToInt16(input, static_cast<size_t>(s.batches) * s.in_h * s.in_w * s.in_c, is_signed, wide);
    return s;
  }
  PadImageWith(
      s, static_cast<int16_t>(zero_point), wide, pool,
      [&](size_t at, size_t n, int16_t* out) { WidenToInt16(input + at, n, is_signed, out); });
  return PaddedWindow(s);
}

void RunQGemmConv(const QGemmPacked& packed, const QConvShape& shape, const uint8_t* input,
                  size_t input_bytes, const uint8_t* zero_row, uint8_t* bytes, ThreadPool* pool,
                  int32_t* raw_output, uint8_t* padded_input) {
  if (padded_input != nullptr) {
    PadImage(shape, input, zero_row[0], padded_input, pool);
    RunQGemmConv(packed, PaddedWindow(shape), padded_input, PaddedImageElements(shape), zero_row,
                 bytes, pool, raw_output);
    return;
  }
  const Output output{bytes, raw_output};
  // A wide-input kernel gets an int16 image: every address below is in bytes, so the pixel
  // size doubles and so does a padded tap.
  const size_t element = packed.kernel->wide_input ? 2 : 1;
  QConvShape shape_bytes = shape;
  shape_bytes.in_c = static_cast<int>(element) * shape.in_c;
  RowSource src;
  src.base = input;
  src.last_padded_start =
      LastPaddedStart(input, input_bytes,
                      element * RoundUp(static_cast<size_t>(packed.exec_kc), packed.kernel->kr));
  const bool pointwise = shape.kernel_h == 1 && shape.kernel_w == 1 && shape.stride_h == 1 &&
                         shape.stride_w == 1 && shape.pad_h == 0 && shape.pad_w == 0 &&
                         shape.in_h == shape.out_h && shape.in_w == shape.out_w;
  const int rows = shape.batches * shape.out_h * shape.out_w;
  if (pointwise) {
    src.row_stride = static_cast<size_t>(shape_bytes.in_c);
    Run<DenseRows>(packed, src, rows, output, pool);
  } else {
    src.conv = &shape_bytes;
    src.zero_row = zero_row;
    src.input_end = reinterpret_cast<uintptr_t>(input) + input_bytes;
    Run<TileRows>(packed, src, rows, output, pool);
  }
}

// One kernel call when every row fits one tile and every column one block (small layers,
// where the task bookkeeping would cost more than the arithmetic).
bool RunSingleTile(const QGemmPacked& packed, const RowSource& src, int rows,
                   const Output& output) {
  const QGemmKernel& k = *packed.kernel;
  if (rows <= 0 || packed.n <= 0) return true;  // an empty tensor: nothing to compute
  if (rows > k.mr || packed.n > k.nr * k.max_panels || packed.row_sum_factor != 0) return false;
  DenseRows tile_rows(packed, src, k.mr);
  const bool padded = tile_rows.Build(0, rows);
  QGemmTile t;
  t.mr = rows;
  t.nc = packed.n;
  t.kc = padded ? static_cast<int>(RoundUp(static_cast<size_t>(packed.exec_kc), k.kr))
                : packed.exec_kc;
  t.ks = 1;
  t.a = tile_rows.table();
  t.w = packed.panels;
  t.panel_bytes = packed.panel_bytes;
  t.rq = packed.rq;
  t.row_offsets = nullptr;
  t.input_signed = packed.input_signed;
  output.Place(t, 0, 0, packed.n);
  k.run(t);
  return true;
}

void RunQGemmRows(const QGemmPacked& packed, int rows, const uint8_t* input, size_t row_stride,
                  uint8_t* bytes, ThreadPool* pool, int32_t* raw_output) {
  const Output output{bytes, raw_output};
  RowSource src;
  src.base = input;
  src.row_stride = row_stride;
  const size_t input_bytes = rows > 0 ? (rows - 1) * row_stride + packed.exec_kc : 0;
  src.last_padded_start = LastPaddedStart(
      input, input_bytes, RoundUp(static_cast<size_t>(packed.exec_kc), packed.kernel->kr));
  if (RunSingleTile(packed, src, rows, output)) return;
  Run<DenseRows>(packed, src, rows, output, pool);
}

}  // namespace octet::optimized
