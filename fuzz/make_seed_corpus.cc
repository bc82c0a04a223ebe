// Writes the fuzzers' seed corpus (nothing generated is committed):
//
//   octet_fuzz_seeds MODEL_DIR NPY_DIR [SHARED_MODELS_DIR]
//
// MODEL_DIR gets fuzz_model inputs (layout in fuzz_input.h): small models built in code for
// the main op kinds (float, int8, hybrid, LSTM), hostile models of the kinds
// tests/security/ covers, and every .tflite of SHARED_MODELS_DIR up to kMaxSharedModel bytes.
// NPY_DIR gets .npy files of every dtype, plus malformed headers.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "format/model_builder.h"
#include "fuzz_input.h"
#include "octet/npy.h"

namespace {

namespace fs = std::filesystem;
using octet::format::BuiltOptions;
using octet::format::QuantParams;
using octet::format::TensorSpec;
using namespace tflite;  // NOLINT: BuiltinOperator_*, TensorType_*, Create*Options

constexpr size_t kMaxSharedModel = 160 * 1024;  // larger models make every exec slow

// One-operator models: inputs, constants and outputs in order, then Finish.
class OneOp {
 public:
  octet::format::ModelBuilder& b() { return b_; }
  int In(TensorType type, std::vector<int32_t> shape, std::optional<QuantParams> q = {}) {
    const int t = Add(type, std::move(shape), std::move(q), 0);
    inputs_.push_back(t);
    op_inputs_.push_back(t);
    return t;
  }
  template <typename T>
  int Const(TensorType type, std::vector<int32_t> shape, const std::vector<T>& values,
            std::optional<QuantParams> q = {}) {
    const int t = Add(type, std::move(shape), std::move(q), b_.AddTypedBuffer(values));
    op_inputs_.push_back(t);
    return t;
  }
  void Absent() { op_inputs_.push_back(-1); }
  int State(TensorType type, std::vector<int32_t> shape) {
    TensorSpec s;
    s.type = type;
    s.shape = std::move(shape);
    s.is_variable = true;
    const int t = b_.AddTensor(s);
    op_inputs_.push_back(t);
    return t;
  }
  int Out(TensorType type, std::vector<int32_t> shape, std::optional<QuantParams> q = {}) {
    const int t = Add(type, std::move(shape), std::move(q), 0);
    outputs_.push_back(t);
    return t;
  }
  std::vector<uint8_t> Finish(BuiltinOperator op, BuiltOptions options = {}, int version = 1) {
    b_.AddOperator(b_.AddOperatorCode(op, version), op_inputs_, outputs_, options);
    b_.SetInputs(inputs_);
    b_.SetOutputs(outputs_);
    return b_.Finish();
  }

 private:
  int Add(TensorType type, std::vector<int32_t> shape, std::optional<QuantParams> q, int buffer) {
    TensorSpec s;
    s.type = type;
    s.shape = std::move(shape);
    s.quantization = std::move(q);
    s.buffer = static_cast<uint32_t>(buffer);
    return b_.AddTensor(s);
  }
  octet::format::ModelBuilder b_;
  std::vector<int32_t> inputs_, op_inputs_, outputs_;
};

QuantParams Q(float scale, int64_t zero_point = 0) { return QuantParams{{scale}, {zero_point}, 0}; }

template <typename T>
std::vector<T> Ramp(size_t n, int mod = 7, int offset = 3) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<T>(static_cast<int>(i % mod) - offset);
  return v;
}

std::vector<uint8_t> Conv(bool quantized, bool depthwise) {
  OneOp m;
  const auto act = quantized ? TensorType_INT8 : TensorType_FLOAT32;
  const auto in_q = quantized ? std::optional<QuantParams>(Q(0.5f, -1)) : std::nullopt;
  m.In(act, {1, 5, 5, 2}, in_q);
  const std::vector<int32_t> filter =
      depthwise ? std::vector<int32_t>{1, 3, 3, 2} : std::vector<int32_t>{3, 3, 3, 2};
  const size_t n = depthwise ? 18 : 54;
  const int channels = depthwise ? 2 : 3;
  if (quantized) {
    QuantParams wq{std::vector<float>(channels, 0.25f), std::vector<int64_t>(channels, 0),
                   depthwise ? 3 : 0};
    m.Const(TensorType_INT8, filter, Ramp<int8_t>(n), wq);
    QuantParams bq{std::vector<float>(channels, 0.125f), std::vector<int64_t>(channels, 0), 0};
    m.Const(TensorType_INT32, {channels}, Ramp<int32_t>(channels), bq);
    m.Out(act, {}, Q(1.f, 2));
  } else {
    m.Const(TensorType_FLOAT32, filter, Ramp<float>(n));
    m.Const(TensorType_FLOAT32, {channels}, Ramp<float>(channels));
    m.Out(act, {});
  }
  if (depthwise) {
    return m.Finish(
        BuiltinOperator_DEPTHWISE_CONV_2D,
        m.b().DepthwiseConv2DOptions(Padding_SAME, 1, 1, 1, ActivationFunctionType_RELU6),
        quantized ? 3 : 1);
  }
  return m.Finish(BuiltinOperator_CONV_2D,
                  m.b().Conv2DOptions(Padding_VALID, 2, 1, ActivationFunctionType_RELU),
                  quantized ? 3 : 1);
}

// kind: 0 float, 1 int8, 2 hybrid (float input, int8 weights); scale is the int8 weights'.
std::vector<uint8_t> FullyConnected(int kind, float weight_scale = 0.25f) {
  OneOp m;
  if (kind == 1) {
    m.In(TensorType_INT8, {2, 4}, Q(0.5f, 1));
    m.Const(TensorType_INT8, {3, 4}, Ramp<int8_t>(12), Q(weight_scale));
    m.Const(TensorType_INT32, {3}, Ramp<int32_t>(3), Q(0.5f * weight_scale));
    m.Out(TensorType_INT8, {2, 3}, Q(0.5f, -3));
  } else {
    m.In(TensorType_FLOAT32, {2, 4});
    if (kind == 2) {
      m.Const(TensorType_INT8, {3, 4}, Ramp<int8_t>(12), Q(weight_scale));
    } else {
      m.Const(TensorType_FLOAT32, {3, 4}, Ramp<float>(12));
    }
    m.Const(TensorType_FLOAT32, {3}, Ramp<float>(3));
    m.Out(TensorType_FLOAT32, {2, 3});
  }
  return m.Finish(BuiltinOperator_FULLY_CONNECTED,
                  m.b().FullyConnectedOptions(ActivationFunctionType_NONE), kind == 1 ? 4 : 1);
}

std::vector<uint8_t> Binary(BuiltinOperator op, bool quantized) {
  OneOp m;
  if (quantized) {
    m.In(TensorType_INT8, {1, 2, 3}, Q(0.5f, 3));
    m.In(TensorType_INT8, {1, 1, 3}, Q(0.25f, -2));
    m.Out(TensorType_INT8, {1, 2, 3}, Q(0.75f, 1));
  } else {
    m.In(TensorType_FLOAT32, {1, 2, 3});
    m.In(TensorType_FLOAT32, {1, 1, 3});
    m.Out(TensorType_FLOAT32, {1, 2, 3});
  }
  BuiltOptions opts = op == BuiltinOperator_ADD   ? m.b().AddOptions()
                      : op == BuiltinOperator_SUB ? m.b().SubOptions()
                      : op == BuiltinOperator_MUL ? m.b().MulOptions()
                                                  : BuiltOptions{};
  return m.Finish(op, opts, quantized ? 2 : 1);
}

std::vector<uint8_t> Softmax(bool quantized) {
  OneOp m;
  if (quantized) {
    m.In(TensorType_INT8, {2, 5}, Q(0.1f, 0));
    m.Out(TensorType_INT8, {2, 5}, Q(1.f / 256, -128));
  } else {
    m.In(TensorType_FLOAT32, {2, 5});
    m.Out(TensorType_FLOAT32, {2, 5});
  }
  return m.Finish(BuiltinOperator_SOFTMAX, m.b().SoftmaxOptions(1.f), quantized ? 2 : 1);
}

// Unary int8 ops with a requantization (LOGISTIC, TANH, QUANTIZE) or a pool.
std::vector<uint8_t> Unary(BuiltinOperator op, float out_scale, int64_t out_zp,
                           BuiltOptions (*options)(octet::format::ModelBuilder&) = nullptr) {
  OneOp m;
  m.In(TensorType_INT8, {1, 4, 4, 1}, Q(0.05f, 5));
  if (op == BuiltinOperator_MEAN) m.Const(TensorType_INT32, {2}, std::vector<int32_t>{1, 2});
  if (op == BuiltinOperator_RESIZE_BILINEAR) {
    m.Const(TensorType_INT32, {2}, std::vector<int32_t>{6, 7});
  }
  m.Out(TensorType_INT8, {}, Q(out_scale, out_zp));
  return m.Finish(op, options ? options(m.b()) : BuiltOptions{}, 2);
}

// A float LSTM with CIFG (no input gate): batch 1, 2 time steps, 3 inputs, 2 cells.
std::vector<uint8_t> Lstm() {
  OneOp m;
  const auto F = TensorType_FLOAT32;
  m.In(F, {1, 2, 3});
  m.Absent();  // input_to_input
  for (int i = 0; i < 3; ++i) m.Const(F, {2, 3}, Ramp<float>(6));
  m.Absent();  // recurrent_to_input
  for (int i = 0; i < 3; ++i) m.Const(F, {2, 2}, Ramp<float>(4));
  for (int i = 0; i < 4; ++i) m.Absent();  // peepholes, input gate bias
  for (int i = 0; i < 3; ++i) m.Const(F, {2}, Ramp<float>(2));
  m.Absent();  // projection weights
  m.Absent();  // projection bias
  m.State(F, {1, 2});
  m.State(F, {1, 2});
  for (int i = 0; i < 4; ++i) m.Absent();  // layer norm
  m.Out(F, {1, 2, 2});
  flatbuffers::FlatBufferBuilder& fbb = m.b().fbb();
  BuiltOptions opts{
      BuiltinOptions_UnidirectionalSequenceLSTMOptions,
      CreateUnidirectionalSequenceLSTMOptions(fbb, ActivationFunctionType_TANH, 3.f, 0.f, false)
          .Union()};
  return m.Finish(BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, opts);
}

// Hostile cases, each refused at some stage (kinds from tests/security/).
std::vector<std::pair<std::string, std::vector<uint8_t>>> HostileModels() {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> out;
  {
    OneOp m;  // zero stride
    m.In(TensorType_FLOAT32, {1, 4, 4, 1});
    m.Const(TensorType_FLOAT32, {1, 2, 2, 1}, Ramp<float>(4));
    m.Const(TensorType_FLOAT32, {1}, Ramp<float>(1));
    m.Out(TensorType_FLOAT32, {});
    out.emplace_back("conv_zero_stride",
                     m.Finish(BuiltinOperator_CONV_2D, m.b().Conv2DOptions(Padding_SAME, 0, 1)));
  }
  {
    OneOp m;  // gather index out of range
    m.In(TensorType_FLOAT32, {4, 2});
    m.Const(TensorType_INT32, {2}, std::vector<int32_t>{1, 9});
    m.Out(TensorType_FLOAT32, {2, 2});
    out.emplace_back("gather_index", m.Finish(BuiltinOperator_GATHER));
  }
  {
    OneOp m;  // tensor index out of range in the operator
    m.In(TensorType_FLOAT32, {2});
    m.Out(TensorType_FLOAT32, {2});
    m.b().AddOperator(m.b().AddOperatorCode(BuiltinOperator_RELU), {0, 7}, {1});
    out.emplace_back("bad_tensor_index", m.Finish(BuiltinOperator_RELU));
  }
  {
    OneOp m;  // huge FILL
    m.Const(TensorType_INT32, {4}, std::vector<int32_t>{1 << 12, 1 << 12, 1 << 12, 1 << 12});
    m.Const(TensorType_FLOAT32, {}, std::vector<float>{1.f});
    m.Out(TensorType_FLOAT32, {});
    out.emplace_back("fill_huge", m.Finish(BuiltinOperator_FILL));
  }
  {
    OneOp m;  // concatenation axis out of range
    m.In(TensorType_FLOAT32, {2, 2});
    m.In(TensorType_FLOAT32, {2, 2});
    m.Out(TensorType_FLOAT32, {4, 2});
    out.emplace_back("concat_axis",
                     m.Finish(BuiltinOperator_CONCATENATION, m.b().ConcatenationOptions(5)));
  }
  // Scales whose requantization multiplier is not representable.
  out.emplace_back("fc_int8_huge_scale", FullyConnected(1, 1e13f));
  out.emplace_back("fc_int8_tiny_scale", FullyConnected(1, 1e-30f));
  out.emplace_back("hybrid_fc_nan_scale",
                   FullyConnected(2, std::numeric_limits<float>::quiet_NaN()));
  out.emplace_back("logistic_bad_output", Unary(BuiltinOperator_LOGISTIC, 1e-3f, 0));
  return out;
}

bool WriteFile(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary);
  return static_cast<bool>(f.write(reinterpret_cast<const char*>(bytes.data()),
                                   static_cast<std::streamsize>(bytes.size())));
}

std::vector<uint8_t> ReadFile(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Input bytes that pick interesting float values (see FloatFromByte) and integer bytes.
std::vector<uint8_t> SeedInput() {
  std::vector<uint8_t> in;
  for (int i = 0; i < 256; ++i) in.push_back(static_cast<uint8_t>(i * 37 + 11));
  for (uint8_t special = 0; special < 8; ++special) in.push_back(special);
  return in;
}

std::vector<std::pair<std::string, std::vector<uint8_t>>> NpySeeds() {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> out;
  const std::vector<uint8_t> bytes = Ramp<uint8_t>(64, 251, 0);
  const std::pair<const char*, TfLiteType> types[] = {
      {"f4", kTfLiteFloat32}, {"i1", kTfLiteInt8},  {"u1", kTfLiteUInt8}, {"i2", kTfLiteInt16},
      {"i4", kTfLiteInt32},   {"i8", kTfLiteInt64}, {"b1", kTfLiteBool},  {"f8", kTfLiteFloat64}};
  for (const auto& [name, type] : types) {
    const size_t elem = TfLiteTypeGetSize(type);
    out.emplace_back(std::string(name) + "_2x4",
                     octet::SerializeNpy(type, {2, 4}, bytes.data(), 8 * elem));
    out.emplace_back(std::string(name) + "_scalar",
                     octet::SerializeNpy(type, {}, bytes.data(), elem));
  }
  out.emplace_back("empty_dim", octet::SerializeNpy(kTfLiteFloat32, {0, 3}, nullptr, 0));
  const std::string v2 = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }\n";
  std::vector<uint8_t> b = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, static_cast<uint8_t>(v2.size()),
                            0,    0,   0};
  b.insert(b.end(), v2.begin(), v2.end());
  b.insert(b.end(), 12, 7);
  out.emplace_back("version2", b);
  std::vector<uint8_t> bad = octet::SerializeNpy(kTfLiteInt32, {1 << 20, 1 << 20}, nullptr, 0);
  out.emplace_back("truncated_huge", bad);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MODEL_DIR NPY_DIR [SHARED_MODELS_DIR]\n", argv[0]);
    return 1;
  }
  const fs::path model_dir = argv[1], npy_dir = argv[2];
  fs::create_directories(model_dir);
  fs::create_directories(npy_dir);
  const std::vector<uint8_t> input = SeedInput();
  std::vector<std::pair<std::string, std::vector<uint8_t>>> models = {
      {"conv_f32", Conv(false, false)},
      {"conv_i8", Conv(true, false)},
      {"depthwise_f32", Conv(false, true)},
      {"depthwise_i8", Conv(true, true)},
      {"fc_f32", FullyConnected(0)},
      {"fc_i8", FullyConnected(1)},
      {"fc_hybrid", FullyConnected(2)},
      {"add_f32", Binary(BuiltinOperator_ADD, false)},
      {"add_i8", Binary(BuiltinOperator_ADD, true)},
      {"sub_i8", Binary(BuiltinOperator_SUB, true)},
      {"mul_i8", Binary(BuiltinOperator_MUL, true)},
      {"softmax_f32", Softmax(false)},
      {"softmax_i8", Softmax(true)},
      {"logistic_i8", Unary(BuiltinOperator_LOGISTIC, 1.f / 256, -128)},
      {"tanh_i8", Unary(BuiltinOperator_TANH, 1.f / 128, 0)},
      {"quantize_i8", Unary(BuiltinOperator_QUANTIZE, 0.1f, 3)},
      {"avgpool_i8", Unary(BuiltinOperator_AVERAGE_POOL_2D, 0.05f, 5,
                           [](octet::format::ModelBuilder& b) {
                             return b.Pool2DOptions(Padding_SAME, 2, 2, 2, 2);
                           })},
      {"maxpool_i8", Unary(BuiltinOperator_MAX_POOL_2D, 0.05f, 5,
                           [](octet::format::ModelBuilder& b) {
                             return b.Pool2DOptions(Padding_VALID, 1, 1, 3, 3);
                           })},
      {"relu_i8", Unary(BuiltinOperator_RELU, 0.1f, -2)},
      {"relu6_i8", Unary(BuiltinOperator_RELU6, 0.05f, 5)},
      {"relu_n1_i8", Unary(BuiltinOperator_RELU_N1_TO_1, 0.02f, 1)},
      {"hard_swish_i8", Unary(BuiltinOperator_HARD_SWISH, 0.04f, -1)},
      {"leaky_relu_i8", Unary(BuiltinOperator_LEAKY_RELU, 0.04f, 2,
                              [](octet::format::ModelBuilder& b) {
                                return BuiltOptions{BuiltinOptions_LeakyReluOptions,
                                                    CreateLeakyReluOptions(b.fbb(), 0.2f).Union()};
                              })},
      {"mean_i8", Unary(BuiltinOperator_MEAN, 0.07f, 1)},
      {"l2norm_i8", Unary(BuiltinOperator_L2_NORMALIZATION, 1.f / 128, 0)},
      {"resize_i8", Unary(BuiltinOperator_RESIZE_BILINEAR, 0.05f, 5)},
      {"squared_difference_i8", Binary(BuiltinOperator_SQUARED_DIFFERENCE, true)},
      {"less_i8", Binary(BuiltinOperator_LESS, true)},
      {"lstm_f32", Lstm()},
  };
  for (auto& hostile : HostileModels()) models.push_back(std::move(hostile));
  int written = 0;
  for (const auto& [name, model] : models) {
    written += WriteFile(model_dir / (name + ".seed"), octet::fuzz::JoinFuzzInput(model, input));
  }
  if (argc > 3 && fs::is_directory(argv[3])) {
    for (const auto& entry : fs::directory_iterator(argv[3])) {
      if (entry.path().extension() != ".tflite" || entry.file_size() > kMaxSharedModel) continue;
      const auto seed = octet::fuzz::JoinFuzzInput(ReadFile(entry.path()), input);
      written += WriteFile(model_dir / (entry.path().stem().string() + ".seed"), seed);
    }
  }
  for (const auto& [name, npy] : NpySeeds()) written += WriteFile(npy_dir / (name + ".npy"), npy);
  std::printf("octet_fuzz_seeds: %d seed files in %s and %s\n", written, model_dir.c_str(),
              npy_dir.c_str());
  return 0;
}
