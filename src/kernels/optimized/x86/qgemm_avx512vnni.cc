// int8/uint8 GEMM micro-kernel for AVX-512 VNNI: vpdpbusd multiplies 4 unsigned activation
// bytes by 4 signed weight bytes and adds them to an int32 lane, without the 16-bit saturation
// of vpmaddubsw. int8 activations are fed as x ^ 0x80 = x + 128 (unsigned); the packer folded
// -128 * Σw into the bias. uint8 activations are fed as they are against weights w - 128,
// with the per-row correction the driver passes in row_offsets.
//
// Tile: 8 rows x up to 2 panels of 16 columns: 16 accumulators, and 8 independent chains
// even for a single panel (4 rows would leave vpdpbusd waiting on its latency; measured
// faster than 4 rows x 4 panels on every corpus model). The k loop takes 4 channels at a time.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/qgemm/qgemm.h"
#include "kernels/optimized/x86/requant_avx512.h"

namespace octet::optimized {
namespace {

constexpr int kMr = 8;
constexpr int kNr = 16;
constexpr int kKr = 4;
constexpr int kPanels = 2;

static inline __m512i Broadcast4(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return _mm512_set1_epi32(static_cast<int>(v));
}

// Four activation bytes of which only `count` < 4 are readable.
static inline __m512i BroadcastPartial(const uint8_t* p, int count) {
  uint32_t v = 0;
  std::memcpy(&v, p, static_cast<size_t>(count));
  return _mm512_set1_epi32(static_cast<int>(v));
}

// MR rows (1..kMr: a single-row GEMV computes one) by NP panels.
template <int MR, int NP, bool kSigned, bool kLeftShift>
void Kernel(const QGemmTile& t) {
  // Everything the loops read is copied out first: the output stores could alias `t`.
  const int nc = t.nc;
  const int kc = t.kc;
  const int ks = t.ks;
  const uint8_t* const* a = t.a;
  const auto* w = static_cast<const uint8_t*>(t.w);
  const size_t pstride = t.panel_bytes;
  const int kc4 = kc & ~3;
  const size_t tap_bytes = static_cast<size_t>((kc + kKr - 1) & ~(kKr - 1)) * kNr;
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(kSigned ? 0x80 : 0));

  __m512i acc[MR][NP];
#pragma GCC unroll 4
  for (int p = 0; p < NP; ++p) {
    const __m512i b = _mm512_loadu_si512(t.rq.bias + p * kNr);
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) acc[m][p] = b;
  }
  if (t.row_offsets != nullptr) {
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) {
      const __m512i r = _mm512_set1_epi32(t.row_offsets[m]);
#pragma GCC unroll 4
      for (int p = 0; p < NP; ++p) acc[m][p] = _mm512_add_epi32(acc[m][p], r);
    }
  }

  for (int s = 0; s < ks; ++s) {
    const uint8_t* rows[MR];
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) rows[m] = a[s * kMr + m];
    const uint8_t* wk = w + static_cast<size_t>(s) * tap_bytes;
    int k = 0;
    for (; k < kc4; k += 4, wk += 4 * kNr) {
      __m512i x[MR];
#pragma GCC unroll 8
      for (int m = 0; m < MR; ++m) x[m] = _mm512_xor_si512(Broadcast4(rows[m] + k), flip);
#pragma GCC unroll 4
      for (int p = 0; p < NP; ++p) {
        const __m512i wv = _mm512_loadu_si512(wk + p * pstride);
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) acc[m][p] = _mm512_dpbusd_epi32(acc[m][p], x[m], wv);
      }
    }
    if (k < kc) {
      // The packed weights beyond kc are zero: whatever fills the group's rest adds nothing.
      const int rest = kc - k;
      __m512i x[MR];
#pragma GCC unroll 8
      for (int m = 0; m < MR; ++m) {
        x[m] = _mm512_xor_si512(BroadcastPartial(rows[m] + k, rest), flip);
      }
#pragma GCC unroll 4
      for (int p = 0; p < NP; ++p) {
        const __m512i wv = _mm512_loadu_si512(wk + p * pstride);
#pragma GCC unroll 8
        for (int m = 0; m < MR; ++m) acc[m][p] = _mm512_dpbusd_epi32(acc[m][p], x[m], wv);
      }
    }
  }

  if (t.c32 != nullptr) {
    // Lanes 2j / 2j + 1 hold columns j / 8 + j: back to column order.
    const __m512i in_order =
        _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
#pragma GCC unroll 4
    for (int p = 0; p < NP; ++p) {
      const int columns = t.nc - p * kNr;
      if (columns <= 0) break;
      const __mmask16 mask = columns >= kNr ? static_cast<__mmask16>(0xFFFF)
                                            : static_cast<__mmask16>((1u << columns) - 1);
#pragma GCC unroll 8
      for (int m = 0; m < MR; ++m) {
        _mm512_mask_storeu_epi32(t.c32 + static_cast<size_t>(m) * t.c_row_stride + p * kNr, mask,
                                 _mm512_permutexvar_epi32(in_order, acc[m][p]));
      }
    }
    return;
  }
  // With the zero point folded into the rounding constant (the usual case) it needs no
  // addition; skipping it is 4% of MobileNetV2, whose small-K layers are requantization-bound.
  const bool add_zero_point = !t.rq.zero_point_folded;
  const __m512i zero_point = _mm512_set1_epi32(t.rq.output_zero_point);
  const __m512i act_min = _mm512_set1_epi32(t.rq.act_min);
  const __m512i act_max = _mm512_set1_epi32(t.rq.act_max);
  const __m512i byte_min = _mm512_set1_epi8(static_cast<char>(t.rq.act_min));
  const __m512i byte_max = _mm512_set1_epi8(static_cast<char>(t.rq.act_max));
  uint8_t* c = t.c;
  const size_t stride = t.c_row_stride;
#pragma GCC unroll 4
  for (int p = 0; p < NP; ++p) {
    const int columns = nc - p * kNr;
    if (columns <= 0) break;
    const avx512::RequantPanel rq =
        avx512::LoadRequantPanel(t.rq, p * kNr, p * kNr, avx512::MergeInterleavedHalves());
    __m512i out[MR];
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) {
      out[m] = avx512::MultiplyByQuantizedMultiplier<kLeftShift>(acc[m][p], rq);
    }
    if (add_zero_point) {
#pragma GCC unroll 8
      for (int m = 0; m < MR; ++m) out[m] = _mm512_add_epi32(out[m], zero_point);
    }
    uint8_t* cp = c + p * kNr;
    if constexpr (MR % 4 == 0) {
      if (columns >= kNr) {
#pragma GCC unroll 2
        for (int m = 0; m < MR; m += 4) {
          avx512::StoreFourRows<kSigned>(cp + m * stride, stride, out[m], out[m + 1], out[m + 2],
                                         out[m + 3], byte_min, byte_max);
        }
        continue;
      }
    }
    const __mmask16 mask = columns >= kNr ? static_cast<__mmask16>(0xFFFF)
                                          : static_cast<__mmask16>((1u << columns) - 1);
#pragma GCC unroll 8
    for (int m = 0; m < MR; ++m) {
      _mm512_mask_cvtepi32_storeu_epi8(
          cp + m * stride, mask, _mm512_min_epi32(_mm512_max_epi32(out[m], act_min), act_max));
    }
  }
}

// Dispatches a tile of t.mr rows (1..MR) and one or two panels to the kernel compiled for it.
template <int MR, bool kSigned, bool kLeftShift>
void RunRows(const QGemmTile& t) {
  if constexpr (MR > 1) {
    if (t.mr < MR) return RunRows<MR - 1, kSigned, kLeftShift>(t);
  }
  if (t.nc > kNr) return Kernel<MR, kPanels, kSigned, kLeftShift>(t);
  Kernel<MR, 1, kSigned, kLeftShift>(t);
}

void Run(const QGemmTile& t) {
  if (t.input_signed) {
    t.rq.any_left_shift ? RunRows<kMr, true, true>(t) : RunRows<kMr, true, false>(t);
  } else {
    t.rq.any_left_shift ? RunRows<kMr, false, true>(t) : RunRows<kMr, false, false>(t);
  }
}

}  // namespace

const QGemmKernel kQGemmAvx512Vnni = {"qgemm_avx512vnni_8x32",   kMr,  kNr, kKr, kPanels,
                                      QWeightFormat::kInt8Quads, true, &Run};

}  // namespace octet::optimized
