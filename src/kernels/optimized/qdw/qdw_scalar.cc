// The portable depthwise micro-kernel: natural channel order, plain loops, the same packed
// weights layout as the SIMD kernels (int16 tap pairs per block of 8 channels).
#include <algorithm>
#include <cstdint>

#include "kernels/optimized/qdw/qdw.h"
#include "quant/quantization_util.h"

namespace octet::optimized {
namespace {

constexpr int kBlock = 8;

void RunScalar(const QDwTile& t) {
  const int pairs = (t.ks + 1) / 2;
  const auto* weights = static_cast<const int16_t*>(t.w);
  for (int pixel = 0; pixel < t.pixels; ++pixel) {
    uint8_t* out = t.c32                   ? nullptr
                   : t.c_pixels != nullptr ? t.c_pixels[pixel]
                                           : t.c + static_cast<size_t>(pixel) * t.c_pixel_stride;
    for (int c = 0; c < t.channels; ++c) {
      const int16_t* w =
          weights + static_cast<size_t>(c - c % kBlock) * pairs * 2 + (c % kBlock) * 2;
      uint32_t acc = static_cast<uint32_t>(t.rq.bias[c]);  // modulo 2^32, as the SIMD kernels
      for (int tap = 0; tap < t.ks; ++tap) {
        const uint8_t* p =
            t.tap_offsets ? t.base + static_cast<size_t>(pixel) * t.pixel_step + t.tap_offsets[tap]
                          : t.a[static_cast<size_t>(pixel) * t.ks + tap];
        const uint8_t raw = p[c];
        const int32_t x = t.input_signed ? static_cast<int8_t>(raw) : static_cast<int32_t>(raw);
        acc += static_cast<uint32_t>(w[(tap / 2) * kBlock * 2 + tap % 2] * x);
      }
      if (t.c32 != nullptr) {
        t.c32[static_cast<size_t>(pixel) * t.c_pixel_stride + c] = static_cast<int32_t>(acc);
        continue;
      }
      const int32_t scaled = quant::MultiplyByQuantizedMultiplier(
          static_cast<int32_t>(acc), t.rq.multiplier[c], t.rq.shift[c]);
      const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(scaled) +
                                                   static_cast<uint32_t>(t.rq.output_zero_point));
      out[c] = static_cast<uint8_t>(std::min(std::max(shifted, t.rq.act_min), t.rq.act_max));
    }
  }
}

}  // namespace

const QDwKernel kQDwScalar = {"qdw_scalar", kBlock, QDwOrder::kNatural, false, &RunScalar, true};

}  // namespace octet::optimized
