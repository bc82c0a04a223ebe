// The plain parameter types the kernels take (reference and optimized alike), neutral of any
// TfLite type and of any kernel code: op glue fills them in prepare, kernels read them.
#pragma once

#include <cstdint>
#include <limits>

namespace octet {

// The float activation clamp every float kernel applies last.
struct FloatActivation {
  float act_min = std::numeric_limits<float>::lowest();
  float act_max = std::numeric_limits<float>::max();
};

// CONV_2D geometry and the float activation clamp.
struct ConvParams : FloatActivation {
  int stride_height = 1;
  int stride_width = 1;
  int dilation_height = 1;
  int dilation_width = 1;
  int pad_height = 0;
  int pad_width = 0;
};

// DEPTHWISE_CONV_2D geometry and the float activation clamp.
struct DepthwiseParams : ConvParams {
  int depth_multiplier = 1;
};

// Integer parameters of the quantized CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED kernels.
// multipliers/shifts hold one entry per output channel (per-tensor quantization repeats the
// single value).
struct QuantizedParams {
  int32_t input_offset = 0;   // −input zero point
  int32_t filter_offset = 0;  // −filter zero point (legacy uint8 only)
  int32_t output_offset = 0;  // output zero point
  int32_t act_min = 0;
  int32_t act_max = 0;
  const int32_t* multipliers = nullptr;
  const int* shifts = nullptr;
};

struct FullyConnectedParams : FloatActivation {};

struct TransposeConvParams : FloatActivation {
  int stride_height = 1;
  int stride_width = 1;
  int pad_height = 0;
  int pad_width = 0;
};

// AVERAGE/MAX/L2_POOL_2D window and the float activation clamp.
struct PoolParams : FloatActivation {
  int stride_height = 1;
  int stride_width = 1;
  int filter_height = 1;
  int filter_width = 1;
  int pad_height = 0;
  int pad_width = 0;
};

struct ResizeParams {
  bool align_corners = false;
  bool half_pixel_centers = false;
};

struct LrnParams {
  int radius = 5;
  float bias = 1.f;
  float alpha = 1.f;
  float beta = 0.5f;
};

}  // namespace octet
