#include "delegates/xnnpack/xnnpack_builder.h"

#include <algorithm>
#include <cstring>

#include "delegates/xnnpack/xnnpack_util.h"

namespace octet::xnnpack {
namespace {

const TfLiteAffineQuantization* Affine(const TfLiteTensor& t) {
  if (t.quantization.type != kTfLiteAffineQuantization) return nullptr;
  return static_cast<const TfLiteAffineQuantization*>(t.quantization.params);
}

bool Ok(xnn_status status) { return status == xnn_status_success; }

}  // namespace

uint8_t* Builder::Own(size_t bytes) {
  owned_->push_back(std::make_unique<uint8_t[]>(bytes));
  std::memset(owned_->back().get(), 0, bytes);
  return owned_->back().get();
}

bool Builder::Tensor(int tensor, uint32_t* id) {
  if (auto it = ids_.find(tensor); it != ids_.end()) {
    *id = it->second;
    return true;
  }
  const TfLiteTensor* t = TensorAt(ctx_, tensor);
  if (t == nullptr || t->dims == nullptr) return false;
  std::vector<size_t> dims(t->dims->data, t->dims->data + t->dims->size);
  if (dims.empty()) dims.push_back(1);  // scalars as [1]: same bytes, broadcast alike
  const void* data = IsConstant(*t) ? t->data.raw : nullptr;
  uint32_t external_id = XNN_INVALID_VALUE_ID, flags = 0;
  if (data == nullptr && externals_ != nullptr) {
    if (auto e = externals_->find(tensor); e != externals_->end()) {
      external_id = e->second.id;
      flags = e->second.flags;
    }
  }
  xnn_status status = xnn_status_invalid_parameter;
  if (t->type == kTfLiteFloat32) {
    status = xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(), data,
                                     external_id, flags, id);
  } else if (const TfLiteAffineQuantization* q = Affine(*t);
             q != nullptr && q->scale != nullptr && q->scale->size >= 1) {
    if (q->scale->size == 1 && q->zero_point != nullptr && q->zero_point->size >= 1) {
      xnn_datatype type = xnn_datatype_invalid;
      if (t->type == kTfLiteInt8) type = xnn_datatype_qint8;
      if (t->type == kTfLiteUInt8) type = xnn_datatype_quint8;
      if (t->type == kTfLiteInt32) type = xnn_datatype_qint32;
      if (type == xnn_datatype_invalid) return false;
      status = xnn_define_quantized_tensor_value(subgraph_, type, q->zero_point->data[0],
                                                 q->scale->data[0], dims.size(), dims.data(), data,
                                                 external_id, flags, id);
    } else if (data != nullptr && (t->type == kTfLiteInt8 || t->type == kTfLiteInt32) &&
               q->quantized_dimension >= 0 &&
               static_cast<size_t>(q->quantized_dimension) < dims.size() &&
               dims[q->quantized_dimension] == static_cast<size_t>(q->scale->size)) {
      // Per-channel constants (weights, bias). XNNPACK keeps the scale pointer: the model's
      // quantization arrays live as long as the interpreter that owns this kernel.
      status = xnn_define_channelwise_quantized_tensor_value(
          subgraph_, t->type == kTfLiteInt8 ? xnn_datatype_qcint8 : xnn_datatype_qcint32,
          q->scale->data, dims.size(), static_cast<size_t>(q->quantized_dimension), dims.data(),
          data, external_id, flags, id);
    }
  }
  if (!Ok(status)) return false;
  ids_[tensor] = *id;
  return true;
}

bool Builder::OwnedFloatConstant(const std::vector<float>& values, const std::vector<size_t>& dims,
                                 uint32_t* id) {
  uint8_t* data = Own(values.size() * sizeof(float));
  std::memcpy(data, values.data(), values.size() * sizeof(float));
  return Ok(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(), data,
                                    XNN_INVALID_VALUE_ID, 0, id));
}

bool Builder::OwnedZeroBias(int input, int filter, int channels, uint32_t* id) {
  const TfLiteTensor* in = TensorAt(ctx_, input);
  const TfLiteTensor* f = TensorAt(ctx_, filter);
  if (in == nullptr || f == nullptr) return false;
  const std::vector<size_t> dims = {static_cast<size_t>(channels)};
  if (f->type == kTfLiteFloat32) {
    return OwnedFloatConstant(std::vector<float>(dims[0], 0.f), dims, id);
  }
  const TfLiteAffineQuantization* qf = Affine(*f);
  if (qf == nullptr || qf->scale == nullptr) return false;
  uint8_t* data = Own(dims[0] * sizeof(int32_t));
  if (qf->scale->size == 1) {
    return Ok(xnn_define_quantized_tensor_value(subgraph_, xnn_datatype_qint32, 0,
                                                in->params.scale * qf->scale->data[0], 1,
                                                dims.data(), data, XNN_INVALID_VALUE_ID, 0, id));
  }
  if (qf->scale->size != channels) return false;
  auto* scales = reinterpret_cast<float*>(Own(dims[0] * sizeof(float)));
  for (int c = 0; c < channels; ++c) scales[c] = in->params.scale * qf->scale->data[c];
  return Ok(xnn_define_channelwise_quantized_tensor_value(subgraph_, xnn_datatype_qcint32, scales,
                                                          1, 0, dims.data(), data,
                                                          XNN_INVALID_VALUE_ID, 0, id));
}

bool Builder::InternalLike(int like, const std::vector<size_t>& dims, uint32_t* id) {
  const TfLiteTensor* t = TensorAt(ctx_, like);
  if (t == nullptr) return false;
  if (t->type == kTfLiteFloat32) {
    return Ok(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(),
                                      nullptr, XNN_INVALID_VALUE_ID, 0, id));
  }
  const xnn_datatype type = t->type == kTfLiteInt8    ? xnn_datatype_qint8
                            : t->type == kTfLiteUInt8 ? xnn_datatype_quint8
                                                      : xnn_datatype_invalid;
  if (type == xnn_datatype_invalid) return false;
  return Ok(xnn_define_quantized_tensor_value(subgraph_, type, t->params.zero_point,
                                              t->params.scale, dims.size(), dims.data(), nullptr,
                                              XNN_INVALID_VALUE_ID, 0, id));
}

}  // namespace octet::xnnpack
