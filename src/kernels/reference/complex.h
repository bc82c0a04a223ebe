// REAL, IMAG, COMPLEX_ABS: element-wise projections of complex values onto their real
// type. The magnitude is std::abs of std::complex<T> (a scaled hypot), as TFLite computes it.
#pragma once

#include <complex>
#include <cstdint>

namespace octet::reference {

template <typename T>
void ComplexReal(const std::complex<T>* in, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = in[i].real();
}

template <typename T>
void ComplexImag(const std::complex<T>* in, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = in[i].imag();
}

template <typename T>
void ComplexAbs(const std::complex<T>* in, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::abs(in[i]);
}

}  // namespace octet::reference
