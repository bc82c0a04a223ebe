// Prepare-time validation and multiplier computation shared by the quantized kernels of
// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED (seed 000 rules, seed 002 arithmetic), and
// the tensor checks and quantized type dispatch those three ops share.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/reference/conv_hybrid.h"
#include "kernels/reference/integer_conv.h"
#include "ops/nn/int4_weights.h"
#include "ops/scratch.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

// The hybrid (int8 weights, float input) convolutions quantize their input each invoke into
// three node temporaries: the int8 image, then one scale and one offset per batch.
TfLiteStatus PrepareHybridScratch(TfLiteContext* context, TfLiteNode* node, NodeScratch* scratch,
                                  int64_t input_elements, int batches);
reference::HybridConvScratch HybridScratchView(TfLiteContext* context, const NodeScratch& scratch);

// The integer state of one weighted op, computed once in prepare.
struct QuantizedWeightsData {
  reference::QuantizedParams params;  // multipliers/shifts point into the vectors below
  std::vector<int32_t> multipliers;   // one per output channel
  std::vector<int> shifts;
};

// Whether an optional tensor is absent or constant (in the model, or computed once in
// prepare, as a DEQUANTIZE of constant weights is): what packing weights at prepare needs.
inline bool IsConstantOrAbsent(const TfLiteTensor* t) {
  return t == nullptr || t->allocation_type == kTfLiteMmapRo ||
         t->allocation_type == kTfLitePersistentRo;
}

// The tensors of a weighted op (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED): input 0,
// weights 1, optional bias 2, output 0, and the kernel family their types select.
struct WeightedOpTensors {
  const TfLiteTensor* input = nullptr;
  const TfLiteTensor* weights = nullptr;
  const TfLiteTensor* bias = nullptr;  // null when absent
  TfLiteTensor* output = nullptr;
  bool quantized = false;  // integer input (IsQuantizedType): the quantized kernel
  bool hybrid = false;     // float input with int8 weights: the hybrid kernel
};

// Prepare-time checks, in this order: 2 or 3 inputs and 1 output; input, weights and output
// present; INT4 weights unpacked into `int4` (an error when null: the op takes none) and
// replaced by their INT8 view; for a float kernel, float32 input, weights (unless hybrid) and
// output. `weights_name` names the weights in messages ("filter", "weights").
TfLiteStatus PrepareWeightedOpTensors(TfLiteContext* context, TfLiteNode* node, const char* op,
                                      const char* weights_name, WeightedOpTensors* tensors,
                                      Int4Weights* int4 = nullptr);

// The bias, if present: float32 for a float kernel, rank 1, `channels` elements
// ("bias has N elements, expected M (<channels_name>)").
TfLiteStatus CheckWeightedOpBias(TfLiteContext* context, const char* op, const TfLiteTensor* bias,
                                 bool quantized, int channels, const char* channels_name);

// Invoke-time: the same tensors (as checked in prepare, INT4 weights as their INT8 view),
// each with its data present.
TfLiteStatus GetWeightedOpTensorsWithData(TfLiteContext* context, TfLiteNode* node, const char* op,
                                          const char* weights_name, WeightedOpTensors* tensors,
                                          Int4Weights* int4 = nullptr);

// The element types of one quantized weighted kernel instantiation.
template <typename AccT, typename InT, typename WeightT, typename BiasT>
struct QuantizedKernelTypes {
  using Acc = AccT;   // accumulator
  using T = InT;      // input and output
  using W = WeightT;  // weights
  using B = BiasT;    // bias
};

// Calls run(QuantizedKernelTypes<...>{}) with the types for `input`'s type: int8 and uint8
// accumulate in int32 with an int32 bias; int16x8 accumulates in int64 with an int32 bias
// when the bias is INT32, else int64.
template <typename Run>
void DispatchQuantizedWeighted(const TfLiteTensor* input, const TfLiteTensor* bias, Run&& run) {
  switch (input->type) {
    case kTfLiteInt8:
      run(QuantizedKernelTypes<int32_t, int8_t, int8_t, int32_t>{});
      break;
    case kTfLiteUInt8:
      run(QuantizedKernelTypes<int32_t, uint8_t, uint8_t, int32_t>{});
      break;
    default:  // int16x8, with an int64 or int32 bias
      if (bias && bias->type == kTfLiteInt32) {
        run(QuantizedKernelTypes<int64_t, int16_t, int8_t, int32_t>{});
      } else {
        run(QuantizedKernelTypes<int64_t, int16_t, int8_t, int64_t>{});
      }
      break;
  }
}

// Checks the type combination (int8/int8/int32/int8, uint8/uint8/int32/uint8 legacy,
// int16/int8/int64-or-int32/int16), the quantization of every tensor (activations per
// tensor, weights symmetric and per-tensor or per-axis along `channel_dim` with `channels`
// scales, bias scale = input·weight scale), and computes per-channel multipliers
// input_scale · weight_scale[c] / output_scale, the offsets and the activation clamp.
TfLiteStatus PrepareQuantizedWeightedOp(TfLiteContext* context, const char* op,
                                        const TfLiteTensor* input, const TfLiteTensor* weights,
                                        const TfLiteTensor* bias, TfLiteTensor* output,
                                        TfLiteFusedActivation activation, int channel_dim,
                                        int channels, QuantizedWeightsData* data);

}  // namespace octet::ops::nn
