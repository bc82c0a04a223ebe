// A MobileNetV2-style int8 network built in code: the architecture of MobileNetV2 (inverted
// residual blocks of 1x1 expansion, 3x3 depthwise and 1x1 projection, residual ADDs, a final
// 1x1 convolution, global average pooling, FULLY_CONNECTED and SOFTMAX), quantized per the
// int8 spec (per-channel weights, int32 bias at input x weight scale), with seeded random
// weights scaled so activations stay in range. Used by `octet demo`, the model-level tests of
// the optimized kernels and the benchmarks; no file or download needed.
#pragma once

#include <cstdint>
#include <vector>

namespace octet::models {

struct MobileNetV2Config {
  int resolution = 224;  // input is [1, resolution, resolution, 3] int8
  float width = 1.0f;    // channel multiplier
  int classes = 1000;
  int blocks_per_stage = -1;  // -1: MobileNetV2's (1, 2, 3, 4, 3, 3, 1); else at most this many
  uint32_t seed = 1;
};

// The .tflite bytes. Outputs: 0 the SOFTMAX probabilities, 1 the logits (both int8).
std::vector<uint8_t> BuildMobileNetV2Int8(const MobileNetV2Config& config);

// Multiply-accumulates of one inference of that network.
int64_t MobileNetV2Macs(const MobileNetV2Config& config);

}  // namespace octet::models
