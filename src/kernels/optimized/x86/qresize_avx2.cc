// 8-bit RESIZE_BILINEAR's two passes on AVX2, eight int32 lanes at a time (the products fit:
// weights in [0, 1024], blended rows below 2^18 in magnitude). The AVX-512 path runs this
// kernel too: the passes are bound by loads and stores, not lanes.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/resize/qresize.h"

namespace octet::optimized {
namespace {

template <bool kSigned>
static inline __m256i Load8(const uint8_t* p) {
  const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return kSigned ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes);
}

template <bool kSigned>
void VerticalTyped(const uint8_t* row0, const uint8_t* row1, size_t n, int32_t fy, int32_t* v) {
  const __m256i wy1 = _mm256_set1_epi32(fy);
  const __m256i wy0 = _mm256_set1_epi32(1024 - fy);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i sum = _mm256_add_epi32(_mm256_mullo_epi32(Load8<kSigned>(row0 + i), wy0),
                                         _mm256_mullo_epi32(Load8<kSigned>(row1 + i), wy1));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(v + i), sum);
  }
  for (; i < n; ++i) {
    const int32_t a = kSigned ? static_cast<int8_t>(row0[i]) : row0[i];
    const int32_t b = kSigned ? static_cast<int8_t>(row1[i]) : row1[i];
    v[i] = a * (1024 - fy) + b * fy;
  }
}

void Vertical(const uint8_t* row0, const uint8_t* row1, size_t n, int32_t fy, bool is_signed,
              int32_t* v) {
  if (is_signed) {
    VerticalTyped<true>(row0, row1, n, fy, v);
  } else {
    VerticalTyped<false>(row0, row1, n, fy, v);
  }
}

// Eight channels of one output pixel: the blend, rounded half away from zero (|sum| + 2^19
// shifted, the sign put back), as 8 bytes in the low half (the low byte of each lane).
static inline __m128i Blend8(const int32_t* a, const int32_t* b, __m256i wx0, __m256i wx1) {
  const __m256i sum = _mm256_add_epi32(
      _mm256_mullo_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a)), wx0),
      _mm256_mullo_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b)), wx1));
  const __m256i magnitude =
      _mm256_srli_epi32(_mm256_add_epi32(_mm256_abs_epi32(sum), _mm256_set1_epi32(1 << 19)), 20);
  const __m256i rounded = _mm256_sign_epi32(magnitude, sum);
  const __m256i pick =
      _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1,
                       -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i bytes = _mm256_shuffle_epi8(rounded, pick);
  return _mm256_castsi256_si128(
      _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0)));
}

static inline void Store8(uint8_t* p, __m128i bytes) {
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), bytes);
}

void Horizontal(const int32_t* v, const QResizeColumn* columns, int out_w, int depth,
                uint8_t* out) {
  for (int x = 0; x < out_w; ++x, out += depth) {
    const QResizeColumn& col = columns[x];
    const __m256i wx1 = _mm256_set1_epi32(col.fx);
    const __m256i wx0 = _mm256_set1_epi32(1024 - col.fx);
    const int32_t* a = v + col.x0;
    const int32_t* b = v + col.x1;
    if (depth >= 8) {
      // Whole vectors, the last one ending at the last channel (overlapping the one before
      // it when depth is not a multiple of 8: the same values written twice).
      for (int c = 0; c < depth - 8; c += 8) Store8(out + c, Blend8(a + c, b + c, wx0, wx1));
      Store8(out + depth - 8, Blend8(a + depth - 8, b + depth - 8, wx0, wx1));
    } else if (static_cast<long>(out_w - x) * depth >= 8) {
      // A vector spills into the next pixels' channels, which those rewrite after.
      Store8(out, Blend8(a, b, wx0, wx1));
    } else {
      uint64_t bytes = static_cast<uint64_t>(_mm_cvtsi128_si64(Blend8(a, b, wx0, wx1)));
      for (int c = 0; c < depth; ++c, bytes >>= 8) out[c] = static_cast<uint8_t>(bytes);
    }
  }
}

}  // namespace

const QResizeKernel kQResizeAvx2 = {"qresize_avx2", &Vertical, &Horizontal};

}  // namespace octet::optimized
