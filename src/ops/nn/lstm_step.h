// Float LSTM pieces shared by LSTM, UNIDIRECTIONAL_SEQUENCE_LSTM and
// BIDIRECTIONAL_SEQUENCE_LSTM: gathering a cell's float weights from the node, and running a
// sequence in either direction, with the bidirectional op's auxiliary input, into rows of a
// wider (merged) output.
#pragma once

#include <cstdint>

#include "kernels/reference/lstm.h"
#include "ops/nn/lstm_checks.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

// The cell's float weights (absent ones nullptr), each checked to have data.
TfLiteStatus GatherLstmFloatWeights(TfLiteContext* context, const TfLiteNode* node,
                                    const LstmCellSpec& spec, reference::LstmWeights* w);

// The auxiliary input's weights [n_cell, n_aux_input] per gate (input, forget, cell,
// output; the input gate's is null under CIFG). No aux input: all null.
struct LstmAuxWeights {
  const float* gate[4] = {};
  int n_aux_input = 0;
  bool present() const { return gate[1] != nullptr; }
};

struct LstmSequenceLayout {
  bool time_major = true;
  int max_time = 0;
  int n_batch = 0;
  bool forward = true;    // false: from the last time step to the first
  int output_width = 0;   // floats per output row (n_output, or both directions merged)
  int output_offset = 0;  // where this cell's n_output floats start in a row
};

// Scratch floats LstmFloatSequence needs.
int64_t LstmFloatSequenceScratch(const reference::LstmParams& p, const LstmSequenceLayout& l,
                                 bool aux);

// Runs the sequence as TFLite's float LSTM does: each step's gates start from the bias and
// accumulate the input, aux input and recurrent products in that order (each dot product
// summed on its own). input [T, B, n_input] time-major, else [B, T, n_input]; aux_input alike
// with n_aux_input features (or null); states [B, ...] updated in place.
void LstmFloatSequence(const reference::LstmWeights& w, const LstmAuxWeights& aux,
                       const reference::LstmParams& p, const LstmSequenceLayout& l,
                       const float* input, const float* aux_input, float* output_state,
                       float* cell_state, float* output, float* scratch);

// Copies a [T, B] (time-major) or [B, T] sequence of src_width-float rows into rows of
// dst_width floats starting at dst_offset, reversing time when `reverse`.
void CopyLstmSequence(const float* src, int src_width, float* dst, int dst_width, int dst_offset,
                      int max_time, int n_batch, bool time_major, bool reverse);

}  // namespace octet::ops::nn
