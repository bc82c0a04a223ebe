#include "kernels/optimized/pool/qpool.h"

#include <algorithm>
#include <cstddef>
#include <limits>

#include "kernels/optimized/pool/pool_windows.h"

namespace octet::optimized {
namespace {

using reference::PoolKind;

// Channels per pass over a window: the accumulators live on the stack.
constexpr size_t kChannelBlock = 256;

template <PoolKind kKind, typename T>
bool Run(const PoolParams& p, int32_t act_min, int32_t act_max, const Shape& input_shape,
         const T* input, const Shape& output_shape, T* output) {
  const int in_w = input_shape.dim(2);
  const size_t depth = static_cast<size_t>(input_shape.dim(3));
  const int32_t start = kKind == PoolKind::kMax ? std::numeric_limits<T>::lowest() : 0;
  int32_t acc[kChannelBlock];
  return ForEachPoolWindow(
      p, input_shape, output_shape, [&](size_t image, const PoolWindow& w, size_t pixel) {
        T* out = output + pixel * depth;
        const int32_t count = w.cells();
        for (size_t c0 = 0; c0 < depth; c0 += kChannelBlock) {
          const size_t n = std::min(kChannelBlock, depth - c0);
          std::fill(acc, acc + n, start);
          for (int fy = w.fy_begin; fy < w.fy_end; ++fy) {
            for (int fx = w.fx_begin; fx < w.fx_end; ++fx) {
              const T* in = input + image + w.Offset(fy, fx, in_w, depth) + c0;
              for (size_t c = 0; c < n; ++c) {
                const int32_t v = in[c];
                // Sums wrap instead of overflowing (a window over 2^16 int16 cells): the same
                // bits as the reference wherever its sum fits.
                acc[c] = kKind == PoolKind::kMax
                             ? std::max(acc[c], v)
                             : static_cast<int32_t>(static_cast<uint32_t>(acc[c]) +
                                                    static_cast<uint32_t>(v));
              }
            }
          }
          for (size_t c = 0; c < n; ++c) {
            int32_t value = acc[c];
            if (kKind == PoolKind::kAverage) {
              // The reference's rounding: half away from zero, by truncating division.
              value = value > 0 ? (value + count / 2) / count : (value - count / 2) / count;
            }
            out[c0 + c] = static_cast<T>(std::min(std::max(value, act_min), act_max));
          }
        }
      });
}

}  // namespace

template <typename T>
bool QuantizedPool(PoolKind kind, const PoolParams& p, int32_t act_min, int32_t act_max,
                   const Shape& input_shape, const T* input, const Shape& output_shape, T* output) {
  switch (kind) {
    case PoolKind::kAverage:
      return Run<PoolKind::kAverage, T>(p, act_min, act_max, input_shape, input, output_shape,
                                        output);
    case PoolKind::kMax:
      return Run<PoolKind::kMax, T>(p, act_min, act_max, input_shape, input, output_shape, output);
    case PoolKind::kL2:
      return false;  // no quantized L2 pooling (the op refuses it in prepare)
  }
  return false;
}

template bool QuantizedPool<int8_t>(PoolKind, const PoolParams&, int32_t, int32_t, const Shape&,
                                    const int8_t*, const Shape&, int8_t*);
template bool QuantizedPool<uint8_t>(PoolKind, const PoolParams&, int32_t, int32_t, const Shape&,
                                     const uint8_t*, const Shape&, uint8_t*);
template bool QuantizedPool<int16_t>(PoolKind, const PoolParams&, int32_t, int32_t, const Shape&,
                                     const int16_t*, const Shape&, int16_t*);

}  // namespace octet::optimized
