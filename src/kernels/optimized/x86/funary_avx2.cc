// LOGISTIC, TANH and exp eight lanes at a time on glibc's AVX2 vector math functions (libmvec's
// _ZGVdN8v_expf and _ZGVdN8v_tanhf, the entry points GCC's vectorizer itself calls). Only
// built when the build found libmvec (OCTET_HAVE_LIBMVEC).
#include <immintrin.h>

#include <cstring>

#include "kernels/optimized/funary/funary.h"

#if defined(OCTET_HAVE_LIBMVEC)

extern "C" __m256 _ZGVdN8v_expf(__m256 x);
extern "C" __m256 _ZGVdN8v_tanhf(__m256 x);

namespace octet::optimized {
namespace {

// The reference's cut-offs: above kUpper the result is 1, below kLower it is exp(x) (the
// reference does not trust 1 / (1 + exp(-x)) out there).
static inline __m256 Logistic8(__m256 x) {
  const __m256 upper = _mm256_set1_ps(16.619047164916992188f);
  const __m256 lower = _mm256_set1_ps(-9.f);
  const __m256 one = _mm256_set1_ps(1.f);
  const __m256 below = _mm256_cmp_ps(x, lower, _CMP_LT_OQ);
  const __m256 above = _mm256_cmp_ps(x, upper, _CMP_GT_OQ);
  // One exp per lane: of x below the lower cut-off, of -x elsewhere.
  const __m256 neg = _mm256_sub_ps(_mm256_setzero_ps(), x);
  const __m256 e = _ZGVdN8v_expf(_mm256_blendv_ps(neg, x, below));
  const __m256 mid = _mm256_div_ps(one, _mm256_add_ps(one, e));
  return _mm256_blendv_ps(_mm256_blendv_ps(mid, e, below), one, above);
}

template <__m256 (*kFn)(__m256)>
void Map(const float* in, float* out, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, kFn(_mm256_loadu_ps(in + i)));
  if (i < n) {
    // The tail through a zero-padded block (the memory after `in` may end).
    float block[8] = {};
    std::memcpy(block, in + i, (n - i) * sizeof(float));
    _mm256_storeu_ps(block, kFn(_mm256_loadu_ps(block)));
    std::memcpy(out + i, block, (n - i) * sizeof(float));
  }
}

}  // namespace

const FUnaryKernel kFUnaryAvx2 = {"funary_avx2", &Map<Logistic8>, &Map<_ZGVdN8v_tanhf>,
                                  &Map<_ZGVdN8v_expf>};

}  // namespace octet::optimized

#endif  // OCTET_HAVE_LIBMVEC
