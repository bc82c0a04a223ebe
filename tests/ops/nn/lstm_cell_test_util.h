// Helpers for the LSTM op tests (LSTM, BIDIRECTIONAL_SEQUENCE_LSTM): one cell's weights in
// TFLite's 24-input layout (float, or int8 for a hybrid cell), adding them to a model, and a
// textbook LSTM step in double with the gate equations written out.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "util/op_model.h"

namespace octet::lstm_test {

struct CellSpec {
  int n_input = 3, n_cell = 4, n_output = 4;
  bool cifg = false, peephole = false, projection = false, proj_bias = false, layer_norm = false;
  bool hybrid = false;  // int8 weight matrices and peephole weights
};

// Layout index k -> values. Float tensors in `f`; int8 ones in `q` with `scale`.
struct CellWeights {
  std::map<int, std::vector<float>> f;
  std::map<int, std::vector<int8_t>> q;
  std::map<int, float> scale;
  // The value of element i of tensor k as the kernel sees it (int8 dequantized).
  double at(int k, int i) const {
    auto it = q.find(k);
    if (it != q.end()) return double{scale.at(k)} * it->second[i];
    return f.at(k)[i];
  }
  bool has(int k) const { return f.count(k) || q.count(k); }
};

inline std::vector<int> CellShape(const CellSpec& s, int k) {
  if (k >= 1 && k <= 4) return {s.n_cell, s.n_input};
  if (k >= 5 && k <= 8) return {s.n_cell, s.n_output};
  if (k == 16) return {s.n_output, s.n_cell};
  if (k == 17) return {s.n_output};
  return {s.n_cell};
}

inline bool IsWeight(int k) { return (k >= 1 && k <= 11) || k == 16; }

inline CellWeights MakeCell(const CellSpec& s, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-0.6f, 0.6f);
  CellWeights w;
  auto add = [&](int k) {
    const auto shape = CellShape(s, k);
    const size_t n = size_t(shape[0]) * (shape.size() > 1 ? shape[1] : 1);
    if (s.hybrid && IsWeight(k)) {
      std::vector<int8_t> v(n);
      for (auto& x : v) x = static_cast<int8_t>(static_cast<int>(rng() % 255) - 127);
      w.q[k] = v;
      w.scale[k] = 0.6f / 127.f;
    } else {
      std::vector<float> v(n);
      for (auto& x : v) x = unit(rng);
      if (k >= 20) {
        for (auto& x : v) x += 1.f;  // layer-norm coefficients around 1
      }
      w.f[k] = v;
    }
  };
  for (int g = s.cifg ? 1 : 0; g < 4; ++g) {
    add(1 + g);
    add(5 + g);
    add(12 + g);
    if (s.layer_norm) add(20 + g);
  }
  if (s.peephole) {
    if (!s.cifg) add(9);
    add(10);
    add(11);
  }
  if (s.projection) add(16);
  if (s.proj_bias) add(17);
  return w;
}

// Adds tensor k (not the input or the states) to the model: a constant or an absent input.
inline void AddCellTensor(testing::OpModel& m, const CellSpec& s, const CellWeights& w, int k) {
  if (w.q.count(k)) {
    m.AddConstInput({kTfLiteInt8, CellShape(s, k), {w.scale.at(k)}, {0}}, w.q.at(k));
  } else if (w.f.count(k)) {
    m.AddConstInput({kTfLiteFloat32, CellShape(s, k)}, w.f.at(k));
  } else {
    m.AddNullInput();
  }
}

// Aux input weights per gate (input, forget, cell, output) [n_cell, n_aux]; empty = none.
struct AuxWeights {
  int n_aux = 0;
  std::map<int, std::vector<float>> gate;
};

inline double Sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

// One textbook LSTM step for one row, in double: gate_g = W_g x + A_g a + R_g h + P_g c + b_g
// (layer norm: normalised over the cell, times the coefficient, plus the bias), i = sigmoid
// (1 - f under CIFG), f = sigmoid, g = tanh, c' = f c + i g (clipped), o = sigmoid (with the
// peephole on c'), h' = o tanh(c'), projected (and clipped) when there is a projection.
inline void NaiveStep(const CellSpec& s, const CellWeights& w, float cell_clip, float proj_clip,
                      const float* x, const AuxWeights& aux, const float* a, double* h, double* c) {
  auto gate = [&](int g, const double* cell) {
    std::vector<double> v(s.n_cell);
    for (int j = 0; j < s.n_cell; ++j) {
      double acc = 0;
      for (int k = 0; k < s.n_input; ++k) acc += w.at(1 + g, j * s.n_input + k) * x[k];
      if (aux.gate.count(g)) {
        for (int k = 0; k < aux.n_aux; ++k) acc += double{aux.gate.at(g)[j * aux.n_aux + k]} * a[k];
      }
      for (int k = 0; k < s.n_output; ++k) acc += w.at(5 + g, j * s.n_output + k) * h[k];
      const int peep = g == 0 ? 9 : g == 1 ? 10 : g == 3 ? 11 : -1;
      if (peep >= 0 && w.has(peep)) acc += w.at(peep, j) * cell[j];
      v[j] = acc;
    }
    if (s.layer_norm) {
      double mean = 0, var = 0;
      for (double e : v) mean += e;
      mean /= s.n_cell;
      for (double e : v) var += (e - mean) * (e - mean);
      var /= s.n_cell;
      for (int j = 0; j < s.n_cell; ++j) {
        v[j] = (v[j] - mean) / std::sqrt(var + 1e-8) * w.at(20 + g, j) + w.at(12 + g, j);
      }
    } else {
      for (int j = 0; j < s.n_cell; ++j) v[j] += w.at(12 + g, j);
    }
    return v;
  };
  const auto f = gate(1, c);
  const auto g = gate(2, c);
  const auto i = s.cifg ? std::vector<double>() : gate(0, c);
  for (int j = 0; j < s.n_cell; ++j) {
    const double fg = Sigmoid(f[j]);
    const double ig = s.cifg ? 1 - fg : Sigmoid(i[j]);
    c[j] = fg * c[j] + ig * std::tanh(g[j]);
    if (cell_clip > 0) c[j] = std::clamp(c[j], -double{cell_clip}, double{cell_clip});
  }
  const auto o = gate(3, c);
  std::vector<double> hidden(s.n_cell);
  for (int j = 0; j < s.n_cell; ++j) hidden[j] = Sigmoid(o[j]) * std::tanh(c[j]);
  for (int k = 0; k < s.n_output; ++k) {
    double v = hidden[k];
    if (s.projection) {
      v = s.proj_bias ? w.at(17, k) : 0.0;
      for (int j = 0; j < s.n_cell; ++j) v += w.at(16, k * s.n_cell + j) * hidden[j];
      if (proj_clip > 0) v = std::clamp(v, -double{proj_clip}, double{proj_clip});
    }
    h[k] = v;
  }
}

}  // namespace octet::lstm_test
