// int8/uint8 GEMM micro-kernel for AVX2. vpmaddubsw would saturate its 16-bit pair sums, so
// this kernel widens both sides to int16 and uses vpmaddwd (16x16 -> 32-bit pair sums), which
// is exact for every int8 and uint8 value (|w + filter_offset| <= 255, |x| <= 255).
//
// Weights are int16 pairs (w + filter_offset), or, for layers that stream their weights once
// per invoke (FULLY_CONNECTED with few rows), int8 pairs sign-extended in the loop: half the
// bytes to read from memory for one more instruction per 16 weights (uint8 weights enter as
// w - 128, the driver adding (128 + filter_offset) * sum(x) per row).
//
// Tile: up to 4 rows x 16 columns per panel (two ymm of 8 int32 per row), up to kPanels
// panels per call so the driver's per-call work is amortized over small-K layers. The k loop
// takes 8 channels at a time, broadcasting each (x[k], x[k+1]) pair of a row against the
// packed (w[k], w[k+1]) pairs. Only the tile's real rows are computed (a FULLY_CONNECTED
// with one row does a quarter of the work of a full tile), and the accumulators, the four
// widened rows and one pair of weight vectors fit the 16 ymm registers.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/optimized/qgemm/qgemm.h"
#include "kernels/optimized/x86/requant_avx2.h"

namespace octet::optimized {
namespace {

constexpr int kMr = 4;
constexpr int kNr = 16;
constexpr int kKr = 8;
constexpr int kPanels = 4;

// Eight activation bytes widened to int16, in both 128-bit halves.
template <bool kSigned>
static inline __m256i LoadWidened(const uint8_t* p) {
  const __m128i raw = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  const __m128i wide = kSigned ? _mm_cvtepi8_epi16(raw) : _mm_cvtepu8_epi16(raw);
  return _mm256_broadcastsi128_si256(wide);
}

template <bool kSigned>
static inline __m256i LoadWidenedPartial(const uint8_t* p, int count) {
  // An element loop, not memcpy: a library call in the k loop's tail makes GCC keep the
  // accumulators in memory for the whole panel (the call clobbers every ymm register).
  uint8_t buffer[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < count; ++i) buffer[i] = p[i];
  return LoadWidened<kSigned>(buffer);
}

// Pins an accumulator to a register at this point: without it GCC reassociates the four
// pairs' multiply-adds into a tree whose partial sums spill the 16 ymm registers.
static inline void Materialize(__m256i& v) { __asm__("" : "+x"(v)); }

// One (k, k+1) pair of 8 channels: panel layout [k/8][4 pairs][16 columns][2], so the pair's
// weights are 32 elements, columns 0-7 then 8-15.
// kLowOnly: the panel's columns 8-15 are padding (a layer or last panel of <= 8 columns),
// so their multiply-adds are skipped.
// Sixteen int16 weights: stored as int16, or as int8 and sign-extended here (kByteWeights).
template <bool kByteWeights>
static inline __m256i LoadWeights(const uint8_t* p) {
  if (kByteWeights) {
    return _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

template <int kPair, int kRows, bool kLowOnly, bool kByteWeights>
static inline void MultiplyPair(const __m256i* x, const uint8_t* wk, __m256i* lo, __m256i* hi) {
  constexpr int kHalfBytes = kByteWeights ? 16 : 32;  // one half's 8 columns x 2 weights
  const __m256i w0 = LoadWeights<kByteWeights>(wk + kPair * 2 * kHalfBytes);
  const __m256i w1 =
      kLowOnly ? w0 : LoadWeights<kByteWeights>(wk + kPair * 2 * kHalfBytes + kHalfBytes);
  for (int m = 0; m < kRows; ++m) {
    const __m256i xp = _mm256_shuffle_epi32(x[m], kPair * 0x55);
    lo[m] = _mm256_add_epi32(lo[m], _mm256_madd_epi16(xp, w0));
    Materialize(lo[m]);
    if (!kLowOnly) {
      hi[m] = _mm256_add_epi32(hi[m], _mm256_madd_epi16(xp, w1));
      Materialize(hi[m]);
    }
  }
}

template <int kRows, bool kLowOnly, bool kByteWeights>
static inline void MultiplyGroup(const __m256i* x, const uint8_t* wk, __m256i* lo, __m256i* hi) {
  MultiplyPair<0, kRows, kLowOnly, kByteWeights>(x, wk, lo, hi);
  MultiplyPair<1, kRows, kLowOnly, kByteWeights>(x, wk, lo, hi);
  MultiplyPair<2, kRows, kLowOnly, kByteWeights>(x, wk, lo, hi);
  MultiplyPair<3, kRows, kLowOnly, kByteWeights>(x, wk, lo, hi);
}

// Requantizes one row's 16 columns and stores `columns` bytes. The zero point is added in
// int32 (wrapping, as every path defines it where the reference overflows), then the halves
// are packed to int16 with saturation before the clamp: the clamp range lies inside the 8-bit
// type, so a saturated value clamps exactly as the full one would.
static inline void StoreRow(uint8_t* out, __m256i lo, __m256i hi, const avx2::RequantLanes& rq_lo,
                            const avx2::RequantLanes& rq_hi, __m256i zero_point, __m256i act_min,
                            __m256i act_max, bool unsigned_out, int columns) {
  const __m256i a = _mm256_add_epi32(avx2::MultiplyByQuantizedMultiplier(lo, rq_lo), zero_point);
  const __m256i b = _mm256_add_epi32(avx2::MultiplyByQuantizedMultiplier(hi, rq_hi), zero_point);
  // int16 lanes: a0-3 b0-3 | a4-7 b4-7.
  __m256i h = _mm256_packs_epi32(a, b);
  h = _mm256_min_epi16(_mm256_max_epi16(h, act_min), act_max);
  // Bytes per 32-bit group: a0-3 b0-3 a0-3 b0-3 | a4-7 b4-7 a4-7 b4-7; gather a0-7 b0-7.
  const __m256i bytes = unsigned_out ? _mm256_packus_epi16(h, h) : _mm256_packs_epi16(h, h);
  const __m256i ordered =
      _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 0, 4, 1, 5));
  const __m128i row = _mm256_castsi256_si128(ordered);
  if (columns >= kNr) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), row);
  } else {
    avx2::StorePartialBytes(out, row, columns);
  }
}

static inline void StoreRaw(int32_t* out, __m256i lo, __m256i hi, int columns) {
  alignas(32) int32_t lanes[kNr];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), lo);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes + 8), hi);
  std::memcpy(out, lanes, static_cast<size_t>(columns) * sizeof(int32_t));
}

// Stores a panel's accumulators: raw int32 sums (hybrid ops) or requantized bytes.
template <int kRows, bool kLowOnly>
static inline void FinishPanel(const QGemmTile& t, const __m256i* lo, const __m256i* hi, int col,
                               int columns) {
  if (t.c32 != nullptr) {
    for (int m = 0; m < kRows; ++m) {
      StoreRaw(t.c32 + static_cast<size_t>(m) * t.c_row_stride + col, lo[m], hi[m], columns);
    }
    return;
  }
  const avx2::RequantLanes rq_lo = avx2::LoadRequantLanes(t.rq.multiplier + col, t.rq.shift + col);
  // With kLowOnly the high half repeats the low one (the compiler computes it once).
  const avx2::RequantLanes rq_hi =
      kLowOnly ? rq_lo : avx2::LoadRequantLanes(t.rq.multiplier + col + 8, t.rq.shift + col + 8);
  const __m256i zero_point = _mm256_set1_epi32(t.rq.output_zero_point);
  const __m256i act_min = _mm256_set1_epi16(static_cast<int16_t>(t.rq.act_min));
  const __m256i act_max = _mm256_set1_epi16(static_cast<int16_t>(t.rq.act_max));
  // uint8 outputs may exceed 127; int8 ones may be negative (a range in [0, 127] packs the
  // same either way).
  const bool unsigned_out = t.rq.act_max > 127;
  for (int m = 0; m < kRows; ++m) {
    StoreRow(t.c + static_cast<size_t>(m) * t.c_row_stride + col, lo[m], kLowOnly ? lo[m] : hi[m],
             rq_lo, rq_hi, zero_point, act_min, act_max, unsigned_out, columns);
  }
}

// One 16-column panel starting at column `col` of the tile, for its first kRows rows.
template <bool kSigned, int kRows, bool kLowOnly, bool kByteWeights>
void Panel(const QGemmTile& t, const uint8_t* w, int col) {
  constexpr size_t kElement = kByteWeights ? 1 : 2;
  const int columns = t.nc - col < kNr ? t.nc - col : kNr;
  const int kc8 = t.kc & ~7;
  const int kc_padded = (t.kc + kKr - 1) & ~(kKr - 1);

  __m256i lo[kRows], hi[kRows];
  const __m256i bias_lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.rq.bias + col));
  const __m256i bias_hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.rq.bias + col + 8));
  for (int m = 0; m < kRows; ++m) {
    const __m256i r = _mm256_set1_epi32(t.row_offsets != nullptr ? t.row_offsets[m] : 0);
    lo[m] = _mm256_add_epi32(bias_lo, r);
    hi[m] = _mm256_add_epi32(bias_hi, r);
  }

  for (int s = 0; s < t.ks; ++s) {
    const uint8_t* a[kRows];
    for (int m = 0; m < kRows; ++m) a[m] = t.a[s * kMr + m];
    const uint8_t* ws = w + static_cast<size_t>(s) * kc_padded * kNr * kElement;
    int k = 0;
    for (; k < kc8; k += 8) {
      __m256i x[kRows];
      for (int m = 0; m < kRows; ++m) x[m] = LoadWidened<kSigned>(a[m] + k);
      MultiplyGroup<kRows, kLowOnly, kByteWeights>(x, ws + static_cast<size_t>(k) * kNr * kElement,
                                                   lo, hi);
    }
    if (k < t.kc) {
      __m256i x[kRows];
      for (int m = 0; m < kRows; ++m) x[m] = LoadWidenedPartial<kSigned>(a[m] + k, t.kc - k);
      MultiplyGroup<kRows, kLowOnly, kByteWeights>(x, ws + static_cast<size_t>(k) * kNr * kElement,
                                                   lo, hi);
    }
  }

  FinishPanel<kRows, kLowOnly>(t, lo, hi, col, columns);
}

// Activations already widened to int16 (wide_input: the driver hands the kernel an int16
// image): each (x[k], x[k+1]) pair is one 32-bit broadcast straight from memory, a load
// rather than the shuffle of a widened register, and nothing is widened in the loop.
// One (x[k], x[k+1]) int16 pair in every 32-bit lane: GCC makes it one vpbroadcastd from
// memory. (Pinning the broadcasts' order with volatile asm kept GCC from spilling, but
// serialized the loads: ResNet8 measured 15-20% slower.)
static inline __m256i BroadcastPair(const int16_t* p) {
  int32_t pair;
  std::memcpy(&pair, p, sizeof(pair));
  return _mm256_set1_epi32(pair);
}
// Materialize by value: an asm operand bound to an array element keeps the accumulator
// arrays in memory.
static inline __m256i MaterializeValue(__m256i v) {
  __asm__("" : "+x"(v));
  return v;
}

template <int kPair, int kRows, bool kLowOnly>
static inline void MultiplyPairWide(const int16_t* const* x, const uint8_t* wk, __m256i* lo,
                                    __m256i* hi) {
  constexpr int kHalfBytes = 32;
  const __m256i w0 = LoadWeights<false>(wk + kPair * 2 * kHalfBytes);
  const __m256i w1 = kLowOnly ? w0 : LoadWeights<false>(wk + kPair * 2 * kHalfBytes + kHalfBytes);
  for (int m = 0; m < kRows; ++m) {
    const __m256i xp = BroadcastPair(x[m] + 2 * kPair);
    lo[m] = _mm256_add_epi32(lo[m], _mm256_madd_epi16(xp, w0));
    lo[m] = MaterializeValue(lo[m]);
    if (!kLowOnly) {
      hi[m] = _mm256_add_epi32(hi[m], _mm256_madd_epi16(xp, w1));
      hi[m] = MaterializeValue(hi[m]);
    }
  }
}

template <int kRows, bool kLowOnly>
static inline void MultiplyGroupWide(const int16_t* const* x, const uint8_t* wk, __m256i* lo,
                                     __m256i* hi) {
  MultiplyPairWide<0, kRows, kLowOnly>(x, wk, lo, hi);
  MultiplyPairWide<1, kRows, kLowOnly>(x, wk, lo, hi);
  MultiplyPairWide<2, kRows, kLowOnly>(x, wk, lo, hi);
  MultiplyPairWide<3, kRows, kLowOnly>(x, wk, lo, hi);
}

template <int kRows, bool kLowOnly>
void PanelWide(const QGemmTile& t, const uint8_t* w, int col) {
  constexpr size_t kElement = 2;  // bytes per packed weight
  const int columns = t.nc - col < kNr ? t.nc - col : kNr;
  const int kc8 = t.kc & ~7;
  const int kc_padded = (t.kc + kKr - 1) & ~(kKr - 1);
  __m256i lo[kRows], hi[kRows];
  const __m256i bias_lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.rq.bias + col));
  const __m256i bias_hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.rq.bias + col + 8));
  for (int m = 0; m < kRows; ++m) {
    const __m256i r = _mm256_set1_epi32(t.row_offsets != nullptr ? t.row_offsets[m] : 0);
    lo[m] = _mm256_add_epi32(bias_lo, r);
    hi[m] = _mm256_add_epi32(bias_hi, r);
  }
  for (int s = 0; s < t.ks; ++s) {
    const int16_t* a[kRows];
    for (int m = 0; m < kRows; ++m) a[m] = reinterpret_cast<const int16_t*>(t.a[s * kMr + m]);
    const uint8_t* ws = w + static_cast<size_t>(s) * kc_padded * kNr * kElement;
    int k = 0;
    for (; k < kc8; k += 8) {
      const int16_t* x[kRows];
      for (int m = 0; m < kRows; ++m) x[m] = a[m] + k;
      MultiplyGroupWide<kRows, kLowOnly>(x, ws + static_cast<size_t>(k) * kNr * kElement, lo, hi);
    }
    if (k < t.kc) {
      // A partial group: its values copied next to zeros (the memory after them may end).
      int16_t tail[kRows][8] = {};
      const int16_t* x[kRows];
      for (int m = 0; m < kRows; ++m) {
        for (int i = 0; i < t.kc - k; ++i) tail[m][i] = a[m][k + i];  // no call: see above
        x[m] = tail[m];
      }
      MultiplyGroupWide<kRows, kLowOnly>(x, ws + static_cast<size_t>(k) * kNr * kElement, lo, hi);
    }
  }
  FinishPanel<kRows, kLowOnly>(t, lo, hi, col, columns);
}

template <int kRows>
void PanelsWide(const QGemmTile& t) {
  const auto* w = static_cast<const uint8_t*>(t.w);
  for (int col = 0, panel = 0; col < t.nc; col += kNr, ++panel) {
    const uint8_t* panel_w = w + static_cast<size_t>(panel) * t.panel_bytes;
    if (t.nc - col <= kNr / 2) {
      PanelWide<kRows, true>(t, panel_w, col);
    } else {
      PanelWide<kRows, false>(t, panel_w, col);
    }
  }
}

void RunWide(const QGemmTile& t) {
  switch (t.mr) {
    case 1:
      PanelsWide<1>(t);
      break;
    case 2:
      PanelsWide<2>(t);
      break;
    case 3:
      PanelsWide<3>(t);
      break;
    default:
      PanelsWide<kMr>(t);
      break;
  }
}

template <bool kSigned, int kRows, bool kByteWeights>
void Panels(const QGemmTile& t) {
  const auto* w = static_cast<const uint8_t*>(t.w);
  for (int col = 0, panel = 0; col < t.nc; col += kNr, ++panel) {
    const uint8_t* panel_w = w + static_cast<size_t>(panel) * t.panel_bytes;
    if (t.nc - col <= kNr / 2) {
      Panel<kSigned, kRows, true, kByteWeights>(t, panel_w, col);
    } else {
      Panel<kSigned, kRows, false, kByteWeights>(t, panel_w, col);
    }
  }
}

template <bool kSigned, bool kByteWeights>
void RunRows(const QGemmTile& t) {
  switch (t.mr) {
    case 1:
      Panels<kSigned, 1, kByteWeights>(t);
      break;
    case 2:
      Panels<kSigned, 2, kByteWeights>(t);
      break;
    case 3:
      Panels<kSigned, 3, kByteWeights>(t);
      break;
    default:
      Panels<kSigned, kMr, kByteWeights>(t);
      break;
  }
}

void Run(const QGemmTile& t) {
  if (t.input_signed) {
    RunRows<true, false>(t);
  } else {
    RunRows<false, false>(t);
  }
}

void RunByteWeights(const QGemmTile& t) {
  if (t.input_signed) {
    RunRows<true, true>(t);
  } else {
    RunRows<false, true>(t);
  }
}

}  // namespace

const QGemmKernel kQGemmAvx2 = {"qgemm_avx2_4x16",          kMr,   kNr, kKr, kPanels,
                                QWeightFormat::kInt16Pairs, false, &Run};
const QGemmKernel kQGemmAvx2WideInput = {"qgemm_avx2_4x16_i16",      kMr,   kNr,      kKr, kPanels,
                                         QWeightFormat::kInt16Pairs, false, &RunWide, true};
const QGemmKernel kQGemmAvx2ByteWeights = {
    "qgemm_avx2_4x16_w8", kMr, kNr, kKr, kPanels, QWeightFormat::kInt8Pairs, false,
    &RunByteWeights};

}  // namespace octet::optimized
