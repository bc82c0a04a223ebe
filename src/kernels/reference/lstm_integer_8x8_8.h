// The full-integer LSTM step with int8 gate matmul outputs ("8x8_8"), as TFLite's lstm.cc runs
// it (lstm_eval's LstmStepInteger8x8_8 over the portable tensor utilities). Each gate's
// input x weights and output_state x weights products are requantized to their own int8
// intermediate, then rescaled and added into an int16 Q3.12 sum; layer norm and the
// activations are computed in float and requantized; the int16 cell state has scale 2^-15.
// TFLite's step always runs the CIFG cell update (the input gate and the peephole weights are
// never read) and always applies layer norm and the projection (with its bias).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "quant/quantization_util.h"

namespace octet::reference::lstm_integer_8x8_8 {

// The three gates TFLite's step computes, in its order.
enum Gate { kForgetGate = 0, kCellGate = 1, kOutputGate = 2 };

struct Multiplier {
  int32_t multiplier = 0;
  int shift = 0;
};

struct GateParams {
  Multiplier input_fc;      // input x weights -> its int8 intermediate
  Multiplier recurrent_fc;  // output_state x weights -> its int8 intermediate
  int8_t input_fc_zp = 0;   // those intermediates' zero points (TFLite narrows them to int8)
  int8_t recurrent_fc_zp = 0;
  Multiplier input_to_sum;  // the two intermediates rescaled onto the int16 gate sum
  Multiplier recurrent_to_sum;
  Multiplier layer_norm;  // the layer norm coefficients' scale
};

struct Params {
  int n_input = 0, n_cell = 0, n_output = 0;
  int32_t input_zp = 0;
  int32_t output_state_zp = 0;
  GateParams gate[3];
  Multiplier projection;  // hidden (Q0.15) x projection weights -> output_state
  int16_t cell_clip = 0;  // 0: no clipping
  int8_t proj_clip = 0;
};

struct Weights {
  const int8_t* input_to[3] = {};
  const int8_t* recurrent_to[3] = {};
  const int16_t* layer_norm[3] = {};
  const int32_t* bias[3] = {};  // applied by the layer norm
  const int8_t* projection = nullptr;
  const int32_t* projection_bias = nullptr;
};

// n_batch x n_cell values each.
struct Scratch {
  int8_t* input_fc;
  int8_t* recurrent_fc;
  int16_t* gate[3];
};

namespace detail {

inline int32_t WrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// A float-to-int32 conversion as x86 (cvttsd2si) and the WASM build do it: truncation, and
// INT32_MIN for NaN and anything out of range (undefined behaviour in C++).
inline int32_t TruncateToInt32(double v) {
  if (!(std::fabs(v) < 2147483648.0)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

inline int16_t SaturateInt16(int64_t v) {
  return static_cast<int16_t>(std::clamp<int64_t>(v, -32768, 32767));
}

// TFLite's 8-bit MatrixBatchVectorMultiply: out = clamp(requant(sum (x - x_zp) * w) + out_zp).
inline void MatMulToInt8(const int8_t* input, int32_t input_zp, const int8_t* weights, Multiplier m,
                         int n_batch, int n_in, int n_out, int8_t out_zp, int8_t* out) {
  for (int b = 0; b < n_batch; ++b) {
    const int8_t* x = input + static_cast<size_t>(b) * n_in;
    for (int r = 0; r < n_out; ++r) {
      const int8_t* w = weights + static_cast<size_t>(r) * n_in;
      int32_t acc = 0;
      for (int c = 0; c < n_in; ++c) acc = WrapAdd(acc, (int32_t{x[c]} - input_zp) * w[c]);
      const int64_t v =
          int64_t{quant::MultiplyByQuantizedMultiplier(acc, m.multiplier, m.shift)} + out_zp;
      out[static_cast<size_t>(b) * n_out + r] =
          static_cast<int8_t>(std::clamp<int64_t>(v, -128, 127));
    }
  }
}

// TFLite's TwoGateSaturatingAdd: both int8 intermediates rescaled onto the int16 sum.
inline void TwoGateAdd(const int8_t* input, int8_t input_zp, const int8_t* recurrent,
                       int8_t recurrent_zp, Multiplier input_m, Multiplier recurrent_m, size_t n,
                       int16_t* out) {
  for (size_t i = 0; i < n; ++i) {
    const int32_t x = quant::MultiplyByQuantizedMultiplier(int32_t{input[i]} - input_zp,
                                                           input_m.multiplier, input_m.shift);
    const int32_t h = quant::MultiplyByQuantizedMultiplier(
        int32_t{recurrent[i]} - recurrent_zp, recurrent_m.multiplier, recurrent_m.shift);
    out[i] = SaturateInt16(int64_t{h} + x);
  }
}

// TFLite's ApplyLayerNormFloat, float for float: mean and variance of each row, the
// coefficient at scale a x 2^(b - 31), the bias at 2^-10 of it, back to Q3.12.
inline void LayerNormFloat(const int16_t* input, const int16_t* coefficients, Multiplier scale,
                           const int32_t* bias, int n_batch, int n, int16_t* out) {
  const float ln_scale =
      static_cast<float>(scale.multiplier * std::pow(2.0, static_cast<double>(scale.shift - 31)));
  const float bias_scale = static_cast<float>(std::pow(2.0, -10) * ln_scale);
  for (int b = 0; b < n_batch; ++b) {
    const int16_t* x = input + static_cast<size_t>(b) * n;
    int16_t* y = out + static_cast<size_t>(b) * n;
    float sum = 0.0f;
    float sum_sq = 0.0f;
    for (int i = 0; i < n; ++i) {
      const float value = static_cast<float>(x[i]);
      sum += value;
      sum_sq += value * value;
    }
    const float mean = sum / static_cast<float>(n);
    const float variance = sum_sq / static_cast<float>(n) - mean * mean;
    const float stddev_inv =
        variance == 0 ? static_cast<float>(1.0 / std::sqrt(1e-8)) : 1.0f / std::sqrt(variance);
    for (int i = 0; i < n; ++i) {
      const float normalized = (static_cast<float>(x[i]) - mean) * stddev_inv;
      const float weighted = normalized * static_cast<float>(coefficients[i]) * ln_scale +
                             static_cast<float>(bias[i]) * bias_scale;
      const int32_t q = TruncateToInt32(std::round(static_cast<double>(weighted) * 4096.0));
      y[i] = static_cast<int16_t>(std::clamp<int32_t>(q, -32768, 32767));
    }
  }
}

// TFLite's ApplySigmoidFloat: Q3.12 in, Q0.15 out.
inline void SigmoidFloat(int16_t* v, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(v[i] * std::pow(2.0, -12));
    const float y = 1.0f / (1.0f + std::exp(-x));
    const int32_t q = TruncateToInt32(static_cast<double>(y) * 32768.0);
    v[i] = static_cast<int16_t>(std::clamp<int32_t>(q, -32768, 32767));
  }
}

// TFLite's ApplyTanhFloat with integer_bits = -fraction_bits: Qm.fraction_bits in, Q0.15 out.
inline void TanhFloat(const int16_t* in, size_t n, int fraction_bits, int16_t* out) {
  const double step = std::pow(2.0, static_cast<double>(-fraction_bits));
  for (size_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(in[i] * step);
    const float y = std::tanh(x);
    const int32_t q = TruncateToInt32(static_cast<double>(y) * 32768.0);
    out[i] = static_cast<int16_t>(std::clamp<int32_t>(q, -32768, 32767));
  }
}

// a x b / 2^shift, rounded, narrowed to int16 without saturation as TFLite's CwiseMul does.
inline void MulShift(const int16_t* a, const int16_t* b, size_t n, int shift, int16_t* out) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = static_cast<int16_t>(quant::RoundingDivideByPOT(int32_t{a[i]} * b[i], shift));
  }
}

// TFLite's 16-bit-input MatrixBatchVectorMultiply (the projection): an int64 accumulator
// from the bias, the 64-bit requantization, the output zero point, int8 saturation.
inline void ProjectInt16(const int16_t* hidden, const int8_t* weights, Multiplier m,
                         const int32_t* bias, int n_batch, int n_hidden, int n_out, int32_t out_zp,
                         int8_t* out) {
  for (int b = 0; b < n_batch; ++b) {
    const int16_t* h = hidden + static_cast<size_t>(b) * n_hidden;
    for (int r = 0; r < n_out; ++r) {
      const int8_t* w = weights + static_cast<size_t>(r) * n_hidden;
      int64_t acc = bias[r];
      for (int c = 0; c < n_hidden; ++c) acc += int32_t{h[c]} * w[c];
      const int64_t v =
          int64_t{quant::MultiplyByQuantizedMultiplier(acc, m.multiplier, m.shift)} + out_zp;
      out[static_cast<size_t>(b) * n_out + r] =
          static_cast<int8_t>(std::clamp<int64_t>(v, -128, 127));
    }
  }
}

}  // namespace detail

// One time step for n_batch rows: input [n_batch, n_input], output_state [n_batch, n_output]
// (read, then overwritten), cell [n_batch, n_cell] (updated), output [n_batch, n_output].
inline void Step(const Params& p, const Weights& w, int n_batch, const int8_t* input,
                 int8_t* output_state, int16_t* cell, int8_t* output, const Scratch& s) {
  const size_t n = static_cast<size_t>(n_batch) * p.n_cell;
  auto gate = [&](int g) {
    const GateParams& gp = p.gate[g];
    int16_t* out = s.gate[g];
    detail::MatMulToInt8(input, p.input_zp, w.input_to[g], gp.input_fc, n_batch, p.n_input,
                         p.n_cell, gp.input_fc_zp, s.input_fc);
    detail::MatMulToInt8(output_state, p.output_state_zp, w.recurrent_to[g], gp.recurrent_fc,
                         n_batch, p.n_output, p.n_cell, gp.recurrent_fc_zp, s.recurrent_fc);
    detail::TwoGateAdd(s.input_fc, gp.input_fc_zp, s.recurrent_fc, gp.recurrent_fc_zp,
                       gp.input_to_sum, gp.recurrent_to_sum, n, out);
    detail::LayerNormFloat(out, w.layer_norm[g], gp.layer_norm, w.bias[g], n_batch, p.n_cell, out);
    if (g == kCellGate) {
      detail::TanhFloat(out, n, 12, out);
    } else {
      detail::SigmoidFloat(out, n);
    }
  };
  gate(kForgetGate);
  gate(kCellGate);

  // CIFG cell update at cell scale 2^-15; the forget gate's buffer takes the input part.
  int16_t* forget = s.gate[kForgetGate];
  detail::MulShift(forget, cell, n, 15, cell);
  for (size_t i = 0; i < n; ++i) forget[i] = static_cast<int16_t>(32767 - forget[i]);
  detail::MulShift(forget, s.gate[kCellGate], n, 15, forget);
  for (size_t i = 0; i < n; ++i) cell[i] = detail::SaturateInt16(int32_t{cell[i]} + forget[i]);
  if (p.cell_clip > 0) {
    for (size_t i = 0; i < n; ++i) {
      cell[i] = std::clamp<int16_t>(cell[i], static_cast<int16_t>(-p.cell_clip), p.cell_clip);
    }
  }

  gate(kOutputGate);

  // Hidden = output gate x tanh(cell) in Q0.15 (in the forget buffer), then the projection.
  int16_t* hidden = s.gate[kForgetGate];
  detail::TanhFloat(cell, n, 15, hidden);
  detail::MulShift(s.gate[kOutputGate], hidden, n, 15, hidden);
  detail::ProjectInt16(hidden, w.projection, p.projection, w.projection_bias, n_batch, p.n_cell,
                       p.n_output, p.output_state_zp, output_state);
  const size_t n_out = static_cast<size_t>(n_batch) * p.n_output;
  if (p.proj_clip > 0) {
    for (size_t i = 0; i < n_out; ++i) {
      output_state[i] =
          std::clamp<int8_t>(output_state[i], static_cast<int8_t>(-p.proj_clip), p.proj_clip);
    }
  }
  std::memcpy(output, output_state, n_out);
}

}  // namespace octet::reference::lstm_integer_8x8_8
