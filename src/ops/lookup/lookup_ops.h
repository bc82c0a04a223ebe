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

}  // namespace octet::ops::lookup
