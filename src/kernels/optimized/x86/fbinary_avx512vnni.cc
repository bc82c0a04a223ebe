// float ADD/SUB/MUL/DIV for the avx512vnni path: the shared loop of fbinary_simd.h on 16-lane
// vectors.
#include <immintrin.h>

#include "kernels/optimized/x86/fbinary_simd.h"

namespace octet::optimized {
namespace {

struct Avx512 {
  using V = __m512;
  static constexpr size_t kLanes = 16;
  static V Load(const float* p) { return _mm512_loadu_ps(p); }
  static void Store(float* p, V v) { _mm512_storeu_ps(p, v); }
  static V Set1(float x) { return _mm512_set1_ps(x); }
  static V Add(V a, V b) { return _mm512_add_ps(a, b); }
  static V Sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V Mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V Div(V a, V b) { return _mm512_div_ps(a, b); }
  static V Min(V a, V b) { return _mm512_min_ps(a, b); }
  static V Max(V a, V b) { return _mm512_max_ps(a, b); }
};

}  // namespace

const FBinaryKernel kFBinaryAvx512 = {"fbinary_avx512", &SimdRun<Avx512>};

}  // namespace octet::optimized
