#include "kernels/optimized/fgemm/col2im.h"

#include <algorithm>
#include <cstddef>

namespace octet::optimized {

void Col2ImAdd(const Window2D& s, int out_c, const float* columns, const float* bias,
               FloatClamp clamp, float* output) {
  const size_t channels = static_cast<size_t>(out_c);
  const size_t out_pixels = static_cast<size_t>(s.batches) * s.out_h * s.out_w;
  for (size_t p = 0; p < out_pixels; ++p) {
    float* out = output + p * channels;
    for (size_t c = 0; c < channels; ++c) out[c] = 0.f;
  }
  const size_t taps = static_cast<size_t>(s.kernel_h) * s.kernel_w;
  const float* column = columns;
  for (int b = 0; b < s.batches; ++b) {
    float* image = output + static_cast<size_t>(b) * s.out_h * s.out_w * channels;
    for (int iy = 0; iy < s.in_h; ++iy) {
      for (int ix = 0; ix < s.in_w; ++ix, column += taps * channels) {
        for (int ky = 0; ky < s.kernel_h; ++ky) {
          const int oy = iy * s.stride_h - s.pad_h + ky;
          if (oy < 0 || oy >= s.out_h) continue;
          for (int kx = 0; kx < s.kernel_w; ++kx) {
            const int ox = ix * s.stride_w - s.pad_w + kx;
            if (ox < 0 || ox >= s.out_w) continue;
            const float* from = column + (static_cast<size_t>(ky) * s.kernel_w + kx) * channels;
            float* to = image + (static_cast<size_t>(oy) * s.out_w + ox) * channels;
            for (size_t c = 0; c < channels; ++c) to[c] += from[c];
          }
        }
      }
    }
  }
  for (size_t p = 0; p < out_pixels; ++p) {
    float* out = output + p * channels;
    for (size_t c = 0; c < channels; ++c) {
      const float v = bias ? out[c] + bias[c] : out[c];
      out[c] = std::min(std::max(v, clamp.min), clamp.max);
    }
  }
}

}  // namespace octet::optimized
