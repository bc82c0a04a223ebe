// Shared float LSTM sequence pieces (see lstm_step.h).
#include "ops/nn/lstm_step.h"

#include <algorithm>

#include "ops/op_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn {

TfLiteStatus GatherLstmFloatWeights(TfLiteContext* context, const TfLiteNode* node,
                                    const LstmCellSpec& spec, reference::LstmWeights* w) {
  const float* in[kLstmInputCount] = {};
  for (int k = 1; k < kLstmInputCount; ++k) {
    if (k == 18 || k == 19) continue;  // the states
    const TfLiteTensor* t = LstmTensor(context, node, spec, k);
    if (t == nullptr) continue;
    TF_LITE_ENSURE_OK(context, RequireData(context, spec.op, kLstmInputNames[k], t));
    in[k] = t->data.f;
  }
  // Gates in TFLite order: input, forget, cell, output (the cell gate has no peephole).
  w->input_gate = {in[1], in[5], in[9], in[20], in[12]};
  w->forget_gate = {in[2], in[6], in[10], in[21], in[13]};
  w->cell_gate = {in[3], in[7], nullptr, in[22], in[14]};
  w->output_gate = {in[4], in[8], in[11], in[23], in[15]};
  w->projection_weights = in[16];
  w->projection_bias = in[17];
  return kTfLiteOk;
}

namespace {

// One step for one row with an aux input. The reference step knows only input and recurrent
// products, so the input products go into a per-row bias (bias + input dots, the sum TFLite
// has before it adds the aux dots) and the aux input plays the input: the float operations,
// and so the bits, are TFLite's. Without layer norm only (the bidirectional op has none).
void AuxRowStep(const reference::LstmWeights& w, const LstmAuxWeights& aux,
                const reference::LstmParams& p, const float* x, const float* aux_x, float* h,
                float* c, float* out, float* scratch) {
  const int n = p.n_cell;
  float* biases = scratch + reference::LstmScratchSize(p, 1);
  reference::LstmWeights row = w;
  reference::LstmGateWeights* gates[4] = {&row.input_gate, &row.forget_gate, &row.cell_gate,
                                          &row.output_gate};
  for (int g = 0; g < 4; ++g) {
    reference::LstmGateWeights& gate = *gates[g];
    if (gate.input_weights == nullptr) continue;  // the input gate under CIFG
    float* b = biases + int64_t{g} * n;
    std::copy(gate.bias, gate.bias + n, b);
    reference::lstm_detail::MatVecAccumulate(gate.input_weights, n, p.n_input, x, 1, b);
    gate.bias = b;
    gate.input_weights = aux.gate[g];
  }
  reference::LstmParams ap = p;
  ap.n_input = aux.n_aux_input;
  reference::LstmStep(row, ap, 1, aux_x, h, c, out, p.n_output, scratch);
}

}  // namespace

int64_t LstmFloatSequenceScratch(const reference::LstmParams& p, const LstmSequenceLayout& l,
                                 bool aux) {
  if (aux) return reference::LstmScratchSize(p, 1) + int64_t{4} * p.n_cell;
  return reference::LstmScratchSize(p, l.time_major ? l.n_batch : 1);
}

void LstmFloatSequence(const reference::LstmWeights& w, const LstmAuxWeights& aux,
                       const reference::LstmParams& p, const LstmSequenceLayout& l,
                       const float* input, const float* aux_input, float* output_state,
                       float* cell_state, float* output, float* scratch) {
  const int T = l.max_time;
  const int B = l.n_batch;
  const bool with_aux = aux.present() && aux_input != nullptr;
  auto row_of = [&](int t, int b) -> int64_t {
    return l.time_major ? int64_t{t} * B + b : int64_t{b} * T + t;
  };
  // Time-major without aux: all batch rows of a step at once; otherwise one row at a time
  // (rows are independent, so both give the same bits).
  const bool whole_steps = l.time_major && !with_aux;
  for (int b = 0; b < (whole_steps ? 1 : B); ++b) {
    for (int i = 0; i < T; ++i) {
      const int t = l.forward ? i : T - 1 - i;
      const int64_t row = row_of(t, b);
      const float* x = input + row * p.n_input;
      float* out = output + row * l.output_width + l.output_offset;
      if (whole_steps) {
        reference::LstmStep(w, p, B, x, output_state, cell_state, out, l.output_width, scratch);
        continue;
      }
      float* h = output_state + int64_t{b} * p.n_output;
      float* c = cell_state + int64_t{b} * p.n_cell;
      if (with_aux) {
        AuxRowStep(w, aux, p, x, aux_input + row * aux.n_aux_input, h, c, out, scratch);
      } else {
        reference::LstmStep(w, p, 1, x, h, c, out, l.output_width, scratch);
      }
    }
  }
}

void CopyLstmSequence(const float* src, int src_width, float* dst, int dst_width, int dst_offset,
                      int max_time, int n_batch, bool time_major, bool reverse) {
  auto row_of = [&](int t, int b) -> int64_t {
    return time_major ? int64_t{t} * n_batch + b : int64_t{b} * max_time + t;
  };
  for (int t = 0; t < max_time; ++t) {
    for (int b = 0; b < n_batch; ++b) {
      const float* s = src + row_of(t, b) * src_width;
      float* d = dst + row_of(reverse ? max_time - 1 - t : t, b) * dst_width + dst_offset;
      std::copy(s, s + src_width, d);
    }
  }
}

}  // namespace octet::ops::nn
