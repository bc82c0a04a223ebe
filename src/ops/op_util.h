// The helpers every op family shares: one-line errors, registrations, per-node state, arity
// and tensor checks, activation ranges, output resizing. Messages name the op:
// "<OP>: <problem>".
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/reference/fused_activation.h"
#include "kernels/shape.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

// Reports the printf-style message as one line and fails unless `cond` holds.
#define OCTET_ENSURE(context, cond, ...)          \
  do {                                            \
    if (!(cond)) {                                \
      TF_LITE_KERNEL_LOG((context), __VA_ARGS__); \
      return kTfLiteError;                        \
    }                                             \
  } while (0)

// The same, prefixing the message with "<op>: ".
#define OCTET_OP_ENSURE(context, cond, op, fmt, ...) \
  OCTET_ENSURE(context, cond, "%s: " fmt, (op), ##__VA_ARGS__)

namespace octet::ops {

// A registration with the four kernel entry points (any may be null) and everything else zero.
inline TfLiteRegistration MakeRegistration(void* (*init)(TfLiteContext*, const char*, size_t),
                                           void (*free)(TfLiteContext*, void*),
                                           TfLiteStatus (*prepare)(TfLiteContext*, TfLiteNode*),
                                           TfLiteStatus (*invoke)(TfLiteContext*, TfLiteNode*)) {
  TfLiteRegistration r{};
  r.init = init;
  r.free = free;
  r.prepare = prepare;
  r.invoke = invoke;
  return r;
}

// init/free for kernels whose per-node state is a `Data`.
template <typename Data>
void* InitData(TfLiteContext*, const char*, size_t) {
  return std::make_unique<Data>().release();
}
template <typename Data>
void FreeData(TfLiteContext*, void* buffer) {
  std::unique_ptr<Data> owned(static_cast<Data*>(buffer));
}

// Reports "<op>: <printf-style message>" (one line, at most 511 characters) and returns
// kTfLiteError: for checks whose message is built from several values, where OCTET_OP_ENSURE's
// single condition does not fit.
TfLiteStatus OpFail(TfLiteContext* context, const char* op, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
TfLiteStatus OpFailV(TfLiteContext* context, const char* op, const char* fmt, va_list args);

// A tensor's shape for messages: "[1, 28, 28]" ("[]" for a scalar or missing dims).
std::string DimsString(const TfLiteTensor* t);

// Inputs in [min_inputs, max_inputs], exactly `outputs` outputs.
TfLiteStatus CheckArity(TfLiteContext* context, const TfLiteNode* node, const char* op,
                        int min_inputs, int max_inputs, int outputs);

// The index-th input / output, which must be present (with dims).
TfLiteStatus RequireInput(TfLiteContext* context, const TfLiteNode* node, const char* op, int index,
                          const TfLiteTensor** tensor);
TfLiteStatus RequireOutput(TfLiteContext* context, const TfLiteNode* node, const char* op,
                           int index, TfLiteTensor** tensor);

// Data present for a tensor with elements (guards invoke against bad graphs).
TfLiteStatus RequireData(TfLiteContext* context, const char* op, const char* what,
                         const TfLiteTensor* t);

// The op's builtin options are present.
TfLiteStatus RequireParams(TfLiteContext* context, const char* op, const void* params);

// The clamp a fused activation (NONE, RELU, RELU_N1_TO_1, RELU6) applies to T values: the
// type's range for NONE. Other activations are not clamps and are rejected.
template <typename T>
TfLiteStatus ActivationRange(TfLiteContext* context, const char* op, TfLiteFusedActivation act,
                             T* act_min, T* act_max) {
  *act_min = std::numeric_limits<T>::lowest();
  *act_max = std::numeric_limits<T>::max();
  switch (act) {
    case kTfLiteActNone:
      return kTfLiteOk;
    case kTfLiteActRelu:
      *act_min = T(0);
      return kTfLiteOk;
    case kTfLiteActReluN1To1:
      *act_min = T(-1);
      *act_max = T(1);
      return kTfLiteOk;
    case kTfLiteActRelu6:
      *act_min = T(0);
      *act_max = T(6);
      return kTfLiteOk;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: unsupported fused activation %d", op, static_cast<int>(act));
      return kTfLiteError;
  }
}

// A fused activation as the float recurrent kernels apply it to a vector (SVDF, the RNN
// cells); false for one they do not know. Each op decides which of these it accepts.
bool ToFusedActivation(TfLiteFusedActivation act, reference::FusedActivation* out);

// The same clamp quantized for `output` (tflite::CalculateActivationRangeQuantized), with an
// unsupported activation reported naming the op.
TfLiteStatus QuantizedActivationRange(TfLiteContext* context, const char* op,
                                      TfLiteFusedActivation act, const TfLiteTensor* output,
                                      int32_t* act_min, int32_t* act_max);

// int8, uint8 or int16: the types with affine quantized kernels.
inline bool IsQuantizedType(TfLiteType t) {
  return t == kTfLiteInt8 || t == kTfLiteUInt8 || t == kTfLiteInt16;
}

// Resizes `output` to `dims` (the context takes the array).
TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteTensor* output,
                          const std::vector<int>& dims);
TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteTensor* output, const Shape& shape);
inline TfLiteStatus ResizeOutput(TfLiteContext* context, TfLiteTensor* output,
                                 std::initializer_list<int> dims) {
  return ResizeOutput(context, output, std::vector<int>(dims));
}

// A kTfLiteString tensor's buffer (count, count + 1 offsets, bytes) is well formed: the
// offsets ascend within the tensor's bytes. `count` receives the number of strings.
inline TfLiteStatus CheckStrings(TfLiteContext* context, const char* op, const char* what,
                                 const TfLiteTensor* t, int* count) {
  auto read = [&](size_t at) {
    int32_t v;
    std::memcpy(&v, t->data.raw + at, sizeof(v));
    return v;
  };
  OCTET_OP_ENSURE(context, t->data.raw != nullptr && t->bytes >= sizeof(int32_t), op,
                  "%s is not a valid string tensor (%zu bytes)", what, t->bytes);
  const int32_t n = read(0);
  const size_t header = sizeof(int32_t) * (static_cast<size_t>(n) + 2);
  OCTET_OP_ENSURE(context, n >= 0 && static_cast<size_t>(n) < t->bytes && header <= t->bytes, op,
                  "%s is not a valid string tensor (count %d, %zu bytes)", what, n, t->bytes);
  int64_t previous = static_cast<int64_t>(header);
  for (int32_t i = 0; i <= n; ++i) {
    const int64_t offset = read(sizeof(int32_t) * (static_cast<size_t>(i) + 1));
    OCTET_OP_ENSURE(context,
                    offset >= previous && offset <= static_cast<int64_t>(t->bytes) &&
                        (i > 0 || offset == static_cast<int64_t>(header)),
                    op, "%s is not a valid string tensor (offset %d is %lld)", what, i,
                    static_cast<long long>(offset));
    previous = offset;
  }
  *count = n;
  return kTfLiteOk;
}

}  // namespace octet::ops
