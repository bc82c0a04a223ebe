// Prepare-time packing of quantized depthwise weights for a QDwKernel: int16 (w + offset) in
// tap pairs, or int8 quads for row kernels (QDwOrder::kRowQuads), with the folded bias and
// requantization arrays in the kernel's channel order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qdw/qdw.h"
#include "kernels/optimized/qgemm/qgemm_pack.h"

namespace octet::optimized {

// Depthwise weights and their quantization (per channel).
struct QDwWeightsDesc : QuantizationDesc {
  const uint8_t* weights = nullptr;  // [ks][channels] int8 or uint8 bytes (TFLite [1,KH,KW,C])
  int channels = 0;
  int ks = 1;
};

struct QDwPacked {
  const QDwKernel* kernel = nullptr;
  const void* weights = nullptr;
  int channels = 0;
  int ks = 1;
  bool input_signed = true;
  QGemmRequant rq{};
};

size_t QDwPackedSize(const QDwKernel& kernel, int channels, int ks);

QDwPacked QDwPack(const QDwKernel& kernel, const QDwWeightsDesc& desc, void* buffer);

}  // namespace octet::optimized
