// The byte layout fuzz_model reads, shared with the seed corpus writer:
//
//   [4 bytes: model length L, little-endian] [L bytes: .tflite model] [the rest: input bytes]
//
// L larger than what follows means "everything after the prefix is the model". The input
// bytes fill the model's input tensors in order, each tensor's bytes in turn (zeros once they
// run out). Float32 inputs take one byte per element, so the data can choose the values that
// break kernels: 0 NaN, 1 +Inf, 2 -Inf, 3 a denormal, 4 FLT_MAX, 5 -FLT_MAX, 6 -0.0, 7 FLT_MIN,
// anything else (b - 128) / 16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace octet::fuzz {

struct FuzzParts {
  const uint8_t* model = nullptr;
  size_t model_size = 0;
  const uint8_t* input = nullptr;
  size_t input_size = 0;
};

inline FuzzParts SplitFuzzInput(const uint8_t* data, size_t size) {
  FuzzParts p;
  if (size < 4) return p;
  const size_t declared =
      size_t{data[0]} | size_t{data[1]} << 8 | size_t{data[2]} << 16 | size_t{data[3]} << 24;
  p.model = data + 4;
  p.model_size = declared < size - 4 ? declared : size - 4;
  p.input = p.model + p.model_size;
  p.input_size = size - 4 - p.model_size;
  return p;
}

// The inverse of SplitFuzzInput, for writing seeds.
inline std::vector<uint8_t> JoinFuzzInput(const std::vector<uint8_t>& model,
                                          const std::vector<uint8_t>& input) {
  const size_t n = model.size();
  std::vector<uint8_t> out = {static_cast<uint8_t>(n), static_cast<uint8_t>(n >> 8),
                              static_cast<uint8_t>(n >> 16), static_cast<uint8_t>(n >> 24)};
  out.insert(out.end(), model.begin(), model.end());
  out.insert(out.end(), input.begin(), input.end());
  return out;
}

inline float FloatFromByte(uint8_t b) {
  switch (b) {
    case 0:
      return std::numeric_limits<float>::quiet_NaN();
    case 1:
      return std::numeric_limits<float>::infinity();
    case 2:
      return -std::numeric_limits<float>::infinity();
    case 3:
      return std::numeric_limits<float>::denorm_min() * 1000.f;
    case 4:
      return std::numeric_limits<float>::max();
    case 5:
      return -std::numeric_limits<float>::max();
    case 6:
      return -0.f;
    case 7:
      return std::numeric_limits<float>::min();
    default:
      return static_cast<float>(int{b} - 128) / 16.f;
  }
}

// Reads the input part front to back.
class InputStream {
 public:
  InputStream(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  void Fill(void* dst, size_t bytes) {
    const size_t n = bytes < size_ - pos_ ? bytes : size_ - pos_;
    if (n > 0) std::memcpy(dst, data_ + pos_, n);
    std::memset(static_cast<uint8_t*>(dst) + n, 0, bytes - n);
    pos_ += n;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace octet::fuzz
