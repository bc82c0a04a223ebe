#include "kernels/optimized/qgemm/qgemm_pack.h"

#include <cstring>

namespace octet::optimized {
namespace {

constexpr int kMaxIm2colRow = 2048;

size_t RoundUp(size_t x, size_t m) { return (x + m - 1) / m * m; }

int PanelCount(const QGemmKernel& k, int n) { return static_cast<int>((n + k.nr - 1) / k.nr); }

size_t ElementBytes(QWeightFormat f) { return f == QWeightFormat::kInt16Pairs ? 2 : 1; }

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
  // Quads: int8 weights as they are; uint8 weights shifted into int8 (w - 128).
  return d.input_signed ? static_cast<int32_t>(static_cast<int8_t>(raw))
                        : static_cast<int32_t>(raw) - 128;
}

// Position of (lane l of the panel, tap s, channel c) in a panel, in elements.
size_t PanelIndex(const QGemmKernel& k, size_t kc_padded, int lane, int s, int c) {
  const size_t tap_base = static_cast<size_t>(s) * kc_padded * k.nr;
  if (k.format == QWeightFormat::kInt16Pairs) {
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

bool QGemmUseIm2col(int ks, int kc) {
  return ks > 1 && kc % 4 != 0 && kc < 16 && static_cast<long>(ks) * kc <= kMaxIm2colRow;
}

size_t QGemmPackedSize(const QGemmKernel& kernel, int n, int ks, int kc) {
  if (QGemmUseIm2col(ks, kc)) return LayoutFor(kernel, n, 1, ks * kc).total();
  return LayoutFor(kernel, n, ks, kc).total();
}

QGemmPacked QGemmPack(const QGemmKernel& kernel, const QGemmWeightsDesc& d, void* buffer) {
  const bool im2col = QGemmUseIm2col(d.ks, d.kc);
  // With im2col the [n][ks][kc] weights are read as [n][1][ks * kc]: the same bytes.
  const int ks = im2col ? 1 : d.ks;
  const int kc = im2col ? d.ks * d.kc : d.kc;
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

  bool any_left_shift = false;
  const size_t k_total = static_cast<size_t>(ks) * kc;
  for (int col = 0; col < d.n; ++col) {
    const uint8_t* w = d.weights + static_cast<size_t>(col) * k_total;
    const size_t panel_index = static_cast<size_t>(col / kernel.nr);
    uint8_t* panel = panel_data + panel_index * panel_bytes;
    const int lane = Lane(kernel, col % kernel.nr);
    const size_t slot = panel_index * kernel.nr + lane;  // this column's int32 entries
    int64_t effective_sum = 0;                           // Σ (w + filter_offset)
    int64_t stored_sum = 0;                              // Σ stored weight
    for (int s = 0; s < ks; ++s) {
      for (int c = 0; c < kc; ++c) {
        const uint8_t raw = w[static_cast<size_t>(s) * kc + c];
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
    any_left_shift |= d.shift[col] > 0;
    const int right = d.shift[col] < 0 ? -d.shift[col] : 0;
    round_add[col] = (int64_t{1} << 30) + (right > 0 ? int64_t{1} << (right + 30) : 0);
    negative_sub[col] = right > 0 ? int64_t{1} << 31 : 0;
    total_shift[col] = 31 + right;
  }

  QGemmPacked p;
  p.kernel = &kernel;
  p.im2col = im2col;
  p.panels = panel_data;
  p.panel_bytes = panel_bytes;
  p.n = d.n;
  p.ks = d.ks;
  p.kc = d.kc;
  p.input_signed = d.input_signed;
  // uint8 quads: Σ (w - 128) x leaves (128 + filter_offset) * Σ x for the driver to add.
  p.row_sum_factor =
      (kernel.format == QWeightFormat::kInt8Quads && !d.input_signed) ? 128 + d.filter_offset : 0;
  p.rq.bias = bias;
  p.rq.multiplier = multiplier;
  p.rq.shift = shift;
  p.rq.round_add = round_add;
  p.rq.negative_sub = negative_sub;
  p.rq.total_shift = total_shift;
  p.rq.any_left_shift = any_left_shift;
  p.rq.output_zero_point = d.output_zero_point;
  p.rq.act_min = d.act_min;
  p.rq.act_max = d.act_max;
  return p;
}

}  // namespace octet::optimized
