#include "format/model_builder.h"

#include <cstring>

namespace octet::format {

using flatbuffers::Offset;
using flatbuffers::Vector;

ModelBuilder::ModelBuilder(bool add_sentinel_buffer) : fbb_(16 * 1024) {
  subgraphs_.emplace_back();
  if (add_sentinel_buffer) AddEmptyBuffer();
}

int ModelBuilder::AddBuffer(const void* data, size_t size) {
  BufferState b;
  b.has_data = true;
  b.data.resize(size);
  if (size > 0) std::memcpy(b.data.data(), data, size);
  buffers_.push_back(std::move(b));
  return static_cast<int>(buffers_.size()) - 1;
}

int ModelBuilder::AddEmptyBuffer() {
  buffers_.emplace_back();
  return static_cast<int>(buffers_.size()) - 1;
}

int ModelBuilder::AddExternalBuffer(uint64_t offset, uint64_t size) {
  BufferState b;
  b.offset = offset;
  b.size = size;
  buffers_.push_back(std::move(b));
  return static_cast<int>(buffers_.size()) - 1;
}

int ModelBuilder::AddOperatorCode(tflite::BuiltinOperator op, int32_t version) {
  // Legacy readers look at the byte field; it saturates at the placeholder.
  const int8_t legacy =
      static_cast<int8_t>(op < tflite::BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES
                              ? op
                              : tflite::BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES);
  return AddRawOperatorCode(legacy, op, "", version);
}

int ModelBuilder::AddCustomOperatorCode(const std::string& custom_name, int32_t version) {
  opcodes_.push_back({static_cast<int8_t>(tflite::BuiltinOperator_CUSTOM),
                      tflite::BuiltinOperator_CUSTOM, custom_name, true, version});
  return static_cast<int>(opcodes_.size()) - 1;
}

int ModelBuilder::AddRawOperatorCode(int8_t deprecated_builtin_code, int32_t builtin_code,
                                     const std::string& custom_name, int32_t version) {
  opcodes_.push_back(
      {deprecated_builtin_code, builtin_code, custom_name, !custom_name.empty(), version});
  return static_cast<int>(opcodes_.size()) - 1;
}

int ModelBuilder::AddSubgraph(const std::string& name) {
  subgraphs_.emplace_back();
  subgraphs_.back().name = name;
  current_ = static_cast<int>(subgraphs_.size()) - 1;
  return current_;
}

void ModelBuilder::SetSubgraphName(const std::string& name) { sg().name = name; }

int ModelBuilder::AddTensor(const TensorSpec& spec) {
  sg().tensors.push_back(spec);
  return static_cast<int>(sg().tensors.size()) - 1;
}

int ModelBuilder::AddTensor(tflite::TensorType type, std::vector<int32_t> shape,
                            const std::string& name, uint32_t buffer) {
  TensorSpec spec;
  spec.type = type;
  spec.shape = std::move(shape);
  spec.name = name;
  spec.buffer = buffer;
  return AddTensor(spec);
}

int ModelBuilder::AddQuantizedTensor(tflite::TensorType type, std::vector<int32_t> shape,
                                     const std::string& name, std::vector<float> scale,
                                     std::vector<int64_t> zero_point, int32_t quantized_dimension,
                                     uint32_t buffer) {
  TensorSpec spec;
  spec.type = type;
  spec.shape = std::move(shape);
  spec.name = name;
  spec.buffer = buffer;
  spec.quantization = QuantParams{std::move(scale), std::move(zero_point), quantized_dimension};
  return AddTensor(spec);
}

int ModelBuilder::AddOperator(const OperatorSpec& spec) {
  sg().operators.push_back(spec);
  return static_cast<int>(sg().operators.size()) - 1;
}

int ModelBuilder::AddOperator(int opcode_index, std::vector<int32_t> inputs,
                              std::vector<int32_t> outputs, BuiltOptions options) {
  OperatorSpec spec;
  spec.opcode_index = static_cast<uint32_t>(opcode_index);
  spec.inputs = std::move(inputs);
  spec.outputs = std::move(outputs);
  spec.options = options;
  return AddOperator(spec);
}

int ModelBuilder::AddCustomOperator(int opcode_index, std::vector<int32_t> inputs,
                                    std::vector<int32_t> outputs,
                                    std::vector<uint8_t> custom_options) {
  OperatorSpec spec;
  spec.opcode_index = static_cast<uint32_t>(opcode_index);
  spec.inputs = std::move(inputs);
  spec.outputs = std::move(outputs);
  spec.custom_options = std::move(custom_options);
  return AddOperator(spec);
}

void ModelBuilder::SetInputs(std::vector<int32_t> inputs) { sg().inputs = std::move(inputs); }
void ModelBuilder::SetOutputs(std::vector<int32_t> outputs) { sg().outputs = std::move(outputs); }

void ModelBuilder::AddSignature(const std::string& key,
                                std::vector<std::pair<std::string, uint32_t>> inputs,
                                std::vector<std::pair<std::string, uint32_t>> outputs,
                                uint32_t subgraph_index) {
  signatures_.push_back({key, std::move(inputs), std::move(outputs), subgraph_index});
}

void ModelBuilder::AddMetadata(const std::string& name, uint32_t buffer) {
  metadata_.emplace_back(name, buffer);
}

// ---- option helpers ----

BuiltOptions ModelBuilder::AddOptions(tflite::ActivationFunctionType act) {
  return {tflite::BuiltinOptions_AddOptions, tflite::CreateAddOptions(fbb_, act).Union()};
}
BuiltOptions ModelBuilder::SubOptions(tflite::ActivationFunctionType act) {
  return {tflite::BuiltinOptions_SubOptions, tflite::CreateSubOptions(fbb_, act).Union()};
}
BuiltOptions ModelBuilder::MulOptions(tflite::ActivationFunctionType act) {
  return {tflite::BuiltinOptions_MulOptions, tflite::CreateMulOptions(fbb_, act).Union()};
}
BuiltOptions ModelBuilder::DivOptions(tflite::ActivationFunctionType act) {
  return {tflite::BuiltinOptions_DivOptions, tflite::CreateDivOptions(fbb_, act).Union()};
}

BuiltOptions ModelBuilder::Conv2DOptions(tflite::Padding padding, int stride_w, int stride_h,
                                         tflite::ActivationFunctionType act, int dilation_w,
                                         int dilation_h) {
  return {
      tflite::BuiltinOptions_Conv2DOptions,
      tflite::CreateConv2DOptions(fbb_, padding, stride_w, stride_h, act, dilation_w, dilation_h)
          .Union()};
}

BuiltOptions ModelBuilder::DepthwiseConv2DOptions(tflite::Padding padding, int stride_w,
                                                  int stride_h, int depth_multiplier,
                                                  tflite::ActivationFunctionType act,
                                                  int dilation_w, int dilation_h) {
  return {tflite::BuiltinOptions_DepthwiseConv2DOptions,
          tflite::CreateDepthwiseConv2DOptions(fbb_, padding, stride_w, stride_h, depth_multiplier,
                                               act, dilation_w, dilation_h)
              .Union()};
}

BuiltOptions ModelBuilder::Pool2DOptions(tflite::Padding padding, int stride_w, int stride_h,
                                         int filter_w, int filter_h,
                                         tflite::ActivationFunctionType act) {
  return {tflite::BuiltinOptions_Pool2DOptions,
          tflite::CreatePool2DOptions(fbb_, padding, stride_w, stride_h, filter_w, filter_h, act)
              .Union()};
}

BuiltOptions ModelBuilder::FullyConnectedOptions(tflite::ActivationFunctionType act,
                                                 bool keep_num_dims) {
  return {tflite::BuiltinOptions_FullyConnectedOptions,
          tflite::CreateFullyConnectedOptions(
              fbb_, act, tflite::FullyConnectedOptionsWeightsFormat_DEFAULT, keep_num_dims)
              .Union()};
}

BuiltOptions ModelBuilder::ReshapeOptions(const std::vector<int32_t>& new_shape) {
  return {tflite::BuiltinOptions_ReshapeOptions,
          tflite::CreateReshapeOptionsDirect(fbb_, &new_shape).Union()};
}

BuiltOptions ModelBuilder::SoftmaxOptions(float beta) {
  return {tflite::BuiltinOptions_SoftmaxOptions, tflite::CreateSoftmaxOptions(fbb_, beta).Union()};
}

BuiltOptions ModelBuilder::ConcatenationOptions(int axis, tflite::ActivationFunctionType act) {
  return {tflite::BuiltinOptions_ConcatenationOptions,
          tflite::CreateConcatenationOptions(fbb_, axis, act).Union()};
}

BuiltOptions ModelBuilder::SqueezeOptions(const std::vector<int32_t>& squeeze_dims) {
  return {tflite::BuiltinOptions_SqueezeOptions,
          tflite::CreateSqueezeOptionsDirect(fbb_, &squeeze_dims).Union()};
}

BuiltOptions ModelBuilder::StridedSliceOptions(int begin_mask, int end_mask, int ellipsis_mask,
                                               int new_axis_mask, int shrink_axis_mask,
                                               bool offset) {
  return {tflite::BuiltinOptions_StridedSliceOptions,
          tflite::CreateStridedSliceOptions(fbb_, begin_mask, end_mask, ellipsis_mask,
                                            new_axis_mask, shrink_axis_mask, offset)
              .Union()};
}

BuiltOptions ModelBuilder::IfOptions(int then_subgraph, int else_subgraph) {
  return {tflite::BuiltinOptions_IfOptions,
          tflite::CreateIfOptions(fbb_, then_subgraph, else_subgraph).Union()};
}

BuiltOptions ModelBuilder::WhileOptions(int cond_subgraph, int body_subgraph) {
  return {tflite::BuiltinOptions_WhileOptions,
          tflite::CreateWhileOptions(fbb_, cond_subgraph, body_subgraph).Union()};
}

BuiltOptions ModelBuilder::CallOnceOptions(int init_subgraph) {
  return {tflite::BuiltinOptions_CallOnceOptions,
          tflite::CreateCallOnceOptions(fbb_, init_subgraph).Union()};
}

BuiltOptions ModelBuilder::VarHandleOptions(const std::string& container,
                                            const std::string& shared_name) {
  const auto c = fbb_.CreateString(container);
  const auto n = fbb_.CreateString(shared_name);
  return {tflite::BuiltinOptions_VarHandleOptions,
          tflite::CreateVarHandleOptions(fbb_, c, n).Union()};
}

BuiltOptions ModelBuilder::HashtableOptions(int table_id, tflite::TensorType key,
                                            tflite::TensorType value) {
  return {tflite::BuiltinOptions_HashtableOptions,
          tflite::CreateHashtableOptions(fbb_, table_id, key, value).Union()};
}

BuiltOptions ModelBuilder::CallOptions(uint32_t subgraph) {
  return {tflite::BuiltinOptions_CallOptions, tflite::CreateCallOptions(fbb_, subgraph).Union()};
}

// ---- serialization ----

std::vector<uint8_t> ModelBuilder::Finish(const char* file_identifier) {
  auto& b = fbb_;

  std::vector<Offset<tflite::Buffer>> buffers;
  buffers.reserve(buffers_.size());
  for (const BufferState& buf : buffers_) {
    Offset<Vector<uint8_t>> data;
    if (buf.has_data) {
      b.ForceVectorAlignment(buf.data.size(), sizeof(uint8_t), 16);
      data = b.CreateVector(buf.data);
    }
    buffers.push_back(tflite::CreateBuffer(b, data, buf.offset, buf.size));
  }

  std::vector<Offset<tflite::OperatorCode>> opcodes;
  for (const OpCodeState& oc : opcodes_) {
    Offset<flatbuffers::String> custom;
    if (oc.has_custom) custom = b.CreateString(oc.custom_name);
    opcodes.push_back(
        tflite::CreateOperatorCode(b, oc.deprecated_builtin_code, custom, oc.version,
                                   static_cast<tflite::BuiltinOperator>(oc.builtin_code)));
  }

  std::vector<Offset<tflite::SubGraph>> subgraphs;
  for (const SubgraphState& s : subgraphs_) {
    std::vector<Offset<tflite::Tensor>> tensors;
    for (const TensorSpec& t : s.tensors) {
      Offset<tflite::QuantizationParameters> quant;
      if (t.quantization) {
        quant = tflite::CreateQuantizationParametersDirect(
            b, nullptr, nullptr, &t.quantization->scale, &t.quantization->zero_point,
            tflite::QuantizationDetails_NONE, 0, t.quantization->quantized_dimension);
      }
      auto shape = b.CreateVector(t.shape);
      Offset<Vector<int32_t>> signature;
      if (t.shape_signature) signature = b.CreateVector(*t.shape_signature);
      auto name = b.CreateString(t.name);
      tensors.push_back(tflite::CreateTensor(b, shape, t.type, t.buffer, name, quant, t.is_variable,
                                             0, signature, t.has_rank));
    }
    std::vector<Offset<tflite::Operator>> ops;
    for (const OperatorSpec& op : s.operators) {
      auto inputs = b.CreateVector(op.inputs);
      auto outputs = b.CreateVector(op.outputs);
      Offset<Vector<uint8_t>> custom;
      if (op.custom_options) custom = b.CreateVector(*op.custom_options);
      Offset<Vector<uint8_t>> mutating;
      if (!op.mutating_variable_inputs.empty()) {
        std::vector<uint8_t> flags(op.mutating_variable_inputs.begin(),
                                   op.mutating_variable_inputs.end());
        mutating = b.CreateVector(flags);
      }
      Offset<Vector<int32_t>> intermediates;
      if (!op.intermediates.empty()) intermediates = b.CreateVector(op.intermediates);
      tflite::OperatorBuilder ob(b);
      ob.add_opcode_index(op.opcode_index);
      ob.add_inputs(inputs);
      ob.add_outputs(outputs);
      if (op.options.type != tflite::BuiltinOptions_NONE) {
        ob.add_builtin_options_type(op.options.type);
        ob.add_builtin_options(op.options.offset);
      }
      if (!custom.IsNull()) ob.add_custom_options(custom);
      if (!mutating.IsNull()) ob.add_mutating_variable_inputs(mutating);
      if (!intermediates.IsNull()) ob.add_intermediates(intermediates);
      if (op.large_custom_options_offset != 0) {
        ob.add_large_custom_options_offset(op.large_custom_options_offset);
      }
      if (op.large_custom_options_size != 0) {
        ob.add_large_custom_options_size(op.large_custom_options_size);
      }
      if (op.options2.type != tflite::BuiltinOptions2_NONE) {
        ob.add_builtin_options_2_type(op.options2.type);
        ob.add_builtin_options_2(op.options2.offset);
      }
      ops.push_back(ob.Finish());
    }
    subgraphs.push_back(
        tflite::CreateSubGraphDirect(b, &tensors, &s.inputs, &s.outputs, &ops, s.name.c_str()));
  }

  std::vector<Offset<tflite::SignatureDef>> signatures;
  for (const SignatureState& sig : signatures_) {
    auto maps = [&b](const std::vector<std::pair<std::string, uint32_t>>& entries) {
      std::vector<Offset<tflite::TensorMap>> out;
      for (const auto& e : entries) {
        out.push_back(tflite::CreateTensorMapDirect(b, e.first.c_str(), e.second));
      }
      return out;
    };
    auto in = maps(sig.inputs);
    auto out = maps(sig.outputs);
    signatures.push_back(
        tflite::CreateSignatureDefDirect(b, &in, &out, sig.key.c_str(), sig.subgraph_index));
  }

  std::vector<Offset<tflite::Metadata>> metadata;
  for (const auto& m : metadata_) {
    metadata.push_back(tflite::CreateMetadataDirect(b, m.first.c_str(), m.second));
  }

  auto model = tflite::CreateModelDirect(b, version_, &opcodes, &subgraphs, description_.c_str(),
                                         &buffers, nullptr, metadata.empty() ? nullptr : &metadata,
                                         signatures.empty() ? nullptr : &signatures);
  b.Finish(model, file_identifier);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

}  // namespace octet::format
