// Random quantization parameters and data for the optimized-kernel differential tests, in the
// reference kernels' terms.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/reference/integer_conv.h"
#include "quant/quantization_util.h"

namespace octet::optimized::testing {

// Everything one random weighted op needs, in the reference's terms.
struct RandomQuantization {
  bool input_signed = true;
  int32_t input_zp = 0, filter_zp = 0, output_zp = 0;
  int32_t act_min = -128, act_max = 127;
  std::vector<int32_t> multipliers;
  std::vector<int> shifts;
  std::vector<int32_t> bias;
};

inline RandomQuantization MakeQuantization(std::mt19937& rng, bool input_signed, int channels,
                                           int k) {
  RandomQuantization q;
  q.input_signed = input_signed;
  const int lo = input_signed ? -128 : 0, hi = input_signed ? 127 : 255;
  std::uniform_int_distribution<int> zp(lo, hi);
  // Zero points at both ends of the range are common in real models: favour them.
  auto pick_zp = [&]() {
    switch (rng() % 4) {
      case 0:
        return lo;
      case 1:
        return hi;
      default:
        return zp(rng);
    }
  };
  q.input_zp = pick_zp();
  q.output_zp = pick_zp();
  q.filter_zp = input_signed ? 0 : pick_zp();
  q.act_min = lo;
  q.act_max = hi;
  if (rng() % 2) {
    std::uniform_int_distribution<int> a(lo, hi);
    int x = a(rng), y = a(rng);
    q.act_min = std::min(x, y);
    q.act_max = std::max(x, y);
  }
  // Per-channel or per-tensor effective scales around the size that keeps outputs in range,
  // sometimes above 1 (a left shift).
  const bool per_channel = rng() % 2;
  std::uniform_real_distribution<double> log_scale(-3.0, 0.5);
  const double base = 1.0 / (std::max(1, k) * 40.0);
  double shared = base * std::pow(10.0, log_scale(rng));
  for (int c = 0; c < channels; ++c) {
    const double real = per_channel ? base * std::pow(10.0, log_scale(rng)) : shared;
    int32_t m;
    int s;
    quant::QuantizeMultiplier(rng() % 16 == 0 ? real * 4096 : real, &m, &s);
    q.multipliers.push_back(m);
    q.shifts.push_back(s);
  }
  std::uniform_int_distribution<int32_t> bias(-20000, 20000);
  for (int c = 0; c < channels; ++c) q.bias.push_back(bias(rng));
  return q;
}

inline std::vector<uint8_t> RandomBytes(std::mt19937& rng, size_t n, bool allow_extremes = true) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) {
    b = static_cast<uint8_t>(rng());
    if (allow_extremes && rng() % 8 == 0) b = (rng() % 2) ? 0x80 : 0x7F;  // -128 / 127 as int8
  }
  return v;
}

inline reference::QuantizedParams ReferenceParams(const RandomQuantization& q) {
  reference::QuantizedParams p;
  p.input_offset = -q.input_zp;
  p.filter_offset = -q.filter_zp;
  p.output_offset = q.output_zp;
  p.act_min = q.act_min;
  p.act_max = q.act_max;
  p.multipliers = q.multipliers.data();
  p.shifts = q.shifts.data();
  return p;
}

// Output size and leading pad of one axis, as TFLite computes them.
inline void Window(bool same, int in, int k, int stride, int dilation, int* out, int* pad) {
  const int effective = (k - 1) * dilation + 1;
  if (same) {
    *out = (in + stride - 1) / stride;
    *pad = std::max(0, ((*out - 1) * stride + effective - in) / 2);
  } else {
    *out = in >= effective ? (in - effective) / stride + 1 : 0;
    *pad = 0;
  }
}

}  // namespace octet::optimized::testing
