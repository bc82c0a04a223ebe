// Float LSTM sequences on the float GEMM micro-kernels (fgemm). The reference step computes
// every gate's products as separate dot products, one multiply-add at a time; here the four
// gates' weights are stacked and packed once in prepare, so that
//   - the input products (with the gate biases) of a chunk of time steps are one GEMM,
//   - each step's recurrent products are one GEMM of the step's rows (output state),
//   - the projection, when present, is one GEMM with its bias,
// sigmoid and tanh run on the path's vector kernel (funary), and the rest of the step
// (peephole, layer norm, cell update, clipping) is the reference's own code
// (reference::LstmStepWith). Results equal the reference's within float rounding (the sums
// are ordered differently, exp and tanh are a few ulp off), as TFLite's optimized LSTM's do.
#pragma once

#include <cstdint>

#include "kernels/optimized/fgemm/fgemm_pack.h"
#include "kernels/optimized/funary/funary.h"
#include "kernels/reference/lstm.h"
#include "ops/nn/lstm_checks.h"
#include "ops/nn/packing_cache.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

// How a sequence is laid out: `sequences` independent runs of `steps` steps, each step
// `rows` consecutive rows of the input and output (time-major: one run of B rows per step;
// batch-major: B runs of one row, their states B rows apart).
struct LstmFloatFastShape {
  int sequences = 1;
  int steps = 1;
  int rows = 1;
};

struct LstmFloatFast {
  bool ready = false;  // packed for this kernel path; false: the op runs the reference
  const optimized::FGemmKernel* kernel = nullptr;
  const optimized::FUnaryKernel* funary = nullptr;  // sigmoid and tanh
  LstmFloatFastShape shape;
  reference::LstmParams params;
  int gate_count = 4;   // 3 under CIFG (no input gate)
  int slot[4] = {};     // where gate g's n_cell columns sit among the stacked ones (-1: absent)
  int chunk_steps = 1;  // steps whose input products one GEMM computes
  optimized::FGemmPacked input_gemm, recurrent_gemm, projection_gemm;
  bool projection = false;
  PackingCache packing;

  int stacked() const { return gate_count * params.n_cell; }
};

// Packs the cell's weights (found by `spec`) for the active kernel path when it is not the
// reference, every weight, bias and coefficient is constant and `reference_only` is false
// (Register_X_REF). Sets fast->ready; not ready, the op runs the reference loops.
TfLiteStatus PrepareLstmFloatFast(TfLiteContext* context, const TfLiteNode* node,
                                  const LstmCellSpec& spec, const reference::LstmParams& p,
                                  const LstmFloatFastShape& shape, bool reference_only,
                                  LstmFloatFast* fast);

// Scratch floats RunLstmFloatFast needs (prepared fast only).
int64_t LstmFloatFastScratch(const LstmFloatFast& fast);

// The whole sequence: input rows of n_input floats, output rows `output_width` floats apart
// starting at `output_offset`; states [sequences * rows, ...] carried in place. `forward`
// false runs each sequence from its last step to its first (a backward direction).
void RunLstmFloatFast(TfLiteContext* context, const LstmFloatFast& fast,
                      const reference::LstmWeights& w, bool forward, const float* input,
                      float* output_state, float* cell_state, float* output, int output_width,
                      int output_offset, float* scratch);

}  // namespace octet::ops::nn
