#include "kernels/optimized/qgemm/qgemm_pack.h"

#include <algorithm>
#include <cstring>

namespace octet::optimized {
namespace {

size_t RoundUp(size_t x, size_t m) { return (x + m - 1) / m * m; }

int PanelCount(const QGemmKernel& k, int n) { return static_cast<int>((n + k.nr - 1) / k.nr); }

size_t ElementBytes(QWeightFormat f) { return f == QWeightFormat::kInt16Pairs ? 2 : 1; }

bool PairsLayout(QWeightFormat f) {
  return f == QWeightFormat::kInt16Pairs || f == QWeightFormat::kInt8Pairs;
}

size_t PanelBytes(const QGemmKernel& k, int ks, int kc) {
  return static_cast<size_t>(ks) * RoundUp(static_cast<size_t>(kc), k.kr) * k.nr *
         ElementBytes(k.format);
}

// The lane a panel column occupies in the kernel's accumulators.
int Lane(const QGemmKernel& k, int j) {
  if (!k.interleave_halves) return j;
  const int half = k.nr / 2;
  return j < half ? 2 * j : 2 * (j - half) + 1;
}

// The value the reference multiplies by (x + input_offset): w + filter_offset.
int32_t EffectiveWeight(const QGemmWeightsDesc& d, uint8_t raw) {
  return d.input_signed ? static_cast<int32_t>(static_cast<int8_t>(raw))
                        : static_cast<int32_t>(raw) + d.filter_offset;
}

// The value stored in the packed panel for one raw weight byte.
int32_t StoredWeight(const QGemmKernel& k, const QGemmWeightsDesc& d, uint8_t raw) {
  if (k.format == QWeightFormat::kInt16Pairs) return EffectiveWeight(d, raw);
  // Quads and int8 pairs: int8 weights as they are; uint8 weights shifted into int8 (w - 128).
  return d.input_signed ? static_cast<int32_t>(static_cast<int8_t>(raw))
                        : static_cast<int32_t>(raw) - 128;
}

// Position of (lane l of the panel, tap s, channel c) in a panel, in elements.
size_t PanelIndex(const QGemmKernel& k, size_t kc_padded, int lane, int s, int c) {
  const size_t tap_base = static_cast<size_t>(s) * kc_padded * k.nr;
  if (PairsLayout(k.format)) {
    // [k/8][4 pairs][nr][2]: pair p = (c % 8) / 2 of group c / 8.
    const size_t group = static_cast<size_t>(c) / 8;
    const size_t pair = (static_cast<size_t>(c) % 8) / 2;
    return tap_base + group * 8 * k.nr + pair * 2 * k.nr + static_cast<size_t>(lane) * 2 + c % 2;
  }
  // [k/4][nr][4]
  const size_t group = static_cast<size_t>(c) / 4;
  return tap_base + group * 4 * k.nr + static_cast<size_t>(lane) * 4 + c % 4;
}

// Byte offsets of the arrays that follow the panels.
struct Layout {
  size_t panels_bytes;
  size_t int32_array;  // bytes of one padded int32 array
  size_t int64_array;
  size_t total() const { return panels_bytes + 3 * int32_array + 3 * int64_array; }
};

Layout LayoutFor(const QGemmKernel& k, int n, int ks, int kc) {
  const size_t panels = static_cast<size_t>(PanelCount(k, n));
  const size_t columns = panels * k.nr;
  return {RoundUp(panels * PanelBytes(k, ks, kc), 64), RoundUp(columns * 4, 64),
          RoundUp(columns * 8, 64)};
}

}  // namespace

QGemmRequant FinishRequant(const RequantStorage& storage, const int* shift, int count,
                           const size_t* slot64, int32_t output_zero_point, int32_t act_min,
                           int32_t act_max) {
  bool fold = true;
  bool any_left_shift = false;
  for (int c = 0; c < count; ++c) {
    fold &= shift[c] >= -kMaxFoldedRightShift;
    any_left_shift |= shift[c] > 0;
  }
  for (int c = 0; c < count; ++c) {
    const int right = shift[c] < 0 ? -shift[c] : 0;
    const size_t at = slot64 ? slot64[c] : static_cast<size_t>(c);
    storage.round_add[at] = (int64_t{1} << 30) + (right > 0 ? int64_t{1} << (right + 30) : 0);
    // zero_point * 2^(31 + right): a multiple of 2^total_shift, so adding it before the shift
    // adds exactly zero_point after it.
    if (fold)
      storage.round_add[at] +=
          static_cast<int64_t>(output_zero_point) * (int64_t{1} << (31 + right));
    storage.negative_sub[at] = right > 0 ? int64_t{1} << 31 : 0;
    storage.total_shift[at] = 31 + right;
  }
  QGemmRequant rq{};
  rq.bias = storage.bias;
  rq.multiplier = storage.multiplier;
  rq.shift = storage.shift;
  rq.round_add = storage.round_add;
  rq.negative_sub = storage.negative_sub;
  rq.total_shift = storage.total_shift;
  rq.any_left_shift = any_left_shift;
  rq.zero_point_folded = fold;
  rq.output_zero_point = output_zero_point;
  rq.act_min = act_min;
  rq.act_max = act_max;
  return rq;
}

QGemmLayout ChooseQGemmLayout(const QGemmKernel& kernel, const QGemmWeightsDesc& d) {
  if (d.ks == 1 || d.kc > kQGemmMaxRowTapChannels) return QGemmLayout::kTaps;
  const int kernel_h = d.ks / std::max(1, d.kernel_w);
  const bool im2col_fits = static_cast<long>(d.ks) * d.kc + 16 <= kQGemmMaxGatheredRow;
  if (d.kernel_w > 1 && d.dilation_w == 1 && d.ks % d.kernel_w == 0 &&
      static_cast<long>(kernel_h) * (d.kernel_w * d.kc + 16) <= kQGemmMaxGatheredRow) {
    // Each filter row pads to the kernel's k group; a window whose rows pad badly (a 10x4
    // filter over one channel: 4 of 8 bytes per row) runs on a quarter fewer k steps or
    // better as one im2col row, when there are enough columns to repay the copy.
    const size_t row_k =
        static_cast<size_t>(kernel_h) * RoundUp(static_cast<size_t>(d.kernel_w) * d.kc, kernel.kr);
    const size_t im2col_k = RoundUp(static_cast<size_t>(d.ks) * d.kc, kernel.kr);
    if (im2col_fits && d.n >= kernel.nr / 2 && im2col_k * 4 <= row_k * 3) {
      return QGemmLayout::kIm2col;
    }
    return QGemmLayout::kRowTaps;
  }
  if (d.kc % 4 == 0) return QGemmLayout::kTaps;  // whole channel groups already
  if (im2col_fits) return QGemmLayout::kIm2col;
  return QGemmLayout::kTaps;
}

namespace {

// Taps and bytes per tap the kernel sees in `layout`. The [n][ks][kc] weights read as
// [n][kernel_h][kernel_w * kc] or [n][1][ks * kc] are the same bytes.
void ExecShape(const QGemmWeightsDesc& d, QGemmLayout layout, int* ks, int* kc) {
  switch (layout) {
    case QGemmLayout::kTaps:
      *ks = d.ks;
      *kc = d.kc;
      return;
    case QGemmLayout::kRowTaps:
      *ks = d.ks / d.kernel_w;
      *kc = d.kernel_w * d.kc;
      return;
    case QGemmLayout::kIm2col:
      *ks = 1;
      *kc = d.ks * d.kc;
      return;
  }
}

}  // namespace

size_t QGemmPackedSize(const QGemmKernel& kernel, const QGemmWeightsDesc& d) {
  int ks = 1, kc = 0;
  ExecShape(d, ChooseQGemmLayout(kernel, d), &ks, &kc);
  return LayoutFor(kernel, d.n, ks, kc).total();
}

QGemmPacked QGemmPack(const QGemmKernel& kernel, const QGemmWeightsDesc& d, void* buffer) {
  const QGemmLayout qlayout = ChooseQGemmLayout(kernel, d);
  int ks = 1, kc = 0;
  ExecShape(d, qlayout, &ks, &kc);
  const Layout layout = LayoutFor(kernel, d.n, ks, kc);
  const size_t panel_bytes = PanelBytes(kernel, ks, kc);
  const size_t kc_padded = RoundUp(static_cast<size_t>(kc), kernel.kr);
  auto* base = static_cast<uint8_t*>(buffer);
  std::memset(base, 0, layout.total());
  uint8_t* panel_data = base;
  auto* bias = reinterpret_cast<int32_t*>(base + layout.panels_bytes);
  auto* multiplier = reinterpret_cast<int32_t*>(base + layout.panels_bytes + layout.int32_array);
  auto* shift = reinterpret_cast<int32_t*>(base + layout.panels_bytes + 2 * layout.int32_array);
  auto* round_add = reinterpret_cast<int64_t*>(base + layout.panels_bytes + 3 * layout.int32_array);
  int64_t* negative_sub = round_add + layout.int64_array / 8;
  int64_t* total_shift = negative_sub + layout.int64_array / 8;
  // Padding columns requantize 0 with shift 0: harmless, never stored.
  for (size_t i = 0; i < layout.int64_array / 8; ++i) total_shift[i] = 31;

  const size_t k_total = static_cast<size_t>(ks) * kc;
  for (int col = 0; col < d.n; ++col) {
    const uint8_t* w =
        d.weights + static_cast<size_t>(col) * (d.column_stride ? d.column_stride : k_total);
    const size_t panel_index = static_cast<size_t>(col / kernel.nr);
    uint8_t* panel = panel_data + panel_index * panel_bytes;
    const int lane = Lane(kernel, col % kernel.nr);
    const size_t slot = panel_index * kernel.nr + lane;  // this column's int32 entries
    int64_t effective_sum = 0;                           // Σ (w + filter_offset)
    int64_t stored_sum = 0;                              // Σ stored weight
    for (int s = 0; s < ks; ++s) {
      for (int c = 0; c < kc; ++c) {
        const uint8_t raw = w[(static_cast<size_t>(s) * kc + c) * d.k_stride];
        const int32_t stored = StoredWeight(kernel, d, raw);
        effective_sum += EffectiveWeight(d, raw);
        stored_sum += stored;
        const size_t at = PanelIndex(kernel, kc_padded, lane, s, c);
        if (kernel.format == QWeightFormat::kInt16Pairs) {
          const int16_t v = static_cast<int16_t>(stored);
          std::memcpy(panel + at * 2, &v, 2);
        } else {
          panel[at] = static_cast<uint8_t>(static_cast<int8_t>(stored));
        }
      }
    }
    // Folded constant: bias + input_offset * Σ(w + filter_offset), and for int8 quads the
    // -128 * Σw that feeding x + 128 adds. Computed exactly, then taken modulo 2^32 as the
    // kernels' int32 arithmetic is.
    int64_t folded = d.bias ? d.bias[col] : 0;
    folded += static_cast<int64_t>(d.input_offset) * effective_sum;
    if (kernel.format == QWeightFormat::kInt8Quads && d.input_signed) folded -= 128 * stored_sum;
    bias[slot] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(folded)));
    multiplier[slot] = d.multiplier[col];
    shift[slot] = d.shift[col];
  }
  QGemmPacked p;
  p.kernel = &kernel;
  p.layout = qlayout;
  p.exec_ks = ks;
  p.exec_kc = kc;
  p.panels = panel_data;
  p.panel_bytes = panel_bytes;
  p.n = d.n;
  p.ks = d.ks;
  p.kc = d.kc;
  p.input_signed = d.input_signed;
  // uint8 quads and int8 pairs: Σ (w - 128) x leaves (128 + filter_offset) * Σ x to add.
  p.row_sum_factor =
      (kernel.format != QWeightFormat::kInt16Pairs && !d.input_signed) ? 128 + d.filter_offset : 0;
  p.rq = FinishRequant({bias, multiplier, shift, round_add, negative_sub, total_shift}, d.shift,
                       d.n, nullptr, d.output_zero_point, d.act_min, d.act_max);
  return p;
}

}  // namespace octet::optimized
