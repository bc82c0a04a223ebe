// Quantized depthwise convolution for AVX2: 16 channels per step, taps widened to int16 and
// interleaved into pairs (16-bit unpacks), vpmaddwd for exact pair sums (no vpmaddubsw: its
// 16-bit sums saturate). Channel order as in the AVX-512 kernel (QDwOrder::kUnpacked).
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/qdw/qdw.h"
#include "kernels/optimized/x86/requant_avx2.h"

namespace octet::optimized {
namespace {

// Where pixel p's channel 0 goes (byte outputs).
static inline uint8_t* PixelOutput(const QDwTile& t, int p) {
  return t.c_pixels != nullptr ? t.c_pixels[p] : t.c + static_cast<size_t>(p) * t.c_pixel_stride;
}

constexpr int kBlock = 16;

template <bool kSigned>
static inline __m256i Widen(__m128i bytes) {
  return kSigned ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes);
}

// 16 channel bytes at p, of which only `count` are readable when count < 16: a masked load
// of whole 32-bit words when count is a multiple of 4 (the usual channel counts), else a copy.
template <bool kSigned, bool kFull>
static inline __m256i LoadWidened(const uint8_t* p, int count) {
  if (kFull || count >= kBlock)
    return Widen<kSigned>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  if (count == 8) return Widen<kSigned>(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
  if ((count & 3) == 0) {
    const __m128i words = _mm_cmpgt_epi32(_mm_set1_epi32(count >> 2), _mm_setr_epi32(0, 1, 2, 3));
    return Widen<kSigned>(_mm_maskload_epi32(reinterpret_cast<const int*>(p), words));
  }
  alignas(16) uint8_t buffer[kBlock] = {};
  std::memcpy(buffer, p, static_cast<size_t>(count));
  return Widen<kSigned>(_mm_load_si128(reinterpret_cast<const __m128i*>(buffer)));
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
// The raw sums of channels c0.. (accumulator order, see the epilogue below) in channel order.
static inline void StoreRaw(__m256i acc0, __m256i acc1, int rest, int32_t* out) {
  const __m256i low = _mm256_permute2x128_si256(acc0, acc1, 0x20);   // channels 0-7
  const __m256i high = _mm256_permute2x128_si256(acc0, acc1, 0x31);  // channels 8-15
  if (rest >= kBlock) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), low);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8), high);
    return;
  }
  alignas(32) int32_t buffer[kBlock];
  _mm256_store_si256(reinterpret_cast<__m256i*>(buffer), low);
  _mm256_store_si256(reinterpret_cast<__m256i*>(buffer + 8), high);
  std::memcpy(out, buffer, static_cast<size_t>(rest) * sizeof(int32_t));
}

// Requantizes a pixel's 16 channels (accumulator order) and stores `rest` of them. The zero
// point is added in int32 (wrapping, as on every path); the clamp runs on saturated int16,
// which clamps exactly since the range lies inside the 8-bit type.
template <bool kSigned>
static inline void StoreBlock(__m256i acc0, __m256i acc1, const avx2::RequantLanes& r0,
                              const avx2::RequantLanes& r1, __m256i zero_point, __m256i act_min,
                              __m256i act_max, int rest, uint8_t* out) {
  const __m256i y0 = _mm256_add_epi32(avx2::MultiplyByQuantizedMultiplier(acc0, r0), zero_point);
  const __m256i y1 = _mm256_add_epi32(avx2::MultiplyByQuantizedMultiplier(acc1, r1), zero_point);
  // Per 128-bit lane: channels 8L..8L+3 from y0 and 8L+4..8L+7 from y1.
  const __m256i words =
      _mm256_min_epi16(_mm256_max_epi16(_mm256_packs_epi32(y0, y1), act_min), act_max);
  const __m256i bytes =
      kSigned ? _mm256_packs_epi16(words, words) : _mm256_packus_epi16(words, words);
  const __m128i ordered = _mm256_castsi256_si128(_mm256_permute4x64_epi64(bytes, 0x08));
  if (rest >= kBlock) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), ordered);
  } else {
    avx2::StorePartialBytes(out, ordered, rest);
  }
}

// One channel block's constants, set up once per call.
struct BlockConstants {
  __m256i bias0, bias1;
  avx2::RequantLanes r0, r1;
  __m256i zero_point, act_min, act_max;
};

// Every pixel of the call for the channel block at c0. kFull: the block has 16 channels;
// kTaps: the tap count when known at compile time (0: t.ks), so a 3x3 filter's five tap
// pairs unroll with their pointers in registers.
template <bool kSigned, bool kOffsets, bool kRaw, bool kFull, int kTaps>
void BlockPixels(const QDwTile& t, int c0, const BlockConstants& k) {
  const int ks = kTaps > 0 ? kTaps : t.ks;
  const int pairs = (ks + 1) / 2;
  const int rest = t.channels - c0;
  const int16_t* block_weights =
      static_cast<const int16_t*>(t.w) + static_cast<size_t>(c0) * pairs * 2;
  const Taps<kOffsets> tap(t);
  const size_t stride = t.c_pixel_stride;
  for (int pixel = 0; pixel < t.pixels; ++pixel) {
    const int16_t* w = block_weights;
    __m256i acc0 = k.bias0;
    __m256i acc1 = k.bias1;
#pragma GCC unroll 8
    for (int q = 0; q < pairs; ++q, w += 2 * kBlock) {
      const __m256i x0 = LoadWidened<kSigned, kFull>(tap(pixel, 2 * q) + c0, rest);
      const __m256i x1 = 2 * q + 1 < ks
                             ? LoadWidened<kSigned, kFull>(tap(pixel, 2 * q + 1) + c0, rest)
                             : _mm256_setzero_si256();
      acc0 = _mm256_add_epi32(
          acc0, _mm256_madd_epi16(_mm256_unpacklo_epi16(x0, x1),
                                  _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w))));
      acc1 = _mm256_add_epi32(
          acc1,
          _mm256_madd_epi16(_mm256_unpackhi_epi16(x0, x1),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + kBlock))));
    }
    if (kRaw) {
      StoreRaw(acc0, acc1, kFull ? kBlock : rest, t.c32 + static_cast<size_t>(pixel) * stride + c0);
    } else {
      StoreBlock<kSigned>(acc0, acc1, k.r0, k.r1, k.zero_point, k.act_min, k.act_max,
                          kFull ? kBlock : rest, PixelOutput(t, pixel) + c0);
    }
  }
}

// Eight or fewer channels (a first depthwise layer): two pixels share each vector, pixel p
// in the low 128-bit lane and p + 1 in the high one, with the block's channel 0-7 weights,
// bias and requantization constants copied into both lanes. Half the vectors of a
// 16-channel block would otherwise be padding.
template <bool kSigned>
static inline __m128i LoadHalf(const uint8_t* p, int count) {
  if (count == 8) return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  uint64_t bytes = 0;
  std::memcpy(&bytes, p, static_cast<size_t>(count));
  return _mm_cvtsi64_si128(static_cast<long long>(bytes));
}

static inline __m256i LowLaneTwice(__m256i v) { return _mm256_permute2x128_si256(v, v, 0x00); }

template <bool kSigned, bool kOffsets, int kTaps>
void PixelPairs(const QDwTile& t, const BlockConstants& block) {
  const int ks = kTaps > 0 ? kTaps : t.ks;
  const int pairs = (ks + 1) / 2;
  const int count = t.channels;
  // Accumulator order puts channels 0-3 (acc0) and 4-7 (acc1) in the low lanes of the arrays'
  // first and second 8 entries: those four values, in both lanes.
  const auto twice = [](const int32_t* p) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  };
  const QGemmRequant& rq = t.rq;
  BlockConstants k = block;
  k.bias0 = twice(rq.bias);
  k.bias1 = twice(rq.bias + 8);
  k.r0 = avx2::MakeRequantLanes(twice(rq.multiplier), twice(rq.shift));
  k.r1 = avx2::MakeRequantLanes(twice(rq.multiplier + 8), twice(rq.shift + 8));
  constexpr int kMaxPairs = 64;
  alignas(32) int16_t weights[kMaxPairs * 2 * kBlock];
  const auto* packed = static_cast<const int16_t*>(t.w);
  for (int q = 0; q < 2 * pairs; ++q) {
    const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(packed + q * kBlock));
    _mm256_store_si256(reinterpret_cast<__m256i*>(weights + q * kBlock), LowLaneTwice(w));
  }
  const Taps<kOffsets> tap(t);
  const size_t stride = t.c_pixel_stride;
  int pixel = 0;
  for (; pixel + 1 < t.pixels; pixel += 2) {
    const int16_t* w = weights;
    __m256i acc0 = k.bias0;
    __m256i acc1 = k.bias1;
#pragma GCC unroll 8
    for (int q = 0; q < pairs; ++q, w += 2 * kBlock) {
      const __m256i x0 =
          Widen<kSigned>(_mm_unpacklo_epi64(LoadHalf<kSigned>(tap(pixel, 2 * q), count),
                                            LoadHalf<kSigned>(tap(pixel + 1, 2 * q), count)));
      const __m256i x1 = 2 * q + 1 < ks ? Widen<kSigned>(_mm_unpacklo_epi64(
                                              LoadHalf<kSigned>(tap(pixel, 2 * q + 1), count),
                                              LoadHalf<kSigned>(tap(pixel + 1, 2 * q + 1), count)))
                                        : _mm256_setzero_si256();
      acc0 = _mm256_add_epi32(
          acc0, _mm256_madd_epi16(_mm256_unpacklo_epi16(x0, x1),
                                  _mm256_load_si256(reinterpret_cast<const __m256i*>(w))));
      acc1 = _mm256_add_epi32(
          acc1, _mm256_madd_epi16(_mm256_unpackhi_epi16(x0, x1),
                                  _mm256_load_si256(reinterpret_cast<const __m256i*>(w + kBlock))));
    }
    const __m256i y0 =
        _mm256_add_epi32(avx2::MultiplyByQuantizedMultiplier(acc0, k.r0), k.zero_point);
    const __m256i y1 =
        _mm256_add_epi32(avx2::MultiplyByQuantizedMultiplier(acc1, k.r1), k.zero_point);
    const __m256i words =
        _mm256_min_epi16(_mm256_max_epi16(_mm256_packs_epi32(y0, y1), k.act_min), k.act_max);
    const __m256i bytes =
        kSigned ? _mm256_packs_epi16(words, words) : _mm256_packus_epi16(words, words);
    // Pixel p's channels in bytes 0-7, pixel p + 1's in bytes 8-15.
    const __m128i both = _mm256_castsi256_si128(_mm256_permute4x64_epi64(bytes, 0x08));
    avx2::StorePartialBytes(PixelOutput(t, pixel), both, count);
    avx2::StorePartialBytes(PixelOutput(t, pixel + 1), _mm_srli_si128(both, 8), count);
  }
  if (pixel < t.pixels) {
    QDwTile last = t;
    last.pixels = 1;
    if (kOffsets) {
      last.base = t.base + static_cast<size_t>(pixel) * t.pixel_step;
    } else {
      last.a = t.a + static_cast<size_t>(pixel) * t.ks;
    }
    if (t.c_pixels != nullptr) {
      last.c_pixels = t.c_pixels + pixel;
    } else {
      last.c = t.c + static_cast<size_t>(pixel) * stride;
    }
    BlockPixels<kSigned, kOffsets, false, false, kTaps>(last, 0, block);
  }
}

// Channel blocks outside, pixels inside: a block's bias and requantization constants are
// set up once per call (a row of pixels), and neighbouring pixels share most taps in L1.
template <bool kSigned, bool kOffsets, bool kRaw, int kTaps>
void Kernel(const QDwTile& t) {
  const QGemmRequant& rq = t.rq;
  BlockConstants k;
  k.zero_point = _mm256_set1_epi32(rq.output_zero_point);
  k.act_min = _mm256_set1_epi16(static_cast<int16_t>(rq.act_min));
  k.act_max = _mm256_set1_epi16(static_cast<int16_t>(rq.act_max));
  constexpr int kMaxPairedTaps = 127;
  const bool paired = !kRaw && t.channels <= 8 && t.ks <= kMaxPairedTaps;
  for (int c0 = 0; c0 < t.channels; c0 += kBlock) {
    k.bias0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rq.bias + c0));
    k.bias1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rq.bias + c0 + 8));
    if (!kRaw) {
      k.r0 = avx2::LoadRequantLanes(rq.multiplier + c0, rq.shift + c0);
      k.r1 = avx2::LoadRequantLanes(rq.multiplier + c0 + 8, rq.shift + c0 + 8);
    }
    if (paired) {
      PixelPairs<kSigned, kOffsets, kTaps>(t, k);
    } else if (t.channels - c0 >= kBlock) {
      BlockPixels<kSigned, kOffsets, kRaw, true, kTaps>(t, c0, k);
    } else {
      BlockPixels<kSigned, kOffsets, kRaw, false, kTaps>(t, c0, k);
    }
  }
}

template <bool kSigned, bool kOffsets, bool kRaw>
void ForTaps(const QDwTile& t) {
  if (t.ks == 9) {
    Kernel<kSigned, kOffsets, kRaw, 9>(t);
  } else {
    Kernel<kSigned, kOffsets, kRaw, 0>(t);
  }
}

void Run(const QDwTile& t) {
  const bool offsets = t.tap_offsets != nullptr;
  if (t.c32 != nullptr) {
    if (t.input_signed) {
      offsets ? ForTaps<true, true, true>(t) : ForTaps<true, false, true>(t);
    } else {
      offsets ? ForTaps<false, true, true>(t) : ForTaps<false, false, true>(t);
    }
  } else if (t.input_signed) {
    offsets ? ForTaps<true, true, false>(t) : ForTaps<true, false, false>(t);
  } else {
    offsets ? ForTaps<false, true, false>(t) : ForTaps<false, false, false>(t);
  }
}

}  // namespace

const QDwKernel kQDwAvx2 = {"qdw_avx2_16", kBlock, QDwOrder::kUnpacked, false, &Run, true};

}  // namespace octet::optimized
