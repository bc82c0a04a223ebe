// Goldens written as hex: the little-endian bytes of a tensor, two digits per byte, as the
// TFLite oracle script prints an output (tests keep TFLite's bits, not the oracle).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace octet::testing {

// The values of type T (1, 2 or 4 bytes) that `hex` spells, little-endian.
template <typename T = uint8_t>
std::vector<T> FromHex(const std::string& hex) {
  static_assert(sizeof(T) <= 4, "up to 32-bit values");
  std::vector<T> v(hex.size() / (2 * sizeof(T)));
  for (size_t i = 0; i < v.size(); ++i) {
    uint32_t bits = 0;
    for (size_t b = 0; b < sizeof(T); ++b) {
      const std::string byte = hex.substr(2 * (i * sizeof(T) + b), 2);
      bits |= static_cast<uint32_t>(std::strtoul(byte.c_str(), nullptr, 16)) << (8 * b);
    }
    v[i] = static_cast<T>(bits);
  }
  return v;
}

// Every uint8 value, 0 to 255.
inline std::vector<uint8_t> EveryByte() {
  std::vector<uint8_t> v(256);
  for (int i = 0; i < 256; ++i) v[i] = static_cast<uint8_t>(i);
  return v;
}

}  // namespace octet::testing
