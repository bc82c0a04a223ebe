#include "kernels/optimized/fgemm/fgemm_pack.h"

#include <algorithm>

namespace octet::optimized {
namespace {

size_t PanelFloats(const FGemmKernel& kernel, const FGemmWeightsDesc& d) {
  return static_cast<size_t>(kernel.nr) *
         (1 + static_cast<size_t>(d.ks) * static_cast<size_t>(d.kc));
}

size_t PanelCount(const FGemmKernel& kernel, const FGemmWeightsDesc& d) {
  return static_cast<size_t>((d.n + kernel.nr - 1) / kernel.nr);
}

}  // namespace

bool FGemmUsesRowTaps(const FGemmWeightsDesc& d) {
  return d.kernel_w > 1 && d.dilation_w == 1 && d.ks % d.kernel_w == 0;
}

size_t FGemmPackedFloats(const FGemmKernel& kernel, const FGemmWeightsDesc& desc) {
  return PanelCount(kernel, desc) * PanelFloats(kernel, desc);
}

FGemmPacked FGemmPack(const FGemmKernel& kernel, const FGemmWeightsDesc& d, float* buffer) {
  const size_t panel_floats = PanelFloats(kernel, d);
  const size_t taps = static_cast<size_t>(d.ks) * static_cast<size_t>(d.kc);
  const int nr = kernel.nr;
  std::fill(buffer, buffer + FGemmPackedFloats(kernel, d), 0.f);
  for (size_t p = 0; p < PanelCount(kernel, d); ++p) {
    float* panel = buffer + p * panel_floats;
    for (int j = 0; j < nr; ++j) {
      const size_t column = p * static_cast<size_t>(nr) + static_cast<size_t>(j);
      if (column >= static_cast<size_t>(d.n)) break;
      panel[j] = d.bias ? d.bias[column] : 0.f;
      const float* source = d.weights + column * (d.column_stride ? d.column_stride : taps);
      for (size_t t = 0; t < taps; ++t) {
        panel[static_cast<size_t>(nr) * (1 + t) + j] = source[t * d.k_stride];
      }
    }
  }
  return FGemmView(kernel, d, buffer);
}

FGemmPacked FGemmView(const FGemmKernel& kernel, const FGemmWeightsDesc& d, const float* buffer) {
  FGemmPacked packed;
  packed.kernel = &kernel;
  packed.panels = buffer;
  packed.panel_floats = PanelFloats(kernel, d);
  packed.n = d.n;
  packed.row_taps = FGemmUsesRowTaps(d);
  packed.ks = d.ks;
  packed.kc = d.kc;
  return packed;
}

}  // namespace octet::optimized
