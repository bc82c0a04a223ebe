// Constant tensors quantized for the int8 spec: symmetric int8 weights (per tensor or per
// channel), int32 bias at scale s_in * s_w, asymmetric int8 constants for element-wise
// operands, and float16 constants.
#ifndef OCTET_CONVERTER_QUANTIZE_WEIGHT_QUANT_H_
#define OCTET_CONVERTER_QUANTIZE_WEIGHT_QUANT_H_

#include <vector>

#include "edit_schema_generated.h"

namespace octet::converter {

// A new INT8 constant from float constant `t` (symmetric, zero point 0, codes in
// [-127, 127]); per channel along `axis`, or per tensor when axis < 0. Returns its index and
// its scales, or -1.
int32_t QuantizeWeights(edit::ModelT& model, edit::SubGraphT& graph, int32_t t, int axis,
                        std::vector<float>* scales);

// A new INT32 (or, for 16x8, INT64) bias from float constant `t`: per channel scale
// input_scale * weight_scale[c].
int32_t QuantizeBias(edit::ModelT& model, edit::SubGraphT& graph, int32_t t, float input_scale,
                     const std::vector<float>& weight_scales, bool int64 = false);

// A new INT8 constant from float constant `t`, asymmetric over its own range (an operand of
// ADD / MUL / CONCATENATION that the model keeps constant).
int32_t QuantizeConstantAsymmetric(edit::ModelT& model, edit::SubGraphT& graph, int32_t t);
// The same for 16x8: INT16, symmetric (zero point 0) over the constant's largest magnitude.
int32_t QuantizeConstantInt16(edit::ModelT& model, edit::SubGraphT& graph, int32_t t);

// A new FLOAT16 constant with the values of float constant `t`.
int32_t Float16Constant(edit::ModelT& model, edit::SubGraphT& graph, int32_t t);

// Turns every quantized INT8 constant of subgraph 0 (a dynamic-range model's weights) back
// into float32 (scale * (q - zero_point), per channel where it is per-axis), so the model can
// be quantized afresh. Returns how many tensors changed.
int DequantizeConstants(edit::ModelT& model);

// Sets per-tensor quantization on a tensor.
void SetQuantization(edit::TensorT& tensor, float scale, int64_t zero_point);

}  // namespace octet::converter

#endif  // OCTET_CONVERTER_QUANTIZE_WEIGHT_QUANT_H_
