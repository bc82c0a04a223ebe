// InteriorRange (the optimized drivers' split of a sliding window's outputs into those that
// read only real input and those that read padding) against a tap-by-tap check, and the
// padded copy of pad_image.h (its window, border count and contents).
#include "kernels/optimized/window.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/optimized/pad_image.h"

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

Window2D RandomWindow(std::mt19937& rng) {
  Window2D s;
  s.batches = 1 + static_cast<int>(rng() % 2);
  s.in_h = 1 + static_cast<int>(rng() % 9);
  s.in_w = 1 + static_cast<int>(rng() % 9);
  s.in_c = 1 + static_cast<int>(rng() % 3);
  s.kernel_h = 1 + static_cast<int>(rng() % 4);
  s.kernel_w = 1 + static_cast<int>(rng() % 4);
  s.stride_h = 1 + static_cast<int>(rng() % 2);
  s.stride_w = 1 + static_cast<int>(rng() % 2);
  s.dilation_h = 1 + static_cast<int>(rng() % 2);
  s.dilation_w = 1 + static_cast<int>(rng() % 2);
  s.pad_h = static_cast<int>(rng() % 3);
  s.pad_w = static_cast<int>(rng() % 3);
  s.out_h = 1 + static_cast<int>(rng() % 6);
  s.out_w = 1 + static_cast<int>(rng() % 6);
  return s;
}

// Every tap of every output, read through the padded copy at (oy * stride + f * dilation),
// finds what the original reads at (oy * stride - pad + f * dilation): the input value, or
// the fill where that lies outside the image; BorderPixels counts the outputs with a tap
// outside.
TEST(PadImage, CopyReadsAsThePaddedOriginal) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 3000; ++trial) {
    const Window2D s = RandomWindow(rng);
    const Window2D p = PaddedWindow(s);
    ASSERT_EQ(0, p.pad_h);
    ASSERT_EQ(0, p.pad_w);
    std::vector<int> input(static_cast<size_t>(s.batches) * s.in_h * s.in_w * s.in_c);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<int>(i) + 1;
    std::vector<int> padded(PaddedImageElements(s), -7);
    ThreadPool pool(2);
    PadImage(s, input.data(), 0, padded.data(), &pool);
    int64_t border = 0;
    for (int b = 0; b < s.batches; ++b)
      for (int oy = 0; oy < s.out_h; ++oy)
        for (int ox = 0; ox < s.out_w; ++ox) {
          bool outside = false;
          for (int fy = 0; fy < s.kernel_h; ++fy)
            for (int fx = 0; fx < s.kernel_w; ++fx) {
              const int py = oy * s.stride_h + fy * s.dilation_h;
              const int px = ox * s.stride_w + fx * s.dilation_w;
              ASSERT_LT(py, p.in_h);
              ASSERT_LT(px, p.in_w);
              const int iy = py - s.pad_h, ix = px - s.pad_w;
              const bool inside = iy >= 0 && iy < s.in_h && ix >= 0 && ix < s.in_w;
              outside = outside || !inside;
              for (int c = 0; c < s.in_c; ++c) {
                const int got =
                    padded[((static_cast<size_t>(b) * p.in_h + py) * p.in_w + px) * s.in_c + c];
                const int want =
                    inside
                        ? input[((static_cast<size_t>(b) * s.in_h + iy) * s.in_w + ix) * s.in_c + c]
                        : 0;
                ASSERT_EQ(want, got) << "trial " << trial;
              }
            }
          if (b == 0) border += outside;
        }
    ASSERT_EQ(border, BorderPixels(s)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace octet::optimized
