// The portable QUANTIZE / DEQUANTIZE: the reference functions themselves.
#include "kernels/optimized/qconvert/qconvert.h"
#include "kernels/reference/quantize.h"

namespace octet::optimized {
namespace {

void Quantize(const float* in, size_t n, float scale, int32_t zero_point, bool is_signed,
              uint8_t* out) {
  if (is_signed) {
    reference::AffineQuantize(in, static_cast<int64_t>(n), scale, zero_point,
                              reinterpret_cast<int8_t*>(out));
  } else {
    reference::AffineQuantize(in, static_cast<int64_t>(n), scale, zero_point, out);
  }
}

void Dequantize(const uint8_t* in, size_t n, float scale, int32_t zero_point, bool is_signed,
                float* out) {
  if (is_signed) {
    reference::Dequantize(reinterpret_cast<const int8_t*>(in), static_cast<int64_t>(n), scale,
                          zero_point, out);
  } else {
    reference::Dequantize(in, static_cast<int64_t>(n), scale, zero_point, out);
  }
}

}  // namespace

const QConvertKernel kQConvertScalar = {"qconvert_scalar", &Quantize, &Dequantize};

}  // namespace octet::optimized
