// int8/uint8 GEMM micro-kernel for AVX2. vpmaddubsw would saturate its 16-bit pair sums, so
// this kernel widens both sides to int16 and uses vpmaddwd (16x16 -> 32-bit pair sums), which
// is exact for every int8 and uint8 value (|w + filter_offset| <= 255, |x| <= 255).
//
// Tile: 4 rows x 16 columns (two ymm of 8 int32); the k loop takes 8 channels at a time,
// broadcasting each (x[k], x[k+1]) pair of a row against the packed (w[k], w[k+1]) pairs.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/qgemm/qgemm.h"
#include "kernels/optimized/x86/requant_avx2.h"

namespace octet::optimized {
namespace {

constexpr int kMr = 4;
constexpr int kNr = 16;
constexpr int kKr = 8;

// Eight activation bytes widened to int16, in both 128-bit halves.
template <bool kSigned>
static inline __m256i LoadWidened(const uint8_t* p) {
  const __m128i raw = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  const __m128i wide = kSigned ? _mm_cvtepi8_epi16(raw) : _mm_cvtepu8_epi16(raw);
  return _mm256_broadcastsi128_si256(wide);
}

template <bool kSigned>
static inline __m256i LoadWidenedPartial(const uint8_t* p, int count) {
  uint8_t buffer[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  std::memcpy(buffer, p, static_cast<size_t>(count));
  return LoadWidened<kSigned>(buffer);
}

template <bool kSigned>
void Kernel(const QGemmTile& t) {
  const auto* w = static_cast<const uint8_t*>(t.w);
  const int kc8 = t.kc & ~7;
  const int kc_padded = (t.kc + kKr - 1) & ~(kKr - 1);

  __m256i acc[kMr][2];
  const __m256i bias0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.rq.bias));
  const __m256i bias1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.rq.bias + 8));
  for (int m = 0; m < kMr; ++m) {
    acc[m][0] = bias0;
    acc[m][1] = bias1;
  }
  if (t.row_offsets != nullptr) {
    for (int m = 0; m < t.mr; ++m) {
      const __m256i r = _mm256_set1_epi32(t.row_offsets[m]);
      acc[m][0] = _mm256_add_epi32(acc[m][0], r);
      acc[m][1] = _mm256_add_epi32(acc[m][1], r);
    }
  }

  for (int s = 0; s < t.ks; ++s) {
    const uint8_t* a[kMr] = {t.a[s * kMr + 0], t.a[s * kMr + 1], t.a[s * kMr + 2],
                             t.a[s * kMr + 3]};
    // Panel layout [k/8][4 pairs][16 columns][2] int16: 64 bytes per pair.
    const uint8_t* ws = w + static_cast<size_t>(s) * kc_padded * kNr * 2;
    auto step = [&](const __m256i* x, const uint8_t* wk) {
      for (int pair = 0; pair < 4; ++pair) {
        const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wk + pair * 64));
        const __m256i w1 =
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wk + pair * 64 + 32));
        for (int m = 0; m < kMr; ++m) {
          __m256i xp;
          switch (pair) {
            case 0:
              xp = _mm256_shuffle_epi32(x[m], 0x00);
              break;
            case 1:
              xp = _mm256_shuffle_epi32(x[m], 0x55);
              break;
            case 2:
              xp = _mm256_shuffle_epi32(x[m], 0xAA);
              break;
            default:
              xp = _mm256_shuffle_epi32(x[m], 0xFF);
              break;
          }
          acc[m][0] = _mm256_add_epi32(acc[m][0], _mm256_madd_epi16(xp, w0));
          acc[m][1] = _mm256_add_epi32(acc[m][1], _mm256_madd_epi16(xp, w1));
        }
      }
    };
    int k = 0;
    for (; k < kc8; k += 8) {
      const __m256i x[kMr] = {LoadWidened<kSigned>(a[0] + k), LoadWidened<kSigned>(a[1] + k),
                              LoadWidened<kSigned>(a[2] + k), LoadWidened<kSigned>(a[3] + k)};
      step(x, ws + static_cast<size_t>(k) * kNr * 2);
    }
    if (k < t.kc) {
      const int rest = t.kc - k;
      const __m256i x[kMr] = {
          LoadWidenedPartial<kSigned>(a[0] + k, rest), LoadWidenedPartial<kSigned>(a[1] + k, rest),
          LoadWidenedPartial<kSigned>(a[2] + k, rest), LoadWidenedPartial<kSigned>(a[3] + k, rest)};
      step(x, ws + static_cast<size_t>(k) * kNr * 2);
    }
  }

  if (t.c32 != nullptr) {
    for (int m = 0; m < t.mr; ++m) {
      int32_t* out = t.c32 + static_cast<size_t>(m) * t.c_row_stride;
      for (int half = 0; half < 2; ++half) {
        const int columns = t.nc - half * 8;
        if (columns <= 0) break;
        if (columns >= 8) {
          _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + half * 8), acc[m][half]);
        } else {
          alignas(32) int32_t lanes[8];
          _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc[m][half]);
          for (int j = 0; j < columns; ++j) out[half * 8 + j] = lanes[j];
        }
      }
    }
    return;
  }
  const __m256i zero_point = _mm256_set1_epi32(t.rq.output_zero_point);
  const __m256i act_min = _mm256_set1_epi32(t.rq.act_min);
  const __m256i act_max = _mm256_set1_epi32(t.rq.act_max);
  for (int half = 0; half < 2; ++half) {
    const int columns = t.nc - half * 8;
    if (columns <= 0) break;
    const avx2::RequantLanes rq =
        avx2::LoadRequantLanes(t.rq.multiplier + half * 8, t.rq.shift + half * 8);
    for (int m = 0; m < t.mr; ++m) {
      const __m256i scaled = avx2::MultiplyByQuantizedMultiplier(acc[m][half], rq);
      avx2::StoreLowBytes(t.c + static_cast<size_t>(m) * t.c_row_stride + half * 8,
                          avx2::FinishOutput(scaled, zero_point, act_min, act_max),
                          columns < 8 ? columns : 8);
    }
  }
}

void Run(const QGemmTile& t) {
  if (t.input_signed) {
    Kernel<true>(t);
  } else {
    Kernel<false>(t);
  }
}

}  // namespace

const QGemmKernel kQGemmAvx2 = {"qgemm_avx2_4x16",          kMr,   kNr, kKr, 1,
                                QWeightFormat::kInt16Pairs, false, &Run};

}  // namespace octet::optimized
