// Integer UNIDIRECTIONAL_SEQUENCE_LSTM as TFLite Micro's reference kernel computes it
// (the standard LSTM only: no CIFG, peephole, projection or layer norm).
//
// Per time step and gate g in {forget, input, cell, output}:
//   pre_g = sat16(FC(x; W_g, b_g) + FC(h; R_g))      both FCs requantized to Q3.12 (2^-12)
//   gate_g = sigmoid(pre_g) (Q0.15), the cell gate uses the configured tanh/sigmoid
// The cell state c (int16, scale 2^cell_state_scale_power) becomes
//   c = clip(sat16(mul(f, c) + mul(i, g)))
// and the hidden state h (the activation type, int8 or int16) becomes mul(tanh(c), o).
// The FCs and muls requantize with TFLite's MultiplyByQuantizedMultiplier; sigmoid and
// tanh on int16 are the table-interpolated reference_integer_ops ones.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernels/reference/integer_elementwise.h"
#include "quant/quantization_util.h"

namespace octet::reference::lstm_integer {

// One fully-connected requantization: out = clamp(MBQM(sum (x + input_offset) * w + bias)
// + output_offset). Weights are symmetric (offset 0).
struct FcParams {
  int32_t input_offset = 0;
  int32_t output_offset = 0;
  int32_t multiplier = 0;
  int shift = 0;
  int32_t act_min = std::numeric_limits<int16_t>::min();
  int32_t act_max = std::numeric_limits<int16_t>::max();
};

// An elementwise product of two symmetric int16 values, requantized.
struct MulParams {
  int32_t output_offset = 0;
  int32_t multiplier = 0;
  int shift = 0;
  int32_t act_min = 0;
  int32_t act_max = 0;
};

struct GateParams {
  FcParams input_fc;
  FcParams recurrent_fc;
};

struct Params {
  GateParams forget, input, cell, output;
  MulParams forget_cell_mul;   // forget gate x cell state -> cell state
  MulParams input_mul;         // input gate x cell gate -> cell state
  MulParams output_mul;        // tanh(cell) x output gate -> hidden state
  bool cell_gate_tanh = true;  // false: sigmoid
  int cell_state_scale_power = -12;
  bool clip_cell = false;
  int16_t quantized_cell_clip = 0;
};

struct Sizes {
  bool time_major = true;
  int batch = 0;
  int time_steps = 0;
  int input_size = 0;
  int state_size = 0;
};

// The weights and biases of the four gates.
template <typename BiasT>
struct Weights {
  const int8_t* input_to[4];      // forget, input, cell, output: [state, input]
  const int8_t* recurrent_to[4];  // [state, state]
  const BiasT* bias[4];           // [state]
};
enum Gate { kForget = 0, kInputGate = 1, kCellGate = 2, kOutputGate = 3 };

// The end of one int32 FC output: requantize the (wrapped) sum with its bias, add the output
// offset, clamp to the activation range.
inline int16_t FinishFc(const FcParams& p, int32_t acc) {
  const int32_t v = quant::MultiplyByQuantizedMultiplier(acc, p.multiplier, p.shift);
  return static_cast<int16_t>(std::min(p.act_max, std::max(p.act_min, v + p.output_offset)));
}

// FC for int8 activations (int32 bias, int32 accumulator) or int16 activations (int64
// bias and accumulator), writing int16. `rows` = out depth, `depth` = in depth.
template <typename ActT, typename BiasT>
inline void FullyConnected(const FcParams& p, int batches, int depth, int rows, const ActT* x,
                           const int8_t* w, const BiasT* bias, int16_t* out) {
  for (int b = 0; b < batches; ++b) {
    const ActT* xb = x + int64_t{b} * depth;
    for (int r = 0; r < rows; ++r) {
      const int8_t* wr = w + int64_t{r} * depth;
      int64_t acc = 0;
      for (int d = 0; d < depth; ++d) acc += int32_t{wr[d]} * (int32_t{xb[d]} + p.input_offset);
      if (bias) acc += bias[r];
      if constexpr (std::is_same_v<BiasT, int64_t>) {
        const int32_t v = quant::MultiplyByQuantizedMultiplier(acc, p.multiplier, p.shift);
        out[int64_t{b} * rows + r] =
            static_cast<int16_t>(std::min(p.act_max, std::max(p.act_min, v + p.output_offset)));
      } else {
        // The reference sums in int32; wrap as it would.
        out[int64_t{b} * rows + r] = FinishFc(p, static_cast<int32_t>(acc));
      }
    }
  }
}

// The products of one gate (input FC with the gate's bias into `gate`, recurrent FC into
// `recurrent`) as the reference loops. A fast path supplies its own (the same bits), and may
// compute all four gates' products for the step in BeginStep (called before the first gate).
struct PlainFc {
  template <typename ActT>
  void BeginStep(int /*batches*/, const ActT* /*x*/, const ActT* /*h*/) const {}
  template <typename ActT, typename BiasT>
  void Gate(int g, const GateParams& p, const Weights<BiasT>& w, int batches, int input_size,
            int state_size, const ActT* x, const ActT* h, int16_t* gate, int16_t* recurrent) const {
    FullyConnected<ActT, BiasT>(p.input_fc, batches, input_size, state_size, x, w.input_to[g],
                                w.bias[g], gate);
    FullyConnected<ActT, BiasT>(p.recurrent_fc, batches, state_size, state_size, h,
                                w.recurrent_to[g], static_cast<const BiasT*>(nullptr), recurrent);
  }
};

inline void AddSaturating(const int16_t* a, const int16_t* b, int n, int16_t* out) {
  for (int i = 0; i < n; ++i) {
    const int32_t s = int32_t{a[i]} + int32_t{b[i]};
    out[i] = static_cast<int16_t>(std::min<int32_t>(32767, std::max<int32_t>(-32768, s)));
  }
}

template <typename OutT>
inline void Mul(const MulParams& p, const int16_t* a, const int16_t* b, int n, OutT* out) {
  for (int i = 0; i < n; ++i) {
    int32_t v =
        quant::MultiplyByQuantizedMultiplier(int32_t{a[i]} * int32_t{b[i]}, p.multiplier, p.shift) +
        p.output_offset;
    out[i] = static_cast<OutT>(std::min(p.act_max, std::max(p.act_min, v)));
  }
}

inline void Sigmoid(int16_t* data, int n) {
  const integer::Sigmoid16Params p{0, 0};
  for (int i = 0; i < n; ++i) data[i] = integer::Logistic16(data[i], p);
}

// tanh of int16 values with scale 2^scale_power, output Q0.15. The table works on Q3.12,
// so the input is first shifted by (15 + scale_power) - 3 bits.
inline void Tanh(int scale_power, const int16_t* in, int n, int16_t* out) {
  integer::Sigmoid16Params p;
  const int left_shift = 15 + scale_power - 3;
  if (left_shift >= 0) {
    p.input_multiplier = 0;
    p.input_left_shift = left_shift;
  } else {
    p.input_multiplier = 3;
    p.input_left_shift = -left_shift;
  }
  for (int i = 0; i < n; ++i) out[i] = integer::Tanh16(in[i], p);
}

// The per-step buffers: four of batch_per_step * state_size int16 each.
struct Buffers {
  int16_t* b0;
  int16_t* b1;
  int16_t* b2;
  int16_t* b3;
};

template <typename ActT, typename BiasT, typename Products>
inline void GateStep(const Products& products, int g, const GateParams& gp, const Weights<BiasT>& w,
                     int batches, int input_size, int state_size, const ActT* x, const ActT* h,
                     bool tanh_activation, int16_t* gate, int16_t* scratch) {
  products.template Gate<ActT, BiasT>(g, gp, w, batches, input_size, state_size, x, h, gate,
                                      scratch);
  const int n = batches * state_size;
  AddSaturating(gate, scratch, n, gate);
  if (tanh_activation) {
    Tanh(-12, gate, n, gate);
  } else {
    Sigmoid(gate, n);
  }
}

// One LSTM step over `batches` rows: x [batches, input], h [batches, state] (updated),
// c [batches, state] (updated), out [batches, state] (receives the new h).
template <typename ActT, typename BiasT, typename Products = PlainFc>
inline void Step(const Params& p, const Weights<BiasT>& w, int batches, int input_size,
                 int state_size, const ActT* x, ActT* h, int16_t* c, ActT* out, const Buffers& buf,
                 const Products& products = Products{}) {
  const int n = batches * state_size;
  products.BeginStep(batches, x, static_cast<const ActT*>(h));
  int16_t* forget = buf.b0;
  GateStep<ActT, BiasT>(products, kForget, p.forget, w, batches, input_size, state_size, x, h,
                        false, forget, buf.b3);
  int16_t* input = buf.b1;
  GateStep<ActT, BiasT>(products, kInputGate, p.input, w, batches, input_size, state_size, x, h,
                        false, input, buf.b3);
  int16_t* cell = buf.b2;
  GateStep<ActT, BiasT>(products, kCellGate, p.cell, w, batches, input_size, state_size, x, h,
                        p.cell_gate_tanh, cell, buf.b3);

  // Cell update: c = f*c + i*g (the product of i and g overwrites the input gate buffer).
  Mul<int16_t>(p.forget_cell_mul, forget, c, n, c);
  Mul<int16_t>(p.input_mul, input, cell, n, buf.b1);
  AddSaturating(c, buf.b1, n, c);
  if (p.clip_cell) {
    const int16_t hi = p.quantized_cell_clip;
    const int16_t lo = static_cast<int16_t>(-p.quantized_cell_clip);
    for (int i = 0; i < n; ++i) c[i] = std::max(std::min(hi, c[i]), lo);
  }

  int16_t* output = buf.b1;
  GateStep<ActT, BiasT>(products, kOutputGate, p.output, w, batches, input_size, state_size, x, h,
                        false, output, buf.b3);
  Tanh(p.cell_state_scale_power, c, n, buf.b0);
  Mul<ActT>(p.output_mul, buf.b0, output, n, h);
  std::memcpy(out, h, sizeof(ActT) * static_cast<size_t>(n));
}

// The whole sequence. Time-major input [time, batch, input] runs all batch rows per step;
// batch-major input [batch, time, input] runs each sequence (row) on its own. Buffers
// hold (time_major ? batch : 1) * state_size int16 each.
template <typename ActT, typename BiasT, typename Products = PlainFc>
inline void Sequence(const Params& p, const Sizes& s, const Weights<BiasT>& w, const ActT* input,
                     ActT* hidden, int16_t* cell, ActT* output, const Buffers& buf,
                     const Products& products = Products{}) {
  if (s.time_major) {
    for (int t = 0; t < s.time_steps; ++t) {
      const int64_t in_off = int64_t{t} * s.batch * s.input_size;
      const int64_t out_off = int64_t{t} * s.batch * s.state_size;
      Step<ActT, BiasT>(p, w, s.batch, s.input_size, s.state_size, input + in_off, hidden, cell,
                        output + out_off, buf, products);
    }
    return;
  }
  for (int b = 0; b < s.batch; ++b) {
    ActT* h = hidden + int64_t{b} * s.state_size;
    int16_t* c = cell + int64_t{b} * s.state_size;
    for (int t = 0; t < s.time_steps; ++t) {
      const int64_t row = int64_t{b} * s.time_steps + t;
      Step<ActT, BiasT>(p, w, 1, s.input_size, s.state_size, input + row * s.input_size, h, c,
                        output + row * s.state_size, buf, products);
    }
  }
}

}  // namespace octet::reference::lstm_integer
