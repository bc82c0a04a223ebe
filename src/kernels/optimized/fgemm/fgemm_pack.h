// Prepare-time packing of float32 weights for an FGemmKernel (layout in fgemm.h), and the
// run-time view the driver uses. Portable code.
#pragma once

#include <cstddef>

#include "kernels/optimized/fgemm/fgemm.h"

namespace octet::optimized {

// The weights of one GEMM-shaped op: [n][ks][kc] floats (OHWI filters, FC weights).
struct FGemmWeightsDesc {
  const float* weights = nullptr;
  const float* bias = nullptr;  // [n] or nullptr
  int n = 0;                    // output channels (columns)
  int ks = 1;                   // taps (filter height x width)
  int kc = 0;                   // channels per tap
};

struct FGemmPacked {
  const FGemmKernel* kernel = nullptr;
  const float* panels = nullptr;
  size_t panel_floats = 0;
  int n = 0;
  int ks = 1;
  int kc = 0;
};

// Floats FGemmPack writes for these weights.
size_t FGemmPackedFloats(const FGemmKernel& kernel, const FGemmWeightsDesc& desc);

// Packs `desc` into `buffer` (FGemmPackedFloats floats) and returns the run-time view.
FGemmPacked FGemmPack(const FGemmKernel& kernel, const FGemmWeightsDesc& desc, float* buffer);

}  // namespace octet::optimized
