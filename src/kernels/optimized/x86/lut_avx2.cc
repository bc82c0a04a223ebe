// 256-entry byte lookups on AVX2 with vpshufb, which looks up 16-entry tables and gives 0
// where an index byte has its top bit set. The table is cut into sixteen 16-entry chunks
// T_0..T_15; index x = 16 j + r is stepped down by 16 per chunk, wrapping for the first 8
// steps and with signed saturation after. Working through which steps see a top-bit-clear
// index (and so contribute chunk k's entry r):
//   x < 128:  steps 0..j;      x >= 128: steps j-7..j.
// So the chunks enter XOR-folded, C_k = T_k ^ T_(k-1) ^ T_(k-8) ^ T_(k-9) (absent terms 0),
// whose XOR over either range telescopes to T_j: the lookup, exactly, for every byte.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/lut/lut.h"

namespace octet::optimized {
namespace {

struct FoldedChunks {
  __m256i c[16];
};

FoldedChunks Fold(const uint8_t* table) {
  FoldedChunks f;
  for (int k = 0; k < 16; ++k) {
    uint8_t folded[16];
    for (int r = 0; r < 16; ++r) {
      uint8_t v = table[16 * k + r];
      if (k >= 1) v ^= table[16 * (k - 1) + r];
      if (k >= 8) v ^= table[16 * (k - 8) + r];
      if (k >= 9) v ^= table[16 * (k - 9) + r];
      folded[r] = v;
    }
    f.c[k] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(folded)));
  }
  return f;
}

static inline __m256i Lookup(const FoldedChunks& f, __m256i x) {
  const __m256i sixteen = _mm256_set1_epi8(16);
  __m256i y = _mm256_shuffle_epi8(f.c[0], x);
  for (int k = 1; k < 16; ++k) {
    x = k <= 8 ? _mm256_sub_epi8(x, sixteen) : _mm256_subs_epi8(x, sixteen);
    y = _mm256_xor_si256(y, _mm256_shuffle_epi8(f.c[k], x));
  }
  return y;
}

void Apply(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t n) {
  if (n < 64) {  // folding the chunks costs more than a few lookups
    for (size_t i = 0; i < n; ++i) out[i] = table[in[i]];
    return;
  }
  const FoldedChunks f = Fold(table);
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i + 32));
    const __m256i ya = Lookup(f, a);
    const __m256i yb = Lookup(f, b);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), ya);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 32), yb);
  }
  // The rest: a vector, then single bytes (no overlapping re-run: in place, a re-read byte
  // would already be looked up).
  if (i + 32 <= n) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), Lookup(f, a));
    i += 32;
  }
  for (; i < n; ++i) out[i] = table[in[i]];
}

}  // namespace

const LutKernel kLutAvx2 = {"lut_avx2", &Apply};

}  // namespace octet::optimized
