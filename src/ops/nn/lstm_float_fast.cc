#include "ops/nn/lstm_float_fast.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "kernels/optimized/dispatch.h"
#include "kernels/optimized/fgemm/fgemm_driver.h"
#include "kernels/threads/cpu_backend_context.h"
#include "ops/nn/lstm_step.h"
#include "ops/nn/nn_quant.h"

namespace octet::ops::nn {
namespace {

// Rows of input products one GEMM computes at most (the scratch they take is this many rows
// of the stacked gates); fewer when a step alone has more rows.
constexpr int kChunkRows = 64;

const reference::LstmGateWeights& GateOf(const reference::LstmWeights& w, int g) {
  const reference::LstmGateWeights* gates[4] = {&w.input_gate, &w.forget_gate, &w.cell_gate,
                                                &w.output_gate};
  return *gates[g];
}

// Packs `d` for `kernel` into persistent memory.
bool PackPersistent(TfLiteContext* context, const optimized::FGemmKernel& kernel,
                    const optimized::FGemmWeightsDesc& d, optimized::FGemmPacked* out) {
  const size_t floats = optimized::FGemmPackedFloats(kernel, d);
  auto* buffer =
      static_cast<float*>(context->AllocatePersistentBuffer(context, floats * sizeof(float)));
  if (buffer == nullptr) return false;
  *out = optimized::FGemmPack(kernel, d, buffer);
  return true;
}

// Stacks the present gates' [n_cell, depth] matrices into one [gate_count * n_cell, depth]
// matrix (and their biases), packs it into persistent memory.
bool PackStacked(TfLiteContext* context, const optimized::FGemmKernel& kernel,
                 const LstmFloatFast& fast, const reference::LstmWeights& w, bool recurrent,
                 optimized::FGemmPacked* out) {
  const reference::LstmParams& p = fast.params;
  const int depth = recurrent ? p.n_output : p.n_input;
  const size_t block = static_cast<size_t>(p.n_cell) * static_cast<size_t>(depth);
  std::vector<float> weights(block * static_cast<size_t>(fast.gate_count));
  std::vector<float> bias(static_cast<size_t>(fast.stacked()), 0.f);
  for (int g = 0; g < 4; ++g) {
    if (fast.slot[g] < 0) continue;
    const reference::LstmGateWeights& gate = GateOf(w, g);
    const float* m = recurrent ? gate.recurrent_weights : gate.input_weights;
    std::copy(m, m + block, weights.begin() + static_cast<std::ptrdiff_t>(fast.slot[g] * block));
    // The input products start from the bias, as the reference's gates do; with layer norm
    // the gate starts from 0 and the bias comes after the normalisation.
    if (!recurrent && gate.layer_norm == nullptr) {
      std::copy(gate.bias, gate.bias + p.n_cell,
                bias.begin() + static_cast<std::ptrdiff_t>(fast.slot[g]) * p.n_cell);
    }
  }
  optimized::FGemmWeightsDesc d;
  d.weights = weights.data();
  d.bias = recurrent ? nullptr : bias.data();
  d.n = fast.stacked();
  d.kc = depth;
  return PackPersistent(context, kernel, d, out);
}

bool PackProjection(TfLiteContext* context, const optimized::FGemmKernel& kernel,
                    const reference::LstmWeights& w, const reference::LstmParams& p,
                    optimized::FGemmPacked* out) {
  optimized::FGemmWeightsDesc d;
  d.weights = w.projection_weights;
  d.bias = w.projection_bias;
  d.n = p.n_output;
  d.kc = p.n_cell;
  return PackPersistent(context, kernel, d, out);
}

constexpr optimized::FloatClamp kNoClamp = {-std::numeric_limits<float>::infinity(),
                                            std::numeric_limits<float>::infinity()};

// The products of one step for reference::LstmStepWith, from the GEMMs' results: the input
// products with biases (`inputs`) and the recurrent products (`recurrents`), both rows of the
// stacked gates.
struct StackedProducts {
  const LstmFloatFast* fast;
  const float* inputs;
  const float* recurrents;
  ThreadPool* pool;

  void Gate(int g, const reference::LstmGateWeights&, const reference::LstmParams& p, int n_batch,
            const float*, const float*, float* gate) const {
    const int n = p.n_cell;
    const int64_t stride = fast->stacked();
    const int64_t at = int64_t{fast->slot[g]} * n;
    for (int b = 0; b < n_batch; ++b) {
      const float* x = inputs + b * stride + at;
      const float* h = recurrents + b * stride + at;
      float* out = gate + int64_t{b} * n;
      for (int i = 0; i < n; ++i) out[i] = x[i] + h[i];
    }
  }
  void Activate(reference::LstmActivation act, const float* in, float* out, int64_t n) const {
    const optimized::FUnaryKernel* f = fast->funary;
    if (act == reference::LstmActivation::kSigmoid && f != nullptr) {
      f->logistic(in, out, static_cast<size_t>(n));
    } else if (act == reference::LstmActivation::kTanh && f != nullptr) {
      f->tanh(in, out, static_cast<size_t>(n));
    } else {
      reference::LstmPlainProducts{}.Activate(act, in, out, n);
    }
  }
  void Project(const reference::LstmWeights&, const reference::LstmParams& p, int n_batch,
               const float* hidden, float* output_state) const {
    optimized::RunFGemmRows(fast->projection_gemm, n_batch, hidden, static_cast<size_t>(p.n_cell),
                            kNoClamp, output_state, pool);
  }
};

}  // namespace

TfLiteStatus PrepareLstmFloatFast(TfLiteContext* context, const TfLiteNode* node,
                                  const LstmCellSpec& spec, const reference::LstmParams& p,
                                  const LstmFloatFastShape& shape, bool reference_only,
                                  LstmFloatFast* fast) {
  fast->ready = false;
  const cpu::Isa isa = reference_only ? cpu::Isa::kReference : cpu::ActiveIsa();
  const optimized::FGemmKernel* kernel =
      isa == cpu::Isa::kReference ? nullptr : optimized::FGemmKernelFor(isa);
  if (kernel == nullptr || p.n_cell <= 0 || p.n_output <= 0 || p.n_input <= 0 || shape.rows <= 0) {
    return kTfLiteOk;
  }
  for (int k = 1; k < kLstmInputCount; ++k) {
    if (k == 18 || k == 19) continue;  // the states
    if (!IsConstantOrAbsent(LstmTensor(context, node, spec, k))) return kTfLiteOk;
  }
  reference::LstmWeights w;
  TF_LITE_ENSURE_OK(context, GatherLstmFloatWeights(context, node, spec, &w));
  const bool cifg = w.input_gate.input_weights == nullptr;
  fast->params = p;
  fast->shape = shape;
  fast->kernel = kernel;
  fast->funary = optimized::FUnaryKernelFor(isa);
  fast->gate_count = cifg ? 3 : 4;
  for (int g = 0, next = 0; g < 4; ++g) fast->slot[g] = (g == 0 && cifg) ? -1 : next++;
  fast->projection = w.projection_weights != nullptr;
  fast->chunk_steps = std::max(1, std::min(shape.steps, kChunkRows / shape.rows));
  // The same constant weights (whose shapes fix the cell's sizes) on the same kernel as the
  // last prepare: the packing stands.
  const bool packed = fast->packing.Ensure(w.forget_gate.input_weights, kernel, [&] {
    return PackStacked(context, *kernel, *fast, w, false, &fast->input_gemm) &&
           PackStacked(context, *kernel, *fast, w, true, &fast->recurrent_gemm) &&
           (!fast->projection || PackProjection(context, *kernel, w, p, &fast->projection_gemm));
  });
  fast->ready = packed;
  return kTfLiteOk;
}

int64_t LstmFloatFastScratch(const LstmFloatFast& fast) {
  const int64_t rows = fast.shape.rows;
  const int64_t stacked = fast.stacked();
  return reference::LstmScratchSize(fast.params, fast.shape.rows) +
         int64_t{fast.chunk_steps} * rows * stacked + rows * stacked;
}

void RunLstmFloatFast(TfLiteContext* context, const LstmFloatFast& fast,
                      const reference::LstmWeights& w, bool forward, const float* input,
                      float* output_state, float* cell_state, float* output, int output_width,
                      int output_offset, float* scratch) {
  const reference::LstmParams& p = fast.params;
  const LstmFloatFastShape& s = fast.shape;
  const int64_t stacked = fast.stacked();
  float* step_scratch = scratch;
  float* inputs = step_scratch + reference::LstmScratchSize(p, s.rows);
  float* recurrents = inputs + int64_t{fast.chunk_steps} * s.rows * stacked;
  ThreadPool* pool = GetThreadPool(context);
  for (int q = 0; q < s.sequences; ++q) {
    const int64_t first_row = int64_t{q} * s.steps * s.rows;
    float* h = output_state + int64_t{q} * s.rows * p.n_output;
    float* c = cell_state + int64_t{q} * s.rows * p.n_cell;
    for (int done = 0; done < s.steps; done += fast.chunk_steps) {
      const int count = std::min(fast.chunk_steps, s.steps - done);
      // Forward: steps [done, done + count); backward: the same count from the end.
      const int t0 = forward ? done : s.steps - done - count;
      const int64_t chunk_row = first_row + int64_t{t0} * s.rows;
      optimized::RunFGemmRows(fast.input_gemm, count * s.rows, input + chunk_row * p.n_input,
                              static_cast<size_t>(p.n_input), kNoClamp, inputs, pool);
      for (int i = 0; i < count; ++i) {
        const int k = forward ? i : count - 1 - i;  // the step within the chunk
        const int64_t row = chunk_row + int64_t{k} * s.rows;
        optimized::RunFGemmRows(fast.recurrent_gemm, s.rows, h, static_cast<size_t>(p.n_output),
                                kNoClamp, recurrents, pool);
        const StackedProducts products{&fast, inputs + int64_t{k} * s.rows * stacked, recurrents,
                                       pool};
        reference::LstmStepWith(products, w, p, s.rows, input + row * p.n_input, h, c,
                                output + row * output_width + output_offset, output_width,
                                step_scratch);
      }
    }
  }
}

}  // namespace octet::ops::nn
