#include "converter/quantize/weight_quant.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "converter/graph.h"
#include "kernels/reference/quantize.h"
#include "quant/choose_params.h"

namespace octet::converter {

void SetQuantization(edit::TensorT& tensor, float scale, int64_t zero_point) {
  tensor.quantization = std::make_unique<edit::QuantizationParametersT>();
  tensor.quantization->scale = {scale};
  tensor.quantization->zero_point = {zero_point};
}

int32_t QuantizeWeights(edit::ModelT& model, edit::SubGraphT& graph, int32_t t, int axis,
                        std::vector<float>* scales) {
  std::vector<float> w;
  if (!ConstantFloats(model, graph, t, &w)) return -1;
  const std::vector<int32_t> shape = graph.tensors[t]->shape;
  if (axis >= static_cast<int>(shape.size()) ||
      ElementCount(shape) != static_cast<int64_t>(w.size())) {
    return -1;
  }
  const int channels = axis < 0 ? 1 : shape[axis];
  int64_t inner = 1;
  for (size_t d = axis + 1; axis >= 0 && d < shape.size(); ++d) inner *= shape[d];
  const auto channel_of = [&](size_t i) {
    return axis < 0 ? 0 : static_cast<int>((i / inner) % channels);
  };
  std::vector<float> max_abs(channels, 0.0f);
  for (size_t i = 0; i < w.size(); ++i) {
    max_abs[channel_of(i)] = std::max(max_abs[channel_of(i)], std::fabs(w[i]));
  }
  scales->resize(channels);
  for (int c = 0; c < channels; ++c) (*scales)[c] = quant::SymmetricScale(max_abs[c], 127);
  std::vector<uint8_t> bytes(w.size());
  for (size_t i = 0; i < w.size(); ++i) {
    bytes[i] = static_cast<uint8_t>(
        static_cast<int8_t>(quant::QuantizeValue(w[i], (*scales)[channel_of(i)], 0, -127, 127)));
  }
  const int32_t q = AddConstantTensor(model, graph, edit::TensorType_INT8, shape, std::move(bytes),
                                      graph.tensors[t]->name);
  auto params = std::make_unique<edit::QuantizationParametersT>();
  params->scale = *scales;
  params->zero_point.assign(channels, 0);
  params->quantized_dimension = std::max(axis, 0);
  graph.tensors[q]->quantization = std::move(params);
  return q;
}

int32_t QuantizeBias(edit::ModelT& model, edit::SubGraphT& graph, int32_t t, float input_scale,
                     const std::vector<float>& weight_scales, bool int64) {
  std::vector<float> b;
  if (!ConstantFloats(model, graph, t, &b) || b.empty()) return -1;
  if (weight_scales.size() != 1 && weight_scales.size() != b.size()) return -1;
  std::vector<float> scales(weight_scales.size());
  for (size_t c = 0; c < scales.size(); ++c) scales[c] = input_scale * weight_scales[c];
  const size_t width = int64 ? 8 : 4;
  std::vector<uint8_t> bytes(b.size() * width);
  for (size_t i = 0; i < b.size(); ++i) {
    const float scale = scales[scales.size() == 1 ? 0 : i];
    if (int64) {
      const double real = std::round(static_cast<double>(b[i]) / scale);
      const int64_t q = static_cast<int64_t>(std::clamp(real, -9.0e18, 9.0e18));
      std::memcpy(&bytes[8 * i], &q, 8);
    } else {
      const int32_t q = quant::QuantizeValue(b[i], scale, 0, -2147483647, 2147483647);
      std::memcpy(&bytes[4 * i], &q, 4);
    }
  }
  const int32_t q =
      AddConstantTensor(model, graph, int64 ? edit::TensorType_INT64 : edit::TensorType_INT32,
                        graph.tensors[t]->shape, std::move(bytes), graph.tensors[t]->name);
  auto params = std::make_unique<edit::QuantizationParametersT>();
  params->scale = scales;
  params->zero_point.assign(scales.size(), 0);
  graph.tensors[q]->quantization = std::move(params);
  return q;
}

int32_t QuantizeConstantAsymmetric(edit::ModelT& model, edit::SubGraphT& graph, int32_t t) {
  std::vector<float> v;
  if (!ConstantFloats(model, graph, t, &v) || v.empty()) return -1;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const quant::AffineParams p = quant::AsymmetricParams(*lo, *hi, -128, 127);
  std::vector<uint8_t> bytes(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    bytes[i] = static_cast<uint8_t>(
        static_cast<int8_t>(quant::QuantizeValue(v[i], p.scale, p.zero_point, -128, 127)));
  }
  const int32_t q = AddConstantTensor(model, graph, edit::TensorType_INT8, graph.tensors[t]->shape,
                                      std::move(bytes), graph.tensors[t]->name);
  SetQuantization(*graph.tensors[q], p.scale, p.zero_point);
  return q;
}

int32_t QuantizeConstantInt16(edit::ModelT& model, edit::SubGraphT& graph, int32_t t) {
  std::vector<float> v;
  if (!ConstantFloats(model, graph, t, &v) || v.empty()) return -1;
  float max_abs = 0;
  for (float x : v) max_abs = std::max(max_abs, std::fabs(x));
  const float scale = quant::SymmetricScale(max_abs, 32767);
  std::vector<uint8_t> bytes(v.size() * 2);
  for (size_t i = 0; i < v.size(); ++i) {
    const int16_t q = static_cast<int16_t>(quant::QuantizeValue(v[i], scale, 0, -32767, 32767));
    std::memcpy(&bytes[2 * i], &q, 2);
  }
  const int32_t q = AddConstantTensor(model, graph, edit::TensorType_INT16, graph.tensors[t]->shape,
                                      std::move(bytes), graph.tensors[t]->name);
  SetQuantization(*graph.tensors[q], scale, 0);
  return q;
}

int DequantizeConstants(edit::ModelT& model) {
  if (model.subgraphs.empty()) return 0;
  edit::SubGraphT& graph = *model.subgraphs[0];
  int changed = 0;
  for (int32_t t = 0; t < static_cast<int32_t>(graph.tensors.size()); ++t) {
    edit::TensorT& tensor = *graph.tensors[t];
    const std::vector<uint8_t>* bytes = ConstantBytes(model, graph, t);
    const auto& q = tensor.quantization;
    if (bytes == nullptr || tensor.type != edit::TensorType_INT8 || q == nullptr ||
        q->scale.empty() || tensor.sparsity != nullptr ||
        ElementCount(tensor.shape) != static_cast<int64_t>(bytes->size())) {
      continue;
    }
    const size_t channels = q->scale.size();
    const int axis = q->quantized_dimension;
    if (channels > 1 && (axis < 0 || axis >= static_cast<int>(tensor.shape.size()) ||
                         static_cast<size_t>(tensor.shape[axis]) != channels)) {
      continue;
    }
    int64_t inner = 1;
    for (size_t d = axis + 1; channels > 1 && d < tensor.shape.size(); ++d)
      inner *= tensor.shape[d];
    std::vector<float> values(bytes->size());
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t c = channels > 1 ? (i / inner) % channels : 0;
      const int64_t zero = c < q->zero_point.size() ? q->zero_point[c] : 0;
      values[i] = q->scale[c] * static_cast<float>(static_cast<int8_t>((*bytes)[i]) - zero);
    }
    tensor.buffer = AddBuffer(model, FloatBytes(values));
    tensor.type = edit::TensorType_FLOAT32;
    tensor.quantization.reset();
    ++changed;
  }
  return changed;
}

int32_t Float16Constant(edit::ModelT& model, edit::SubGraphT& graph, int32_t t) {
  std::vector<float> v;
  if (!ConstantFloats(model, graph, t, &v)) return -1;
  std::vector<uint8_t> bytes(v.size() * 2);
  for (size_t i = 0; i < v.size(); ++i) {
    const uint16_t h = reference::FloatToHalf(v[i]);
    std::memcpy(&bytes[2 * i], &h, 2);
  }
  return AddConstantTensor(model, graph, edit::TensorType_FLOAT16, graph.tensors[t]->shape,
                           std::move(bytes), graph.tensors[t]->name + "/fp16");
}

}  // namespace octet::converter
