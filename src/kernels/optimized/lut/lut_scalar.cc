// The portable path: one lookup per byte.
#include "kernels/optimized/lut/lut.h"

namespace octet::optimized {
namespace {

void Apply(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = table[in[i]];
}

}  // namespace

const LutKernel kLutScalar = {"lut_scalar", &Apply};

}  // namespace octet::optimized
