// The int8 multiply-accumulate peak of the AVX2 path: vpmaddwd on int16 pairs (16 MACs per
// instruction) plus the accumulating add, as the AVX2 micro-kernel does it.
#include <immintrin.h>

#include <cstdint>

namespace octet::bench {

int64_t PeakLoopAvx2(int64_t iterations) {
  // Eight independent multiply-add + add pairs per iteration, written out: compiled from
  // intrinsics, GCC either computes a loop-invariant product once or keeps the accumulators
  // in memory, and the loop then times adds or store forwarding instead of vpmaddwd.
  __m256i a = _mm256_set1_epi32(0x00010002);
  const __m256i b = _mm256_set1_epi32(0x00030004);
  __m256i c0 = _mm256_setzero_si256(), c1 = c0, c2 = c0, c3 = c0;
  __m256i c4 = c0, c5 = c0, c6 = c0, c7 = c0;
  for (int64_t it = 0; it < iterations; ++it) {
    __asm__ volatile(
        "vpmaddwd %[a], %[b], %%ymm0\n\tvpaddd %%ymm0, %[c0], %[c0]\n\t"
        "vpmaddwd %[a], %[b], %%ymm1\n\tvpaddd %%ymm1, %[c1], %[c1]\n\t"
        "vpmaddwd %[a], %[b], %%ymm2\n\tvpaddd %%ymm2, %[c2], %[c2]\n\t"
        "vpmaddwd %[a], %[b], %%ymm3\n\tvpaddd %%ymm3, %[c3], %[c3]\n\t"
        "vpmaddwd %[a], %[b], %%ymm0\n\tvpaddd %%ymm0, %[c4], %[c4]\n\t"
        "vpmaddwd %[a], %[b], %%ymm1\n\tvpaddd %%ymm1, %[c5], %[c5]\n\t"
        "vpmaddwd %[a], %[b], %%ymm2\n\tvpaddd %%ymm2, %[c6], %[c6]\n\t"
        "vpmaddwd %[a], %[b], %%ymm3\n\tvpaddd %%ymm3, %[c7], %[c7]\n\t"
        : [c0] "+x"(c0), [c1] "+x"(c1), [c2] "+x"(c2), [c3] "+x"(c3), [c4] "+x"(c4),
          [c5] "+x"(c5), [c6] "+x"(c6), [c7] "+x"(c7)
        : [a] "x"(a), [b] "x"(b)
        : "xmm0", "xmm1", "xmm2", "xmm3");
  }
  const __m256i sum =
      _mm256_add_epi32(_mm256_add_epi32(_mm256_add_epi32(c0, c1), _mm256_add_epi32(c2, c3)),
                       _mm256_add_epi32(_mm256_add_epi32(c4, c5), _mm256_add_epi32(c6, c7)));
  return _mm256_extract_epi32(sum, 0);
}

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
