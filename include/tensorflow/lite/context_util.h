// A read-only, iterable view of a TfLiteIntArray (range-for over node inputs and the like).
#pragma once

#include <cstddef>

#include "tensorflow/lite/c/common.h"

namespace tflite {

class TfLiteIntArrayView {
 public:
  explicit TfLiteIntArrayView(const TfLiteIntArray* int_array) : int_array_(int_array) {}
  TfLiteIntArrayView(const TfLiteIntArrayView&) = default;
  TfLiteIntArrayView& operator=(const TfLiteIntArrayView& rhs) = default;

  typedef const int* const_iterator;
  const_iterator begin() const { return int_array_->data; }
  const_iterator end() const { return &int_array_->data[int_array_->size]; }
  size_t size() const { return end() - begin(); }
  int operator[](size_t pos) const { return int_array_->data[pos]; }

 private:
  const TfLiteIntArray* int_array_;
};

}  // namespace tflite
