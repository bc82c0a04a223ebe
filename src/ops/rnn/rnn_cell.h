// What RNN, UNIDIRECTIONAL_SEQUENCE_RNN and BIDIRECTIONAL_SEQUENCE_RNN share: the checks of
// one cell's tensors (input weights [units, input_size], recurrent weights [units, units],
// bias [units], optional auxiliary weights [units, aux_size], hidden state [batch, units] as
// a variable tensor), the float / hybrid choice (float32 weights, or int8/uint8 weights with
// float32 input: TFLite's hybrid path, uint8 bytes read as int8 as TFLite reads them), the
// hybrid scratch, and the loop over a sequence in either layout.
#pragma once

#include <cstdint>

#include "kernels/reference/rnn.h"
#include "ops/op_util.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RNN();
TfLiteRegistration* Register_UNIDIRECTIONAL_SEQUENCE_RNN();
TfLiteRegistration* Register_BIDIRECTIONAL_SEQUENCE_RNN();

}  // namespace tflite::ops::builtin

namespace octet::ops::rnn {

namespace reference = ::octet::reference;

// One direction's tensors and how errors name them.
struct CellTensors {
  const TfLiteTensor* weights = nullptr;
  const TfLiteTensor* recurrent = nullptr;
  const TfLiteTensor* bias = nullptr;
  const TfLiteTensor* aux_weights = nullptr;  // absent: no auxiliary input
  const TfLiteTensor* state = nullptr;
  const char* weights_name = "input_weights";
  const char* recurrent_name = "recurrent_weights";
  const char* bias_name = "bias";
  const char* aux_weights_name = "aux_input_weights";
  const char* state_name = "hidden_state";
};

// The fused activations TFLite's RNN cells apply (tensor_utils::ApplyActivationToVector).
TfLiteStatus ToActivation(TfLiteContext* context, const char* op, TfLiteFusedActivation act,
                          reference::FusedActivation* out);

// Checks a cell against the input size, auxiliary size (0: none) and batch; `hybrid` says
// whether its weights are int8/uint8 (input must then be float32, as always).
TfLiteStatus CheckCell(TfLiteContext* context, const char* op, const CellTensors& cell,
                       int input_size, int aux_size, int batch, bool* hybrid, int* units);

// The per-node scratch: nothing for float cells; for hybrid ones the quantized rows, their
// scales and zero points, the int32 products and the weight row sums.
class RnnScratch {
 public:
  TfLiteStatus Reserve(TfLiteContext* context) { return scratch_.Reserve(context, 5); }
  TfLiteStatus PrepareFloat(TfLiteContext* context, TfLiteNode* node) {
    return scratch_.Prepare(context, node, {});
  }
  // rows: the most rows quantized at once; cols: the widest operand; units: the most units;
  // row_sums: int32 entries for every weight matrix's row sums.
  TfLiteStatus PrepareHybrid(TfLiteContext* context, TfLiteNode* node, int rows, int cols,
                             int units, int64_t row_sums);
  reference::RnnHybridScratch Get(TfLiteContext* context) const;
  int32_t* RowSums(TfLiteContext* context) const { return scratch_.Data<int32_t>(context, 4); }

 private:
  NodeScratch scratch_;
};

// One direction at invoke time.
struct Cell {
  bool hybrid = false;
  int input_size = 0;
  int aux_size = 0;
  int units = 0;
  const float* weights = nullptr;  // float cells
  const float* aux_weights = nullptr;
  const float* recurrent = nullptr;
  reference::RnnHybridWeights hw, haux, hr;  // hybrid cells
  const float* bias = nullptr;
  float* state = nullptr;
};

// Binds a checked cell's data. For asymmetric hybrid cells the weight row sums are computed
// into `row_sums` (3 * units entries).
TfLiteStatus BindCell(TfLiteContext* context, const char* op, const CellTensors& tensors,
                      TfLiteTensor* state, bool hybrid, int input_size, int aux_size, int units,
                      bool asymmetric, int32_t* row_sums, Cell* cell);

struct StepOptions {
  reference::FusedActivation activation = reference::FusedActivation::kNone;
  bool asymmetric = false;
  reference::RnnHybridScratch scratch;  // hybrid cells
};

// One step for `batch` rows starting at `hidden` (state rows) and `out` (rows `out_stride`
// floats apart).
void Step(const Cell& cell, const StepOptions& options, const float* input, const float* aux,
          int batch, float* hidden, float* out, int64_t out_stride);

// A whole sequence: time-major [max_time, batch, ...] or batch-major [batch, max_time, ...]
// input, aux and output rows (output rows `out_stride` floats apart starting at `out`),
// forward or backward in time.
struct SequenceLayout {
  int max_time = 0;
  int batch = 0;
  bool time_major = false;
  bool backward = false;
};
void RunSequence(const Cell& cell, const StepOptions& options, const SequenceLayout& layout,
                 const float* input, const float* aux, float* out, int64_t out_stride);

}  // namespace octet::ops::rnn
