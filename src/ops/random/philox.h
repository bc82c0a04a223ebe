// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011) and
// the stream TensorFlow builds on it (tsl::random::PhiloxRandom): a 128-bit counter and a
// 64-bit key, one block of four uint32 per counter value. Plus TF's conversions of those
// words to uniform floats / doubles and to normal floats (Box-Muller), which RANDOM_UNIFORM,
// RANDOM_STANDARD_NORMAL and MULTINOMIAL use.
#pragma once

#include <array>
#include <cstdint>

namespace octet::ops::random {

using PhiloxBlock = std::array<uint32_t, 4>;
using PhiloxKey = std::array<uint32_t, 2>;

// Ten rounds of the Philox4x32 bijection of `counter` under `key`.
PhiloxBlock Philox4x32_10(const PhiloxBlock& counter, const PhiloxKey& key);

// A Philox stream positioned like TF's PhiloxRandom.
class PhiloxStream {
 public:
  PhiloxStream() = default;
  // seed_lo is the key; seed_hi the upper half of the counter (TF's two-seed constructor).
  PhiloxStream(uint64_t seed_lo, uint64_t seed_hi);

  // The block at the current counter; then the counter advances by one.
  PhiloxBlock Next();
  // Advances the counter by `blocks`, carrying as TF does (word by word).
  void Skip(uint64_t blocks);

  const PhiloxBlock& counter() const { return counter_; }
  const PhiloxKey& key() const { return key_; }

 private:
  PhiloxBlock counter_{};
  PhiloxKey key_{};
};

// 23 random mantissa bits as a float in [0, 1): 1.m - 1.
float Uint32ToUnitFloat(uint32_t x);
// The low 20 bits of hi and all of lo as a double mantissa in [0, 1): 1.m - 1.
double Uint64ToUnitDouble(uint32_t hi, uint32_t lo);
// Two standard normal floats from two words, as TF's BoxMullerFloat computes them.
void BoxMullerFloat(uint32_t x0, uint32_t x1, float* f0, float* f1);

}  // namespace octet::ops::random
