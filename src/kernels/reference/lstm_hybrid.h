// Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM: float input, states, biases, layer-norm coefficients
// and output; int8 weight matrices (input, recurrent, projection) and int8 peephole weights,
// each with one scale. As TFLite's EvalHybrid / LstmStepHybrid computes one time step (for
// the step's batch rows: all of them time-major, one sequence at a time batch-major):
//
//   - the step's input rows and the previous output state rows are quantized per row
//     (symmetric, or asymmetric with the op's asymmetric_quantize_inputs), each operand only
//     when it is not all zeros (an all-zero operand adds nothing: its products are skipped);
//   - each gate starts from its bias (0 with layer norm), accumulates the input products,
//     then the recurrent products (hybrid_recurrent.h: float(dot') * (row_scale *
//     weight_scale)), then the peephole term (peephole_scale * w) * cell, then the layer norm
//     (mean/stddev normalisation, * coefficient, + bias), then its activation (sigmoid; the
//     cell gate uses the op's activation, as the float kernel);
//   - c = f * c + g * i (i = 1 - f under CIFG), clipped; the output gate's peephole sees the
//     new c; hidden = o * act(c);
//   - with projection: output_state = projection bias (or 0), plus the products of the
//     quantized hidden rows unless hidden is all zeros, clipped; without: hidden.
//
// BIDIRECTIONAL_SEQUENCE_LSTM's aux input (with aux weights) is a second input: its rows are
// quantized like the input's (per row, skipped when the step's rows are all zeros) and its
// products are added right after the input's, before the recurrent ones (lstm_eval.cc's
// order).
//
// Each input row is quantized exactly as TFLite quantizes it in its own step, so all steps'
// input products are computed up front in one batch. The int32 products come from a `Dots`
// object (LstmHybridPlainDots here; the optimized glue runs the same sums on the quantized
// GEMM kernels) and everything in float is this file's code, so both give the same bits.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/reference/hybrid_recurrent.h"
#include "kernels/reference/lstm.h"

namespace octet::reference {

enum LstmHybridGateIndex { kLstmInputGate = 0, kLstmForgetGate, kLstmCellGate, kLstmOutputGate };

struct LstmHybridGate {
  const int8_t* input_weights = nullptr;  // [n_cell, n_input]
  float input_scale = 1.f;
  const int32_t* input_row_sums = nullptr;    // HybridRowSums (asymmetric inputs only)
  const int8_t* recurrent_weights = nullptr;  // [n_cell, n_output]
  float recurrent_scale = 1.f;
  const int32_t* recurrent_row_sums = nullptr;
  const int8_t* peephole = nullptr;  // [n_cell] cell_to_gate weights, or nullptr
  float peephole_scale = 1.f;
  const float* layer_norm = nullptr;    // [n_cell], or nullptr
  const float* bias = nullptr;          // [n_cell]
  const int8_t* aux_weights = nullptr;  // [n_cell, n_aux_input], or nullptr
  float aux_scale = 1.f;
  const int32_t* aux_row_sums = nullptr;
};

struct LstmHybridWeights {
  LstmHybridGate gates[4];                     // input (absent under CIFG), forget, cell, output
  const int8_t* projection_weights = nullptr;  // [n_output, n_cell], or nullptr
  float projection_scale = 1.f;
  const int32_t* projection_row_sums = nullptr;
  const float* projection_bias = nullptr;  // [n_output], or nullptr
  int n_aux_input = 0;                     // the aux input's width (0: no aux input)

  bool cifg() const { return gates[kLstmInputGate].input_weights == nullptr; }
  bool has_aux() const { return n_aux_input > 0 && gates[kLstmForgetGate].aux_weights; }
  int gate_count() const { return cifg() ? 3 : 4; }
  // Where gate g's products sit among one row's stacked gate products (gate_count * n_cell).
  int slot(int g) const { return cifg() ? g - 1 : g; }
};

// The int32 products as plain loops. Input/Recurrent: dots[r * G * n_cell + slot(g) * n_cell
// + i] for the G present gates; Projection: dots[r * n_output + o].
struct LstmHybridPlainDots {
  const LstmHybridWeights* w = nullptr;
  const LstmParams* p = nullptr;

  void Input(const int8_t* q, int rows, int32_t* dots) const { Gates(kIn, q, rows, dots); }
  void Recurrent(const int8_t* q, int rows, int32_t* dots) const { Gates(kRec, q, rows, dots); }
  void Aux(const int8_t* q, int rows, int32_t* dots) const { Gates(kAux, q, rows, dots); }
  void Projection(const int8_t* q, int rows, int32_t* dots) const {
    HybridDots(w->projection_weights, p->n_output, p->n_cell, q, rows, dots, p->n_output);
  }

 private:
  enum Operand { kIn, kRec, kAux };
  void Gates(Operand op, const int8_t* q, int rows, int32_t* dots) const {
    const int64_t stride = int64_t{w->gate_count()} * p->n_cell;
    const int cols = op == kIn ? p->n_input : op == kRec ? p->n_output : w->n_aux_input;
    for (int g = w->cifg() ? 1 : 0; g < 4; ++g) {
      const LstmHybridGate& gw = w->gates[g];
      const int8_t* weights = op == kIn    ? gw.input_weights
                              : op == kRec ? gw.recurrent_weights
                                           : gw.aux_weights;
      HybridDots(weights, p->n_cell, cols, q, rows, dots + int64_t{w->slot(g)} * p->n_cell, stride);
    }
  }
};

// Buffers of one invoke. `rows` = max_time * n_batch input rows; `step_rows` = the rows of
// one step (n_batch time-major, 1 batch-major).
struct LstmHybridScratch {
  int8_t* input_q = nullptr;              // rows * n_input
  float* input_scales = nullptr;          // rows
  int32_t* input_zero_points = nullptr;   // rows
  int32_t* input_dots = nullptr;          // rows * G * n_cell
  int8_t* state_q = nullptr;              // step_rows * n_output
  float* state_scales = nullptr;          // step_rows
  int32_t* state_zero_points = nullptr;   // step_rows
  int32_t* state_dots = nullptr;          // step_rows * G * n_cell
  int8_t* hidden_q = nullptr;             // step_rows * n_cell
  float* hidden_scales = nullptr;         // step_rows
  int32_t* hidden_zero_points = nullptr;  // step_rows
  int32_t* projection_dots = nullptr;     // step_rows * n_output
  float* gates = nullptr;                 // 4 * step_rows * n_cell
  float* hidden = nullptr;                // step_rows * n_cell
  int8_t* aux_q = nullptr;                // rows * n_aux_input (aux input only)
  float* aux_scales = nullptr;            // rows
  int32_t* aux_zero_points = nullptr;     // rows
  int32_t* aux_dots = nullptr;            // rows * G * n_cell
};

// Elements of the three scratch arrays (float, int32, int8) LstmHybridScratch is carved from.
struct LstmHybridScratchSize {
  int64_t floats = 0;
  int64_t int32s = 0;
  int64_t int8s = 0;
};

namespace lstm_hybrid_detail {

// Carves the buffers from the three arrays (null arrays: only counts) and returns the sizes.
// The aux input's buffers come last and only with an aux input (n_aux_input > 0).
inline LstmHybridScratchSize Layout(const LstmParams& p, int gate_count, int64_t rows,
                                    int64_t step_rows, int n_aux_input, float* f, int32_t* i32,
                                    int8_t* i8, LstmHybridScratch* s) {
  LstmHybridScratchSize n;
  auto take_f = [&](int64_t count) {
    float* at = f ? f + n.floats : nullptr;
    n.floats += count;
    return at;
  };
  auto take_i = [&](int64_t count) {
    int32_t* at = i32 ? i32 + n.int32s : nullptr;
    n.int32s += count;
    return at;
  };
  auto take_b = [&](int64_t count) {
    int8_t* at = i8 ? i8 + n.int8s : nullptr;
    n.int8s += count;
    return at;
  };
  const int64_t gates = int64_t{gate_count} * p.n_cell;
  s->input_q = take_b(rows * p.n_input);
  s->input_scales = take_f(rows);
  s->input_zero_points = take_i(rows);
  s->input_dots = take_i(rows * gates);
  s->state_q = take_b(step_rows * p.n_output);
  s->state_scales = take_f(step_rows);
  s->state_zero_points = take_i(step_rows);
  s->state_dots = take_i(step_rows * gates);
  s->hidden_q = take_b(step_rows * p.n_cell);
  s->hidden_scales = take_f(step_rows);
  s->hidden_zero_points = take_i(step_rows);
  s->projection_dots = take_i(step_rows * p.n_output);
  s->gates = take_f(4 * step_rows * p.n_cell);
  s->hidden = take_f(step_rows * p.n_cell);
  if (n_aux_input > 0) {
    s->aux_q = take_b(rows * n_aux_input);
    s->aux_scales = take_f(rows);
    s->aux_zero_points = take_i(rows);
    s->aux_dots = take_i(rows * gates);
  }
  return n;
}

inline void LayerNorm(const float* coefficients, const float* bias, int n, int rows, float* g) {
  for (int b = 0; b < rows; ++b) {
    float* v = g + int64_t{b} * n;
    float sum = 0.f;
    for (int i = 0; i < n; ++i) sum += v[i];
    const float mean = sum / n;
    float sum_diff_sq = 0.f;
    for (int i = 0; i < n; ++i) {
      const float diff = v[i] - mean;
      sum_diff_sq += diff * diff;
    }
    const float variance = sum_diff_sq / n;
    const float stddev_inv = 1.f / std::sqrt(variance + 1e-8f);
    for (int i = 0; i < n; ++i) v[i] = (v[i] - mean) * stddev_inv;
    for (int i = 0; i < n; ++i) v[i] = coefficients[i] * v[i];
    for (int i = 0; i < n; ++i) v[i] += bias[i];
  }
}

}  // namespace lstm_hybrid_detail

inline LstmHybridScratchSize LstmHybridScratchSizes(const LstmParams& p, int gate_count,
                                                    int64_t rows, int64_t step_rows,
                                                    int n_aux_input = 0) {
  LstmHybridScratch unused;
  return lstm_hybrid_detail::Layout(p, gate_count, rows, step_rows, n_aux_input, nullptr, nullptr,
                                    nullptr, &unused);
}

inline LstmHybridScratch LstmHybridCarveScratch(const LstmParams& p, int gate_count, int64_t rows,
                                                int64_t step_rows, float* floats, int32_t* int32s,
                                                int8_t* int8s, int n_aux_input = 0) {
  LstmHybridScratch s;
  lstm_hybrid_detail::Layout(p, gate_count, rows, step_rows, n_aux_input, floats, int32s, int8s,
                             &s);
  return s;
}

// One time step for the `nb` rows starting at input row `first_row` (whose products are in
// s.input_dots), with their output states h [nb, n_output] and cell states c [nb, n_cell]
// (updated); the new output state is also written to out [nb, n_output]. `aux_input` (rows
// laid out as the input's, products in s.aux_dots) when w.has_aux(), else unused.
template <typename Dots>
inline void LstmHybridStep(const LstmHybridWeights& w, const LstmParams& p, bool asymmetric,
                           const float* input, int64_t first_row, int nb, float* h, float* c,
                           float* out, const LstmHybridScratch& s, const Dots& dots,
                           const float* aux_input = nullptr) {
  const int n = p.n_cell;
  const int64_t size = int64_t{nb} * n;
  const int64_t stride = int64_t{w.gate_count()} * n;
  const bool input_zero = HybridIsZero(input + first_row * p.n_input, int64_t{nb} * p.n_input);
  const bool aux_zero = !w.has_aux() || HybridIsZero(aux_input + first_row * w.n_aux_input,
                                                     int64_t{nb} * w.n_aux_input);
  const bool state_zero = HybridIsZero(h, int64_t{nb} * p.n_output);
  if (!state_zero) {
    HybridQuantizeRows(h, nb, p.n_output, asymmetric, s.state_q, s.state_scales,
                       s.state_zero_points);
    dots.Recurrent(s.state_q, nb, s.state_dots);
  }
  auto gate = [&](int g, LstmActivation act, float* v) {
    const LstmHybridGate& gw = w.gates[g];
    const int64_t slot = int64_t{w.slot(g)} * n;
    for (int b = 0; b < nb; ++b) {
      for (int i = 0; i < n; ++i) v[int64_t{b} * n + i] = gw.layer_norm ? 0.f : gw.bias[i];
    }
    if (!input_zero) {
      HybridAccumulate(s.input_dots + first_row * stride + slot, stride, n, nb, gw.input_scale,
                       s.input_scales + first_row,
                       asymmetric ? s.input_zero_points + first_row : nullptr, gw.input_row_sums, v,
                       n);
    }
    if (!aux_zero) {
      HybridAccumulate(s.aux_dots + first_row * stride + slot, stride, n, nb, gw.aux_scale,
                       s.aux_scales + first_row,
                       asymmetric ? s.aux_zero_points + first_row : nullptr, gw.aux_row_sums, v, n);
    }
    if (!state_zero) {
      HybridAccumulate(s.state_dots + slot, stride, n, nb, gw.recurrent_scale, s.state_scales,
                       asymmetric ? s.state_zero_points : nullptr, gw.recurrent_row_sums, v, n);
    }
    if (gw.peephole) {
      for (int64_t k = 0; k < size; ++k) {
        const float weight = gw.peephole_scale * static_cast<float>(gw.peephole[k % n]);
        v[k] += weight * c[k];
      }
    }
    if (gw.layer_norm) lstm_hybrid_detail::LayerNorm(gw.layer_norm, gw.bias, n, nb, v);
    for (int64_t k = 0; k < size; ++k) v[k] = LstmActivate(act, v[k]);
  };

  float* input_gate = s.gates;
  float* forget_gate = s.gates + size;
  float* cell_gate = s.gates + 2 * size;
  float* output_gate = s.gates + 3 * size;
  const bool cifg = w.cifg();
  if (!cifg) gate(kLstmInputGate, LstmActivation::kSigmoid, input_gate);
  gate(kLstmForgetGate, LstmActivation::kSigmoid, forget_gate);
  gate(kLstmCellGate, p.activation, cell_gate);
  for (int64_t k = 0; k < size; ++k) {
    c[k] = forget_gate[k] * c[k];
    const float in_gate = cifg ? 1.f - forget_gate[k] : input_gate[k];
    c[k] += cell_gate[k] * in_gate;
    if (p.cell_clip > 0.f) c[k] = std::max(std::min(p.cell_clip, c[k]), -p.cell_clip);
  }
  gate(kLstmOutputGate, LstmActivation::kSigmoid, output_gate);
  for (int64_t k = 0; k < size; ++k)
    s.hidden[k] = output_gate[k] * LstmActivate(p.activation, c[k]);

  const int64_t out_size = int64_t{nb} * p.n_output;
  if (w.projection_weights) {
    for (int64_t k = 0; k < out_size; ++k) {
      h[k] = w.projection_bias ? w.projection_bias[k % p.n_output] : 0.f;
    }
    if (!HybridIsZero(s.hidden, size)) {
      HybridQuantizeRows(s.hidden, nb, n, asymmetric, s.hidden_q, s.hidden_scales,
                         s.hidden_zero_points);
      dots.Projection(s.hidden_q, nb, s.projection_dots);
      HybridAccumulate(s.projection_dots, p.n_output, p.n_output, nb, w.projection_scale,
                       s.hidden_scales, asymmetric ? s.hidden_zero_points : nullptr,
                       w.projection_row_sums, h, p.n_output);
    }
    if (p.proj_clip > 0.f) {
      for (int64_t k = 0; k < out_size; ++k) {
        h[k] = std::max(std::min(p.proj_clip, h[k]), -p.proj_clip);
      }
    }
  } else {
    std::copy(s.hidden, s.hidden + out_size, h);
  }
  std::copy(h, h + out_size, out);
}

// The whole sequence. time_major: input [T, B, n_input], output [T, B, n_output]; otherwise
// [B, T, ...], each sequence run on its own. States [B, ...] carry over between calls. With
// w.has_aux(), `aux_input` is laid out as the input ([.., .., n_aux_input]).
template <typename Dots>
inline void LstmHybridSequence(const LstmHybridWeights& w, const LstmParams& p, bool asymmetric,
                               bool time_major, int max_time, int n_batch, const float* input,
                               float* output_state, float* cell_state, float* output,
                               const LstmHybridScratch& s, const Dots& dots,
                               const float* aux_input = nullptr) {
  const int64_t rows = int64_t{max_time} * n_batch;
  if (rows == 0) return;
  HybridQuantizeRows(input, static_cast<int>(rows), p.n_input, asymmetric, s.input_q,
                     s.input_scales, s.input_zero_points);
  dots.Input(s.input_q, static_cast<int>(rows), s.input_dots);
  if (w.has_aux()) {
    HybridQuantizeRows(aux_input, static_cast<int>(rows), w.n_aux_input, asymmetric, s.aux_q,
                       s.aux_scales, s.aux_zero_points);
    dots.Aux(s.aux_q, static_cast<int>(rows), s.aux_dots);
  }
  if (time_major) {
    for (int t = 0; t < max_time; ++t) {
      const int64_t first = int64_t{t} * n_batch;
      LstmHybridStep(w, p, asymmetric, input, first, n_batch, output_state, cell_state,
                     output + first * p.n_output, s, dots, aux_input);
    }
    return;
  }
  for (int b = 0; b < n_batch; ++b) {
    for (int t = 0; t < max_time; ++t) {
      const int64_t row = int64_t{b} * max_time + t;
      LstmHybridStep(w, p, asymmetric, input, row, 1, output_state + int64_t{b} * p.n_output,
                     cell_state + int64_t{b} * p.n_cell, output + row * p.n_output, s, dots,
                     aux_input);
    }
  }
}

}  // namespace octet::reference
