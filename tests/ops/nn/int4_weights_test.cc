// INT4 weights (packed two per byte, low nibble first) in FULLY_CONNECTED, CONV_2D and
// DEPTHWISE_CONV_2D. The truth is the same model with the same values written out as INT8
// weights, which Octet runs bit-exactly: both are built with the ModelBuilder and loaded through
// the real loader, and their outputs must be byte-identical on random inputs, on the reference
// and on the best kernel path. The tests pack the nibbles themselves.
#include "ops/nn/int4_weights.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "kernels/cpu/cpu_features.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "util/builtin_interpreter.h"
#include "util/capture_reporter.h"
#include "util/cli_runner.h"
#include "util/kernel_paths.h"

namespace octet {
namespace {

using format::ModelBuilder;
using format::QuantParams;
using format::TensorSpec;

// Two's-complement nibbles, element 2i in the low half of byte i.
std::vector<uint8_t> PackNibbles(const std::vector<int8_t>& values) {
  std::vector<uint8_t> packed((values.size() + 1) / 2, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    const uint8_t nibble = static_cast<uint8_t>(values[i]) & 0x0F;
    packed[i / 2] |= (i % 2 == 0) ? nibble : static_cast<uint8_t>(nibble << 4);
  }
  return packed;
}

enum class Op { kFullyConnected, kConv, kDepthwise };

struct Case {
  Op op = Op::kFullyConnected;
  tflite::TensorType input_type = tflite::TensorType_INT8;
  bool per_channel = true;
  bool asymmetric_inputs = false;    // hybrid FULLY_CONNECTED
  std::vector<int32_t> input_shape;  // FC [rows, depth]; conv-like NHWC
  std::vector<int32_t>
      weights_shape;  // FC [units, depth]; conv [out, kh, kw, in]; dw [1, kh, kw, out]
  int depth_multiplier = 1;
  // Builder overrides for the validation tests.
  int64_t weight_zero_point = 0;
  int drop_bytes = 0;  // bytes missing from the packed buffer
};

int ChannelDim(const Case& c) { return c.op == Op::kDepthwise ? 3 : 0; }
int Channels(const Case& c) { return c.weights_shape[ChannelDim(c)]; }
size_t Count(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int32_t d : shape) n *= static_cast<size_t>(d);
  return n;
}
int Depth(const Case& c) {  // multiply-accumulates per output value
  const auto& w = c.weights_shape;
  if (c.op == Op::kFullyConnected) return w[1];
  if (c.op == Op::kConv) return w[1] * w[2] * w[3];
  return w[1] * w[2];
}

struct Quant {
  float input_scale = 1.f;
  int64_t input_zero_point = 0;
  std::vector<float> weight_scales;
  float output_scale = 1.f;
  int64_t output_zero_point = 0;
};

Quant PickQuant(const Case& c, std::mt19937* rng) {
  std::uniform_real_distribution<float> scale(0.01f, 0.05f);
  Quant q;
  const bool int16 = c.input_type == tflite::TensorType_INT16;
  q.input_scale = int16 ? 0.0005f : 0.02f;
  q.input_zero_point = c.input_type == tflite::TensorType_INT8 ? 3 : 0;
  q.weight_scales.resize(c.per_channel ? Channels(c) : 1);
  for (float& s : q.weight_scales) s = scale(*rng);
  // About the spread of a sum of Depth products of typical input and weight values.
  const float typical = (int16 ? 3000.f : 60.f) * q.input_scale * 4.f * 0.03f;
  q.output_scale = typical * std::sqrt(static_cast<float>(Depth(c))) / (int16 ? 3000.f : 40.f);
  q.output_zero_point = c.input_type == tflite::TensorType_INT8 ? -5 : 0;
  return q;
}

// The one-node model with `weights` as INT4 (packed) or INT8.
std::vector<uint8_t> BuildModel(const Case& c, const Quant& q, const std::vector<int8_t>& weights,
                                const std::vector<int32_t>& bias_values, bool as_int4) {
  ModelBuilder b;
  const bool hybrid = c.input_type == tflite::TensorType_FLOAT32;
  const bool int16 = c.input_type == tflite::TensorType_INT16;
  int code = 0;
  switch (c.op) {
    case Op::kFullyConnected:
      code = b.AddOperatorCode(tflite::BuiltinOperator_FULLY_CONNECTED, as_int4 ? 10 : 4);
      break;
    case Op::kConv:
      code = b.AddOperatorCode(tflite::BuiltinOperator_CONV_2D, as_int4 ? 7 : 3);
      break;
    case Op::kDepthwise:
      code = b.AddOperatorCode(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, as_int4 ? 7 : 3);
      break;
  }
  TensorSpec in;
  in.type = c.input_type;
  in.shape = c.input_shape;
  in.name = "input";
  if (!hybrid) in.quantization = QuantParams{{q.input_scale}, {q.input_zero_point}, 0};
  const int input = b.AddTensor(in);

  TensorSpec w;
  w.name = "weights";
  w.shape = c.weights_shape;
  w.quantization =
      QuantParams{q.weight_scales,
                  std::vector<int64_t>(q.weight_scales.size(), c.weight_zero_point), ChannelDim(c)};
  if (as_int4) {
    std::vector<uint8_t> packed = PackNibbles(weights);
    packed.resize(packed.size() - static_cast<size_t>(c.drop_bytes));
    w.type = tflite::TensorType_INT4;
    w.buffer = static_cast<uint32_t>(b.AddBuffer(packed));
  } else {
    w.type = tflite::TensorType_INT8;
    w.buffer = static_cast<uint32_t>(b.AddTypedBuffer(weights));
  }
  const int filter = b.AddTensor(w);

  const int channels = Channels(c);
  TensorSpec bs;
  bs.name = "bias";
  bs.shape = {channels};
  if (hybrid) {
    std::vector<float> f(bias_values.begin(), bias_values.end());
    for (float& v : f) v *= 0.001f;
    bs.type = tflite::TensorType_FLOAT32;
    bs.buffer = static_cast<uint32_t>(b.AddTypedBuffer(f));
  } else {
    std::vector<float> scales;
    for (float s : q.weight_scales) scales.push_back(q.input_scale * s);
    bs.quantization = QuantParams{scales, std::vector<int64_t>(scales.size(), 0), 0};
    if (int16) {
      bs.type = tflite::TensorType_INT64;
      bs.buffer = static_cast<uint32_t>(
          b.AddTypedBuffer(std::vector<int64_t>(bias_values.begin(), bias_values.end())));
    } else {
      bs.type = tflite::TensorType_INT32;
      bs.buffer = static_cast<uint32_t>(b.AddTypedBuffer(bias_values));
    }
  }
  const int bias = b.AddTensor(bs);

  TensorSpec out;
  out.type = c.input_type;
  out.name = "output";
  if (!hybrid) out.quantization = QuantParams{{q.output_scale}, {q.output_zero_point}, 0};
  if (c.op == Op::kFullyConnected) {
    out.shape = {c.input_shape[0], c.weights_shape[0]};
  } else {
    out.shape = {c.input_shape[0], c.input_shape[1], c.input_shape[2], channels};
  }
  const int output = b.AddTensor(out);

  format::BuiltOptions options;
  switch (c.op) {
    case Op::kFullyConnected:
      options = {tflite::BuiltinOptions_FullyConnectedOptions,
                 tflite::CreateFullyConnectedOptions(
                     b.fbb(), tflite::ActivationFunctionType_NONE,
                     tflite::FullyConnectedOptionsWeightsFormat_DEFAULT, false, c.asymmetric_inputs)
                     .Union()};
      break;
    case Op::kConv:
      options = b.Conv2DOptions(tflite::Padding_SAME, 1, 1);
      break;
    case Op::kDepthwise:
      options = b.DepthwiseConv2DOptions(tflite::Padding_SAME, 1, 1, c.depth_multiplier);
      break;
  }
  b.AddOperator(code, {input, filter, bias}, {output}, options);
  b.SetInputs({input});
  b.SetOutputs({output});
  return b.Finish();
}

using Reporter = ::octet::testing::CaptureReporter;

struct Outcome {
  bool loaded = false;
  TfLiteStatus allocate = kTfLiteError;
  TfLiteStatus invoke = kTfLiteError;
  std::vector<uint8_t> output;
  std::string log;
  size_t kernel_bytes = 0;  // persistent kernel memory after the first prepare
};

// Loads `model`, feeds `input` (raw bytes of the input tensor), invokes once. `resize_rows`
// > 0 then resizes a FULLY_CONNECTED input to that many rows and invokes again (re-prepare).
Outcome RunModel(const std::vector<uint8_t>& model, const std::vector<uint8_t>& input,
                 int resize_rows = 0, const std::vector<uint8_t>& input2 = {}) {
  Outcome o;
  Reporter reporter;
  const ::octet::testing::BuiltinInterpreter built =
      ::octet::testing::BuildWithBuiltins(model, &reporter);
  tflite::Interpreter* interpreter = built.interpreter.get();
  o.loaded = interpreter != nullptr;
  if (o.loaded) {
    o.allocate = interpreter->AllocateTensors();
    o.kernel_bytes = interpreter->primary_subgraph().kernel_persistent_bytes();
    TfLiteTensor* in = interpreter->tensor(interpreter->inputs()[0]);
    if (o.allocate == kTfLiteOk && in->bytes == input.size()) {
      std::memcpy(in->data.raw, input.data(), input.size());
      o.invoke = interpreter->Invoke();
    }
    if (o.invoke == kTfLiteOk && resize_rows > 0) {
      const std::vector<int> dims = {resize_rows, in->dims->data[1]};
      o.invoke = kTfLiteError;
      if (interpreter->ResizeInputTensor(interpreter->inputs()[0], dims) == kTfLiteOk &&
          interpreter->AllocateTensors() == kTfLiteOk) {
        in = interpreter->tensor(interpreter->inputs()[0]);
        if (in->bytes == input2.size()) {
          std::memcpy(in->data.raw, input2.data(), input2.size());
          o.invoke = interpreter->Invoke();
        }
      }
    }
    if (o.invoke == kTfLiteOk) {
      const TfLiteTensor* out = interpreter->tensor(interpreter->outputs()[0]);
      o.output.assign(out->data.raw, out->data.raw + out->bytes);
    }
  }
  o.log = reporter.text;
  return o;
}

std::vector<uint8_t> RandomInput(const Case& c, size_t count, std::mt19937* rng) {
  std::vector<uint8_t> bytes;
  if (c.input_type == tflite::TensorType_INT8) {
    for (size_t i = 0; i < count; ++i) bytes.push_back(static_cast<uint8_t>((*rng)()));
  } else if (c.input_type == tflite::TensorType_INT16) {
    std::uniform_int_distribution<int> v(-6000, 6000);
    for (size_t i = 0; i < count; ++i) {
      const int16_t x = static_cast<int16_t>(v(*rng));
      const auto* p = reinterpret_cast<const uint8_t*>(&x);
      bytes.insert(bytes.end(), p, p + 2);
    }
  } else {
    std::uniform_real_distribution<float> v(-1.f, 1.f);
    for (size_t i = 0; i < count; ++i) {
      const float x = v(*rng);
      const auto* p = reinterpret_cast<const uint8_t*>(&x);
      bytes.insert(bytes.end(), p, p + 4);
    }
  }
  return bytes;
}

// How many distinct output elements (of the input type's width): a check that the outputs
// compared carry information (not all clamped to one value).
size_t Distinct(const Case& c, const std::vector<uint8_t>& bytes) {
  const size_t width = c.input_type == tflite::TensorType_INT8    ? 1
                       : c.input_type == tflite::TensorType_INT16 ? 2
                                                                  : 4;
  std::set<std::vector<uint8_t>> seen;
  for (size_t i = 0; i + width <= bytes.size(); i += width) {
    seen.emplace(bytes.begin() + i, bytes.begin() + i + width);
  }
  return seen.size();
}

std::string Name(const Case& c) {
  const char* op = c.op == Op::kFullyConnected ? "FULLY_CONNECTED"
                   : c.op == Op::kConv         ? "CONV_2D"
                                               : "DEPTHWISE_CONV_2D";
  std::string s = std::string(op) + " " + tflite::EnumNameTensorType(c.input_type) +
                  (c.per_channel ? " per-channel" : " per-tensor") + " weights";
  for (int32_t d : c.weights_shape) s += " " + std::to_string(d);
  return s + " (" + std::to_string(Count(c.weights_shape)) + " elements)";
}

// The INT4 model and its INT8 twin give the same bytes, on the reference and the best path.
void ExpectSameAsInt8(const Case& c, uint32_t seed) {
  SCOPED_TRACE(Name(c));
  std::mt19937 rng(seed);
  const Quant q = PickQuant(c, &rng);
  std::vector<int8_t> weights(Count(c.weights_shape));
  std::uniform_int_distribution<int> nibble(-8, 7);
  for (int8_t& v : weights) v = static_cast<int8_t>(nibble(rng));
  weights[0] = -8;  // both extremes, whatever the draw
  weights.back() = 7;
  std::vector<int32_t> bias(Channels(c));
  for (int32_t& v : bias) v = static_cast<int32_t>(rng() % 2001) - 1000;
  const std::vector<uint8_t> int4_model = BuildModel(c, q, weights, bias, true);
  const std::vector<uint8_t> int8_model = BuildModel(c, q, weights, bias, false);
  const bool fc = c.op == Op::kFullyConnected;
  const int rows2 = fc ? c.input_shape[0] + 2 : 0;
  const std::vector<uint8_t> input = RandomInput(c, Count(c.input_shape), &rng);
  const std::vector<uint8_t> input2 =
      fc ? RandomInput(c, static_cast<size_t>(rows2) * c.input_shape[1], &rng)
         : std::vector<uint8_t>{};

  for (cpu::Isa isa : {cpu::Isa::kReference, cpu::BestIsa()}) {
    SCOPED_TRACE(cpu::IsaName(isa));
    testing::IsaScope scope(isa);
    ASSERT_TRUE(scope.ok);
    const Outcome want = RunModel(int8_model, input, rows2, input2);
    ASSERT_EQ(want.invoke, kTfLiteOk) << want.log;
    ASSERT_GT(Distinct(c, want.output), 2u) << "outputs carry no information";
    const Outcome got = RunModel(int4_model, input, rows2, input2);
    ASSERT_EQ(got.invoke, kTfLiteOk) << got.log;
    EXPECT_EQ(got.output, want.output);
    // The unpacked copy is kernel memory, on top of what the INT8 model's kernels hold.
    EXPECT_EQ(got.kernel_bytes - want.kernel_bytes, weights.size());
  }
}

Case Fc(tflite::TensorType type, bool per_channel, int rows, int units, int depth) {
  Case c;
  c.op = Op::kFullyConnected;
  c.input_type = type;
  c.per_channel = per_channel;
  c.input_shape = {rows, depth};
  c.weights_shape = {units, depth};
  return c;
}

Case Conv(bool per_channel, int h, int w, int in_c, int out_c, int k) {
  Case c;
  c.op = Op::kConv;
  c.per_channel = per_channel;
  c.input_shape = {1, h, w, in_c};
  c.weights_shape = {out_c, k, k, in_c};
  return c;
}

Case Depthwise(bool per_channel, int h, int w, int in_c, int multiplier, int k) {
  Case c;
  c.op = Op::kDepthwise;
  c.per_channel = per_channel;
  c.input_shape = {1, h, w, in_c};
  c.weights_shape = {1, k, k, in_c * multiplier};
  c.depth_multiplier = multiplier;
  return c;
}

TEST(Int4Weights, UnpackSignExtendsLowNibbleFirst) {
  // 0x21: 1 then 2; 0xF8: -8 then -1; 0x97: 7 (an odd count leaves the last high nibble unread).
  const uint8_t packed[] = {0x21, 0xF8, 0x97};
  int8_t out[5] = {};
  ops::nn::UnpackInt4(packed, 5, out);
  const int8_t want[5] = {1, 2, -8, -1, 7};
  EXPECT_EQ(0, std::memcmp(out, want, sizeof want));
  // Every byte value: both nibbles against the arithmetic definition.
  for (int byte = 0; byte < 256; ++byte) {
    const uint8_t b = static_cast<uint8_t>(byte);
    int8_t pair[2];
    ops::nn::UnpackInt4(&b, 2, pair);
    const int lo = byte & 15, hi = byte >> 4;
    EXPECT_EQ(pair[0], lo >= 8 ? lo - 16 : lo) << byte;
    EXPECT_EQ(pair[1], hi >= 8 ? hi - 16 : hi) << byte;
  }
}

TEST(Int4Weights, FullyConnectedInt8MatchesInt8Weights) {
  uint32_t seed = 1;
  for (bool per_channel : {true, false}) {
    ExpectSameAsInt8(Fc(tflite::TensorType_INT8, per_channel, 3, 5, 7), seed++);    // 35: odd
    ExpectSameAsInt8(Fc(tflite::TensorType_INT8, per_channel, 2, 16, 40), seed++);  // even
    ExpectSameAsInt8(Fc(tflite::TensorType_INT8, per_channel, 1, 33, 19), seed++);  // odd, 1 row
  }
}

TEST(Int4Weights, FullyConnectedInt16MatchesInt8Weights) {
  uint32_t seed = 11;
  for (bool per_channel : {true, false}) {
    ExpectSameAsInt8(Fc(tflite::TensorType_INT16, per_channel, 3, 5, 9), seed++);   // odd
    ExpectSameAsInt8(Fc(tflite::TensorType_INT16, per_channel, 2, 8, 12), seed++);  // even
  }
}

TEST(Int4Weights, FullyConnectedHybridMatchesInt8Weights) {
  uint32_t seed = 21;
  for (bool per_channel : {true, false}) {
    for (bool asymmetric : {false, true}) {
      Case odd = Fc(tflite::TensorType_FLOAT32, per_channel, 3, 7, 11);
      odd.asymmetric_inputs = asymmetric;
      ExpectSameAsInt8(odd, seed++);
      Case even = Fc(tflite::TensorType_FLOAT32, per_channel, 4, 24, 32);
      even.asymmetric_inputs = asymmetric;
      ExpectSameAsInt8(even, seed++);
    }
  }
}

TEST(Int4Weights, Conv2dInt8MatchesInt8Weights) {
  uint32_t seed = 31;
  for (bool per_channel : {true, false}) {
    ExpectSameAsInt8(Conv(per_channel, 6, 5, 3, 3, 3), seed++);  // 81: odd
    ExpectSameAsInt8(Conv(per_channel, 7, 7, 4, 8, 3), seed++);  // 288: even
    ExpectSameAsInt8(Conv(per_channel, 5, 4, 5, 7, 1), seed++);  // 35: odd, 1x1
  }
}

TEST(Int4Weights, DepthwiseConv2dInt8MatchesInt8Weights) {
  uint32_t seed = 41;
  for (bool per_channel : {true, false}) {
    ExpectSameAsInt8(Depthwise(per_channel, 6, 6, 5, 1, 3), seed++);   // 45: odd
    ExpectSameAsInt8(Depthwise(per_channel, 8, 7, 16, 1, 3), seed++);  // 144: even
    ExpectSameAsInt8(Depthwise(per_channel, 5, 5, 3, 3, 3), seed++);   // 81, multiplier 3
    ExpectSameAsInt8(Depthwise(per_channel, 5, 5, 1, 5, 3), seed++);   // one input channel
  }
}

// Builds and runs the INT4 model of `c`; it must fail with `message` in the log.
void ExpectRefused(const Case& c, const std::string& message) {
  SCOPED_TRACE(Name(c));
  std::mt19937 rng(5);
  const Quant q = PickQuant(c, &rng);
  std::vector<int8_t> weights(Count(c.weights_shape), 3);
  std::vector<int32_t> bias(Channels(c), 0);
  const Outcome o =
      RunModel(BuildModel(c, q, weights, bias, true), RandomInput(c, Count(c.input_shape), &rng));
  EXPECT_NE(o.invoke, kTfLiteOk);
  EXPECT_NE(o.log.find(message), std::string::npos) << o.log;
}

TEST(Int4Weights, RefusedWhereTfliteRefusesThem) {
  Case conv16 = Conv(true, 4, 4, 2, 3, 3);
  conv16.input_type = tflite::TensorType_INT16;
  ExpectRefused(conv16, "CONV_2D: INT4 filter: the input must be INT8, got INT16");
  Case conv_hybrid = Conv(true, 4, 4, 2, 3, 3);
  conv_hybrid.input_type = tflite::TensorType_FLOAT32;
  ExpectRefused(conv_hybrid, "CONV_2D: INT4 filter: the input must be INT8, got FLOAT32");
  Case dw16 = Depthwise(true, 4, 4, 3, 1, 3);
  dw16.input_type = tflite::TensorType_INT16;
  ExpectRefused(dw16, "DEPTHWISE_CONV_2D: INT4 filter: the input must be INT8, got INT16");
  Case dw_hybrid = Depthwise(true, 4, 4, 3, 1, 3);
  dw_hybrid.input_type = tflite::TensorType_FLOAT32;
  ExpectRefused(dw_hybrid, "DEPTHWISE_CONV_2D: INT4 filter: the input must be INT8, got FLOAT32");
  Case fc_uint8 = Fc(tflite::TensorType_UINT8, false, 2, 3, 5);
  ExpectRefused(
      fc_uint8,
      "FULLY_CONNECTED: INT4 weights: the input must be INT8, INT16 or FLOAT32, got UINT8");
}

TEST(Int4Weights, AsymmetricWeightsAreRefused) {
  Case fc = Fc(tflite::TensorType_INT8, false, 2, 3, 5);
  fc.weight_zero_point = 2;
  ExpectRefused(fc, "FULLY_CONNECTED: INT4 weights must be quantized symmetrically");
}

TEST(Int4Weights, ShortBufferIsRefusedAtLoad) {
  for (int elements_odd = 0; elements_odd < 2; ++elements_odd) {
    Case fc = Fc(tflite::TensorType_INT8, false, 2, 3, 4 + elements_odd);  // 12 or 15 values
    fc.drop_bytes = 1;
    std::mt19937 rng(9);
    const Quant q = PickQuant(fc, &rng);
    const Outcome o = RunModel(BuildModel(fc, q, std::vector<int8_t>(Count(fc.weights_shape), 1),
                                          std::vector<int32_t>(3, 0), true),
                               RandomInput(fc, Count(fc.input_shape), &rng));
    EXPECT_FALSE(o.loaded);
    const size_t packed = (Count(fc.weights_shape) + 1) / 2;
    const std::string want = "holds " + std::to_string(packed - 1) + " bytes but the shape needs " +
                             std::to_string(packed) + " (INT4: two values per byte)";
    EXPECT_NE(o.log.find(want), std::string::npos) << o.log;
  }
}

// A tensor edited through the C++ API after loading: the op itself checks the byte count.
TEST(Int4Weights, ShortTensorIsRefusedAtPrepare) {
  Case fc = Fc(tflite::TensorType_INT8, true, 2, 3, 5);  // 15 values: 8 bytes
  std::mt19937 rng(3);
  const Quant q = PickQuant(fc, &rng);
  const std::vector<uint8_t> model =
      BuildModel(fc, q, std::vector<int8_t>(15, -3), std::vector<int32_t>(3, 0), true);
  Reporter reporter;
  auto fb = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(model.data()),
                                                     model.size(), &reporter);
  ASSERT_NE(fb, nullptr) << reporter.text;
  std::unique_ptr<tflite::Interpreter> interpreter;
  tflite::ops::builtin::BuiltinOpResolver resolver;
  tflite::InterpreterBuilder(*fb, resolver)(&interpreter);
  ASSERT_NE(interpreter, nullptr) << reporter.text;
  TfLiteTensor* weights = interpreter->tensor(1);
  ASSERT_EQ(weights->type, kTfLiteInt4);
  ASSERT_EQ(weights->bytes, 8u);
  weights->bytes = 7;
  EXPECT_NE(interpreter->AllocateTensors(), kTfLiteOk);
  EXPECT_NE(reporter.text.find("FULLY_CONNECTED: INT4 weights 'weights': 7 bytes, 15 "
                               "elements need 8 (two per byte)"),
            std::string::npos)
      << reporter.text;
}

// `octet inspect` loads, prepares and lists the model: the weights show as INT4. (A Cli*
// suite: it runs the host CLI, which the aarch64 CI step leaves out.)
TEST(CliInt4Weights, InspectShowsInt4) {
  Case c = Conv(true, 5, 5, 3, 4, 3);
  std::mt19937 rng(8);
  const Quant q = PickQuant(c, &rng);
  const std::vector<uint8_t> model = BuildModel(
      c, q, std::vector<int8_t>(Count(c.weights_shape), -5), std::vector<int32_t>(4, 1), true);
  const std::string dir = testing::MakeTempDir("octet_int4");
  const std::string path = dir + "/int4_conv.tflite";
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(model.data()),
            static_cast<std::streamsize>(model.size()));
  }
  const testing::CliResult r = testing::RunOctetCli("inspect --tensors " + path);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("INT4"), std::string::npos) << r.output;
  std::remove(path.c_str());
  std::remove(dir.c_str());
}

}  // namespace
}  // namespace octet
