// The full-integer LSTM step as TFLite (not TFLite Micro) computes it: lstm_eval's
// LstmStepInteger8x8_16 over the portable tensor utilities. int8 input, output state and
// weights; int16 cell state with a power-of-two scale 2^cell_scale_power; int16 gate values
// (Q3.12 pre-activation unless layer norm rescales them, Q0.15 after the gemmlowp sigmoid/tanh).
// Supports CIFG, peephole, projection, layer norm and both clips. The input and output-state
// zero points are folded into per-row biases at prepare (FoldZeroPoint).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "quant/fixed_point.h"
#include "quant/quantization_util.h"

namespace octet::reference::lstm_integer_full {

enum Gate { kInputGate = 0, kForgetGate = 1, kCellGate = 2, kOutputGate = 3 };

struct Multiplier {
  int32_t multiplier = 0;
  int shift = 0;
};

struct GateParams {
  Multiplier input_fc;      // input x input_to_gate weights -> gate pre-activation
  Multiplier recurrent_fc;  // output state x recurrent_to_gate weights
  Multiplier peephole;      // cell state x cell_to_gate weights (not the cell gate)
  Multiplier layer_norm;    // the layer norm coefficients' scale
  int32_t variance_guard = 1;
};

struct Params {
  int n_input = 0, n_cell = 0, n_output = 0;
  bool cifg = false, peephole = false, layer_norm = false, projection = false;
  GateParams gate[4];
  int cell_scale_power = -11;  // in [-15, -9]: the cell tanh takes 15 + power integer bits
  Multiplier hidden;           // output gate (Q0.15) x tanh(cell) (Q0.15) -> hidden
  int32_t hidden_zp = 0;
  Multiplier projection_fc;
  int32_t output_state_zp = 0;
  int16_t cell_clip = 0;  // 0: no clipping
  int8_t proj_clip = 0;
};

struct Weights {
  const int8_t* input_to[4] = {};
  const int8_t* recurrent_to[4] = {};
  const int16_t* cell_to[4] = {};         // peephole; the cell gate has none
  const int16_t* layer_norm[4] = {};      // layer norm coefficients
  const int32_t* bias[4] = {};            // gate biases, applied by layer norm only
  const int32_t* input_bias[4] = {};      // folded: bias (no layer norm) - input_zp x row sums
  const int32_t* recurrent_bias[4] = {};  // folded: -output_state_zp x row sums
  const int8_t* projection = nullptr;
  const int32_t* projection_bias = nullptr;  // folded: bias + hidden_zp x row sums
};

// Four int16 buffers and one int8 buffer of n_batch x n_cell each.
struct Scratch {
  int16_t* gate[4];
  int8_t* hidden;
};

namespace detail {

// int32 sums with two's-complement wrap-around, as TFLite's int32 accumulators behave.
inline int32_t WrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t WrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

// out = clamp(out + requant(bias + input . weights_row) + output_zp) per row, T = int16/int8.
template <typename T>
void MatMulAccumulate(const int8_t* input, const int32_t* bias, const int8_t* weights, Multiplier m,
                      int n_batch, int n_in, int n_out, int32_t output_zp, T* out) {
  for (int b = 0; b < n_batch; ++b) {
    const int8_t* x = input + static_cast<size_t>(b) * n_in;
    for (int r = 0; r < n_out; ++r) {
      const int8_t* w = weights + static_cast<size_t>(r) * n_in;
      int32_t acc = bias[r];
      for (int c = 0; c < n_in; ++c) acc = WrapAdd(acc, int32_t{x[c]} * w[c]);
      acc = quant::MultiplyByQuantizedMultiplier(acc, m.multiplier, m.shift);
      const int64_t sum = int64_t{acc} + output_zp + out[static_cast<size_t>(b) * n_out + r];
      out[static_cast<size_t>(b) * n_out + r] = static_cast<T>(
          std::clamp<int64_t>(sum, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    }
  }
}

// TFLite's VectorBatchVectorCwiseProductAccumulate: v_size values of `vector` against
// consecutive runs of v_size values of `batch` and `out`.
inline void PeepholeAccumulate(const int16_t* vector, int v_size, const int16_t* batch, int n_batch,
                               Multiplier m, int16_t* out) {
  for (int b = 0; b < n_batch; ++b) {
    for (int v = 0; v < v_size; ++v) {
      const int32_t prod = quant::MultiplyByQuantizedMultiplier(int32_t{vector[v]} * *batch++,
                                                                m.multiplier, m.shift);
      *out = static_cast<int16_t>(std::clamp<int64_t>(int64_t{prod} + *out, -32768, 32767));
      ++out;
    }
  }
}

// TFLite's integer layer norm: mean and variance with 10 fractional bits, 1/stddev by
// GetInvSqrtQuantizedMultiplierExp, then coefficient, bias and scale, back to Q3.12.
inline void LayerNorm(const int16_t* input, const int16_t* coefficients, const int32_t* bias,
                      Multiplier scale, int32_t variance_guard, int n_batch, int n, int16_t* out) {
  constexpr int64_t kTwoToPower20 = int64_t{1} << 20;
  for (int b = 0; b < n_batch; ++b) {
    const int16_t* x = input + static_cast<size_t>(b) * n;
    int16_t* y = out + static_cast<size_t>(b) * n;
    int64_t sum = 0;
    int64_t sum_sq = 0;
    for (int j = 0; j < n; ++j) {
      sum += x[j];
      sum_sq += int32_t{x[j]} * x[j];
    }
    const int32_t mean = static_cast<int32_t>(sum * 1024 / n);
    // Exact only for power-of-two n, as in TFLite.
    const int64_t temp = kTwoToPower20 / n;
    const int64_t variance = sum_sq * temp - int64_t{mean} * mean;
    int32_t variance2 = static_cast<int32_t>(variance / kTwoToPower20);
    if (variance2 < 1) variance2 = variance_guard;
    int32_t inv_a = 0;
    int inv_b = 0;
    quant::fixed_point::GetInvSqrtQuantizedMultiplierExp(variance2, -1, &inv_a, &inv_b);
    for (int j = 0; j < n; ++j) {
      const int32_t shifted = 1024 * int32_t{x[j]} - mean;
      const int32_t rescaled = quant::MultiplyByQuantizedMultiplier(shifted, inv_a, inv_b);
      // TFLite multiplies in int32 (wrapping) before widening.
      const int64_t val3 = int64_t{WrapMul(rescaled, coefficients[j])} + bias[j];
      const int32_t val4 = static_cast<int32_t>((val3 > 0 ? val3 + 512 : val3 - 512) / 1024);
      const int32_t val5 =
          quant::MultiplyByQuantizedMultiplier(val4, scale.multiplier, scale.shift + 12);
      y[j] = static_cast<int16_t>(std::clamp<int32_t>(val5, -32768, 32767));
    }
  }
}

inline void Sigmoid(int16_t* v, size_t n) {
  namespace fp = quant::fixed_point;
  for (size_t i = 0; i < n; ++i) {
    v[i] = fp::logistic(fp::FixedPoint<int16_t, 3>::FromRaw(v[i])).raw();
  }
}

template <int kIntegerBits>
void TanhImpl(const int16_t* in, size_t n, int16_t* out) {
  namespace fp = quant::fixed_point;
  for (size_t i = 0; i < n; ++i) {
    out[i] = fp::tanh(fp::FixedPoint<int16_t, kIntegerBits>::FromRaw(in[i])).raw();
  }
}

// integer_bits in [0, 6] (prepare checks the cell scale).
inline void Tanh(int integer_bits, const int16_t* in, size_t n, int16_t* out) {
  switch (integer_bits) {
    case 0:
      return TanhImpl<0>(in, n, out);
    case 1:
      return TanhImpl<1>(in, n, out);
    case 2:
      return TanhImpl<2>(in, n, out);
    case 3:
      return TanhImpl<3>(in, n, out);
    case 4:
      return TanhImpl<4>(in, n, out);
    case 5:
      return TanhImpl<5>(in, n, out);
    case 6:
      return TanhImpl<6>(in, n, out);
    default:
      return;
  }
}

// a x b / 2^shift, rounded; TFLite narrows to int16 without saturating (the operands keep
// the product in range).
inline void MulShift(const int16_t* a, const int16_t* b, size_t n, int shift, int16_t* out) {
  for (size_t i = 0; i < n; ++i) {
    const int32_t p = int32_t{a[i]} * b[i];
    out[i] = static_cast<int16_t>(quant::RoundingDivideByPOT(p, shift));
  }
}

}  // namespace detail

// out[r] = (bias ? bias[r] : 0) + zero_point x sum of row r (int32, wrapping): TFLite's
// PrecomputeZeroPointTimesWeightWithBias.
inline void FoldZeroPoint(const int8_t* weights, int rows, int cols, int32_t zero_point,
                          const int32_t* bias, int32_t* out) {
  for (int r = 0; r < rows; ++r) {
    int32_t row_sum = 0;
    for (int c = 0; c < cols; ++c) {
      row_sum = detail::WrapAdd(row_sum, weights[static_cast<size_t>(r) * cols + c]);
    }
    out[r] = detail::WrapAdd(bias ? bias[r] : 0, detail::WrapMul(row_sum, zero_point));
  }
}

// One time step for n_batch rows: input [n_batch, n_input], output_state [n_batch, n_output]
// (read, then overwritten), cell [n_batch, n_cell] (updated), output [n_batch, n_output].
inline void Step(const Params& p, const Weights& w, int n_batch, const int8_t* input,
                 int8_t* output_state, int16_t* cell, int8_t* output, const Scratch& s) {
  const size_t n = static_cast<size_t>(n_batch) * p.n_cell;
  auto gate = [&](int g) {
    int16_t* out = s.gate[g];
    const GateParams& gp = p.gate[g];
    std::fill_n(out, n, int16_t{0});
    detail::MatMulAccumulate(input, w.input_bias[g], w.input_to[g], gp.input_fc, n_batch, p.n_input,
                             p.n_cell, 0, out);
    detail::MatMulAccumulate(output_state, w.recurrent_bias[g], w.recurrent_to[g], gp.recurrent_fc,
                             n_batch, p.n_output, p.n_cell, 0, out);
    // TFLite passes n_output as the peephole's length (prepare keeps it <= n_cell).
    if (p.peephole && g != kCellGate) {
      detail::PeepholeAccumulate(w.cell_to[g], p.n_output, cell, n_batch, gp.peephole, out);
    }
    if (p.layer_norm) {
      detail::LayerNorm(out, w.layer_norm[g], w.bias[g], gp.layer_norm, gp.variance_guard, n_batch,
                        p.n_cell, out);
    }
    if (g == kCellGate) {
      detail::Tanh(3, out, n, out);
    } else {
      detail::Sigmoid(out, n);
    }
  };
  if (!p.cifg) gate(kInputGate);
  gate(kForgetGate);
  gate(kCellGate);

  // Cell update; the forget gate's buffer takes the input contribution.
  int16_t* forget = s.gate[kForgetGate];
  detail::MulShift(forget, cell, n, 15, cell);
  if (p.cifg) {
    for (size_t i = 0; i < n; ++i) forget[i] = static_cast<int16_t>(32767 - forget[i]);
    detail::MulShift(forget, s.gate[kCellGate], n, 30 + p.cell_scale_power, forget);
  } else {
    detail::MulShift(s.gate[kInputGate], s.gate[kCellGate], n, 30 + p.cell_scale_power, forget);
  }
  for (size_t i = 0; i < n; ++i) {
    cell[i] =
        static_cast<int16_t>(std::clamp<int32_t>(int32_t{cell[i]} + forget[i], -32768, 32767));
  }
  if (p.cell_clip > 0) {
    for (size_t i = 0; i < n; ++i) {
      cell[i] = std::clamp<int16_t>(cell[i], static_cast<int16_t>(-p.cell_clip), p.cell_clip);
    }
  }

  gate(kOutputGate);

  // Hidden = output gate x tanh(cell), requantized to the hidden intermediate (TFLite
  // subtracts its zero point here).
  int16_t* tanh_cell = s.gate[kInputGate];
  detail::Tanh(15 + p.cell_scale_power, cell, n, tanh_cell);
  const int16_t* og = s.gate[kOutputGate];
  for (size_t i = 0; i < n; ++i) {
    int32_t v = quant::MultiplyByQuantizedMultiplier(int32_t{og[i]} * tanh_cell[i],
                                                     p.hidden.multiplier, p.hidden.shift);
    v -= p.hidden_zp;
    s.hidden[i] = static_cast<int8_t>(std::clamp<int32_t>(v, -128, 127));
  }

  const size_t n_out = static_cast<size_t>(n_batch) * p.n_output;
  if (p.projection) {
    std::fill_n(output_state, n_out, int8_t{0});
    detail::MatMulAccumulate(s.hidden, w.projection_bias, w.projection, p.projection_fc, n_batch,
                             p.n_cell, p.n_output, p.output_state_zp, output_state);
    if (p.proj_clip > 0) {
      for (size_t i = 0; i < n_out; ++i) {
        output_state[i] =
            std::clamp<int8_t>(output_state[i], static_cast<int8_t>(-p.proj_clip), p.proj_clip);
      }
    }
  } else {
    std::memcpy(output_state, s.hidden, n_out);
  }
  std::memcpy(output, output_state, n_out);
}

}  // namespace octet::reference::lstm_integer_full
