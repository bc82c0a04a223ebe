// String tensors in TFLite's layout: int32 count N, N+1 int32 offsets (the last one is the
// total byte length), then the bytes of every string, back to back (little endian).
//
//   tflite::DynamicBuffer buf;
//   buf.AddString("AB", 2);
//   buf.WriteToTensorAsVector(tensor);  // a kTfLiteString tensor of shape [1]
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/string_type.h"

namespace tflite {

// Points into a buffer; not null-terminated.
typedef struct {
  const char* str;
  size_t len;
} StringRef;

constexpr uint64_t kDefaultMaxLength = std::numeric_limits<int>::max();

// Collects strings, then writes them into a string tensor (in a kernel's eval, or by a
// program filling an input).
class DynamicBuffer {
 public:
  explicit DynamicBuffer(size_t max_length = kDefaultMaxLength) : max_length_(max_length) {}

  // Error when the buffer would exceed max_length bytes.
  TfLiteStatus AddString(const StringRef& string);
  TfLiteStatus AddString(const char* str, size_t len);

  // Adds the strings joined by the separator as one string.
  void AddJoinedString(const std::vector<StringRef>& strings, char separator);
  void AddJoinedString(const std::vector<StringRef>& strings, StringRef separator);

  // Writes the serialized tensor bytes into a malloc'd *buffer (caller frees); returns its
  // size, or -1 when the result would not fit in an int.
  int WriteToBuffer(char** buffer);

  // Fills a kTfLiteString tensor (its old data is freed). new_shape (owned by the callee)
  // replaces the shape; null keeps the tensor's shape.
  void WriteToTensor(TfLiteTensor* tensor, TfLiteIntArray* new_shape);
  // Same with the shape [number of strings].
  void WriteToTensorAsVector(TfLiteTensor* tensor);

 private:
  std::vector<char> data_;
  std::vector<size_t> offset_ = {0};
  const size_t max_length_;
};

// Strings in a serialized buffer / string tensor.
int GetStringCount(const void* raw_buffer);
int GetStringCount(const TfLiteTensor* tensor);
// The index-th string; points into the buffer (no copy).
StringRef GetString(const void* raw_buffer, int string_index);
StringRef GetString(const TfLiteTensor* tensor, int string_index);

}  // namespace tflite
