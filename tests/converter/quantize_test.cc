// octet quantize: the parameter math against the spec's definitions, weights and bias against
// their formulas, and whole models quantized, verified, loaded by the runtime (whose prepare
// checks the int8 spec) and compared with the float model they came from.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "converter/graph.h"
#include "converter/quantize/calibrator.h"
#include "converter/quantize/quantize_model.h"
#include "converter/quantize/weight_quant.h"
#include "converter_test_util.h"
#include "format/model_builder.h"
#include "octet/npy.h"
#include "quant/choose_params.h"
#include "util/cli_runner.h"

namespace octet::testing {
namespace {

namespace fs = std::filesystem;
using format::ModelBuilder;
using octet::edit::TensorType_FLOAT32;

TEST(ChooseParams, RealZeroIsExactAndTheRangeEndsMapToTheCodeEnds) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-50.f, 50.f);
  for (int i = 0; i < 2000; ++i) {
    float lo = dist(rng), hi = dist(rng);
    if (lo > hi) std::swap(lo, hi);
    const quant::AffineParams p = quant::AsymmetricParams(lo, hi, -128, 127);
    ASSERT_GT(p.scale, 0.f);
    ASSERT_GE(p.zero_point, -128);
    ASSERT_LE(p.zero_point, 127);
    // 0 is a code (the zero point) and quantizes to it exactly.
    EXPECT_EQ(quant::QuantizeValue(0.f, p.scale, p.zero_point, -128, 127), p.zero_point);
    // The widened range [min(lo,0), max(hi,0)] spans the 255 steps.
    const float span = std::max(hi, 0.f) - std::min(lo, 0.f);
    EXPECT_NEAR(p.scale * 255.f, span, 1e-4f * span);
    EXPECT_LE(
        std::abs(quant::QuantizeValue(std::min(lo, 0.f), p.scale, p.zero_point, -128, 127) + 128),
        1);
    EXPECT_LE(
        std::abs(quant::QuantizeValue(std::max(hi, 0.f), p.scale, p.zero_point, -128, 127) - 127),
        1);
  }
  // Degenerate ranges still give a valid (positive) scale.
  EXPECT_GT(quant::AsymmetricParams(0.f, 0.f, -128, 127).scale, 0.f);
  EXPECT_EQ(quant::SymmetricScale(12.7f, 127), 0.1f);
}

TEST(WeightQuant, PerChannelSymmetricWeightsAndInt32Bias) {
  octet::edit::ModelT model;
  model.buffers.push_back(std::make_unique<octet::edit::BufferT>());
  auto graph = std::make_unique<octet::edit::SubGraphT>();
  std::vector<float> w(3 * 2 * 2 * 4);
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> dist(-2.f, 2.f);
  for (float& v : w) v = dist(rng);
  const int32_t wt = converter::AddConstantTensor(model, *graph, TensorType_FLOAT32, {3, 2, 2, 4},
                                                  converter::FloatBytes(w), "w");
  const int32_t bt = converter::AddConstantTensor(model, *graph, TensorType_FLOAT32, {3},
                                                  converter::FloatBytes({0.5f, -1.25f, 3.f}), "b");
  std::vector<float> scales;
  const int32_t q = converter::QuantizeWeights(model, *graph, wt, 0, &scales);
  ASSERT_GE(q, 0);
  ASSERT_EQ(scales.size(), 3u);
  const auto& qt = *graph->tensors[q];
  EXPECT_EQ(qt.type, octet::edit::TensorType_INT8);
  EXPECT_EQ(qt.quantization->zero_point, std::vector<int64_t>(3, 0));
  const std::vector<uint8_t>& codes = model.buffers[qt.buffer]->data;
  for (int c = 0; c < 3; ++c) {
    float max_abs = 0;
    for (int i = 0; i < 16; ++i) max_abs = std::max(max_abs, std::fabs(w[c * 16 + i]));
    EXPECT_FLOAT_EQ(scales[c], max_abs / 127.f);
    for (int i = 0; i < 16; ++i) {
      const int code = static_cast<int8_t>(codes[c * 16 + i]);
      EXPECT_GE(code, -127);  // the spec's symmetric range: -128 never appears
      EXPECT_NEAR(code * scales[c], w[c * 16 + i], scales[c] / 2 + 1e-7f);
    }
  }
  const int32_t qb = converter::QuantizeBias(model, *graph, bt, 0.02f, scales);
  ASSERT_GE(qb, 0);
  const std::vector<uint8_t>& bias = model.buffers[graph->tensors[qb]->buffer]->data;
  const float real[3] = {0.5f, -1.25f, 3.f};
  for (int c = 0; c < 3; ++c) {
    int32_t v;
    std::memcpy(&v, &bias[4 * c], 4);
    EXPECT_EQ(v, static_cast<int32_t>(std::round(real[c] / (0.02f * scales[c]))));
    EXPECT_FLOAT_EQ(graph->tensors[qb]->quantization->scale[c], 0.02f * scales[c]);
  }
}

std::vector<float> Floats(size_t n, uint32_t seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// A small float classifier: CONV_2D(relu) -> DEPTHWISE(relu6) -> ADD(skip) -> AVERAGE_POOL ->
// RESHAPE -> FULLY_CONNECTED -> SOFTMAX.
Bytes FloatClassifier() {
  ModelBuilder b;
  const int conv = b.AddOperatorCode(tflite::BuiltinOperator_CONV_2D);
  const int dw = b.AddOperatorCode(tflite::BuiltinOperator_DEPTHWISE_CONV_2D);
  const int add = b.AddOperatorCode(tflite::BuiltinOperator_ADD);
  const int pool = b.AddOperatorCode(tflite::BuiltinOperator_AVERAGE_POOL_2D);
  const int reshape = b.AddOperatorCode(tflite::BuiltinOperator_RESHAPE);
  const int fc = b.AddOperatorCode(tflite::BuiltinOperator_FULLY_CONNECTED);
  const int softmax = b.AddOperatorCode(tflite::BuiltinOperator_SOFTMAX);
  const auto F = tflite::TensorType_FLOAT32;
  const int in = b.AddTensor(F, {1, 8, 8, 3}, "in");
  const int w1 = b.AddConstTensor(F, {8, 3, 3, 3}, Floats(216, 1, -0.5f, 0.5f), "w1");
  const int b1 = b.AddConstTensor(F, {8}, Floats(8, 2, -0.1f, 0.1f), "b1");
  const int c1 = b.AddTensor(F, {1, 8, 8, 8}, "c1");
  const int w2 = b.AddConstTensor(F, {1, 3, 3, 8}, Floats(72, 3, -0.5f, 0.5f), "w2");
  const int b2 = b.AddConstTensor(F, {8}, Floats(8, 4, -0.1f, 0.1f), "b2");
  const int c2 = b.AddTensor(F, {1, 8, 8, 8}, "c2");
  const int sum = b.AddTensor(F, {1, 8, 8, 8}, "sum");
  const int pooled = b.AddTensor(F, {1, 1, 1, 8}, "pooled");
  const int shape =
      b.AddConstTensor(tflite::TensorType_INT32, {2}, std::vector<int32_t>{1, 8}, "shape");
  const int flat = b.AddTensor(F, {1, 8}, "flat");
  const int w3 = b.AddConstTensor(F, {5, 8}, Floats(40, 5, -1.f, 1.f), "w3");
  const int b3 = b.AddConstTensor(F, {5}, Floats(5, 6, -0.1f, 0.1f), "b3");
  const int logits = b.AddTensor(F, {1, 5}, "logits");
  const int probs = b.AddTensor(F, {1, 5}, "probs");
  b.AddOperator(conv, {in, w1, b1}, {c1},
                b.Conv2DOptions(tflite::Padding_SAME, 1, 1, tflite::ActivationFunctionType_RELU));
  b.AddOperator(dw, {c1, w2, b2}, {c2},
                b.DepthwiseConv2DOptions(tflite::Padding_SAME, 1, 1, 1,
                                         tflite::ActivationFunctionType_RELU6));
  b.AddOperator(add, {c1, c2}, {sum}, b.AddOptions());
  b.AddOperator(pool, {sum}, {pooled}, b.Pool2DOptions(tflite::Padding_VALID, 8, 8, 8, 8));
  b.AddOperator(reshape, {pooled, shape}, {flat}, b.ReshapeOptions({1, 8}));
  b.AddOperator(fc, {flat, w3, b3}, {logits}, b.FullyConnectedOptions());
  b.AddOperator(softmax, {logits}, {probs}, b.SoftmaxOptions());
  b.SetInputs({in});
  b.SetOutputs({probs});
  return b.Finish();
}

std::vector<converter::Sample> RandomSamples(int n, uint32_t seed) {
  std::vector<converter::Sample> samples;
  for (int i = 0; i < n; ++i)
    samples.push_back({converter::FloatBytes(Floats(192, seed + i, -1.f, 1.f))});
  return samples;
}

Bytes Quantize(const Bytes& float_model, converter::QuantizeOptions options,
               converter::QuantizeSummary* summary) {
  std::string error;
  converter::ModelPtr model = converter::UnpackModel(float_model, &error);
  EXPECT_NE(model, nullptr) << error;
  std::map<int32_t, converter::TensorRange> ranges;
  if (options.mode == converter::QuantizeMode::kFullInt8 ||
      options.mode == converter::QuantizeMode::kInt16x8) {
    EXPECT_TRUE(converter::Calibrate(*model, RandomSamples(16, 100), {}, &ranges, &error)) << error;
  }
  EXPECT_TRUE(converter::QuantizeModel(*model, ranges, options, summary, &error)) << error;
  Bytes out;
  EXPECT_TRUE(converter::PackModel(*model, &out, &error)) << error;
  return out;
}

// Runs a model on float samples (quantizing them for an int8 input); dequantized output 0.
std::vector<float> RunOn(const Bytes& model, const converter::Sample& sample) {
  auto flat = tflite::FlatBufferModel::BuildFromBuffer(reinterpret_cast<const char*>(model.data()),
                                                       model.size());
  tflite::ops::builtin::BuiltinOpResolver resolver;
  std::unique_ptr<tflite::Interpreter> interp;
  EXPECT_EQ(tflite::InterpreterBuilder(*flat, resolver)(&interp), kTfLiteOk);
  EXPECT_EQ(interp->AllocateTensors(), kTfLiteOk);  // prepare checks the int8 spec
  TfLiteTensor* in = interp->tensor(interp->inputs()[0]);
  std::vector<float> x(sample[0].size() / 4);
  std::memcpy(x.data(), sample[0].data(), sample[0].size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (in->type == kTfLiteFloat32) {
      in->data.f[i] = x[i];
    } else {
      in->data.int8[i] = static_cast<int8_t>(
          quant::QuantizeValue(x[i], in->params.scale, in->params.zero_point, -128, 127));
    }
  }
  EXPECT_EQ(interp->Invoke(), kTfLiteOk);
  const TfLiteTensor* out = interp->tensor(interp->outputs()[0]);
  std::vector<float> y(out->bytes / (out->type == kTfLiteFloat32 ? 4 : 1));
  for (size_t i = 0; i < y.size(); ++i) {
    y[i] = out->type == kTfLiteFloat32
               ? out->data.f[i]
               : out->params.scale * (out->data.int8[i] - out->params.zero_point);
  }
  return y;
}

TEST(QuantizeModel, FullInt8ClassifierRunsInt8AndStaysCloseToFloat) {
  const Bytes float_model = FloatClassifier();
  for (auto io : {converter::QuantizeIo::kFloat, converter::QuantizeIo::kInt8}) {
    converter::QuantizeSummary summary;
    converter::QuantizeOptions options;
    options.io = io;
    const Bytes q = Quantize(float_model, options, &summary);
    EXPECT_TRUE(summary.kept_float.empty());
    EXPECT_EQ(summary.quantized.size(), 7u);
    // Every tensor the ops read or write is int8 (or the int32 bias / shape), except the
    // float interface of --io float.
    std::string error;
    converter::ModelPtr m = converter::UnpackModel(q, &error);
    ASSERT_NE(m, nullptr) << error;
    int float_tensors = 0;
    for (const auto& t : m->subgraphs[0]->tensors) float_tensors += t->type == TensorType_FLOAT32;
    EXPECT_EQ(float_tensors, io == converter::QuantizeIo::kFloat ? 2 : 0);
    // SOFTMAX's output has the spec's fixed parameters.
    for (const auto& op : m->subgraphs[0]->operators) {
      if (converter::OpCodeOf(*m, *op) == octet::edit::BuiltinOperator_SOFTMAX) {
        const auto& t = *m->subgraphs[0]->tensors[op->outputs[0]];
        EXPECT_EQ(t.quantization->scale[0], 1.f / 256.f);
        EXPECT_EQ(t.quantization->zero_point[0], -128);
      }
    }
    int agree = 0;
    const std::vector<converter::Sample> eval = RandomSamples(20, 500);
    for (const converter::Sample& s : eval) {
      const std::vector<float> a = RunOn(float_model, s), b = RunOn(q, s);
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 0.05f);
      agree += std::max_element(a.begin(), a.end()) - a.begin() ==
               std::max_element(b.begin(), b.end()) - b.begin();
    }
    EXPECT_GE(agree, 18);
  }
}

TEST(QuantizeModel, Int16x8HasSymmetricInt16ActivationsAndInt64Bias) {
  const Bytes float_model = FloatClassifier();
  converter::QuantizeSummary summary;
  converter::QuantizeOptions options;
  options.mode = converter::QuantizeMode::kInt16x8;
  const Bytes q = Quantize(float_model, options, &summary);
  EXPECT_TRUE(summary.kept_float.empty());
  std::string error;
  converter::ModelPtr m = converter::UnpackModel(q, &error);
  ASSERT_NE(m, nullptr) << error;
  int int16_tensors = 0, int64_bias = 0;
  for (const auto& t : m->subgraphs[0]->tensors) {
    if (t->type == octet::edit::TensorType_INT16) {
      ++int16_tensors;
      EXPECT_EQ(t->quantization->zero_point, std::vector<int64_t>{0}) << t->name;
    }
    int64_bias += t->type == octet::edit::TensorType_INT64;
  }
  EXPECT_GE(int16_tensors, 8);
  EXPECT_EQ(int64_bias, 3);  // the conv, depthwise and FC biases
  for (const converter::Sample& s : RandomSamples(10, 700)) {
    const std::vector<float> a = RunOn(float_model, s), b = RunOn(q, s);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 0.03f);
  }
}

TEST(QuantizeModel, DynamicRangeAndFloat16KeepFloatActivations) {
  const Bytes float_model = FloatClassifier();
  for (auto mode : {converter::QuantizeMode::kDynamicRange, converter::QuantizeMode::kFloat16}) {
    converter::QuantizeSummary summary;
    converter::QuantizeOptions options;
    options.mode = mode;
    const Bytes q = Quantize(float_model, options, &summary);
    EXPECT_LT(q.size(), float_model.size());
    for (const converter::Sample& s : RandomSamples(5, 900)) {
      const std::vector<float> a = RunOn(float_model, s), b = RunOn(q, s);
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_NEAR(a[i], b[i], mode == converter::QuantizeMode::kFloat16 ? 2e-3f : 0.03f);
      }
    }
  }
}

TEST(QuantizeModel, AlreadyQuantizedModelIsRefused) {
  ModelBuilder b;
  const int relu = b.AddOperatorCode(tflite::BuiltinOperator_RELU);
  const int in = b.AddQuantizedTensor(tflite::TensorType_INT8, {4}, "in", {0.1f}, {0});
  const int out = b.AddQuantizedTensor(tflite::TensorType_INT8, {4}, "out", {0.1f}, {0});
  b.AddOperator(relu, {in}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  std::string error;
  converter::ModelPtr m = converter::UnpackModel(b.Finish(), &error);
  converter::QuantizeSummary summary;
  EXPECT_FALSE(converter::QuantizeModel(*m, {}, {}, &summary, &error));
  EXPECT_NE(error.find("already quantized"), std::string::npos) << error;
}

TEST(CliQuantize, QuantizesReportsAndRefusesWithoutCalibration) {
  const std::string dir = MakeTempDir("octet_quantize_cli");
  const Bytes model = FloatClassifier();
  std::ofstream(dir + "/float.tflite", std::ios::binary)
      .write(reinterpret_cast<const char*>(model.data()),
             static_cast<std::streamsize>(model.size()));
  CliResult r = RunOctetCli("quantize " + dir + "/float.tflite -o " + dir +
                            "/int8.tflite --random 8 --io int8");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("quantized: CONV_2D"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("top-1 agreement with the float model"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("per-layer SQNR"), std::string::npos) << r.output;
  r = RunOctetCli("inspect " + dir + "/int8.tflite");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.find("spec violation"), std::string::npos) << r.output;
  r = RunOctetCli("quantize " + dir + "/float.tflite -o " + dir + "/x.tflite");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("needs --calibration"), std::string::npos) << r.output;
  r = RunOctetCli("quantize " + dir + "/int8.tflite -o " + dir + "/x.tflite --random 2");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("already quantized"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

// Calibration from files: a directory's .npy (a batch of samples) and pictures (resized and
// normalized as `run --image` does), and a separate eval set.
TEST(CliQuantize, CalibratesOnNpyBatchesAndPictures) {
  const std::string dir = MakeTempDir("octet_quantize_files");
  const Bytes model = FloatClassifier();
  std::ofstream(dir + "/float.tflite", std::ios::binary)
      .write(reinterpret_cast<const char*>(model.data()),
             static_cast<std::streamsize>(model.size()));
  fs::create_directory(dir + "/calib");
  const std::vector<float> batch = Floats(4 * 8 * 8 * 3, 77, -1.f, 1.f);
  std::string error;
  ASSERT_TRUE(WriteNpy(dir + "/calib/batch.npy", kTfLiteFloat32, {4, 8, 8, 3}, batch.data(),
                       batch.size() * sizeof(float), &error))
      << error;
  fs::copy_file(OCTET_SOURCE_DIR "/tests/cli/data/solid_16x16.jpg", dir + "/calib/solid.jpg");
  const std::vector<float> one = Floats(8 * 8 * 3, 78, -1.f, 1.f);
  ASSERT_TRUE(WriteNpy(dir + "/eval.npy", kTfLiteFloat32, {1, 8, 8, 3}, one.data(),
                       one.size() * sizeof(float), &error))
      << error;
  CliResult r = RunOctetCli("quantize " + dir + "/float.tflite -o " + dir + "/int8.tflite" +
                            " --calibration " + dir + "/calib --mean 127.5 --std 127.5 --eval " +
                            dir + "/eval.npy");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("calibration: 5 sample(s)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("accuracy on 1 eval sample(s)"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir + "/int8.tflite"));
  // A sample of the wrong shape is refused by name.
  const std::vector<float> wrong(10, 0.f);
  ASSERT_TRUE(WriteNpy(dir + "/wrong.npy", kTfLiteFloat32, {10}, wrong.data(), 40, &error));
  r = RunOctetCli("quantize " + dir + "/float.tflite -o " + dir + "/x.tflite --calibration " + dir +
                  "/wrong.npy");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("wrong.npy: shape does not match"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

TEST(QuantizeCorpus, ResNet8FloatQuantizedAgreesWithItsFloatModel) {
  const std::string dir = std::getenv("OCTET_MODELS")
                              ? std::getenv("OCTET_MODELS")
                              : std::string(OCTET_SOURCE_DIR) + "/../shared/models";
  const std::string path = dir + "/mlperf_ic_resnet8_float.tflite";
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path << " (set OCTET_MODELS)";
  std::ifstream in(path, std::ios::binary);
  const Bytes float_model((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string error;
  converter::ModelPtr model = converter::UnpackModel(float_model, &error);
  std::vector<converter::Sample> calibration;
  for (int i = 0; i < 16; ++i) {
    calibration.push_back({converter::FloatBytes(Floats(32 * 32 * 3, 40 + i, 0.f, 1.f))});
  }
  std::map<int32_t, converter::TensorRange> ranges;
  ASSERT_TRUE(converter::Calibrate(*model, calibration, {}, &ranges, &error)) << error;
  converter::QuantizeSummary summary;
  ASSERT_TRUE(converter::QuantizeModel(*model, ranges, {}, &summary, &error)) << error;
  EXPECT_TRUE(summary.kept_float.empty());
  Bytes q;
  ASSERT_TRUE(converter::PackModel(*model, &q, &error)) << error;
  int agree = 0;
  for (int i = 0; i < 20; ++i) {
    const converter::Sample s = {converter::FloatBytes(Floats(32 * 32 * 3, 1000 + i, 0.f, 1.f))};
    const std::vector<float> a = RunOn(float_model, s), b = RunOn(q, s);
    agree += std::max_element(a.begin(), a.end()) - a.begin() ==
             std::max_element(b.begin(), b.end()) - b.begin();
  }
  EXPECT_GE(agree, 17);
}

}  // namespace
}  // namespace octet::testing
