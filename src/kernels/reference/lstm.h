// Reference float LSTM (the UNIDIRECTIONAL_SEQUENCE_LSTM cell) with the optional TFLite
// variants: CIFG (no input gate), peephole, layer normalisation, projection and clipping.
// Arithmetic follows TFLite's float LSTM step: each gate starts from its bias, adds the
// input and recurrent matrix products (each summed separately in float), then peephole,
// then activation; sigmoid uses TFLite's reference logistic (with its cut-offs).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace octet::reference {

enum class LstmActivation { kNone, kRelu, kReluN1To1, kRelu6, kTanh, kSigmoid };

inline float LstmSigmoid(float v) {
  constexpr float kUpper = 16.619047164916992188f;
  constexpr float kLower = -9.f;
  if (v > kUpper) return 1.f;
  if (v < kLower) return std::exp(v);
  return 1.f / (1.f + std::exp(-v));
}

inline float LstmActivate(LstmActivation a, float v) {
  switch (a) {
    case LstmActivation::kNone:
      return v;
    case LstmActivation::kRelu:
      return std::max(0.f, v);
    case LstmActivation::kReluN1To1:
      return std::max(-1.f, std::min(v, 1.f));
    case LstmActivation::kRelu6:
      return std::max(0.f, std::min(v, 6.f));
    case LstmActivation::kTanh:
      return std::tanh(v);
    case LstmActivation::kSigmoid:
      return LstmSigmoid(v);
  }
  return v;
}

// Weights of one gate; optional pieces are nullptr.
struct LstmGateWeights {
  const float* input_weights = nullptr;      // [n_cell, n_input]
  const float* recurrent_weights = nullptr;  // [n_cell, n_output]
  const float* peephole = nullptr;           // [n_cell] (cell_to_gate)
  const float* layer_norm = nullptr;         // [n_cell]
  const float* bias = nullptr;               // [n_cell]
};

struct LstmWeights {
  LstmGateWeights input_gate;  // all nullptr for CIFG
  LstmGateWeights forget_gate;
  LstmGateWeights cell_gate;
  LstmGateWeights output_gate;
  const float* projection_weights = nullptr;  // [n_output, n_cell]
  const float* projection_bias = nullptr;     // [n_output]
};

struct LstmParams {
  int n_input = 0;
  int n_cell = 0;
  int n_output = 0;
  LstmActivation activation = LstmActivation::kTanh;  // cell gate and cell output
  float cell_clip = 0.f;                              // 0 = no clipping
  float proj_clip = 0.f;
};

namespace lstm_detail {

// result[b, r] += sum_c matrix[r, c] * vec[b, c], each dot product summed on its own.
inline void MatVecAccumulate(const float* matrix, int rows, int cols, const float* vec, int n_batch,
                             float* result) {
  for (int b = 0; b < n_batch; ++b) {
    const float* v = vec + static_cast<int64_t>(b) * cols;
    for (int r = 0; r < rows; ++r) {
      const float* m = matrix + static_cast<int64_t>(r) * cols;
      float dot = 0.f;
      for (int c = 0; c < cols; ++c) dot += m[c] * v[c];
      result[static_cast<int64_t>(b) * rows + r] += dot;
    }
  }
}

// The gate's products for n_batch rows: gate[b, i] = bias[i] (0 with layer norm, which adds
// the bias after normalising) + the input products + the recurrent products.
inline void GateProducts(const LstmGateWeights& w, const LstmParams& p, int n_batch,
                         const float* input, const float* output_state, float* gate) {
  const int n = p.n_cell;
  for (int b = 0; b < n_batch; ++b) {
    for (int i = 0; i < n; ++i) gate[b * n + i] = w.layer_norm ? 0.f : w.bias[i];
  }
  MatVecAccumulate(w.input_weights, n, p.n_input, input, n_batch, gate);
  MatVecAccumulate(w.recurrent_weights, n, p.n_output, output_state, n_batch, gate);
}

// From the gate's products to its pre-activation: peephole, layer norm (then the bias).
inline void FinishGate(const LstmGateWeights& w, const LstmParams& p, int n_batch,
                       const float* cell_state, float* gate) {
  const int n = p.n_cell;
  if (w.peephole) {
    for (int b = 0; b < n_batch; ++b) {
      for (int i = 0; i < n; ++i) gate[b * n + i] += w.peephole[i] * cell_state[b * n + i];
    }
  }
  if (w.layer_norm) {
    for (int b = 0; b < n_batch; ++b) {
      float* g = gate + b * n;
      float sum = 0.f;
      for (int i = 0; i < n; ++i) sum += g[i];
      const float mean = sum / n;
      float sum_diff_sq = 0.f;
      for (int i = 0; i < n; ++i) sum_diff_sq += (g[i] - mean) * (g[i] - mean);
      const float variance = sum_diff_sq / n;
      const float stddev_inv = 1.f / std::sqrt(variance + 1e-8f);
      for (int i = 0; i < n; ++i) g[i] = (g[i] - mean) * stddev_inv;
      for (int i = 0; i < n; ++i) g[i] = w.layer_norm[i] * g[i];
      for (int i = 0; i < n; ++i) g[i] = g[i] + w.bias[i];
    }
  }
}

}  // namespace lstm_detail

// Scratch floats LstmStep needs for n_batch rows.
inline int64_t LstmScratchSize(const LstmParams& p, int n_batch) {
  return int64_t{5} * n_batch * p.n_cell;
}

// The matrix products and activations of a step as plain loops (each dot product summed on
// its own). A fast path supplies the same functions on its own GEMM and vector kernels
// (ops/nn/lstm_float_fast.h).
struct LstmPlainProducts {
  // out[i] = act(in[i]) for i < n (in and out may be the same array).
  void Activate(LstmActivation act, const float* in, float* out, int64_t n) const {
    for (int64_t i = 0; i < n; ++i) out[i] = LstmActivate(act, in[i]);
  }
  // Gate g (0 input, 1 forget, 2 cell, 3 output): lstm_detail::GateProducts.
  void Gate(int /*g*/, const LstmGateWeights& w, const LstmParams& p, int n_batch,
            const float* input, const float* output_state, float* gate) const {
    lstm_detail::GateProducts(w, p, n_batch, input, output_state, gate);
  }
  // output_state[b, :] = projection bias (or 0) + projection_weights x hidden[b, :].
  void Project(const LstmWeights& w, const LstmParams& p, int n_batch, const float* hidden,
               float* output_state) const {
    for (int b = 0; b < n_batch; ++b) {
      for (int o = 0; o < p.n_output; ++o) {
        output_state[b * p.n_output + o] = w.projection_bias ? w.projection_bias[o] : 0.f;
      }
    }
    lstm_detail::MatVecAccumulate(w.projection_weights, p.n_output, p.n_cell, hidden, n_batch,
                                  output_state);
  }
};

// One time step for n_batch rows: reads input [n_batch, n_input], updates output_state
// [n_batch, n_output] and cell_state [n_batch, n_cell] in place, writes the new output
// state to output (rows `output_stride` floats apart). `products` computes the matrix
// products (LstmPlainProducts: the reference loops).
template <typename Products>
inline void LstmStepWith(const Products& products, const LstmWeights& w, const LstmParams& p,
                         int n_batch, const float* input, float* output_state, float* cell_state,
                         float* output, int output_stride, float* scratch) {
  const int n = p.n_cell;
  const int64_t size = static_cast<int64_t>(n_batch) * n;
  float* input_gate = scratch;
  float* forget_gate = scratch + size;
  float* cell_gate = scratch + 2 * size;
  float* output_gate = scratch + 3 * size;
  float* hidden = scratch + 4 * size;
  const bool cifg = w.input_gate.input_weights == nullptr;

  if (!cifg) {
    products.Gate(0, w.input_gate, p, n_batch, input, output_state, input_gate);
    lstm_detail::FinishGate(w.input_gate, p, n_batch, cell_state, input_gate);
    products.Activate(LstmActivation::kSigmoid, input_gate, input_gate, size);
  }
  products.Gate(1, w.forget_gate, p, n_batch, input, output_state, forget_gate);
  lstm_detail::FinishGate(w.forget_gate, p, n_batch, cell_state, forget_gate);
  products.Activate(LstmActivation::kSigmoid, forget_gate, forget_gate, size);
  products.Gate(2, w.cell_gate, p, n_batch, input, output_state, cell_gate);
  lstm_detail::FinishGate(w.cell_gate, p, n_batch, cell_state, cell_gate);
  products.Activate(p.activation, cell_gate, cell_gate, size);

  // c = f * c + i * g, with i = 1 - f under CIFG; then clip.
  for (int64_t i = 0; i < size; ++i) {
    cell_state[i] = forget_gate[i] * cell_state[i];
    const float in_gate = cifg ? 1.f - forget_gate[i] : input_gate[i];
    cell_state[i] += cell_gate[i] * in_gate;
    if (p.cell_clip > 0.f) {
      cell_state[i] = std::max(std::min(p.cell_clip, cell_state[i]), -p.cell_clip);
    }
  }

  // The output gate's products use the old output state (not yet updated); its peephole sees
  // the updated cell state.
  products.Gate(3, w.output_gate, p, n_batch, input, output_state, output_gate);
  lstm_detail::FinishGate(w.output_gate, p, n_batch, cell_state, output_gate);
  products.Activate(LstmActivation::kSigmoid, output_gate, output_gate, size);
  products.Activate(p.activation, cell_state, hidden, size);
  for (int64_t i = 0; i < size; ++i) hidden[i] = output_gate[i] * hidden[i];

  const int64_t out_size = static_cast<int64_t>(n_batch) * p.n_output;
  if (w.projection_weights) {
    products.Project(w, p, n_batch, hidden, output_state);
    if (p.proj_clip > 0.f) {
      for (int64_t i = 0; i < out_size; ++i) {
        output_state[i] = std::max(std::min(p.proj_clip, output_state[i]), -p.proj_clip);
      }
    }
  } else {
    std::copy(hidden, hidden + out_size, output_state);
  }
  for (int b = 0; b < n_batch; ++b) {
    std::copy(output_state + static_cast<int64_t>(b) * p.n_output,
              output_state + static_cast<int64_t>(b + 1) * p.n_output,
              output + static_cast<int64_t>(b) * output_stride);
  }
}

// One step with the reference loops.
inline void LstmStep(const LstmWeights& w, const LstmParams& p, int n_batch, const float* input,
                     float* output_state, float* cell_state, float* output, int output_stride,
                     float* scratch) {
  LstmStepWith(LstmPlainProducts{}, w, p, n_batch, input, output_state, cell_state, output,
               output_stride, scratch);
}

// The whole sequence. time_major: input [T, B, n_input], output [T, B, n_output];
// otherwise input [B, T, n_input], output [B, T, n_output]. States are [B, ...] and are
// carried across steps (and across calls: the caller keeps them).
inline void UnidirectionalSequenceLstm(const LstmWeights& w, const LstmParams& p, bool time_major,
                                       int max_time, int n_batch, const float* input,
                                       float* output_state, float* cell_state, float* output,
                                       float* scratch) {
  if (time_major) {
    for (int t = 0; t < max_time; ++t) {
      LstmStep(w, p, n_batch, input + static_cast<int64_t>(t) * n_batch * p.n_input, output_state,
               cell_state, output + static_cast<int64_t>(t) * n_batch * p.n_output, p.n_output,
               scratch);
    }
    return;
  }
  for (int b = 0; b < n_batch; ++b) {
    for (int t = 0; t < max_time; ++t) {
      const int64_t row = static_cast<int64_t>(b) * max_time + t;
      LstmStep(w, p, 1, input + row * p.n_input, output_state + int64_t{b} * p.n_output,
               cell_state + int64_t{b} * p.n_cell, output + row * p.n_output, p.n_output, scratch);
    }
  }
}

}  // namespace octet::reference
