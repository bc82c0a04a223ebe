// The portable micro-kernel: the int16-pairs layout in plain C++. It is the optimized path on
// CPUs without a SIMD path (and the model for a NEON one), and the twin every ISA kernel is
// tested against besides the reference.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "kernels/optimized/qgemm/qgemm.h"
#include "quant/quantization_util.h"

namespace octet::optimized {
namespace {

constexpr int kMr = 4;
constexpr int kNr = 16;
constexpr int kKr = 8;

int32_t LoadInput(const uint8_t* p, bool input_signed) {
  return input_signed ? static_cast<int32_t>(static_cast<int8_t>(*p)) : static_cast<int32_t>(*p);
}

void RunScalar(const QGemmTile& t) {
  const size_t kc_padded = (static_cast<size_t>(t.kc) + kKr - 1) / kKr * kKr;
  // Accumulate modulo 2^32 (unsigned) like the SIMD kernels: no signed-overflow UB.
  uint32_t acc[kMr][kNr];
  const auto* panel = static_cast<const uint8_t*>(t.w);
  for (int m = 0; m < kMr; ++m) {
    for (int j = 0; j < kNr; ++j) {
      acc[m][j] = static_cast<uint32_t>(t.rq.bias[j]);
      if (t.row_offsets != nullptr && m < t.mr)
        acc[m][j] += static_cast<uint32_t>(t.row_offsets[m]);
    }
  }
  for (int s = 0; s < t.ks; ++s) {
    const uint8_t* tap_panel = panel + static_cast<size_t>(s) * kc_padded * kNr * 2;
    for (int m = 0; m < t.mr; ++m) {
      const uint8_t* a = t.a[s * kMr + m];
      for (int c = 0; c < t.kc; ++c) {
        const int32_t x = LoadInput(a + c, t.input_signed);
        const size_t base =
            (static_cast<size_t>(c) / 8) * 8 * kNr + ((c % 8) / 2) * 2 * kNr + c % 2;
        for (int j = 0; j < kNr; ++j) {
          int16_t w;
          std::memcpy(&w, tap_panel + (base + static_cast<size_t>(j) * 2) * 2, 2);
          acc[m][j] += static_cast<uint32_t>(static_cast<int32_t>(w) * x);
        }
      }
    }
  }
  if (t.c32 != nullptr) {
    for (int m = 0; m < t.mr; ++m) {
      int32_t* out = t.c32 + static_cast<size_t>(m) * t.c_row_stride;
      for (int j = 0; j < t.nc && j < kNr; ++j) out[j] = static_cast<int32_t>(acc[m][j]);
    }
    return;
  }
  for (int m = 0; m < t.mr; ++m) {
    uint8_t* out = t.c + static_cast<size_t>(m) * t.c_row_stride;
    for (int j = 0; j < t.nc && j < kNr; ++j) {
      const int32_t scaled = quant::MultiplyByQuantizedMultiplier(
          static_cast<int32_t>(acc[m][j]), t.rq.multiplier[j], t.rq.shift[j]);
      // The zero-point addition wraps as in the SIMD kernels (the reference's own int32 sum
      // is assumed not to overflow).
      const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(scaled) +
                                                   static_cast<uint32_t>(t.rq.output_zero_point));
      const int32_t v = std::min(std::max(shifted, t.rq.act_min), t.rq.act_max);
      out[j] = static_cast<uint8_t>(v);
    }
  }
}

}  // namespace

const QGemmKernel kQGemmScalar = {"qgemm_scalar_4x16",        kMr,   kNr,       kKr, 1,
                                  QWeightFormat::kInt16Pairs, false, &RunScalar};

}  // namespace octet::optimized
