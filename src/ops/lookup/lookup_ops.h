// Registrations of the lookup / hashing builtins (src/ops/lookup/) and the checks they share.
// Every failure is one line naming the op: "<OP>: <problem>".
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "ops/op_util.h"
#include "tensorflow/lite/c/common.h"

namespace tflite::ops::builtin {

TfLiteRegistration* Register_EMBEDDING_LOOKUP();
TfLiteRegistration* Register_EMBEDDING_LOOKUP_SPARSE();
TfLiteRegistration* Register_HASHTABLE_LOOKUP();
TfLiteRegistration* Register_LSH_PROJECTION();
TfLiteRegistration* Register_SKIP_GRAM();

}  // namespace tflite::ops::builtin

namespace octet::ops::lookup {

// "[2, 3]" for error messages.
inline std::string DimsString(const TfLiteTensor* t) {
  std::string s = "[";
  for (int i = 0; t->dims != nullptr && i < t->dims->size; ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(t->dims->data[i]);
  }
  return s + "]";
}

inline TfLiteStatus RequireType(TfLiteContext* context, const char* op, const char* what,
                                const TfLiteTensor* t, TfLiteType type) {
  OCTET_OP_ENSURE(context, t->type == type, op, "%s must be %s, got %s", what,
                  TfLiteTypeGetName(type), TfLiteTypeGetName(t->type));
  return kTfLiteOk;
}

inline TfLiteStatus RequireRank(TfLiteContext* context, const char* op, const char* what,
                                const TfLiteTensor* t, int rank) {
  OCTET_OP_ENSURE(context, t->dims->size == rank, op, "%s must be %d-D, got shape %s", what, rank,
                  DimsString(t).c_str());
  return kTfLiteOk;
}

inline TfLiteStatus RequireMinRank(TfLiteContext* context, const char* op, const char* what,
                                   const TfLiteTensor* t, int rank) {
  OCTET_OP_ENSURE(context, t->dims->size >= rank, op, "%s must have rank >= %d, got shape %s", what,
                  rank, DimsString(t).c_str());
  return kTfLiteOk;
}

}  // namespace octet::ops::lookup
