// The input quantization of TFLite's hybrid kernels, written from its definition for the
// hybrid SVDF / LSTM tests' independent models (not the kernels' code).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace octet::hybrid_test {

struct RowQuant {
  std::vector<int> q;
  float scale = 1.f;
  int zero_point = 0;
};

// Symmetric: q = round(x * 127 / max|x|) in [-127, 127], scale max|x| / 127 (1 for a zero
// row). Asymmetric: [-128, 127] over the range widened to include 0, the zero point taken from
// the end with the smaller error and nudged to an integer.
inline RowQuant QuantizeRow(const float* x, int n, bool asymmetric) {
  RowQuant r;
  r.q.assign(n, 0);
  float lo = 0.f, hi = 0.f;
  for (int i = 0; i < n; ++i) {
    lo = i ? std::min(lo, x[i]) : x[i];
    hi = i ? std::max(hi, x[i]) : x[i];
  }
  if (!asymmetric) {
    const float range = std::max(std::fabs(lo), std::fabs(hi));
    if (range == 0.f) return r;
    r.scale = range / 127.f;
    const float inv = 127.f / range;
    for (int i = 0; i < n; ++i) {
      r.q[i] = std::clamp(static_cast<int>(std::round(x[i] * inv)), -127, 127);
    }
    return r;
  }
  const double rmin = std::min(0.0, static_cast<double>(lo));
  const double rmax = std::max(0.0, static_cast<double>(hi));
  if (rmin == rmax) return r;
  const double s = (rmax - rmin) / 255.0;
  const double from_min = -128.0 - rmin / s, from_max = 127.0 - rmax / s;
  const double zp =
      (128.0 + std::fabs(rmin / s)) < (127.0 + std::fabs(rmax / s)) ? from_min : from_max;
  r.zero_point = zp <= -128.0 ? -128 : zp >= 127.0 ? 127 : static_cast<int>(std::round(zp));
  r.scale = static_cast<float>(s);
  const float inv = 1.f / r.scale;
  for (int i = 0; i < n; ++i) {
    const float v = static_cast<float>(r.zero_point) + x[i] * inv;
    r.q[i] = std::clamp(static_cast<int>(std::round(v)), -128, 127);
  }
  return r;
}

}  // namespace octet::hybrid_test
