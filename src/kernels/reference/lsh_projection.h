// LSH_PROJECTION as TFLite computes it. Each seed (one float of the [num_hash, num_bits]
// hash tensor) gives one bit: the sign of Σ_i weight_i * double(int64(Fingerprint64(seed
// bytes ++ input item i bytes))) over the input's items (its slices along dimension 0),
// with weight 1 when there is no weight tensor. Dense output: one 0/1 per seed. Sparse
// output: per hash function the bits packed MSB-first, plus hash_index << num_bits so that
// the functions do not collide.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/reference/fingerprint.h"

namespace octet::reference {

struct LshShape {
  int num_hash = 0;
  int num_bits = 0;
  int64_t items = 0;       // input dimension 0
  int64_t item_bytes = 0;  // bytes of one item
};

// `key` has room for 4 + item_bytes bytes.
inline int LshSignBit(const LshShape& s, float seed, const uint8_t* input, const float* weights,
                      uint8_t* key) {
  double score = 0.0;
  std::memcpy(key, &seed, sizeof(float));
  const size_t key_bytes = sizeof(float) + static_cast<size_t>(s.item_bytes);
  for (int64_t i = 0; i < s.items; ++i) {
    if (s.item_bytes > 0) {
      std::memcpy(key + sizeof(float), input + i * s.item_bytes, static_cast<size_t>(s.item_bytes));
    }
    const auto hash = static_cast<int64_t>(Fingerprint64(key, key_bytes));
    const double value = static_cast<double>(hash);
    score += weights == nullptr ? value : weights[i] * value;
  }
  return score > 0 ? 1 : 0;
}

// num_hash * num_bits outputs of 0 or 1.
inline void LshProjectionDense(const LshShape& s, const float* seeds, const uint8_t* input,
                               const float* weights, int32_t* out) {
  std::vector<uint8_t> key(sizeof(float) + static_cast<size_t>(s.item_bytes));
  for (int64_t k = 0; k < int64_t{s.num_hash} * s.num_bits; ++k) {
    out[k] = LshSignBit(s, seeds[k], input, weights, key.data());
  }
}

// num_hash outputs; the sum wraps to int32 (only reachable when num_hash << num_bits
// exceeds 2^31, where TFLite's int arithmetic would overflow).
inline void LshProjectionSparse(const LshShape& s, const float* seeds, const uint8_t* input,
                                const float* weights, int32_t* out) {
  std::vector<uint8_t> key(sizeof(float) + static_cast<size_t>(s.item_bytes));
  for (int h = 0; h < s.num_hash; ++h) {
    uint64_t signature = 0;
    for (int b = 0; b < s.num_bits; ++b) {
      const int bit = LshSignBit(s, seeds[int64_t{h} * s.num_bits + b], input, weights, key.data());
      signature = (signature << 1) | static_cast<uint64_t>(bit);
    }
    const uint64_t offset = static_cast<uint64_t>(h) << s.num_bits;
    out[h] = static_cast<int32_t>(static_cast<uint32_t>(signature + offset));
  }
}

}  // namespace octet::reference
