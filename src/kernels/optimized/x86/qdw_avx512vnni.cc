// Quantized depthwise convolution for AVX-512 (BW + VNNI). Per step 32 channels: each tap's
// bytes widen to int16 (vpmovsxbw / vpmovzxbw), two taps interleave into (x[t], x[t+1]) pairs
// with 16-bit unpacks, and vpdpwssd adds both products to an int32 lane: exact for every
// int8/uint8 value. The unpacks leave channels in "accumulator order" (QDwOrder::kUnpacked);
// the first saturating pack of the epilogue restores natural order.
#include <immintrin.h>

#include <cstdint>

#include "kernels/optimized/qdw/qdw.h"
#include "kernels/optimized/x86/requant_avx512.h"

namespace octet::optimized {
namespace {

constexpr int kBlock = 32;

template <bool kSigned>
static inline __m512i LoadWidened(const uint8_t* p, __mmask32 mask) {
  const __m256i bytes = _mm256_maskz_loadu_epi8(mask, p);
  return kSigned ? _mm512_cvtepi8_epi16(bytes) : _mm512_cvtepu8_epi16(bytes);
}

// Pixel p's taps: through the table, or base + p * step + offsets (see QDwTile). Holds
// copies: the kernel's byte stores may alias anything, a reference would be reloaded.
template <bool kOffsets>
struct Taps {
  explicit Taps(const QDwTile& t)
      : a(t.a), base(t.base), step(t.pixel_step), offsets(t.tap_offsets), ks(t.ks) {}
  const uint8_t* operator()(int pixel, int tap) const {
    if (kOffsets) return base + static_cast<size_t>(pixel) * step + offsets[tap];
    return a[static_cast<size_t>(pixel) * ks + tap];
  }
  const uint8_t* const* a;
  const uint8_t* base;
  size_t step;
  const ptrdiff_t* offsets;
  int ks;
};
// The raw sums of a block (accumulator order: per 128-bit lane L, acc0 holds channels
// 8L..8L+3 and acc1 8L+4..8L+7) stored in channel order, `rest` channels at most.
static inline void StoreRaw(__m512i acc0, __m512i acc1, int rest, int32_t* out) {
  const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);     // channels 0-15
  const __m512i second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);  // channels 16-31
  const auto mask_of = [](int n) {
    return n >= 16 ? static_cast<__mmask16>(0xFFFF)
                   : static_cast<__mmask16>(n <= 0 ? 0u : (1u << n) - 1);
  };
  _mm512_mask_storeu_epi32(out, mask_of(rest), _mm512_permutex2var_epi64(acc0, first, acc1));
  _mm512_mask_storeu_epi32(out + 16, mask_of(rest - 16),
                           _mm512_permutex2var_epi64(acc0, second, acc1));
}

template <bool kSigned, bool kLeftShift, bool kOffsets, bool kRaw>
void Kernel(const QDwTile& t) {
  const int channels = t.channels;
  const int ks = t.ks;
  const int pairs = (ks + 1) / 2;
  const int pixels = t.pixels;
  const auto* weights = static_cast<const int16_t*>(t.w);
  const QGemmRequant rq = t.rq;
  const Taps<kOffsets> tap(t);
  // With the zero point folded into the rounding constant it needs no addition; the packs
  // saturate to the output type and the activation clamp is done on bytes.
  const __m512i zero_point = _mm512_set1_epi32(rq.zero_point_folded ? 0 : rq.output_zero_point);
  const __m512i byte_min = _mm512_set1_epi8(static_cast<char>(rq.act_min));
  const __m512i byte_max = _mm512_set1_epi8(static_cast<char>(rq.act_max));
  const __m512i merge = avx512::MergeInLaneOrder();
  const __m512i bytes_in_order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  const size_t stride = t.c_pixel_stride;

  // Channel blocks outside, pixels inside: the block's weights and requantization constants
  // stay in registers or L1 across the row of pixels.
  for (int c0 = 0; c0 < channels; c0 += kBlock) {
    const int rest = channels - c0;
    const __mmask32 mask = rest >= kBlock ? ~__mmask32{0} : (__mmask32{1} << rest) - 1;
    const int16_t* block_weights = weights + static_cast<size_t>(c0) * pairs * 2;
    const __m512i bias0 = _mm512_loadu_si512(rq.bias + c0);
    const __m512i bias1 = _mm512_loadu_si512(rq.bias + c0 + 16);
    const avx512::RequantPanel r0 = avx512::LoadRequantPanel(rq, c0, c0, merge);
    const avx512::RequantPanel r1 = avx512::LoadRequantPanel(rq, c0 + 16, c0 + 16, merge);
    uint8_t* out = kRaw ? nullptr : t.c + c0;
    int32_t* out32 = kRaw ? t.c32 + c0 : nullptr;
    for (int pixel = 0; pixel < pixels; ++pixel, out += kRaw ? 0 : stride) {
      const int16_t* w = block_weights;
      // Two accumulators per half (even / odd tap pairs) shorten the dependency chains.
      __m512i acc0 = bias0;
      __m512i acc1 = bias1;
      __m512i acc0b = _mm512_setzero_si512();
      __m512i acc1b = _mm512_setzero_si512();
      int q = 0;
      for (; q + 1 < pairs; q += 2, w += 4 * kBlock) {
        const __m512i x0 = LoadWidened<kSigned>(tap(pixel, 2 * q) + c0, mask);
        const __m512i x1 = LoadWidened<kSigned>(tap(pixel, 2 * q + 1) + c0, mask);
        acc0 = _mm512_dpwssd_epi32(acc0, _mm512_unpacklo_epi16(x0, x1), _mm512_loadu_si512(w));
        acc1 = _mm512_dpwssd_epi32(acc1, _mm512_unpackhi_epi16(x0, x1),
                                   _mm512_loadu_si512(w + kBlock));
        const __m512i x2 = LoadWidened<kSigned>(tap(pixel, 2 * q + 2) + c0, mask);
        const __m512i x3 = 2 * q + 3 < ks ? LoadWidened<kSigned>(tap(pixel, 2 * q + 3) + c0, mask)
                                          : _mm512_setzero_si512();
        acc0b = _mm512_dpwssd_epi32(acc0b, _mm512_unpacklo_epi16(x2, x3),
                                    _mm512_loadu_si512(w + 2 * kBlock));
        acc1b = _mm512_dpwssd_epi32(acc1b, _mm512_unpackhi_epi16(x2, x3),
                                    _mm512_loadu_si512(w + 3 * kBlock));
      }
      if (q < pairs) {
        const __m512i x0 = LoadWidened<kSigned>(tap(pixel, 2 * q) + c0, mask);
        const __m512i x1 = 2 * q + 1 < ks ? LoadWidened<kSigned>(tap(pixel, 2 * q + 1) + c0, mask)
                                          : _mm512_setzero_si512();
        acc0 = _mm512_dpwssd_epi32(acc0, _mm512_unpacklo_epi16(x0, x1), _mm512_loadu_si512(w));
        acc1 = _mm512_dpwssd_epi32(acc1, _mm512_unpackhi_epi16(x0, x1),
                                   _mm512_loadu_si512(w + kBlock));
      }
      acc0 = _mm512_add_epi32(acc0, acc0b);
      acc1 = _mm512_add_epi32(acc1, acc1b);
      if (kRaw) {
        StoreRaw(acc0, acc1, rest, out32);
        out32 += stride;
        continue;
      }

      const __m512i y0 =
          _mm512_add_epi32(avx512::MultiplyByQuantizedMultiplier<kLeftShift>(acc0, r0), zero_point);
      const __m512i y1 =
          _mm512_add_epi32(avx512::MultiplyByQuantizedMultiplier<kLeftShift>(acc1, r1), zero_point);
      // Per 128-bit lane: channels 8L..8L+3 from y0 and 8L+4..8L+7 from y1, as int16.
      const __m512i words = _mm512_packs_epi32(y0, y1);
      const __m512i bytes =
          kSigned ? _mm512_min_epi8(_mm512_max_epi8(_mm512_packs_epi16(words, words), byte_min),
                                    byte_max)
                  : _mm512_min_epu8(_mm512_max_epu8(_mm512_packus_epi16(words, words), byte_min),
                                    byte_max);
      const __m512i ordered = _mm512_permutexvar_epi64(bytes_in_order, bytes);
      _mm256_mask_storeu_epi8(out, mask, _mm512_castsi512_si256(ordered));
    }
  }
}

template <bool kSigned, bool kLeftShift, bool kRaw = false>
void RunAddressing(const QDwTile& t) {
  if (t.tap_offsets != nullptr) {
    Kernel<kSigned, kLeftShift, true, kRaw>(t);
  } else {
    Kernel<kSigned, kLeftShift, false, kRaw>(t);
  }
}

void Run(const QDwTile& t) {
  if (t.c32 != nullptr) {  // no requantization: the shift does not matter
    t.input_signed ? RunAddressing<true, false, true>(t) : RunAddressing<false, false, true>(t);
  } else if (t.input_signed) {
    t.rq.any_left_shift ? RunAddressing<true, true>(t) : RunAddressing<true, false>(t);
  } else {
    t.rq.any_left_shift ? RunAddressing<false, true>(t) : RunAddressing<false, false>(t);
  }
}

}  // namespace

const QDwKernel kQDwAvx512Vnni = {"qdw_avx512vnni_32", kBlock, QDwOrder::kUnpacked, true, &Run};

}  // namespace octet::optimized
