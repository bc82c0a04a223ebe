// Helpers of the XNNPACK delegate (built only with OCTET_HAVE_XNNPACK): reading TFLite
// tensors and node parameters the way XNNPACK's subgraph API wants them.
#pragma once

#include <xnnpack.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace octet::xnnpack {

constexpr float kInf = std::numeric_limits<float>::infinity();

const TfLiteTensor* TensorAt(const TfLiteContext* ctx, int index);
int InputIndex(const TfLiteNode& node, int k);
int OutputIndex(const TfLiteNode& node, int k);
std::vector<int> Dims(const TfLiteTensor& t);
size_t NumElements(const std::vector<int>& dims);

// Constant data baked into the model.
bool IsConstant(const TfLiteTensor& t);

// The element type family a node computes in: float32, or 8-bit quantized (int8 / uint8 with
// per-tensor affine parameters).
enum class Numeric { kFloat, kInt8, kUInt8 };

// The family of run-time tensor `index`, if XNNPACK can take it as an activation (known static
// shape, not a variable); false otherwise.
bool ActivationNumeric(const TfLiteContext* ctx, int index, Numeric* numeric);
// A run-time tensor of exactly this family.
bool IsActivation(const TfLiteContext* ctx, int index, Numeric numeric);
// A constant of this family (float32, or int8/uint8 with affine quantization).
bool IsConstantOf(const TfLiteContext* ctx, int index, Numeric numeric);
// A float32 constant.
bool IsFloatConstant(const TfLiteContext* ctx, int index);

// Reads a constant int32/int64 tensor as integers.
bool ReadConstantInts(const TfLiteContext* ctx, int index, std::vector<int64_t>* out);

// The clamp range of a fused activation in real values (XNNPACK quantizes it for 8-bit ops).
bool ActivationRange(TfLiteFusedActivation activation, float* lo, float* hi);

// TFLite's SAME/VALID arithmetic for one spatial dimension, as explicit padding.
struct Window {
  int out = 0;
  uint32_t before = 0, after = 0;
};
bool ComputeWindow(TfLitePadding padding, int in, int kernel, int stride, int dilation, Window* w);

// Numpy broadcasting of two shapes.
bool BroadcastShape(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>* out);

}  // namespace octet::xnnpack
