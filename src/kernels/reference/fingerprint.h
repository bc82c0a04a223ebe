// FarmHash's 64-bit fingerprint (farmhash::Fingerprint64, which is the "na" variant of
// Hash64), written from the published algorithm. LSH_PROJECTION hashes its keys with it, so
// the bits must be exactly FarmHash's: bytes are read little-endian (as TFLite does on the
// little-endian machines it pins its expected outputs on) and all arithmetic wraps mod 2^64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace octet::reference {
namespace farmhash_detail {

constexpr uint64_t kK0 = 0xc3a5c85c97cb3127ULL;
constexpr uint64_t kK1 = 0xb492b66fbe98f273ULL;
constexpr uint64_t kK2 = 0x9ae16a3b2f90404fULL;
constexpr uint64_t kMul128 = 0x9ddfea08eb382d69ULL;

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

inline uint64_t Load32(const uint8_t* p) {
  return uint64_t{p[0]} | (uint64_t{p[1]} << 8) | (uint64_t{p[2]} << 16) | (uint64_t{p[3]} << 24);
}

inline uint64_t Rot(uint64_t v, int shift) {
  return shift == 0 ? v : ((v >> shift) | (v << (64 - shift)));
}

inline uint64_t Mix47(uint64_t v) { return v ^ (v >> 47); }

inline uint64_t Combine(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

inline uint64_t Upto16(const uint8_t* s, size_t len) {
  if (len >= 8) {
    const uint64_t mul = kK2 + len * 2;
    const uint64_t a = Load64(s) + kK2;
    const uint64_t b = Load64(s + len - 8);
    const uint64_t c = Rot(b, 37) * mul + a;
    const uint64_t d = (Rot(a, 25) + b) * mul;
    return Combine(c, d, mul);
  }
  if (len >= 4) {
    const uint64_t mul = kK2 + len * 2;
    const uint64_t a = Load32(s);
    return Combine(len + (a << 3), Load32(s + len - 4), mul);
  }
  if (len > 0) {
    const uint32_t y = uint32_t{s[0]} + (uint32_t{s[len >> 1]} << 8);
    const uint32_t z = static_cast<uint32_t>(len) + (uint32_t{s[len - 1]} << 2);
    return Mix47(y * kK2 ^ z * kK0) * kK2;
  }
  return kK2;
}

inline uint64_t Upto32(const uint8_t* s, size_t len) {
  const uint64_t mul = kK2 + len * 2;
  const uint64_t a = Load64(s) * kK1;
  const uint64_t b = Load64(s + 8);
  const uint64_t c = Load64(s + len - 8) * mul;
  const uint64_t d = Load64(s + len - 16) * kK2;
  return Combine(Rot(a + b, 43) + Rot(c, 30) + d, a + Rot(b + kK2, 18) + c, mul);
}

inline uint64_t Upto64(const uint8_t* s, size_t len) {
  const uint64_t mul = kK2 + len * 2;
  const uint64_t a = Load64(s) * kK2;
  const uint64_t b = Load64(s + 8);
  const uint64_t c = Load64(s + len - 8) * mul;
  const uint64_t d = Load64(s + len - 16) * kK2;
  const uint64_t y = Rot(a + b, 43) + Rot(c, 30) + d;
  const uint64_t z = Combine(y, a + Rot(b + kK2, 18) + c, mul);
  const uint64_t e = Load64(s + 16) * mul;
  const uint64_t f = Load64(s + 24);
  const uint64_t g = (y + Load64(s + len - 32)) * mul;
  const uint64_t h = (z + Load64(s + len - 24)) * mul;
  return Combine(Rot(e + f, 43) + Rot(g, 30) + h, e + Rot(f + a, 18) + g, mul);
}

// The 32-byte mixing step of the long-input loop, seeded with (a, b).
inline std::pair<uint64_t, uint64_t> Weak32(const uint8_t* s, uint64_t a, uint64_t b) {
  const uint64_t w = Load64(s), x = Load64(s + 8), y = Load64(s + 16), z = Load64(s + 24);
  a += w;
  b = Rot(b + a + z, 21);
  const uint64_t c = a;
  a += x;
  a += y;
  b += Rot(a, 44);
  return {a + z, b + c};
}

// Over 64 bytes: 64-byte blocks through a 56-byte state, then the last 64 bytes.
inline uint64_t Long(const uint8_t* s, size_t len) {
  constexpr uint64_t kSeed = 81;
  uint64_t x = kSeed;
  uint64_t y = kSeed * kK1 + 113;
  uint64_t z = Mix47(y * kK2 + 113) * kK2;
  std::pair<uint64_t, uint64_t> v{0, 0}, w{0, 0};
  x = x * kK2 + Load64(s);
  const uint8_t* end = s + ((len - 1) / 64) * 64;
  const uint8_t* last64 = s + len - 64;
  do {
    x = Rot(x + y + v.first + Load64(s + 8), 37) * kK1;
    y = Rot(y + v.second + Load64(s + 48), 42) * kK1;
    x ^= w.second;
    y += v.first + Load64(s + 40);
    z = Rot(z + w.first, 33) * kK1;
    v = Weak32(s, v.second * kK1, x + w.first);
    w = Weak32(s + 32, z + w.second, y + Load64(s + 16));
    std::swap(z, x);
    s += 64;
  } while (s != end);
  const uint64_t mul = kK1 + ((z & 0xff) << 1);
  s = last64;
  w.first += (len - 1) & 63;
  v.first += w.first;
  w.first += v.first;
  x = Rot(x + y + v.first + Load64(s + 8), 37) * mul;
  y = Rot(y + v.second + Load64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + Load64(s + 40);
  z = Rot(z + w.first, 33) * mul;
  v = Weak32(s, v.second * mul, x + w.first);
  w = Weak32(s + 32, z + w.second, y + Load64(s + 16));
  std::swap(z, x);
  return Combine(Combine(v.first, w.first, mul) + Mix47(y) * kK0 + z,
                 Combine(v.second, w.second, mul) + x, mul);
}

}  // namespace farmhash_detail

// farmhash::Fingerprint64(data, len).
inline uint64_t Fingerprint64(const void* data, size_t len) {
  namespace d = farmhash_detail;
  const auto* s = static_cast<const uint8_t*>(data);
  if (len <= 16) return d::Upto16(s, len);
  if (len <= 32) return d::Upto32(s, len);
  if (len <= 64) return d::Upto64(s, len);
  return d::Long(s, len);
}

}  // namespace octet::reference
