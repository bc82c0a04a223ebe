// Quantized depthwise convolution for AVX-512 (BW + VNNI). Per step 32 channels: each tap's
// bytes widen to int16 (vpmovsxbw / vpmovzxbw), two taps interleave into (x[t], x[t+1]) pairs
// with 16-bit unpacks, and vpdpwssd adds both products to an int32 lane: exact for every
// int8/uint8 value. The unpacks leave channels in "accumulator order" (QDwOrder::kUnpacked);
// the first saturating pack of the epilogue restores natural order.
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "kernels/optimized/qdw/qdw.h"
#include "kernels/optimized/x86/requant_avx512.h"

namespace octet::optimized {
namespace {

constexpr int kBlock = 32;

// Full blocks use plain loads and stores: masked ones cost several times more on some cores
// (Zen 4 measured), and a full block reads and writes exactly its own 32 bytes.
template <bool kSigned, bool kFull>
static inline __m512i LoadWidened(const uint8_t* p, __mmask32 mask) {
  const __m256i bytes = kFull ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))
                              : _mm256_maskz_loadu_epi8(mask, p);
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
  const bool add_zero_point = !rq.zero_point_folded;
  const __m512i zero_point = _mm512_set1_epi32(rq.output_zero_point);
  const __m512i byte_min = _mm512_set1_epi8(static_cast<char>(rq.act_min));
  const __m512i byte_max = _mm512_set1_epi8(static_cast<char>(rq.act_max));
  const __m512i merge = avx512::MergeInLaneOrder();
  const __m512i bytes_in_order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
  const size_t stride = t.c_pixel_stride;

  // Channel blocks outside, pixels inside: the block's weights and requantization constants
  // stay in registers or L1 across the row of pixels.
  const auto block = [&](int c0, auto full) {
    constexpr bool kFull = decltype(full)::value;
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
        const __m512i x0 = LoadWidened<kSigned, kFull>(tap(pixel, 2 * q) + c0, mask);
        const __m512i x1 = LoadWidened<kSigned, kFull>(tap(pixel, 2 * q + 1) + c0, mask);
        acc0 = _mm512_dpwssd_epi32(acc0, _mm512_unpacklo_epi16(x0, x1), _mm512_loadu_si512(w));
        acc1 = _mm512_dpwssd_epi32(acc1, _mm512_unpackhi_epi16(x0, x1),
                                   _mm512_loadu_si512(w + kBlock));
        const __m512i x2 = LoadWidened<kSigned, kFull>(tap(pixel, 2 * q + 2) + c0, mask);
        const __m512i x3 = 2 * q + 3 < ks
                               ? LoadWidened<kSigned, kFull>(tap(pixel, 2 * q + 3) + c0, mask)
                               : _mm512_setzero_si512();
        acc0b = _mm512_dpwssd_epi32(acc0b, _mm512_unpacklo_epi16(x2, x3),
                                    _mm512_loadu_si512(w + 2 * kBlock));
        acc1b = _mm512_dpwssd_epi32(acc1b, _mm512_unpackhi_epi16(x2, x3),
                                    _mm512_loadu_si512(w + 3 * kBlock));
      }
      if (q < pairs) {
        const __m512i x0 = LoadWidened<kSigned, kFull>(tap(pixel, 2 * q) + c0, mask);
        const __m512i x1 = 2 * q + 1 < ks
                               ? LoadWidened<kSigned, kFull>(tap(pixel, 2 * q + 1) + c0, mask)
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

      __m512i y0 = avx512::MultiplyByQuantizedMultiplier<kLeftShift>(acc0, r0);
      __m512i y1 = avx512::MultiplyByQuantizedMultiplier<kLeftShift>(acc1, r1);
      if (add_zero_point) {
        y0 = _mm512_add_epi32(y0, zero_point);
        y1 = _mm512_add_epi32(y1, zero_point);
      }
      // Per 128-bit lane: channels 8L..8L+3 from y0 and 8L+4..8L+7 from y1, as int16.
      const __m512i words = _mm512_packs_epi32(y0, y1);
      const __m512i bytes =
          kSigned ? _mm512_min_epi8(_mm512_max_epi8(_mm512_packs_epi16(words, words), byte_min),
                                    byte_max)
                  : _mm512_min_epu8(_mm512_max_epu8(_mm512_packus_epi16(words, words), byte_min),
                                    byte_max);
      const __m512i ordered = _mm512_permutexvar_epi64(bytes_in_order, bytes);
      if (kFull) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_castsi512_si256(ordered));
      } else {
        _mm256_mask_storeu_epi8(out, mask, _mm512_castsi512_si256(ordered));
      }
    }
  };
  int c0 = 0;
  for (; c0 + kBlock <= channels; c0 += kBlock) block(c0, std::true_type{});
  if (c0 < channels) block(c0, std::false_type{});
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

// --- 3x3 rows on byte quads (QDwRow3x3) ------------------------------------------------
// vpdpbusd adds four u8 x s8 products per int32 lane: each channel's lane gets a filter
// column's three rows at once, (x[0][c], x[1][c], x[2][c], 0) against the packed weights
// (w[0][kx][c], w[1][kx][c], w[2][kx][c], 0). An input column's quads are built once and read
// by every output pixel whose window covers it: 3 vpdpbusd per 16 outputs instead of 9
// widened taps. Activations are fed as x ^ 0x80 (x + 128, unsigned); the packer folded
// -128 * Σw into the bias, and padding columns hold the zero point, whose terms cancel.

constexpr int kRowBlock = 16;

// The row kernel's helpers are lambdas that GCC stops inlining once the kernel grows (two
// rows); each must be inlined for its vectors to stay in registers.
#define OCTET_INLINE __attribute__((always_inline))

// The quads of one input column, 16 channels: three (or four: kRows) rows' 16 bytes gathered
// into 128-bit lanes (lane L gets each row's channels 4L..4L+3), then transposed within each
// lane. With three rows the fourth byte is 0 ^ 0x80 and meets a zero weight.
template <bool kFull, int kRows>
static inline __m512i ColumnQuads(const uint8_t* const* r, size_t i, const size_t* step,
                                  __mmask16 mask, __m512i gather, __m512i transpose, __m512i flip) {
  const auto load = [mask](const uint8_t* p) {
    return kFull ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(p))
                 : _mm_maskz_loadu_epi8(mask, p);
  };
  __m512i rows = _mm512_zextsi128_si512(load(r[0] + i * step[0]));
  rows = _mm512_inserti32x4(rows, load(r[1] + i * step[1]), 1);
  rows = _mm512_inserti32x4(rows, load(r[2] + i * step[2]), 2);
  if (kRows == 4) rows = _mm512_inserti32x4(rows, load(r[3] + i * step[3]), 3);
  const __m512i lanes = _mm512_permutexvar_epi32(gather, rows);
  return _mm512_xor_si512(_mm512_shuffle_epi8(lanes, transpose), flip);
}

// kAddZeroPoint: the zero point is not folded into the rounding (see QGemmRequant).
// kTwoRows: also the next output row (QDwRow3x3::c_next), from the same four-row columns.
template <bool kLeftShift, bool kAddZeroPoint, bool kFull, bool kTwoRows>
static inline void RowBlock3x3(const QDwRow3x3& r, int c0, __mmask16 mask) {
  const uint8_t* w = static_cast<const uint8_t*>(r.w) + static_cast<size_t>(c0) * 12;
  const __m512i w0 = _mm512_loadu_si512(w);
  const __m512i w1 = _mm512_loadu_si512(w + 64);
  const __m512i w2 = _mm512_loadu_si512(w + 128);
  // The next row's weights: each quad a byte up, (0, w[0][kx][c], w[1][kx][c], w[2][kx][c]),
  // against the column's rows 0-3.
  const __m512i v0 = _mm512_slli_epi32(w0, 8);
  const __m512i v1 = _mm512_slli_epi32(w1, 8);
  const __m512i v2 = _mm512_slli_epi32(w2, 8);
  const __m512i bias = _mm512_loadu_si512(r.rq.bias + c0);
  const avx512::RequantPanel rq =
      avx512::LoadRequantPanel(r.rq, c0, c0, avx512::MergeInLaneOrder());
  const __m512i zero_point = _mm512_set1_epi32(r.rq.output_zero_point);
  const __m512i byte_min = _mm512_set1_epi8(static_cast<char>(r.rq.act_min));
  const __m512i byte_max = _mm512_set1_epi8(static_cast<char>(r.rq.act_max));
  const __m512i gather = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  // Per lane, byte 4c + j takes byte 4j + c: (0, 4, 8, 12, 1, 5, 9, 13, ...) as dwords.
  const __m512i transpose = _mm512_setr4_epi32(0x0C080400, 0x0D090501, 0x0E0A0602, 0x0F0B0703);
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  // A padding column: every row holds the zero point (the fourth byte meets a zero weight).
  const __m512i padding = _mm512_set1_epi8(static_cast<char>(r.input_zero_point ^ 0x80));
  const uint8_t* const rows[4] = {r.rows[0] + c0, r.rows[1] + c0, r.rows[2] + c0,
                                  kTwoRows ? r.rows[3] + c0 : nullptr};
  const int in_w = r.in_w;
  const auto column = [&](int x) OCTET_INLINE {
    if (x < 0 || x >= in_w) return padding;
    return ColumnQuads < kFull, kTwoRows ? 4
                                         : 3 > (rows, static_cast<size_t>(x), r.column_step, mask,
                                                gather, transpose, flip);
  };
  const size_t stride = static_cast<size_t>(r.channels);
  const auto requantize = [&](__m512i acc) OCTET_INLINE {
    const __m512i y = avx512::MultiplyByQuantizedMultiplier<kLeftShift>(acc, rq);
    return kAddZeroPoint ? _mm512_add_epi32(y, zero_point) : y;
  };
  const auto store_one = [&](__m512i acc, uint8_t* o) OCTET_INLINE {
    const __m128i bytes = _mm_min_epi8(
        _mm_max_epi8(_mm512_cvtsepi32_epi8(requantize(acc)), _mm512_castsi512_si128(byte_min)),
        _mm512_castsi512_si128(byte_max));
    if (kFull) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o), bytes);
    } else {
      _mm_mask_storeu_epi8(o, mask, bytes);
    }
  };
  // A pixel of this row (weights w) or of the next (weights v) from its three columns.
  const auto pixel = [&](__m512i a, __m512i b, __m512i c) OCTET_INLINE {
    return _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(_mm512_dpbusd_epi32(bias, a, w0), b, w1), c, w2);
  };
  const auto pixel_next = [&](__m512i a, __m512i b, __m512i c) OCTET_INLINE {
    return _mm512_dpbusd_epi32(_mm512_dpbusd_epi32(_mm512_dpbusd_epi32(bias, a, v0), b, v1), c, v2);
  };
  // Four pixels per step: their chains overlap, and whole blocks store them with one pack.
  const auto store_four = [&](const __m512i* acc, uint8_t* o) OCTET_INLINE {
    if (kFull) {
      avx512::StoreFourRows<true>(o, stride, requantize(acc[0]), requantize(acc[1]),
                                  requantize(acc[2]), requantize(acc[3]), byte_min, byte_max);
    } else {
      for (int i = 0; i < 4; ++i) store_one(acc[i], o + i * stride);
    }
  };
  // Four pixels whose windows start at columns q[0], q[kStep], ... (the horizontal stride:
  // a constant, so that the columns stay in registers).
  const auto four = [&](auto step, const __m512i* q, uint8_t* o, uint8_t* o_next) OCTET_INLINE {
    constexpr int kStep = decltype(step)::value;
    __m512i acc[4];
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) acc[i] = pixel(q[kStep * i], q[kStep * i + 1], q[kStep * i + 2]);
    store_four(acc, o);
    if (kTwoRows) {
#pragma GCC unroll 4
      for (int i = 0; i < 4; ++i) {
        acc[i] = pixel_next(q[kStep * i], q[kStep * i + 1], q[kStep * i + 2]);
      }
      store_four(acc, o_next);
    }
  };
  const auto one = [&](__m512i a, __m512i b, __m512i c, uint8_t* o, uint8_t* o_next) OCTET_INLINE {
    store_one(pixel(a, b, c), o);
    if (kTwoRows) store_one(pixel_next(a, b, c), o_next);
  };
  uint8_t* out = r.c + c0;
  uint8_t* out_next = kTwoRows ? r.c_next + c0 : nullptr;
  const size_t next_step = kTwoRows ? stride : 0;
  int x = -r.pad_w;  // the window's first input column
  int ox = 0;
  if (r.stride_w == 1) {
    __m512i q[6];
    q[0] = column(x);
    q[1] = column(x + 1);
    for (; ox + 4 <= r.out_w; ox += 4, x += 4, out += 4 * stride, out_next += 4 * next_step) {
      for (int i = 0; i < 4; ++i) q[i + 2] = column(x + i + 2);
      four(std::integral_constant<int, 1>{}, q, out, out_next);
      q[0] = q[4];
      q[1] = q[5];
    }
    for (; ox < r.out_w; ++ox, ++x, out += stride, out_next += next_step) {
      const __m512i q2 = column(x + 2);
      one(q[0], q[1], q2, out, out_next);
      q[0] = q[1];
      q[1] = q2;
    }
  } else {
    __m512i q[9];
    q[0] = column(x);
    for (; ox + 4 <= r.out_w; ox += 4, x += 8, out += 4 * stride, out_next += 4 * next_step) {
      for (int i = 1; i < 9; ++i) q[i] = column(x + i);
      four(std::integral_constant<int, 2>{}, q, out, out_next);
      q[0] = q[8];
    }
    for (; ox < r.out_w; ++ox, x += 2, out += stride, out_next += next_step) {
      const __m512i q1 = column(x + 1);
      const __m512i q2 = column(x + 2);
      one(q[0], q1, q2, out, out_next);
      q[0] = q2;
    }
  }
}

template <bool kLeftShift, bool kAddZeroPoint, bool kTwoRows>
void RunRow3x3With(const QDwRow3x3& r) {
  int c0 = 0;
  for (; c0 + kRowBlock <= r.channels; c0 += kRowBlock) {
    RowBlock3x3<kLeftShift, kAddZeroPoint, true, kTwoRows>(r, c0, static_cast<__mmask16>(0xFFFF));
  }
  if (c0 < r.channels) {
    RowBlock3x3<kLeftShift, kAddZeroPoint, false, kTwoRows>(
        r, c0, static_cast<__mmask16>((1u << (r.channels - c0)) - 1));
  }
}

template <bool kTwoRows>
void RunRow3x3Rows(const QDwRow3x3& r) {
  if (r.rq.zero_point_folded) {
    r.rq.any_left_shift ? RunRow3x3With<true, false, kTwoRows>(r)
                        : RunRow3x3With<false, false, kTwoRows>(r);
  } else {
    r.rq.any_left_shift ? RunRow3x3With<true, true, kTwoRows>(r)
                        : RunRow3x3With<false, true, kTwoRows>(r);
  }
}

void RunRow3x3(const QDwRow3x3& r) {
  r.c_next != nullptr ? RunRow3x3Rows<true>(r) : RunRow3x3Rows<false>(r);
}

}  // namespace

const QDwKernel kQDwAvx512Vnni = {"qdw_avx512vnni_32", kBlock, QDwOrder::kUnpacked, true, &Run};
const QDwKernel kQDwAvx512VnniRow3x3 = {
    "qdw_avx512vnni_3x3", kRowBlock, QDwOrder::kRowQuads, true, nullptr, false, &RunRow3x3};

}  // namespace octet::optimized
