// float ADD/SUB/MUL/DIV for the avx2 path: the shared loop of fbinary_simd.h on 8-lane
// vectors.
#include <immintrin.h>

#include "kernels/optimized/x86/fbinary_simd.h"

namespace octet::optimized {
namespace {

struct Avx2 {
  using V = __m256;
  static constexpr size_t kLanes = 8;
  static V Load(const float* p) { return _mm256_loadu_ps(p); }
  static void Store(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V Set1(float x) { return _mm256_set1_ps(x); }
  static V Add(V a, V b) { return _mm256_add_ps(a, b); }
  static V Sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V Mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V Div(V a, V b) { return _mm256_div_ps(a, b); }
  static V Min(V a, V b) { return _mm256_min_ps(a, b); }
  static V Max(V a, V b) { return _mm256_max_ps(a, b); }
};

}  // namespace

const FBinaryKernel kFBinaryAvx2 = {"fbinary_avx2", &SimdRun<Avx2>};

}  // namespace octet::optimized
