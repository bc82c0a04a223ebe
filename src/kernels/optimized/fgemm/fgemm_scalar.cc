// Portable float GEMM micro-kernel: 4 rows x 8 columns of accumulators in plain C++ (the
// compiler keeps them in registers and vectorizes the column loop where it can). The path
// every CPU has, aarch64 included.
#include <algorithm>

#include "kernels/optimized/fgemm/fgemm.h"

namespace octet::optimized {
namespace {

// Tap s of row m: from the table, or the row's pointer plus the tap's offset.
static inline const float* TapRow(const FGemmTile& t, int s, int m) {
  if (t.a0 != nullptr) return t.a0 + m * t.a_row_step + t.tap_offsets[s];
  return t.tap_offsets != nullptr ? t.a[m] + t.tap_offsets[s] : t.a[s * t.a_stride + m];
}
// Row m's output.
static inline float* OutRow(const FGemmTile& t, int m) {
  return t.c0 != nullptr ? t.c0 + m * t.c_row_step : t.c[m];
}

constexpr int kMr = 4;
constexpr int kNr = 8;

template <int MR>
void Kernel(const FGemmTile& t) {
  float acc[MR][kNr];
  for (int m = 0; m < MR; ++m) {
    for (int j = 0; j < kNr; ++j) acc[m][j] = t.w[j];
  }
  const float* w = t.w + kNr;
  for (int s = 0; s < t.ks; ++s) {
    const float* rows[MR];
    for (int m = 0; m < MR; ++m) rows[m] = TapRow(t, s, m);
    for (int k = 0; k < t.kc; ++k, w += kNr) {
      for (int m = 0; m < MR; ++m) {
        const float x = rows[m][k];
        for (int j = 0; j < kNr; ++j) acc[m][j] += x * w[j];
      }
    }
  }
  const int columns = std::min(t.nc, kNr);
  for (int m = 0; m < MR; ++m) {
    float* c = OutRow(t, m);
    for (int j = 0; j < columns; ++j) c[j] = std::min(std::max(acc[m][j], t.act_min), t.act_max);
  }
}

void Run(const FGemmTile& t) {
  switch (t.mr) {
    case 1:
      return Kernel<1>(t);
    case 2:
      return Kernel<2>(t);
    case 3:
      return Kernel<3>(t);
    default:
      return Kernel<4>(t);
  }
}

}  // namespace

const FGemmKernel kFGemmScalar = {"fgemm_scalar_4x8", kMr, kNr, 1, &Run};

}  // namespace octet::optimized
