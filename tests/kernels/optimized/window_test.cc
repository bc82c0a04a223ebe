// InteriorRange (the optimized drivers' split of a sliding window's outputs into those that
// read only real input and those that read padding) against a tap-by-tap check.
#include "kernels/optimized/window.h"

#include <gtest/gtest.h>

#include <random>

namespace octet::optimized {
namespace {

TEST(InteriorRange, HoldsExactlyTheOutputsWhoseTapsAreAllInside) {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 20000; ++trial) {
    const int in = 1 + static_cast<int>(rng() % 20);
    const int kernel = 1 + static_cast<int>(rng() % 7);
    const int stride = 1 + static_cast<int>(rng() % 3);
    const int dilation = 1 + static_cast<int>(rng() % 3);
    const int pad = static_cast<int>(rng() % 8);
    const int out = 1 + static_cast<int>(rng() % 24);
    int begin = -1, end = -1;
    InteriorRange(in, out, kernel, stride, dilation, pad, &begin, &end);
    ASSERT_LE(0, begin);
    ASSERT_LE(begin, end);
    ASSERT_LE(end, out);
    for (int o = 0; o < out; ++o) {
      bool inside = true;
      for (int t = 0; t < kernel; ++t) {
        const int x = o * stride - pad + t * dilation;
        inside = inside && x >= 0 && x < in;
      }
      ASSERT_EQ(inside, o >= begin && o < end)
          << "in " << in << " out " << out << " kernel " << kernel << " stride " << stride
          << " dilation " << dilation << " pad " << pad << " output " << o;
    }
  }
}

}  // namespace
}  // namespace octet::optimized
