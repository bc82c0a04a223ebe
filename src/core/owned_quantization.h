// A tensor's quantization (and sparsity) on its way to the tensor that will own it: freed
// on every exit, including an exception, unless handed over with Release().
#pragma once

#include "tensorflow/lite/c/common.h"

namespace octet {

class OwnedQuantization {
 public:
  OwnedQuantization() = default;
  explicit OwnedQuantization(TfLiteQuantization q, TfLiteSparsity* sparsity = nullptr)
      : value(q), sparsity(sparsity) {}
  OwnedQuantization(const OwnedQuantization&) = delete;
  OwnedQuantization& operator=(const OwnedQuantization&) = delete;
  ~OwnedQuantization() {
    TfLiteQuantizationFree(&value);
    TfLiteSparsityFree(sparsity);
  }
  TfLiteQuantization Release() {
    const TfLiteQuantization out = value;
    value = TfLiteQuantization{kTfLiteNoQuantization, nullptr};
    return out;
  }
  TfLiteSparsity* ReleaseSparsity() {
    TfLiteSparsity* out = sparsity;
    sparsity = nullptr;
    return out;
  }

  TfLiteQuantization value{kTfLiteNoQuantization, nullptr};
  TfLiteSparsity* sparsity = nullptr;
};

}  // namespace octet
