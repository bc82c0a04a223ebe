// RFFT2D: the 2-D DFT of real [H, W] slices, keeping the W/2 + 1 non-redundant columns,
// with the forward sign convention exp(-2*pi*i*k*n/N) of tf.signal.rfft2d. Each slice is
// cropped or zero-padded to [fft_h, fft_w] first (both powers of two). The work is done in
// double, like TFLite's Ooura-based kernel, and rounded to complex<float> at the end:
// real FFTs along rows (as complex FFTs with zero imaginary part), then complex FFTs
// down the kept columns.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>
#include <vector>

namespace octet::reference {

// Twiddles exp(-2*pi*i*k/n) for k < n/2, each computed directly (no accumulated error).
inline std::vector<std::complex<double>> FftTwiddles(int n) {
  const double kTwoPi = 6.283185307179586476925286766559;
  std::vector<std::complex<double>> w(n / 2);
  for (int k = 0; k < n / 2; ++k) {
    const double angle = -kTwoPi * k / n;
    w[k] = {std::cos(angle), std::sin(angle)};
  }
  return w;
}

// In-place forward radix-2 FFT of `n` (a power of two) values spaced `stride` apart;
// `twiddles` is FftTwiddles(n).
inline void FftInPlace(std::complex<double>* x, int n, int64_t stride,
                       const std::complex<double>* twiddles) {
  // Bit-reversal permutation.
  for (int i = 1, j = 0; i < n; ++i) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) std::swap(x[i * stride], x[j * stride]);
  }
  for (int len = 2; len <= n; len <<= 1) {
    const int half = len / 2;
    const int step = n / len;  // twiddle index stride for this stage
    for (int start = 0; start < n; start += len) {
      for (int k = 0; k < half; ++k) {
        std::complex<double>& a = x[(start + k) * stride];
        std::complex<double>& b = x[(start + k + half) * stride];
        const std::complex<double> t = b * twiddles[k * step];
        b = a - t;
        a += t;
      }
    }
  }
}

// `slices` slices of in_h x in_w floats in, slices x fft_h x (fft_w / 2 + 1) out.
inline void Rfft2d(const float* input, int64_t slices, int in_h, int in_w, int fft_h, int fft_w,
                   std::complex<float>* output) {
  const int out_w = fft_w / 2 + 1;
  const int rows = in_h < fft_h ? in_h : fft_h;
  const int cols = in_w < fft_w ? in_w : fft_w;
  const std::vector<std::complex<double>> row_twiddles = FftTwiddles(fft_w);
  const std::vector<std::complex<double>> col_twiddles = FftTwiddles(fft_h);
  std::vector<std::complex<double>> row(fft_w);
  std::vector<std::complex<double>> grid(static_cast<size_t>(fft_h) * out_w);
  for (int64_t s = 0; s < slices; ++s) {
    const float* in = input + s * static_cast<int64_t>(in_h) * in_w;
    std::complex<float>* out = output + s * static_cast<int64_t>(fft_h) * out_w;
    // Padded rows are all zero and so is their transform.
    for (int r = 0; r < fft_h; ++r) {
      std::complex<double>* dst = grid.data() + static_cast<size_t>(r) * out_w;
      if (r >= rows) {
        for (int c = 0; c < out_w; ++c) dst[c] = 0.0;
        continue;
      }
      for (int c = 0; c < fft_w; ++c) {
        row[c] = c < cols ? static_cast<double>(in[static_cast<int64_t>(r) * in_w + c]) : 0.0;
      }
      FftInPlace(row.data(), fft_w, 1, row_twiddles.data());
      for (int c = 0; c < out_w; ++c) dst[c] = row[c];
    }
    for (int c = 0; c < out_w; ++c) FftInPlace(grid.data() + c, fft_h, out_w, col_twiddles.data());
    for (size_t i = 0; i < grid.size(); ++i) {
      out[i] = {static_cast<float>(grid[i].real()), static_cast<float>(grid[i].imag())};
    }
  }
}

}  // namespace octet::reference
