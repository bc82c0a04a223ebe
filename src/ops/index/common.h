// Helpers shared by the index / selection kernels in this folder (TOPK_V2, WHERE, UNIQUE,
// the segment reductions, scatters, NMS): the shape family's checked-access helpers plus
// type-list checks and scalar reads.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "ops/shape/common.h"

namespace octet::ops::index {

namespace reference = ::octet::reference;

using shape::ByElementWidth;
using shape::CheckIndexType;
using shape::CheckSameType;
using shape::DimsOf;
using shape::IsConstant;
using shape::IsMovableType;
using shape::OutputDimsFn;
using shape::ReadIndices;
using shape::ResizeDynamicOutput;
using shape::ResizeOrMarkDynamic;

// "FLOAT32, INT32, ..." for error messages.
inline std::string TypeNames(std::initializer_list<TfLiteType> types) {
  std::string s;
  for (TfLiteType t : types) {
    if (!s.empty()) s += ", ";
    s += TfLiteTypeGetName(t);
  }
  return s;
}

// `t` (named `what`) has one of `types`.
inline TfLiteStatus CheckTypeIn(TfLiteContext* context, const char* op, const char* what,
                                const TfLiteTensor* t, std::initializer_list<TfLiteType> types) {
  for (TfLiteType type : types) {
    if (t->type == type) return kTfLiteOk;
  }
  OCTET_ENSURE(context, false, "%s: %s type %s is not supported (%s)", op, what,
               TfLiteTypeGetName(t->type), TypeNames(types).c_str());
  return kTfLiteOk;
}

// `t` (named `what`) has exactly `type` (outputs whose type the op fixes).
inline TfLiteStatus CheckTypeIs(TfLiteContext* context, const char* op, const char* what,
                                const TfLiteTensor* t, TfLiteType type) {
  OCTET_ENSURE(context, t->type == type, "%s: %s must be %s, got %s", op, what,
               TfLiteTypeGetName(type), TfLiteTypeGetName(t->type));
  return kTfLiteOk;
}

// A model may declare dims it only knows at run time (-1 in dims_signature); outputs sized
// from such an input are left dynamic, as TFLite does.
inline bool HasUnknownDims(const TfLiteTensor* t) {
  if (t->dims_signature == nullptr) return false;
  for (int i = 0; i < t->dims_signature->size; ++i) {
    if (t->dims_signature->data[i] < 0) return true;
  }
  return false;
}

// The single value of an int16/int32/int64 tensor.
inline int64_t ScalarAsInt64(const TfLiteTensor* t) {
  switch (t->type) {
    case kTfLiteInt16:
      return t->data.i16[0];
    case kTfLiteInt64:
      return t->data.i64[0];
    default:
      return t->data.i32[0];
  }
}

// Element count as an int64 (never negative for allocated tensors).
inline int64_t Count(const TfLiteTensor* t) { return tflite::NumElements(t); }

}  // namespace octet::ops::index
