// Prepare-time packing of quantized weights for a QGemmKernel: weights reordered into the
// kernel's panels, the reference's constant terms folded into a per-column bias, and the
// per-column requantization arrays padded to whole panels. Portable code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qgemm/qgemm.h"

namespace octet::optimized {

// The weights and quantization of one weighted op, as the model gives them.
struct QGemmWeightsDesc {
  const uint8_t* weights = nullptr;     // [n][ks][kc] int8 or uint8 bytes
  int n = 0;                            // output channels (columns)
  int ks = 1;                           // taps (filter height x width)
  int kc = 0;                           // channels per tap
  bool input_signed = true;             // int8 activations and weights (else uint8)
  const int32_t* bias = nullptr;        // [n] or nullptr
  int32_t input_offset = 0;             // -input zero point
  int32_t filter_offset = 0;            // -weights zero point (uint8 only)
  const int32_t* multiplier = nullptr;  // [n]
  const int* shift = nullptr;           // [n]
  int32_t output_zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
};

// What the driver needs at run time; points into the packed buffer.
struct QGemmPacked {
  const QGemmKernel* kernel = nullptr;
  // The convolution's taps are copied into one contiguous row per output pixel before the
  // kernel runs (for few input channels); the weights are then packed as one tap of
  // ks * kc channels, and ks/kc below are the convolution's.
  bool im2col = false;
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

// Whether the driver copies taps into contiguous rows (im2col) for this shape: when the
// channels per tap are few and not a multiple of 4, so most k-groups would be partial.
bool QGemmUseIm2col(int ks, int kc);

// Bytes QGemmPack writes for these dimensions.
size_t QGemmPackedSize(const QGemmKernel& kernel, int n, int ks, int kc);

// Packs `desc` for `kernel` into `buffer` (QGemmPackedSize bytes, 16-byte aligned) and returns
// the run-time view of it.
QGemmPacked QGemmPack(const QGemmKernel& kernel, const QGemmWeightsDesc& desc, void* buffer);

}  // namespace octet::optimized
