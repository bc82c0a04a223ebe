// The machine's int8 multiply-accumulate peak on the AVX-512 VNNI path: independent
// vpdpbusd chains, 64 MACs each. Compiled with the path's flags only.
#include <immintrin.h>

#include <cstdint>

namespace octet::bench {

int64_t PeakLoopAvx512Vnni(int64_t iterations) {
  __m512i acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm512_set1_epi32(i);
  __m512i a = _mm512_set1_epi32(0x01020304);
  const __m512i b = _mm512_set1_epi32(0x05060708);
  for (int64_t it = 0; it < iterations; ++it) {
    for (int i = 0; i < 12; ++i) acc[i] = _mm512_dpbusd_epi32(acc[i], a, b);
    __asm__ volatile("" : "+v"(a));
  }
  __m512i sum = acc[0];
  for (int i = 1; i < 12; ++i) sum = _mm512_add_epi32(sum, acc[i]);
  return _mm512_reduce_add_epi32(sum);
}

}  // namespace octet::bench

namespace octet::bench {

// The float32 FMA peak on the same path: independent vfmadd231ps chains, 16 FMAs each.
int64_t PeakFmaLoopAvx512(int64_t iterations) {
  __m512 acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = _mm512_set1_ps(static_cast<float>(i));
  __m512 a = _mm512_set1_ps(0.999f);
  const __m512 b = _mm512_set1_ps(1e-7f);
  for (int64_t it = 0; it < iterations; ++it) {
    for (int i = 0; i < 12; ++i) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
    __asm__ volatile("" : "+v"(a));
  }
  __m512 sum = acc[0];
  for (int i = 1; i < 12; ++i) sum = _mm512_add_ps(sum, acc[i]);
  return static_cast<int64_t>(_mm512_reduce_add_ps(sum));
}

}  // namespace octet::bench
