#include "kernels/optimized/qdw/qdw_pack.h"

#include <cstring>
#include <vector>

#include "kernels/optimized/qgemm/qgemm_pack.h"

namespace octet::optimized {
namespace {

size_t RoundUp(size_t x, size_t m) { return (x + m - 1) / m * m; }

struct Layout {
  size_t channels;  // padded
  size_t weights_bytes;
  size_t int32_array;
  size_t int64_array;
  size_t total() const { return weights_bytes + 3 * int32_array + 3 * int64_array; }
};

Layout LayoutFor(const QDwKernel& k, int channels, int ks) {
  Layout l;
  l.channels = RoundUp(static_cast<size_t>(channels), k.block);
  const size_t pairs = (static_cast<size_t>(ks) + 1) / 2;
  l.weights_bytes = k.order == QDwOrder::kRowQuads
                        ? RoundUp(l.channels * 3 * 4, 64)  // three filter columns of quads
                        : RoundUp(l.channels * pairs * 2 * sizeof(int16_t), 64);
  l.int32_array = RoundUp(l.channels * 4, 64);
  l.int64_array = RoundUp(l.channels * 8, 64);
  return l;
}

// Position of channel c within its block, in accumulator order.
size_t Slot(const QDwKernel& k, int c) {
  const int block = k.block;
  const int base = c - c % block;
  const int j = c % block;
  if (k.order != QDwOrder::kUnpacked) return static_cast<size_t>(c);
  const int acc = (j % 8) < 4 ? 0 : 1;
  const int lane = (j / 8) * 4 + j % 4;
  return static_cast<size_t>(base + acc * (block / 2) + lane);
}

// Position in the int64 arrays: accumulator order, optionally even lanes before odd ones.
size_t Slot64(const QDwKernel& k, int c) {
  const size_t slot = Slot(k, c);
  if (!k.split_int64) return slot;
  // Lanes per accumulator: two accumulators per block when unpacked, 16-lane ones for quads.
  const size_t half = k.order == QDwOrder::kRowQuads ? 16 : static_cast<size_t>(k.block) / 2;
  const size_t acc_base = slot - slot % half;
  const size_t lane = slot % half;
  return acc_base + (lane % 2) * (half / 2) + lane / 2;
}

int32_t Effective(const QDwWeightsDesc& d, uint8_t raw) {
  return d.input_signed ? static_cast<int32_t>(static_cast<int8_t>(raw))
                        : static_cast<int32_t>(raw) + d.filter_offset;
}

}  // namespace

size_t QDwPackedSize(const QDwKernel& kernel, int channels, int ks) {
  return LayoutFor(kernel, channels, ks).total();
}

QDwPacked QDwPack(const QDwKernel& kernel, const QDwWeightsDesc& d, void* buffer) {
  const Layout l = LayoutFor(kernel, d.channels, d.ks);
  auto* base = static_cast<uint8_t*>(buffer);
  std::memset(base, 0, l.total());
  auto* weights = reinterpret_cast<int16_t*>(base);
  auto* bias = reinterpret_cast<int32_t*>(base + l.weights_bytes);
  int32_t* multiplier = bias + l.int32_array / 4;
  int32_t* shift = multiplier + l.int32_array / 4;
  auto* round_add = reinterpret_cast<int64_t*>(shift + l.int32_array / 4);
  int64_t* negative_sub = round_add + l.int64_array / 8;
  int64_t* total_shift = negative_sub + l.int64_array / 8;
  for (size_t i = 0; i < l.int64_array / 8; ++i) total_shift[i] = 31;

  const size_t pairs = (static_cast<size_t>(d.ks) + 1) / 2;
  const size_t block = static_cast<size_t>(kernel.block);
  const bool quads = kernel.order == QDwOrder::kRowQuads;
  for (int c = 0; c < d.channels; ++c) {
    const size_t slot = Slot(kernel, c);
    const size_t block_base = slot - slot % block;
    const size_t in_block = slot % block;
    int64_t sum = 0;
    for (int t = 0; t < d.ks; ++t) {
      const int32_t w = Effective(d, d.weights[static_cast<size_t>(t) * d.channels + c]);
      sum += w;
      if (quads) {
        // [block][filter column][block channels][filter row, then a zero byte]
        const size_t at = block_base * 12 + static_cast<size_t>(t % 3) * block * 4 + in_block * 4 +
                          static_cast<size_t>(t / 3);
        base[at] = static_cast<uint8_t>(static_cast<int8_t>(w));
        continue;
      }
      // [block][pair][block channels][2]
      const size_t at =
          block_base * pairs * 2 + (static_cast<size_t>(t) / 2) * block * 2 + in_block * 2 + t % 2;
      weights[at] = static_cast<int16_t>(w);
    }
    // Quads feed activations as x + 128 (x ^ 0x80, unsigned): their sums carry 128 * Σw more.
    const int64_t input_offset = quads ? int64_t{d.input_offset} - 128 : int64_t{d.input_offset};
    const int64_t folded = (d.bias ? d.bias[c] : 0) + input_offset * sum;
    bias[slot] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(folded)));
    multiplier[slot] = d.multiplier[c];
    shift[slot] = d.shift[c];
  }
  std::vector<size_t> slots64(static_cast<size_t>(d.channels));
  for (int c = 0; c < d.channels; ++c) slots64[c] = Slot64(kernel, c);
  QDwPacked p;
  p.kernel = &kernel;
  p.weights = weights;
  p.channels = d.channels;
  p.ks = d.ks;
  p.input_signed = d.input_signed;
  p.rq = FinishRequant({bias, multiplier, shift, round_add, negative_sub, total_shift}, d.shift,
                       d.channels, slots64.data(), d.output_zero_point, d.act_min, d.act_max);
  return p;
}

}  // namespace octet::optimized
