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

// The tile's first weight (past the panel's bias and any skipped channels) and the weights
// skipped after each tap (clipped windows; see FGemmTile::k_skip).
static inline const float* FirstWeight(const FGemmTile& t) {
  return t.w + static_cast<size_t>(kNr) * (1 + static_cast<size_t>(t.k_skip));
}
static inline size_t TapGap(const FGemmTile& t) {
  return t.kc_stride > t.kc ? static_cast<size_t>(t.kc_stride - t.kc) * kNr : 0;
}

// Rows first .. first + MR - 1 of the tile.
template <int MR>
void Kernel(const FGemmTile& t, int first) {
  float acc[MR][kNr];
  for (int m = 0; m < MR; ++m) {
    for (int j = 0; j < kNr; ++j) acc[m][j] = t.w[j];
  }
  const float* w = FirstWeight(t);
  const size_t tap_gap = TapGap(t);
  for (int s = 0; s < t.ks; ++s) {
    const float* rows[MR];
    for (int m = 0; m < MR; ++m) rows[m] = TapRow(t, s, first + m);
    for (int k = 0; k < t.kc; ++k, w += kNr) {
      for (int m = 0; m < MR; ++m) {
        const float x = rows[m][k];
        for (int j = 0; j < kNr; ++j) acc[m][j] += x * w[j];
      }
    }
    w += tap_gap;
  }
  const int columns = std::min(t.nc, kNr);
  for (int m = 0; m < MR; ++m) {
    float* c = OutRow(t, first + m);
    for (int j = 0; j < columns; ++j) c[j] = std::min(std::max(acc[m][j], t.act_min), t.act_max);
    if (t.residual != nullptr) {  // a fused ADD (FGemmTile::residual)
      const float* r = t.residual + (c - t.c_base);
      for (int j = 0; j < columns; ++j) {
        c[j] = std::min(std::max(c[j] + r[j], t.residual_min), t.residual_max);
      }
    }
  }
}

// The tile's rows in passes of kMr (uniform-row tiles may hold any number of rows).
void Run(const FGemmTile& t) {
  int first = 0;
  for (; t.mr - first >= kMr; first += kMr) Kernel<kMr>(t, first);
  switch (t.mr - first) {
    case 1:
      return Kernel<1>(t, first);
    case 2:
      return Kernel<2>(t, first);
    case 3:
      return Kernel<3>(t, first);
    default:
      return;
  }
}

}  // namespace

const FGemmKernel kFGemmScalar = {"fgemm_scalar_4x8", kMr, kNr, 1, &Run};

}  // namespace octet::optimized
