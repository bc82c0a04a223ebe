// Audio feature math of TFLite's AudioSpectrogram and Mfcc custom ops: periodic-Hann
// windowed power spectra via a radix-2 FFT in double, and MFCCs (HTK-style triangular mel
// filterbank on spectral magnitudes, log with a 1e-12 floor, orthonormal-scaled DCT-II) as
// TFLite's internal mfcc*.cc compute them.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <utility>
#include <vector>

namespace octet::reference::audio {

inline double Pi() { return std::atan(1.0) * 4.0; }

// Smallest power of two >= n (n >= 1).
inline int NextPowerOfTwo(int n) {
  int p = 1;
  while (p < n) p <<= 1;
  return p;
}

// w[i] = 0.5 - 0.5 cos(2 pi i / n).
inline std::vector<double> PeriodicHann(int n) {
  std::vector<double> w(n);
  for (int i = 0; i < n; ++i) w[i] = 0.5 - 0.5 * std::cos(2.0 * Pi() * i / n);
  return w;
}

// In-place iterative radix-2 FFT (forward, e^{-i...}); a.size() is a power of two.
inline void Fft(std::vector<std::complex<double>> *a) {
  const size_t n = a->size();
  auto &v = *a;
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(v[i], v[j]);
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    for (size_t k = 0; k < len / 2; ++k) {
      const double angle = -2.0 * Pi() * static_cast<double>(k) / static_cast<double>(len);
      const std::complex<double> w(std::cos(angle), std::sin(angle));
      for (size_t start = 0; start < n; start += len) {
        const std::complex<double> u = v[start + k];
        const std::complex<double> t = w * v[start + k + len / 2];
        v[start + k] = u + t;
        v[start + k + len / 2] = u - t;
      }
    }
  }
}

// Squared-magnitude spectrogram of one channel: frames start every `stride` samples while
// a whole window fits; each frame is windowed, zero-padded to fft_length and transformed;
// bins 0..fft_length/2 are kept. Output row-major [frames, fft_length / 2 + 1], in float
// (re^2 + im^2 rounded once), or its square root when !magnitude_squared.
class Spectrogram {
 public:
  Spectrogram(int window, int stride)
      : window_(PeriodicHann(window)), stride_(stride), fft_length_(NextPowerOfTwo(window)) {}

  int bins() const { return fft_length_ / 2 + 1; }
  static int64_t Frames(int64_t samples, int window, int stride) {
    return samples < window ? 0 : 1 + (samples - window) / stride;
  }

  // samples[i * sample_stride] for i in [0, count).
  void Compute(const float *samples, int64_t count, int64_t sample_stride, bool magnitude_squared,
               float *out) const {
    const int window = static_cast<int>(window_.size());
    const int64_t frames = Frames(count, window, stride_);
    std::vector<std::complex<double>> buf(fft_length_);
    for (int64_t f = 0; f < frames; ++f) {
      const int64_t start = f * stride_;
      for (int j = 0; j < fft_length_; ++j) {
        buf[j] = j < window ? static_cast<double>(samples[(start + j) * sample_stride]) * window_[j]
                            : 0.0;
      }
      Fft(&buf);
      float *row = out + f * bins();
      for (int k = 0; k < bins(); ++k) {
        const double re = buf[k].real(), im = buf[k].imag();
        const float power = static_cast<float>(re * re + im * im);
        row[k] = magnitude_squared ? power : std::sqrt(power);
      }
    }
  }

 private:
  std::vector<double> window_;
  int stride_;
  int fft_length_;
};

inline double FreqToMel(double freq) { return 1127.0 * std::log1p(freq / 700.0); }

// TFLite's MfccMelFilterbank: `channels` triangles evenly spaced in mel between the limits
// over `input_length` spectrum bins spanning 0..sample_rate/2; DC excluded (HTK).
class MelFilterbank {
 public:
  MelFilterbank(int input_length, double sample_rate, int channels, double lower, double upper)
      : channels_(channels) {
    std::vector<double> centers(channels + 1);
    const double mel_low = FreqToMel(lower);
    const double spacing = (FreqToMel(upper) - mel_low) / (channels + 1);
    for (int i = 0; i <= channels; ++i) centers[i] = mel_low + spacing * (i + 1);
    const double hz_per_bin = 0.5 * sample_rate / (input_length - 1);
    // Both are >= 0; capped at input_length (one past the last bin: an empty band for start,
    // "above the range", which the caller refuses, for end) so that a huge limit or a low
    // sample rate cannot overflow the conversion to int.
    const double bins = input_length;
    start_ = static_cast<int>(std::min(1.5 + lower / hz_per_bin, bins));
    end_ = static_cast<int>(std::min(upper / hz_per_bin, bins));
    band_.assign(input_length, -2);
    weight_.assign(input_length, 0.0);
    int channel = 0;
    for (int i = 0; i < input_length; ++i) {
      if (i < start_ || i > end_) continue;
      const double mel = FreqToMel(i * hz_per_bin);
      while (channel < channels && centers[channel] < mel) ++channel;
      band_[i] = channel - 1;
      const int b = band_[i];
      weight_[i] = b >= 0 ? (centers[b + 1] - mel) / (centers[b + 1] - centers[b])
                          : (centers[0] - mel) / (centers[0] - mel_low);
    }
  }

  // Highest spectrum bin used; the input must have more bins than this.
  int end_index() const { return end_; }

  // Mel energies from one squared-magnitude frame (magnitudes are square roots).
  std::vector<double> Compute(const std::vector<double> &power) const {
    std::vector<double> out(channels_, 0.0);
    for (int i = start_; i <= end_; ++i) {
      const double magnitude = std::sqrt(power[i]);
      const double weighted = magnitude * weight_[i];
      int channel = band_[i];
      if (channel >= 0) out[channel] += weighted;
      ++channel;
      if (channel < channels_) out[channel] += magnitude - weighted;
    }
    return out;
  }

 private:
  int channels_;
  int start_ = 0, end_ = 0;
  std::vector<int> band_;
  std::vector<double> weight_;
};

// out[i] = sqrt(2 / n) sum_j cos(pi i (j + 0.5) / n) in[j], i < coefficients.
inline std::vector<double> Dct(const std::vector<double> &in, int coefficients) {
  const int n = static_cast<int>(in.size());
  const double norm = std::sqrt(2.0 / n);
  const double arg = Pi() / n;
  std::vector<double> out(coefficients);
  for (int i = 0; i < coefficients; ++i) {
    double sum = 0.0;
    for (int j = 0; j < n; ++j) sum += norm * std::cos(i * arg * (j + 0.5)) * in[j];
    out[i] = sum;
  }
  return out;
}

// MFCCs of one squared-magnitude spectrogram frame.
inline std::vector<double> Mfcc(const MelFilterbank &bank, const std::vector<double> &power,
                                int coefficients) {
  std::vector<double> mel = bank.Compute(power);
  for (double &v : mel) v = std::log(v < 1e-12 ? 1e-12 : v);
  return Dct(mel, coefficients);
}

}  // namespace octet::reference::audio
