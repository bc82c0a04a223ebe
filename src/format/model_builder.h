// In-code construction of .tflite flatbuffers (tests, demo models, tools).
// The builder does NOT validate anything: indices, shapes and sizes are
// written as given, so it can also produce deliberately malformed models.
#ifndef OCTET_FORMAT_MODEL_BUILDER_H_
#define OCTET_FORMAT_MODEL_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "flatbuffers/flatbuffers.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace octet::format {

// Per-tensor or per-axis affine quantization.
struct QuantParams {
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  int32_t quantized_dimension = 0;
};

struct TensorSpec {
  tflite::TensorType type = tflite::TensorType_FLOAT32;
  std::vector<int32_t> shape;
  std::string name;
  uint32_t buffer = 0;
  std::optional<QuantParams> quantization;
  bool is_variable = false;
  std::optional<std::vector<int32_t>> shape_signature;
  bool has_rank = false;
};

// A built option table: union tag plus offset inside the builder.
struct BuiltOptions {
  tflite::BuiltinOptions type = tflite::BuiltinOptions_NONE;
  flatbuffers::Offset<void> offset;
};

struct BuiltOptions2 {
  tflite::BuiltinOptions2 type = tflite::BuiltinOptions2_NONE;
  flatbuffers::Offset<void> offset;
};

struct OperatorSpec {
  uint32_t opcode_index = 0;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  BuiltOptions options;
  BuiltOptions2 options2;
  std::optional<std::vector<uint8_t>> custom_options;
  std::vector<int32_t> intermediates;
  std::vector<bool> mutating_variable_inputs;
  uint64_t large_custom_options_offset = 0;
  uint64_t large_custom_options_size = 0;
};

class ModelBuilder {
 public:
  // Adds the empty sentinel buffer 0 unless add_sentinel_buffer is false.
  explicit ModelBuilder(bool add_sentinel_buffer = true);

  // Direct access for building option tables (tflite::CreateXxxOptions).
  flatbuffers::FlatBufferBuilder& fbb() { return fbb_; }

  // ---- buffers ----
  int AddBuffer(const void* data, size_t size);
  int AddBuffer(const std::vector<uint8_t>& bytes) { return AddBuffer(bytes.data(), bytes.size()); }
  template <typename T>
  int AddTypedBuffer(const std::vector<T>& values) {
    return AddBuffer(values.data(), values.size() * sizeof(T));
  }
  int AddEmptyBuffer();
  // Buffer whose data lives outside the flatbuffer (Buffer.offset/size).
  int AddExternalBuffer(uint64_t offset, uint64_t size);

  // ---- operator codes ----
  int AddOperatorCode(tflite::BuiltinOperator op, int32_t version = 1);
  int AddCustomOperatorCode(const std::string& custom_name, int32_t version = 1);
  // Full control over both code fields (e.g. legacy writers).
  int AddRawOperatorCode(int8_t deprecated_builtin_code, int32_t builtin_code,
                         const std::string& custom_name, int32_t version);

  // ---- subgraphs ----
  // Subgraph 0 exists from the start; AddSubgraph appends and selects one.
  int AddSubgraph(const std::string& name = "");
  void SelectSubgraph(int index) { current_ = index; }
  int current_subgraph() const { return current_; }
  int subgraph_count() const { return static_cast<int>(subgraphs_.size()); }
  void SetSubgraphName(const std::string& name);

  // Tensors/operators/IO are added to the selected subgraph.
  int AddTensor(const TensorSpec& spec);
  int AddTensor(tflite::TensorType type, std::vector<int32_t> shape, const std::string& name = "",
                uint32_t buffer = 0);
  int AddQuantizedTensor(tflite::TensorType type, std::vector<int32_t> shape,
                         const std::string& name, std::vector<float> scale,
                         std::vector<int64_t> zero_point, int32_t quantized_dimension = 0,
                         uint32_t buffer = 0);
  // Adds a buffer with `values` and a tensor referring to it.
  template <typename T>
  int AddConstTensor(tflite::TensorType type, std::vector<int32_t> shape,
                     const std::vector<T>& values, const std::string& name = "") {
    const int buffer = AddTypedBuffer(values);
    return AddTensor(type, std::move(shape), name, static_cast<uint32_t>(buffer));
  }

  int AddOperator(const OperatorSpec& spec);
  int AddOperator(int opcode_index, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                  BuiltOptions options = {});
  int AddCustomOperator(int opcode_index, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                        std::vector<uint8_t> custom_options);

  void SetInputs(std::vector<int32_t> inputs);
  void SetOutputs(std::vector<int32_t> outputs);

  // ---- model-level ----
  void AddSignature(const std::string& key, std::vector<std::pair<std::string, uint32_t>> inputs,
                    std::vector<std::pair<std::string, uint32_t>> outputs,
                    uint32_t subgraph_index = 0);
  void AddMetadata(const std::string& name, uint32_t buffer);
  void SetVersion(uint32_t version) { version_ = version; }
  void SetDescription(const std::string& description) { description_ = description; }

  // ---- option helpers ----
  BuiltOptions AddOptions(tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE);
  BuiltOptions SubOptions(tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE);
  BuiltOptions MulOptions(tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE);
  BuiltOptions DivOptions(tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE);
  BuiltOptions Conv2DOptions(
      tflite::Padding padding, int stride_w, int stride_h,
      tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE, int dilation_w = 1,
      int dilation_h = 1);
  BuiltOptions DepthwiseConv2DOptions(
      tflite::Padding padding, int stride_w, int stride_h, int depth_multiplier,
      tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE, int dilation_w = 1,
      int dilation_h = 1);
  BuiltOptions Pool2DOptions(
      tflite::Padding padding, int stride_w, int stride_h, int filter_w, int filter_h,
      tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE);
  BuiltOptions FullyConnectedOptions(
      tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE,
      bool keep_num_dims = false);
  BuiltOptions ReshapeOptions(const std::vector<int32_t>& new_shape);
  BuiltOptions SoftmaxOptions(float beta = 1.0f);
  BuiltOptions ConcatenationOptions(
      int axis, tflite::ActivationFunctionType act = tflite::ActivationFunctionType_NONE);
  BuiltOptions SqueezeOptions(const std::vector<int32_t>& squeeze_dims);
  BuiltOptions StridedSliceOptions(int begin_mask, int end_mask, int ellipsis_mask = 0,
                                   int new_axis_mask = 0, int shrink_axis_mask = 0,
                                   bool offset = false);
  BuiltOptions IfOptions(int then_subgraph, int else_subgraph);
  BuiltOptions WhileOptions(int cond_subgraph, int body_subgraph);
  BuiltOptions CallOnceOptions(int init_subgraph);
  BuiltOptions VarHandleOptions(const std::string& container, const std::string& shared_name);
  BuiltOptions HashtableOptions(int table_id, tflite::TensorType key, tflite::TensorType value);
  BuiltOptions CallOptions(uint32_t subgraph);

  // Serializes everything; `file_identifier` may be overridden (tests).
  // The builder must not be used after Finish().
  std::vector<uint8_t> Finish(const char* file_identifier = tflite::ModelIdentifier());

 private:
  struct SubgraphState {
    std::string name;
    std::vector<TensorSpec> tensors;
    std::vector<OperatorSpec> operators;
    std::vector<int32_t> inputs;
    std::vector<int32_t> outputs;
  };
  struct BufferState {
    std::vector<uint8_t> data;
    bool has_data = false;
    uint64_t offset = 0;
    uint64_t size = 0;
  };
  struct OpCodeState {
    int8_t deprecated_builtin_code;
    int32_t builtin_code;
    std::string custom_name;
    bool has_custom;
    int32_t version;
  };
  struct SignatureState {
    std::string key;
    std::vector<std::pair<std::string, uint32_t>> inputs;
    std::vector<std::pair<std::string, uint32_t>> outputs;
    uint32_t subgraph_index;
  };

  SubgraphState& sg() { return subgraphs_.at(static_cast<size_t>(current_)); }

  flatbuffers::FlatBufferBuilder fbb_;
  std::vector<BufferState> buffers_;
  std::vector<OpCodeState> opcodes_;
  std::vector<SubgraphState> subgraphs_;
  std::vector<SignatureState> signatures_;
  std::vector<std::pair<std::string, uint32_t>> metadata_;
  int current_ = 0;
  uint32_t version_ = 3;
  std::string description_ = "octet";
};

}  // namespace octet::format

#endif  // OCTET_FORMAT_MODEL_BUILDER_H_
