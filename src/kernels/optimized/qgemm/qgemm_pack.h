// Prepare-time packing of quantized weights for a QGemmKernel: weights reordered into the
// kernel's panels, the reference's constant terms folded into a per-column bias, and the
// per-column requantization arrays padded to whole panels. Portable code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qgemm/qgemm.h"

namespace octet::optimized {

// The quantization of one weighted op, as the model gives it (reference terms).
struct QuantizationDesc {
  bool input_signed = true;             // int8 activations and weights (else uint8)
  const int32_t* bias = nullptr;        // [channels] or nullptr
  int32_t input_offset = 0;             // -input zero point
  int32_t filter_offset = 0;            // -weights zero point (uint8 only)
  const int32_t* multiplier = nullptr;  // [channels]
  const int* shift = nullptr;           // [channels]
  int32_t output_zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
};

// The weights of one GEMM-shaped op (convolution, FULLY_CONNECTED) and their quantization.
struct QGemmWeightsDesc : QuantizationDesc {
  // [n][ks][kc] int8 or uint8 bytes, or any strided view: element (column j, tap-channel t)
  // at weights[j * column_stride + t * k_stride] (see FGemmWeightsDesc).
  const uint8_t* weights = nullptr;
  size_t column_stride = 0;  // 0: ks * kc (contiguous columns)
  size_t k_stride = 1;
  int n = 0;   // output channels (columns)
  int ks = 1;  // taps (filter height x width)
  int kc = 0;  // channels per tap
  // For convolutions: the filter width and horizontal dilation, which decide whether a filter
  // row's taps are one contiguous run of the input (QGemmLayout::kRowTaps).
  int kernel_w = 1;
  int dilation_w = 1;
};

// Longest row the driver gathers per output pixel (row-taps borders, im2col), with room for
// each tap's channel group padding.
constexpr int kQGemmMaxGatheredRow = 2048;

// Most input channels for which a convolution runs one tap per filter row: with few
// channels a filter position's tap is only a few k groups, and the per-tap overhead shows.
constexpr int kQGemmMaxRowTapChannels = 32;

// How the rows the kernel reads are formed from the convolution's input.
enum class QGemmLayout : int {
  kTaps = 0,     // one tap per filter position, in_c bytes each
  kRowTaps = 1,  // one tap per filter row: kernel_w * in_c contiguous bytes (few channels)
  kIm2col = 2,   // every tap copied into one contiguous row (few channels, dilated)
};

// What the driver needs at run time; points into the packed buffer.
struct QGemmPacked {
  const QGemmKernel* kernel = nullptr;
  QGemmLayout layout = QGemmLayout::kTaps;
  int exec_ks = 1;  // taps and bytes per tap as the kernel sees them
  int exec_kc = 0;
  const uint8_t* panels = nullptr;
  size_t panel_bytes = 0;
  int n = 0;
  int ks = 1;
  int kc = 0;
  bool input_signed = true;
  // Added per row as row_sum_factor * Σ(row's input bytes); 0 when the format needs none.
  int32_t row_sum_factor = 0;
  QGemmRequant rq{};
};

// Where a packer put its per-channel requantization arrays (all indexed by channel slot,
// the 64-bit ones by `slot64` when given, else by channel).
struct RequantStorage {
  const int32_t* bias = nullptr;
  const int32_t* multiplier = nullptr;
  const int32_t* shift = nullptr;
  int64_t* round_add = nullptr;
  int64_t* negative_sub = nullptr;
  int64_t* total_shift = nullptr;
};

// Completes a packer's requantization once its bias, multiplier and shift arrays are written:
// fills the 64-bit rounding arrays from the model's `count` shifts, folds the output zero
// point into round_add when every shift allows (QGemmRequant::zero_point_folded) and returns
// the run-time view. Shared by every packer so that all kernels round the same way.
QGemmRequant FinishRequant(const RequantStorage& storage, const int* shift, int count,
                           const size_t* slot64, int32_t output_zero_point, int32_t act_min,
                           int32_t act_max);

// The layout for these weights on `kernel`: filter rows as taps when the channels per tap are
// few (at most kQGemmMaxRowTapChannels) and the filter rows are contiguous, unless padding
// each row to the kernel's k group wastes a quarter or more of the k steps that one im2col
// row would take; else kTaps, or im2col for few channels that are not a multiple of 4 (most
// k-groups would be partial).
QGemmLayout ChooseQGemmLayout(const QGemmKernel& kernel, const QGemmWeightsDesc& desc);

// Bytes QGemmPack writes for these weights.
size_t QGemmPackedSize(const QGemmKernel& kernel, const QGemmWeightsDesc& desc);

// Packs `desc` for `kernel` into `buffer` (QGemmPackedSize bytes, 16-byte aligned) and returns
// the run-time view of it.
QGemmPacked QGemmPack(const QGemmKernel& kernel, const QGemmWeightsDesc& desc, void* buffer);

}  // namespace octet::optimized
