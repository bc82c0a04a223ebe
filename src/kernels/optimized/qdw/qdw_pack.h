// Prepare-time packing of quantized depthwise weights for a QDwKernel: int16 (w + offset) in
// tap pairs, folded bias and requantization arrays in the kernel's channel order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/optimized/qdw/qdw.h"

namespace octet::optimized {

struct QDwWeightsDesc {
  const uint8_t* weights = nullptr;  // [ks][channels] int8 or uint8 bytes (TFLite [1,KH,KW,C])
  int channels = 0;
  int ks = 1;
  bool input_signed = true;
  const int32_t* bias = nullptr;  // [channels] or nullptr
  int32_t input_offset = 0;
  int32_t filter_offset = 0;
  const int32_t* multiplier = nullptr;  // [channels]
  const int* shift = nullptr;
  int32_t output_zero_point = 0;
  int32_t act_min = -128;
  int32_t act_max = 127;
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
