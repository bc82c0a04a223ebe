// Independent models of TFLite's RNN cell for the RNN op tests: the float cell in double, and
// the hybrid cell's exact semantics (rows quantized with the definition in
// ops/nn/hybrid_recurrent_test_util.h, int32 dot products, scaled back in float).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ops/nn/hybrid_recurrent_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"

namespace octet::rnn_test {

inline std::vector<float> Lcg(size_t n, uint32_t seed, float lo, float hi) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 7u;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = lo + (hi - lo) * static_cast<float>(s >> 8) / static_cast<float>(1u << 24);
  }
  return v;
}

inline double Act(TfLiteFusedActivation act, double x) {
  switch (act) {
    case kTfLiteActRelu:
      return std::max(0.0, x);
    case kTfLiteActReluN1To1:
      return std::clamp(x, -1.0, 1.0);
    case kTfLiteActRelu6:
      return std::clamp(x, 0.0, 6.0);
    case kTfLiteActTanh:
      return std::tanh(x);
    case kTfLiteActSigmoid:
      return 1.0 / (1.0 + std::exp(-x));
    case kTfLiteActSignBit:
      return std::signbit(x) ? 1.0 : 0.0;
    default:
      return x;
  }
}

// One cell's float weights (row-major [units, cols]).
struct Weights {
  int units = 0, input = 0, aux = 0;
  std::vector<float> w, r, b, a;  // a: aux weights, empty when aux == 0
};

inline Weights MakeWeights(int units, int input, int aux, uint32_t seed, float range = 0.5f) {
  Weights c;
  c.units = units;
  c.input = input;
  c.aux = aux;
  c.w = Lcg(size_t(units) * input, seed, -range, range);
  c.r = Lcg(size_t(units) * units, seed + 1, -range, range);
  c.b = Lcg(units, seed + 2, -0.2f, 0.2f);
  if (aux > 0) c.a = Lcg(size_t(units) * aux, seed + 3, -range, range);
  return c;
}

// Symmetric int8 weights: scale = max|w| / 127, q = round(w / scale).
struct QuantWeights {
  std::vector<int8_t> q;
  float scale = 1.f;
};

inline QuantWeights Quantize(const std::vector<float>& w) {
  QuantWeights out;
  float m = 0.f;
  for (float v : w) m = std::max(m, std::fabs(v));
  out.scale = m > 0.f ? m / 127.f : 1.f;
  for (float v : w) {
    out.q.push_back(static_cast<int8_t>(std::clamp<long>(std::lround(v / out.scale), -127, 127)));
  }
  return out;
}

inline std::vector<float> Dequantize(const QuantWeights& q) {
  std::vector<float> v;
  for (int8_t x : q.q) v.push_back(x * q.scale);
  return v;
}

// The float cell in double: h = act(W x + A aux + R h + b) for one row.
inline void NaiveStep(const Weights& c, TfLiteFusedActivation act, const float* x, const float* aux,
                      std::vector<double>* h) {
  std::vector<double> out(c.units);
  for (int u = 0; u < c.units; ++u) {
    double v = c.b[u];
    for (int k = 0; k < c.input; ++k) v += double(c.w[u * c.input + k]) * x[k];
    for (int k = 0; k < c.aux; ++k) v += double(c.a[u * c.aux + k]) * aux[k];
    for (int k = 0; k < c.units; ++k) v += double(c.r[u * c.units + k]) * (*h)[k];
    out[u] = Act(act, v);
  }
  *h = out;
}

// The hybrid cell's semantics for one row (every operand row quantized on its own; an
// all-zero row contributes nothing either way).
struct HybridCell {
  Weights f;  // bias and sizes
  QuantWeights w, r, a;
};

inline HybridCell MakeHybrid(const Weights& c) {
  HybridCell h;
  h.f = c;
  h.w = Quantize(c.w);
  h.r = Quantize(c.r);
  if (c.aux > 0) h.a = Quantize(c.a);
  return h;
}

inline void AddProduct(const QuantWeights& w, int units, int cols, const float* x, bool asymmetric,
                       std::vector<float>* acc) {
  const hybrid_test::RowQuant q = hybrid_test::QuantizeRow(x, cols, asymmetric);
  for (int u = 0; u < units; ++u) {
    int32_t dot = 0, sum = 0;
    for (int k = 0; k < cols; ++k) {
      dot += int32_t{w.q[u * cols + k]} * q.q[k];
      sum += w.q[u * cols + k];
    }
    if (asymmetric) dot -= sum * q.zero_point;
    (*acc)[u] += static_cast<float>(dot) * (q.scale * w.scale);
  }
}

inline void HybridStep(const HybridCell& c, TfLiteFusedActivation act, bool asymmetric,
                       const float* x, const float* aux, std::vector<float>* h) {
  std::vector<float> acc(c.f.b.begin(), c.f.b.end());
  AddProduct(c.w, c.f.units, c.f.input, x, asymmetric, &acc);
  if (c.f.aux > 0) AddProduct(c.a, c.f.units, c.f.aux, aux, asymmetric, &acc);
  AddProduct(c.r, c.f.units, c.f.units, h->data(), asymmetric, &acc);
  for (float& v : acc) v = static_cast<float>(Act(act, v));
  *h = acc;
}

}  // namespace octet::rnn_test
