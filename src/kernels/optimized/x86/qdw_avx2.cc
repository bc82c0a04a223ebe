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

constexpr int kBlock = 16;

template <bool kSigned>
static inline __m256i Widen(__m128i bytes) {
  return kSigned ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes);
}

// 16 channel bytes at p, of which only `count` are readable when count < 16.
template <bool kSigned>
static inline __m256i LoadWidened(const uint8_t* p, int count) {
  if (count >= kBlock) return Widen<kSigned>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
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

template <bool kSigned, bool kOffsets, bool kRaw>
void Kernel(const QDwTile& t) {
  const int channels = t.channels;
  const int ks = t.ks;
  const int pairs = (ks + 1) / 2;
  const auto* weights = static_cast<const int16_t*>(t.w);
  const QGemmRequant rq = t.rq;
  const Taps<kOffsets> tap(t);
  const __m256i zero_point = _mm256_set1_epi32(rq.output_zero_point);
  const __m256i act_min = _mm256_set1_epi32(rq.act_min);
  const __m256i act_max = _mm256_set1_epi32(rq.act_max);
  const size_t stride = t.c_pixel_stride;

  // Pixels outside, channel blocks inside: with 16 ymm registers the per-block constants are
  // reloaded from L1 anyway, and each pixel's input bytes are read while their line is hot.
  for (int pixel = 0; pixel < t.pixels; ++pixel) {
    uint8_t* out = kRaw ? nullptr : t.c + static_cast<size_t>(pixel) * stride;
    int32_t* out32 = kRaw ? t.c32 + static_cast<size_t>(pixel) * stride : nullptr;
    for (int c0 = 0; c0 < channels; c0 += kBlock, out += kRaw ? 0 : kBlock) {
      const int rest = channels - c0;
      const int16_t* w = weights + static_cast<size_t>(c0) * pairs * 2;
      __m256i acc0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rq.bias + c0));
      __m256i acc1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rq.bias + c0 + 8));
      for (int q = 0; q < pairs; ++q, w += 2 * kBlock) {
        const __m256i x0 = LoadWidened<kSigned>(tap(pixel, 2 * q) + c0, rest);
        const __m256i x1 = 2 * q + 1 < ks ? LoadWidened<kSigned>(tap(pixel, 2 * q + 1) + c0, rest)
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
        StoreRaw(acc0, acc1, rest, out32 + c0);
        continue;
      }
      const avx2::RequantLanes r0 = avx2::LoadRequantLanes(rq.multiplier + c0, rq.shift + c0);
      const avx2::RequantLanes r1 =
          avx2::LoadRequantLanes(rq.multiplier + c0 + 8, rq.shift + c0 + 8);
      const __m256i y0 = avx2::FinishOutput(avx2::MultiplyByQuantizedMultiplier(acc0, r0),
                                            zero_point, act_min, act_max);
      const __m256i y1 = avx2::FinishOutput(avx2::MultiplyByQuantizedMultiplier(acc1, r1),
                                            zero_point, act_min, act_max);
      // Per 128-bit lane: channels 8L..8L+3 from y0 and 8L+4..8L+7 from y1.
      const __m256i words = _mm256_packs_epi32(y0, y1);
      const __m256i bytes =
          kSigned ? _mm256_packs_epi16(words, words) : _mm256_packus_epi16(words, words);
      const __m128i ordered = _mm256_castsi256_si128(_mm256_permute4x64_epi64(bytes, 0x08));
      if (rest >= kBlock) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), ordered);
      } else {
        alignas(16) uint8_t buffer[kBlock];
        _mm_store_si128(reinterpret_cast<__m128i*>(buffer), ordered);
        std::memcpy(out, buffer, static_cast<size_t>(rest));
      }
    }
  }
}

void Run(const QDwTile& t) {
  const bool offsets = t.tap_offsets != nullptr;
  if (t.c32 != nullptr) {
    if (t.input_signed) {
      offsets ? Kernel<true, true, true>(t) : Kernel<true, false, true>(t);
    } else {
      offsets ? Kernel<false, true, true>(t) : Kernel<false, false, true>(t);
    }
  } else if (t.input_signed) {
    offsets ? Kernel<true, true, false>(t) : Kernel<true, false, false>(t);
  } else {
    offsets ? Kernel<false, true, false>(t) : Kernel<false, false, false>(t);
  }
}

}  // namespace

const QDwKernel kQDwAvx2 = {"qdw_avx2_16", kBlock, QDwOrder::kUnpacked, false, &Run};

}  // namespace octet::optimized
