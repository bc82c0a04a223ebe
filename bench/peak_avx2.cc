// The int8 multiply-accumulate peak of the AVX2 path: vpmaddwd on int16 pairs (16 MACs per
// instruction) plus the accumulating add, as the AVX2 micro-kernel does it.
#include <immintrin.h>

#include <cstdint>

namespace octet::bench {

int64_t PeakLoopAvx2(int64_t iterations) {
  __m256i acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_epi32(i);
  __m256i a = _mm256_set1_epi32(0x00010002);
  const __m256i b = _mm256_set1_epi32(0x00030004);
  for (int64_t it = 0; it < iterations; ++it) {
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_add_epi32(acc[i], _mm256_madd_epi16(a, b));
    __asm__ volatile("" : "+x"(a));
  }
  __m256i sum = acc[0];
  for (int i = 1; i < 12; ++i) sum = _mm256_add_epi32(sum, acc[i]);
  return _mm256_extract_epi32(sum, 0);
}

}  // namespace octet::bench

namespace octet::bench {

// The float32 FMA peak on the same path: independent vfmadd231ps chains, 8 FMAs each.
int64_t PeakFmaLoopAvx2(int64_t iterations) {
  __m256 acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_ps(static_cast<float>(i));
  __m256 a = _mm256_set1_ps(0.999f);
  const __m256 b = _mm256_set1_ps(1e-7f);
  for (int64_t it = 0; it < iterations; ++it) {
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_ps(acc[i], a, b);
    __asm__ volatile("" : "+x"(a));
  }
  __m256 sum = acc[0];
  for (int i = 1; i < 12; ++i) sum = _mm256_add_ps(sum, acc[i]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  float total = 0.f;
  for (float v : lanes) total += v;
  return static_cast<int64_t>(total);
}

}  // namespace octet::bench
