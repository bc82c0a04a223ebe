#include "ops/op_util.h"

#include <cstdio>

#include "core/alloc_guard.h"

namespace octet::ops {

TfLiteStatus OpFailV(TfLiteContext* context, const char* op, const char* fmt, va_list args) {
  char buf[512];
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  TF_LITE_KERNEL_LOG(context, "%s: %s", op, buf);
  return kTfLiteError;
}

TfLiteStatus OpFail(TfLiteContext* context, const char* op, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  const TfLiteStatus status = OpFailV(context, op, fmt, args);
  va_end(args);
  return status;
}

std::string DimsString(const TfLiteTensor* t) {
  std::string s = "[";
  for (int i = 0; t->dims && i < t->dims->size; ++i) {
    if (i) s += ", ";
    s += std::to_string(t->dims->data[i]);
  }
  return s + "]";
}

TfLiteStatus CheckArity(TfLiteContext* context, const TfLiteNode* node, const char* op,
                        int min_inputs, int max_inputs, int outputs) {
  const int n_in = tflite::NumInputs(node);
  const int n_out = tflite::NumOutputs(node);
  if (min_inputs == max_inputs) {
    OCTET_OP_ENSURE(context, n_in == min_inputs, op, "expected %d inputs, got %d", min_inputs,
                    n_in);
  } else {
    OCTET_OP_ENSURE(context, n_in >= min_inputs && n_in <= max_inputs, op,
                    "expected %d to %d inputs, got %d", min_inputs, max_inputs, n_in);
  }
  OCTET_OP_ENSURE(context, n_out == outputs, op, "expected %d output%s, got %d", outputs,
                  outputs == 1 ? "" : "s", n_out);
  return kTfLiteOk;
}

TfLiteStatus RequireInput(TfLiteContext* context, const TfLiteNode* node, const char* op, int index,
                          const TfLiteTensor** tensor) {
  *tensor = tflite::GetInput(context, node, index);
  OCTET_OP_ENSURE(context, *tensor != nullptr && (*tensor)->dims != nullptr, op,
                  "input %d is missing", index);
  return kTfLiteOk;
}

TfLiteStatus RequireOutput(TfLiteContext* context, const TfLiteNode* node, const char* op,
                           int index, TfLiteTensor** tensor) {
  *tensor = tflite::GetOutput(context, node, index);
  OCTET_OP_ENSURE(context, *tensor != nullptr, op, "output %d is missing", index);
  return kTfLiteOk;
}

TfLiteStatus RequireData(TfLiteContext* context, const char* op, const char* what,
                         const TfLiteTensor* t) {
  OCTET_OP_ENSURE(context, t->data.raw != nullptr || tflite::NumElements(t) == 0, op,
                  "%s has no data", what);
  return kTfLiteOk;
}

TfLiteStatus RequireParams(TfLiteContext* context, const char* op, const void* params) {
  OCTET_OP_ENSURE(context, params != nullptr, op, "builtin options are missing");
  return kTfLiteOk;
}

TfLiteStatus QuantizedActivationRange(TfLiteContext* context, const char* op,
                                      TfLiteFusedActivation act, const TfLiteTensor* output,
                                      int32_t* act_min, int32_t* act_max) {
  OCTET_OP_ENSURE(context,
                  act == kTfLiteActNone || act == kTfLiteActRelu || act == kTfLiteActRelu6 ||
                      act == kTfLiteActReluN1To1,
                  op, "unsupported fused activation %d", static_cast<int>(act));
  // TFLite's declaration takes a non-const tensor; it only reads it.
  return tflite::CalculateActivationRangeQuantized(context, act, const_cast<TfLiteTensor*>(output),
                                                   act_min, act_max);
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteTensor* output,
                          const std::vector<int>& dims) {
  return context->ResizeTensor(context, output, tflite::CreateIntArray(dims));
}

bool ToFusedActivation(TfLiteFusedActivation act, reference::FusedActivation* out) {
  using A = reference::FusedActivation;
  switch (act) {
    case kTfLiteActNone:
      *out = A::kNone;
      return true;
    case kTfLiteActRelu:
      *out = A::kRelu;
      return true;
    case kTfLiteActReluN1To1:
      *out = A::kReluN1To1;
      return true;
    case kTfLiteActRelu6:
      *out = A::kRelu6;
      return true;
    case kTfLiteActTanh:
      *out = A::kTanh;
      return true;
    case kTfLiteActSignBit:
      *out = A::kSignBit;
      return true;
    case kTfLiteActSigmoid:
      *out = A::kSigmoid;
      return true;
  }
  return false;
}

TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteTensor* output, const Shape& shape) {
  TfLiteIntArray* dims = OrThrow(TfLiteIntArrayCreate(shape.rank()));
  for (int i = 0; i < shape.rank(); ++i) dims->data[i] = shape.dim(i);
  return context->ResizeTensor(context, output, dims);
}

}  // namespace octet::ops
