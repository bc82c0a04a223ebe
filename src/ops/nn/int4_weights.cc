#include "ops/nn/int4_weights.h"

#include <cstdint>
#include <limits>

#include "ops/op_util.h"

namespace octet::ops::nn {
namespace {

// `t`'s element count, or -1 when a dimension is negative or the product would overflow.
int64_t ElementCount(const TfLiteTensor* t) {
  if (t->dims == nullptr) return -1;
  int64_t n = 1;
  for (int i = 0; i < t->dims->size; ++i) {
    const int d = t->dims->data[i];
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<int32_t>::max() / d) return -1;
    n *= d;
  }
  return n;
}

const char* InputsAccepted(const Int4Weights& s) {
  if (s.int16_input && s.float_input) return "INT8, INT16 or FLOAT32";
  if (s.int16_input) return "INT8 or INT16";
  if (s.float_input) return "INT8 or FLOAT32";
  return "INT8";
}

}  // namespace

void UnpackInt4(const uint8_t* packed, size_t count, int8_t* out) {
  for (size_t i = 0; i < count; ++i) out[i] = Int4At(packed, i);
}

TfLiteStatus CheckInt4Constant(TfLiteContext* context, const char* op, const char* name,
                               const TfLiteTensor* t, size_t* elements) {
  const bool constant =
      t->allocation_type == kTfLiteMmapRo || t->allocation_type == kTfLitePersistentRo;
  OCTET_OP_ENSURE(context, constant && t->data.raw_const != nullptr, op,
                  "INT4 %s must be a constant tensor", name);
  const int64_t count = ElementCount(t);
  OCTET_OP_ENSURE(context, count >= 0, op, "INT4 %s have an invalid or too large shape", name);
  *elements = static_cast<size_t>(count);
  const size_t packed_bytes = (*elements + 1) / 2;
  OCTET_OP_ENSURE(context, t->bytes >= packed_bytes, op,
                  "INT4 %s '%s': %zu bytes, %zu elements need %zu (two per byte)", name,
                  t->name ? t->name : "", t->bytes, *elements, packed_bytes);
  return kTfLiteOk;
}

TfLiteStatus PrepareInt4Weights(TfLiteContext* context, const char* op, const char* weights_name,
                                const TfLiteTensor* input, const TfLiteTensor* weights,
                                Int4Weights* state, const TfLiteTensor** as_int8) {
  OCTET_OP_ENSURE(context, state != nullptr, op, "INT4 %s: not supported by this op", weights_name);
  const TfLiteType in = input->type;
  const bool accepted = in == kTfLiteInt8 || (in == kTfLiteInt16 && state->int16_input) ||
                        (in == kTfLiteFloat32 && state->float_input);
  OCTET_OP_ENSURE(context, accepted, op, "INT4 %s: the input must be %s, got %s", weights_name,
                  InputsAccepted(*state), TfLiteTypeGetName(in));
  size_t elements = 0;
  TF_LITE_ENSURE_OK(context, CheckInt4Constant(context, op, weights_name, weights, &elements));
  // TFLite's int4 kernels read no zero point: the weights must be symmetric.
  if (weights->quantization.type == kTfLiteAffineQuantization &&
      weights->quantization.params != nullptr) {
    const auto* q = static_cast<const TfLiteAffineQuantization*>(weights->quantization.params);
    for (int i = 0; q->zero_point != nullptr && i < q->zero_point->size; ++i) {
      OCTET_OP_ENSURE(context, q->zero_point->data[i] == 0, op,
                      "INT4 %s must be quantized symmetrically, zero point %d is %d", weights_name,
                      i, q->zero_point->data[i]);
    }
  }

  // A re-prepare (after a resize) keeps the copy of the same constant.
  if (state->unpacked == nullptr || state->source != weights->data.raw_const ||
      state->elements != elements) {
    auto* copy = static_cast<int8_t*>(
        context->AllocatePersistentBuffer(context, elements > 0 ? elements : 1));
    OCTET_OP_ENSURE(context, copy != nullptr, op, "no memory for the %zu unpacked INT4 %s",
                    elements, weights_name);
    UnpackInt4(reinterpret_cast<const uint8_t*>(weights->data.raw_const), elements, copy);
    state->unpacked = copy;
    state->source = weights->data.raw_const;
    state->elements = elements;
  }
  state->view = *weights;
  state->view.type = kTfLiteInt8;
  state->view.data.int8 = state->unpacked;
  state->view.bytes = elements;
  *as_int8 = &state->view;
  return kTfLiteOk;
}

TfLiteStatus Int4WeightsView(TfLiteContext* context, const char* op, const TfLiteTensor* weights,
                             Int4Weights* state, const TfLiteTensor** as_int8) {
  const bool ready = state != nullptr && state->unpacked != nullptr &&
                     state->source == weights->data.raw_const &&
                     static_cast<int64_t>(state->elements) == ElementCount(weights);
  OCTET_OP_ENSURE(context, ready, op, "INT4 weights were not unpacked at prepare");
  // The tensor's fields may have moved since prepare (dims, quantization): view them anew.
  state->view = *weights;
  state->view.type = kTfLiteInt8;
  state->view.data.int8 = state->unpacked;
  state->view.bytes = state->elements;
  *as_int8 = &state->view;
  return kTfLiteOk;
}

}  // namespace octet::ops::nn
