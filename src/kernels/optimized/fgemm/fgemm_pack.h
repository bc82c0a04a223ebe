// Prepare-time packing of float32 weights for an FGemmKernel (layout in fgemm.h), and the
// run-time view the driver uses. Portable code.
#pragma once

#include <cstddef>

#include "kernels/optimized/fgemm/fgemm.h"

namespace octet::optimized {

// The weights of one GEMM-shaped op: [n][ks][kc] floats (OHWI filters, FC weights), or any
// strided view: element (column j, tap-channel t) at weights[j * column_stride + t * k_stride].
struct FGemmWeightsDesc {
  const float* weights = nullptr;
  size_t column_stride = 0;     // 0: ks * kc (contiguous columns)
  size_t k_stride = 1;          // e.g. a [K][N] matrix: column_stride 1, k_stride N
  const float* bias = nullptr;  // [n] or nullptr
  int n = 0;                    // output channels (columns)
  int ks = 1;                   // taps (filter height x width)
  int kc = 0;                   // channels per tap
  // Convolutions: the filter width and horizontal dilation, which decide whether a filter
  // row's taps are one contiguous run of the input (row taps).
  int kernel_w = 1;
  int dilation_w = 1;
};

// Whether a convolution runs with one tap per filter row (kernel_w * kc contiguous floats of
// the input) instead of one per filter position: fewer, longer k loops, and border pixels
// clip their windows to the image (FGemmTile::k_skip) rather than read a padded copy. Any
// channel count: ResNet8's 64-channel 3x3 layer ran 14% faster this way than with 9 taps of 64.
// The packed bytes are the same either way.
bool FGemmUsesRowTaps(const FGemmWeightsDesc& desc);

struct FGemmPacked {
  const FGemmKernel* kernel = nullptr;
  const float* panels = nullptr;
  size_t panel_floats = 0;
  int n = 0;
  int ks = 1;  // taps (filter positions) and floats per tap (input channels)
  int kc = 0;
  bool row_taps = false;  // FGemmUsesRowTaps: ks / kernel_w taps of kernel_w * kc floats
};

// Floats FGemmPack writes for these weights.
size_t FGemmPackedFloats(const FGemmKernel& kernel, const FGemmWeightsDesc& desc);

// The run-time view of `buffer` once it holds `desc` packed for `kernel`.
FGemmPacked FGemmView(const FGemmKernel& kernel, const FGemmWeightsDesc& desc, const float* buffer);

// Packs `desc` into `buffer` (FGemmPackedFloats floats) and returns the run-time view.
FGemmPacked FGemmPack(const FGemmKernel& kernel, const FGemmWeightsDesc& desc, float* buffer);

}  // namespace octet::optimized
