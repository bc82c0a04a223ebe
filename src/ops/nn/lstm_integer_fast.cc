#include "ops/nn/lstm_integer_fast.h"

#include "kernels/cpu/cpu_features.h"

namespace octet::ops::nn_integer {
namespace {

namespace ref = reference::lstm_integer;

const ref::GateParams& GateParamsOf(const ref::Params& p, int g) {
  const ref::GateParams* gates[4] = {&p.forget, &p.input, &p.cell, &p.output};
  return *gates[g];
}

// Per gate g and unit r: start + offset_g * Σ_k w_g[r, k], wrapping in int32 (unsigned
// arithmetic), as the reference's int32 sum of (x + offset) * w plus the bias wraps.
bool Fold(TfLiteContext* context, const ref::Params& p, const int8_t* const* weights,
          const int32_t* const* bias, bool recurrent, int state, int depth, const int32_t** out) {
  auto* folded = static_cast<int32_t*>(
      context->AllocatePersistentBuffer(context, sizeof(int32_t) * 4 * static_cast<size_t>(state)));
  if (folded == nullptr) return false;
  for (int g = 0; g < 4; ++g) {
    const ref::FcParams& fc =
        recurrent ? GateParamsOf(p, g).recurrent_fc : GateParamsOf(p, g).input_fc;
    for (int r = 0; r < state; ++r) {
      const int8_t* row = weights[g] + static_cast<int64_t>(r) * depth;
      uint32_t sum = 0;
      for (int k = 0; k < depth; ++k) sum += static_cast<uint32_t>(int32_t{row[k]});
      uint32_t v = sum * static_cast<uint32_t>(fc.input_offset);
      if (bias != nullptr && bias[g] != nullptr) v += static_cast<uint32_t>(bias[g][r]);
      folded[g * state + r] = static_cast<int32_t>(v);
    }
  }
  *out = folded;
  return true;
}

// Gate products for reference::lstm_integer::Step from the step's GEMM sums.
struct PackedFc {
  const LstmIntegerFast* fast;
  const int32_t* input_dots;      // [batches, 4 * state]
  const int32_t* recurrent_dots;  // [batches, 4 * state]

  template <typename ActT, typename BiasT>
  void Gate(int g, const ref::GateParams& p, const ref::Weights<BiasT>&, int batches, int,
            int state, const ActT*, const ActT*, int16_t* gate, int16_t* recurrent) const {
    const int64_t stride = int64_t{4} * state;
    const int32_t* in_folded = fast->input_folded + int64_t{g} * state;
    const int32_t* rec_folded = fast->recurrent_folded + int64_t{g} * state;
    for (int b = 0; b < batches; ++b) {
      const int32_t* in = input_dots + b * stride + int64_t{g} * state;
      const int32_t* rec = recurrent_dots + b * stride + int64_t{g} * state;
      int16_t* gate_row = gate + int64_t{b} * state;
      int16_t* rec_row = recurrent + int64_t{b} * state;
      for (int r = 0; r < state; ++r) {
        const uint32_t a = static_cast<uint32_t>(in[r]) + static_cast<uint32_t>(in_folded[r]);
        const uint32_t h = static_cast<uint32_t>(rec[r]) + static_cast<uint32_t>(rec_folded[r]);
        gate_row[r] = ref::FinishFc(p.input_fc, static_cast<int32_t>(a));
        rec_row[r] = ref::FinishFc(p.recurrent_fc, static_cast<int32_t>(h));
      }
    }
  }
};

}  // namespace

TfLiteStatus PrepareLstmIntegerFast(TfLiteContext* context, const ref::Params& p,
                                    const ref::Sizes& s, const ref::Weights<int32_t>& w,
                                    bool weights_constant, bool reference_only,
                                    LstmIntegerFast* fast) {
  fast->ready = false;
  fast->kernel_name = "reference";
  const optimized::QGemmKernel* kernel = reference_only ? nullptr : nn::RecurrentGemmKernel();
  if (kernel == nullptr || !weights_constant || s.state_size <= 0 || s.input_size <= 0) {
    return kTfLiteOk;
  }
  const bool packed = fast->packed_weights == w.input_to[0] && fast->packed_kernel == kernel;
  if (!packed && (!nn::PackRecurrentGemm(context, *kernel, w.input_to, 4, s.state_size,
                                         s.input_size, &fast->input_gemm) ||
                  !nn::PackRecurrentGemm(context, *kernel, w.recurrent_to, 4, s.state_size,
                                         s.state_size, &fast->recurrent_gemm) ||
                  !Fold(context, p, w.input_to, w.bias, false, s.state_size, s.input_size,
                        &fast->input_folded) ||
                  !Fold(context, p, w.recurrent_to, nullptr, true, s.state_size, s.state_size,
                        &fast->recurrent_folded))) {
    return kTfLiteOk;  // short of memory: the reference loops
  }
  fast->packed_weights = w.input_to[0];
  fast->packed_kernel = kernel;
  const int rows = s.time_major ? s.batch : 1;
  fast->dots.assign(static_cast<size_t>(2) * rows * 4 * s.state_size, 0);
  fast->kernel_name = kernel->name;
  fast->ready = true;
  return kTfLiteOk;
}

void RunLstmIntegerFast(TfLiteContext* context, const LstmIntegerFast& fast, const ref::Params& p,
                        const ref::Sizes& s, const ref::Weights<int32_t>& w, const int8_t* input,
                        int8_t* hidden, int16_t* cell, int8_t* output, const ref::Buffers& buf) {
  const int rows = s.time_major ? s.batch : 1;
  int32_t* input_dots = fast.dots.data();
  int32_t* recurrent_dots = input_dots + int64_t{rows} * 4 * s.state_size;
  const PackedFc products{&fast, input_dots, recurrent_dots};
  // One step: `rows` input rows at x, their states at h and c. The recurrent products use the
  // output state before the step, as the reference's do.
  auto step = [&](const int8_t* x, int8_t* h, int16_t* c, int8_t* out) {
    nn::RunRecurrentGemm(context, fast.input_gemm, x, rows, input_dots);
    nn::RunRecurrentGemm(context, fast.recurrent_gemm, h, rows, recurrent_dots);
    ref::Step<int8_t, int32_t>(p, w, rows, s.input_size, s.state_size, x, h, c, out, buf, products);
  };
  if (s.time_major) {
    for (int t = 0; t < s.time_steps; ++t) {
      step(input + int64_t{t} * s.batch * s.input_size, hidden, cell,
           output + int64_t{t} * s.batch * s.state_size);
    }
    return;
  }
  for (int b = 0; b < s.batch; ++b) {
    for (int t = 0; t < s.time_steps; ++t) {
      const int64_t row = int64_t{b} * s.time_steps + t;
      step(input + row * s.input_size, hidden + int64_t{b} * s.state_size,
           cell + int64_t{b} * s.state_size, output + row * s.state_size);
    }
  }
}

}  // namespace octet::ops::nn_integer
