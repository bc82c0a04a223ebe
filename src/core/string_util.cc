#include "tensorflow/lite/string_util.h"

#include <cstdlib>
#include <cstring>

#include "core/alloc_guard.h"

namespace tflite {
namespace {

int32_t ReadInt32(const char* p) {
  int32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

void WriteInt32(char* p, int32_t v) { std::memcpy(p, &v, sizeof(v)); }

}  // namespace

TfLiteStatus DynamicBuffer::AddString(const char* str, size_t len) {
  if (data_.size() + len > max_length_) return kTfLiteError;
  data_.insert(data_.end(), str, str + len);
  offset_.push_back(offset_.back() + len);
  return kTfLiteOk;
}

TfLiteStatus DynamicBuffer::AddString(const StringRef& string) {
  return AddString(string.str, string.len);
}

void DynamicBuffer::AddJoinedString(const std::vector<StringRef>& strings, StringRef separator) {
  std::vector<char> joined;
  for (size_t i = 0; i < strings.size(); ++i) {
    if (i > 0) joined.insert(joined.end(), separator.str, separator.str + separator.len);
    joined.insert(joined.end(), strings[i].str, strings[i].str + strings[i].len);
  }
  AddString(joined.data(), joined.size());
}

void DynamicBuffer::AddJoinedString(const std::vector<StringRef>& strings, char separator) {
  AddJoinedString(strings, StringRef{&separator, 1});
}

int DynamicBuffer::WriteToBuffer(char** buffer) {
  const size_t num_strings = offset_.size() - 1;
  const size_t header = sizeof(int32_t) * (num_strings + 2);
  const size_t bytes = header + data_.size();
  if (bytes > static_cast<size_t>(std::numeric_limits<int>::max())) return -1;
  // At least one byte, so that an empty result is still a valid allocation.
  *buffer = static_cast<char*>(std::malloc(bytes > 0 ? bytes : 1));
  if (*buffer == nullptr) return -1;
  WriteInt32(*buffer, static_cast<int32_t>(num_strings));
  for (size_t i = 0; i <= num_strings; ++i) {
    WriteInt32(*buffer + sizeof(int32_t) * (i + 1), static_cast<int32_t>(header + offset_[i]));
  }
  if (!data_.empty()) std::memcpy(*buffer + header, data_.data(), data_.size());
  return static_cast<int>(bytes);
}

void DynamicBuffer::WriteToTensor(TfLiteTensor* tensor, TfLiteIntArray* new_shape) {
  char* buffer = nullptr;
  const int bytes = WriteToBuffer(&buffer);
  if (bytes < 0) {
    TfLiteIntArrayFree(new_shape);
    return;
  }
  if (new_shape != nullptr) {
    TfLiteIntArrayFree(tensor->dims);
    tensor->dims = new_shape;
  }
  // String tensors own heap storage (kTfLiteDynamic, freed with free()); the old bytes go.
  if (tensor->allocation_type == kTfLiteDynamic) std::free(tensor->data.raw);
  tensor->data.raw = buffer;
  tensor->bytes = static_cast<size_t>(bytes);
  tensor->allocation_type = kTfLiteDynamic;
}

void DynamicBuffer::WriteToTensorAsVector(TfLiteTensor* tensor) {
  TfLiteIntArray* shape = octet::OrThrow(TfLiteIntArrayCreate(1));
  shape->data[0] = static_cast<int>(offset_.size() - 1);
  WriteToTensor(tensor, shape);
}

int GetStringCount(const void* raw_buffer) {
  return ReadInt32(static_cast<const char*>(raw_buffer));
}

int GetStringCount(const TfLiteTensor* tensor) { return GetStringCount(tensor->data.raw); }

StringRef GetString(const void* raw_buffer, int string_index) {
  const char* base = static_cast<const char*>(raw_buffer);
  const int32_t begin = ReadInt32(base + sizeof(int32_t) * (string_index + 1));
  const int32_t end = ReadInt32(base + sizeof(int32_t) * (string_index + 2));
  return StringRef{base + begin, static_cast<size_t>(end - begin)};
}

StringRef GetString(const TfLiteTensor* tensor, int string_index) {
  return GetString(tensor->data.raw, string_index);
}

}  // namespace tflite
