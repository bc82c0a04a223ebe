#include "ops/nn/lstm_integer_fast.h"

#include "kernels/cpu/cpu_features.h"

namespace octet::ops::nn_integer {
namespace {

namespace ref = reference::lstm_integer;

// Gate products for reference::lstm_integer::Step: BeginStep runs the step's two GEMMs (all
// four gates at once), Gate requantizes one gate's columns of them.
struct PackedFc {
  TfLiteContext* context;
  const LstmIntegerFast* fast;
  int32_t* input_dots;      // [batches, 4 * state]
  int32_t* recurrent_dots;  // [batches, 4 * state]

  template <typename ActT>
  void BeginStep(int batches, const ActT* x, const ActT* h) const {
    nn::RunRecurrentGemm(context, fast->input_gemm, x, batches, input_dots);
    nn::RunRecurrentGemm(context, fast->recurrent_gemm, h, batches, recurrent_dots);
  }

  template <typename ActT, typename BiasT>
  void Gate(int g, const ref::GateParams& p, const ref::Weights<BiasT>&, int batches, int,
            int state, const ActT*, const ActT*, int16_t* gate, int16_t* recurrent) const {
    const int64_t stride = int64_t{4} * state;
    for (int b = 0; b < batches; ++b) {
      const int32_t* in = input_dots + b * stride + int64_t{g} * state;
      const int32_t* rec = recurrent_dots + b * stride + int64_t{g} * state;
      int16_t* gate_row = gate + int64_t{b} * state;
      int16_t* rec_row = recurrent + int64_t{b} * state;
      for (int r = 0; r < state; ++r) {
        gate_row[r] = ref::FinishFc(p.input_fc, in[r]);
        rec_row[r] = ref::FinishFc(p.recurrent_fc, rec[r]);
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
  // Every gate's input FC takes the same input, and every recurrent FC the same output state:
  // one input offset per stacked matrix (the forget gate's, as any).
  const bool packed = fast->packing.Ensure(w.input_to[0], kernel, [&] {
    return nn::PackRecurrentGemm(context, *kernel, w.input_to, 4, s.state_size, s.input_size,
                                 &fast->input_gemm, w.bias, p.forget.input_fc.input_offset) &&
           nn::PackRecurrentGemm(context, *kernel, w.recurrent_to, 4, s.state_size, s.state_size,
                                 &fast->recurrent_gemm, nullptr,
                                 p.forget.recurrent_fc.input_offset);
  });
  if (!packed) return kTfLiteOk;  // short of memory: the reference loops
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
  const PackedFc products{context, &fast, input_dots,
                          input_dots + int64_t{rows} * 4 * s.state_size};
  ref::Sequence<int8_t, int32_t>(p, s, w, input, hidden, cell, output, buf, products);
}

}  // namespace octet::ops::nn_integer
