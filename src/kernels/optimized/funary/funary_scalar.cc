// The portable path: the reference functions, element by element.
#include <cmath>

#include "kernels/optimized/funary/funary.h"
#include "kernels/reference/activations.h"

namespace octet::optimized {
namespace {

void Logistic(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = reference::Logistic(in[i]);
}

void Tanh(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = reference::Tanh(in[i]);
}

void Exp(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = std::exp(in[i]);
}

}  // namespace

const FUnaryKernel kFUnaryScalar = {"funary_scalar", &Logistic, &Tanh, &Exp};

}  // namespace octet::optimized
