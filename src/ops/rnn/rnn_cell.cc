#include "ops/rnn/rnn_cell.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace octet::ops::rnn {
namespace {

std::string DimsString(const TfLiteTensor* t) {
  std::string s = "[";
  for (int i = 0; t->dims != nullptr && i < t->dims->size; ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(t->dims->data[i]);
  }
  return s + "]";
}

bool IsByteType(TfLiteType t) { return t == kTfLiteInt8 || t == kTfLiteUInt8; }

// `t` is [rows, cols] (either may be -1: any).
TfLiteStatus CheckMatrix(TfLiteContext* context, const char* op, const char* what,
                         const TfLiteTensor* t, int rows, int cols) {
  OCTET_OP_ENSURE(context, t != nullptr, op, "%s is missing", what);
  const bool ok = t->dims != nullptr && t->dims->size == 2 &&
                  (rows < 0 || t->dims->data[0] == rows) && (cols < 0 || t->dims->data[1] == cols);
  if (rows >= 0 && cols >= 0) {
    OCTET_OP_ENSURE(context, ok, op, "%s must have shape [%d, %d], got %s", what, rows, cols,
                    DimsString(t).c_str());
  } else if (cols >= 0) {
    OCTET_OP_ENSURE(context, ok, op, "%s must be 2-D with %d columns, got %s", what, cols,
                    DimsString(t).c_str());
  } else {
    OCTET_OP_ENSURE(context, ok, op, "%s must have shape [%d, ...], got %s", what, rows,
                    DimsString(t).c_str());
  }
  return kTfLiteOk;
}

// The one scale of hybrid weights (TFLite reads the tensor's single scale): every scale
// equal, finite and > 0; int8 weights symmetric. uint8 weights are read as int8 bytes, so
// their zero point is not used (as in TFLite).
TfLiteStatus HybridScale(TfLiteContext* context, const char* op, const char* what,
                         const TfLiteTensor* t, float* scale) {
  const auto* q = t->quantization.type == kTfLiteAffineQuantization
                      ? static_cast<const TfLiteAffineQuantization*>(t->quantization.params)
                      : nullptr;
  OCTET_OP_ENSURE(context, q != nullptr && q->scale != nullptr && q->scale->size > 0, op,
                  "%s (%s, hybrid) needs a quantization scale", what, TfLiteTypeGetName(t->type));
  *scale = q->scale->data[0];
  for (int i = 1; i < q->scale->size; ++i) {
    OCTET_OP_ENSURE(context, q->scale->data[i] == *scale, op,
                    "%s has %d different scales; a hybrid RNN takes one scale per tensor", what,
                    q->scale->size);
  }
  OCTET_OP_ENSURE(context, std::isfinite(*scale) && *scale > 0.f, op,
                  "%s scale must be finite and > 0, got %g", what, static_cast<double>(*scale));
  if (t->type == kTfLiteInt8 && q->zero_point != nullptr) {
    for (int i = 0; i < q->zero_point->size; ++i) {
      OCTET_OP_ENSURE(context, q->zero_point->data[i] == 0, op,
                      "%s must be symmetric (zero point %d)", what, q->zero_point->data[i]);
    }
  }
  return kTfLiteOk;
}

}  // namespace

TfLiteStatus ToActivation(TfLiteContext* context, const char* op, TfLiteFusedActivation act,
                          reference::FusedActivation* out) {
  OCTET_OP_ENSURE(context, ToFusedActivation(act, out), op, "unsupported fused activation %d",
                  static_cast<int>(act));
  return kTfLiteOk;
}

TfLiteStatus CheckCell(TfLiteContext* context, const char* op, const CellTensors& cell,
                       int input_size, int aux_size, int batch, bool* hybrid, int* units) {
  TF_LITE_ENSURE_STATUS(CheckMatrix(context, op, cell.weights_name, cell.weights, -1, input_size));
  const int n = cell.weights->dims->data[0];
  TF_LITE_ENSURE_STATUS(CheckMatrix(context, op, cell.recurrent_name, cell.recurrent, n, n));
  OCTET_OP_ENSURE(context, cell.bias != nullptr, op, "%s is missing", cell.bias_name);
  OCTET_OP_ENSURE(context, cell.bias->dims->size == 1 && cell.bias->dims->data[0] == n, op,
                  "%s must have shape [%d], got %s", cell.bias_name, n,
                  DimsString(cell.bias).c_str());
  OCTET_OP_ENSURE(context, cell.bias->type == kTfLiteFloat32, op, "%s must be float32, got %s",
                  cell.bias_name, TfLiteTypeGetName(cell.bias->type));
  TF_LITE_ENSURE_STATUS(CheckMatrix(context, op, cell.state_name, cell.state, batch, n));
  OCTET_OP_ENSURE(context, cell.state->type == kTfLiteFloat32, op, "%s must be float32, got %s",
                  cell.state_name, TfLiteTypeGetName(cell.state->type));
  OCTET_OP_ENSURE(context, cell.state->is_variable, op, "%s must be a variable tensor",
                  cell.state_name);

  const TfLiteType type = cell.weights->type;
  OCTET_OP_ENSURE(context, type == kTfLiteFloat32 || IsByteType(type), op,
                  "%s must be float32, or int8/uint8 for a hybrid cell; got %s", cell.weights_name,
                  TfLiteTypeGetName(type));
  OCTET_OP_ENSURE(context, cell.recurrent->type == type, op, "%s type %s does not match %s type %s",
                  cell.recurrent_name, TfLiteTypeGetName(cell.recurrent->type), cell.weights_name,
                  TfLiteTypeGetName(type));
  *hybrid = IsByteType(type);
  float scale;
  if (*hybrid) {
    TF_LITE_ENSURE_STATUS(HybridScale(context, op, cell.weights_name, cell.weights, &scale));
    TF_LITE_ENSURE_STATUS(HybridScale(context, op, cell.recurrent_name, cell.recurrent, &scale));
  }
  if (aux_size > 0) {
    TF_LITE_ENSURE_STATUS(
        CheckMatrix(context, op, cell.aux_weights_name, cell.aux_weights, n, aux_size));
    OCTET_OP_ENSURE(context, cell.aux_weights->type == type, op,
                    "%s type %s does not match %s type %s", cell.aux_weights_name,
                    TfLiteTypeGetName(cell.aux_weights->type), cell.weights_name,
                    TfLiteTypeGetName(type));
    if (*hybrid) {
      TF_LITE_ENSURE_STATUS(
          HybridScale(context, op, cell.aux_weights_name, cell.aux_weights, &scale));
    }
  }
  *units = n;
  return kTfLiteOk;
}

TfLiteStatus RnnScratch::PrepareHybrid(TfLiteContext* context, TfLiteNode* node, int rows, int cols,
                                       int units, int64_t row_sums) {
  const int64_t r = std::max(rows, 1);
  return scratch_.Prepare(context, node,
                          {{kTfLiteInt8, r * std::max(cols, 1)},
                           {kTfLiteFloat32, r},
                           {kTfLiteInt32, r},
                           {kTfLiteInt32, r * std::max(units, 1)},
                           {kTfLiteInt32, std::max<int64_t>(row_sums, 1)}});
}

reference::RnnHybridScratch RnnScratch::Get(TfLiteContext* context) const {
  return reference::RnnHybridScratch{
      scratch_.Data<int8_t>(context, 0), scratch_.Data<float>(context, 1),
      scratch_.Data<int32_t>(context, 2), scratch_.Data<int32_t>(context, 3)};
}

TfLiteStatus BindCell(TfLiteContext* context, const char* op, const CellTensors& tensors,
                      TfLiteTensor* state, bool hybrid, int input_size, int aux_size, int units,
                      bool asymmetric, int32_t* row_sums, Cell* cell) {
  const TfLiteTensor* all[] = {tensors.weights, tensors.recurrent, tensors.bias, state,
                               aux_size > 0 ? tensors.aux_weights : nullptr};
  for (const TfLiteTensor* t : all) {
    if (t != nullptr) {
      TF_LITE_ENSURE_STATUS(ops::RequireData(context, op, t->name ? t->name : "a weight", t));
    }
  }
  cell->hybrid = hybrid;
  cell->input_size = input_size;
  cell->aux_size = aux_size;
  cell->units = units;
  cell->bias = tensors.bias->data.f;
  cell->state = state->data.f;
  if (!hybrid) {
    cell->weights = tensors.weights->data.f;
    cell->recurrent = tensors.recurrent->data.f;
    cell->aux_weights = aux_size > 0 ? tensors.aux_weights->data.f : nullptr;
    return kTfLiteOk;
  }
  // Scales were checked at prepare; params.scale is the single one.
  auto bind = [&](const TfLiteTensor* t, int cols, int32_t* sums) {
    reference::RnnHybridWeights w;
    w.data = reinterpret_cast<const int8_t*>(t->data.raw);
    w.scale = t->params.scale;
    const auto* q = static_cast<const TfLiteAffineQuantization*>(t->quantization.params);
    if (q != nullptr && q->scale != nullptr && q->scale->size > 0) w.scale = q->scale->data[0];
    if (asymmetric) {
      reference::HybridRowSums(w.data, units, cols, sums);
      w.row_sums = sums;
    }
    return w;
  };
  cell->hw = bind(tensors.weights, input_size, row_sums);
  cell->hr = bind(tensors.recurrent, units, row_sums + units);
  if (aux_size > 0) cell->haux = bind(tensors.aux_weights, aux_size, row_sums + 2 * units);
  return kTfLiteOk;
}

void Step(const Cell& cell, const StepOptions& options, const float* input, const float* aux,
          int batch, float* hidden, float* out, int64_t out_stride) {
  reference::RnnStepShape s;
  s.batch = batch;
  s.input_size = cell.input_size;
  s.aux_size = cell.aux_size;
  s.units = cell.units;
  s.out_stride = out_stride;
  if (cell.hybrid) {
    reference::RnnStepHybrid(s, input, cell.hw, aux, cell.haux, cell.hr, cell.bias,
                             options.activation, options.asymmetric, options.scratch, hidden, out);
  } else {
    reference::RnnStepFloat(s, input, cell.weights, aux, cell.aux_weights, cell.recurrent,
                            cell.bias, options.activation, hidden, out);
  }
}

void RunSequence(const Cell& cell, const StepOptions& options, const SequenceLayout& layout,
                 const float* input, const float* aux, float* out, int64_t out_stride) {
  const int64_t in = cell.input_size, ax = cell.aux_size;
  const int T = layout.max_time, B = layout.batch;
  auto time_at = [&](int k) { return layout.backward ? T - 1 - k : k; };
  if (layout.time_major) {
    // All batch rows of one time step at once.
    for (int k = 0; k < T; ++k) {
      const int64_t t = time_at(k);
      Step(cell, options, input + t * B * in, ax > 0 ? aux + t * B * ax : nullptr, B, cell.state,
           out + t * B * out_stride, out_stride);
    }
    return;
  }
  // Each batch row through the whole sequence.
  for (int b = 0; b < B; ++b) {
    float* hidden = cell.state + int64_t{b} * cell.units;
    for (int k = 0; k < T; ++k) {
      const int64_t row = int64_t{b} * T + time_at(k);
      Step(cell, options, input + row * in, ax > 0 ? aux + row * ax : nullptr, 1, hidden,
           out + row * out_stride, out_stride);
    }
  }
}

}  // namespace octet::ops::rnn
