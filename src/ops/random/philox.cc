#include "ops/random/philox.h"

#include <math.h>

#include <cmath>
#include <cstring>

namespace octet::ops::random {
namespace {

// The multipliers and Weyl key increments of Philox4x32 (from the paper).
constexpr uint32_t kMulA = 0xD2511F53u;
constexpr uint32_t kMulB = 0xCD9E8D57u;
constexpr uint32_t kWeylA = 0x9E3779B9u;
constexpr uint32_t kWeylB = 0xBB67AE85u;

PhiloxBlock Round(const PhiloxBlock& c, const PhiloxKey& k) {
  const uint64_t p0 = static_cast<uint64_t>(kMulA) * c[0];
  const uint64_t p1 = static_cast<uint64_t>(kMulB) * c[2];
  const auto hi = [](uint64_t p) { return static_cast<uint32_t>(p >> 32); };
  const auto lo = [](uint64_t p) { return static_cast<uint32_t>(p); };
  return {hi(p1) ^ c[1] ^ k[0], lo(p1), hi(p0) ^ c[3] ^ k[1], lo(p0)};
}

}  // namespace

PhiloxBlock Philox4x32_10(const PhiloxBlock& counter, const PhiloxKey& key) {
  PhiloxBlock c = counter;
  PhiloxKey k = key;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k[0] += kWeylA;
      k[1] += kWeylB;
    }
    c = Round(c, k);
  }
  return c;
}

PhiloxStream::PhiloxStream(uint64_t seed_lo, uint64_t seed_hi) {
  key_ = {static_cast<uint32_t>(seed_lo), static_cast<uint32_t>(seed_lo >> 32)};
  counter_ = {0, 0, static_cast<uint32_t>(seed_hi), static_cast<uint32_t>(seed_hi >> 32)};
}

PhiloxBlock PhiloxStream::Next() {
  const PhiloxBlock out = Philox4x32_10(counter_, key_);
  // 128-bit increment.
  for (uint32_t& word : counter_) {
    if (++word != 0) break;
  }
  return out;
}

void PhiloxStream::Skip(uint64_t blocks) {
  // TF adds the two halves of `blocks` to words 0 and 1 and propagates a carry out of word 1
  // into words 2..3; a carry out of word 0 is folded into the high half first (which wraps
  // when that half is all ones). Replicated so long skips land where TF's do.
  const uint32_t lo = static_cast<uint32_t>(blocks);
  uint32_t hi = static_cast<uint32_t>(blocks >> 32);
  counter_[0] += lo;
  if (counter_[0] < lo) ++hi;
  counter_[1] += hi;
  if (counter_[1] < hi) {
    if (++counter_[2] == 0) ++counter_[3];
  }
}

float Uint32ToUnitFloat(uint32_t x) {
  const uint32_t bits = (127u << 23) | (x & 0x7FFFFFu);
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f - 1.0f;
}

double Uint64ToUnitDouble(uint32_t hi, uint32_t lo) {
  const uint64_t bits =
      (uint64_t{1023} << 52) | (static_cast<uint64_t>(hi & 0xFFFFFu) << 32) | uint64_t{lo};
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d - 1.0;
}

void BoxMullerFloat(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  // TF keeps u1 away from 0 so log() stays finite, scales by 2*pi in double (M_PI is a
  // double) and rounds once to float; log, sqrt, sin and cos are the float functions.
  constexpr float kEpsilon = 1.0e-7f;
  constexpr double kTwoPi = 2.0 * 3.14159265358979323846;
  float u1 = Uint32ToUnitFloat(x0);
  if (u1 < kEpsilon) u1 = kEpsilon;
  const float v1 = static_cast<float>(kTwoPi * Uint32ToUnitFloat(x1));
  const float radius = std::sqrt(-2.0f * std::log(u1));
#if defined(__linux__) && defined(__GLIBC__)
  sincosf(v1, f0, f1);  // what TF calls on Linux
#else
  *f0 = std::sin(v1);
  *f1 = std::cos(v1);
#endif
  *f0 *= radius;
  *f1 *= radius;
}

}  // namespace octet::ops::random
