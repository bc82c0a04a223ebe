#include "models/mobilenet_v2.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "format/model_builder.h"

namespace octet::models {
namespace {

using tflite::ActivationFunctionType;
using tflite::Padding;
using tflite::TensorType_INT32;
using tflite::TensorType_INT8;

// Activation quantization: after ReLU6 [0, 6] fills int8; linear outputs span about ±8.
constexpr float kRelu6Scale = 6.0f / 255.0f;
constexpr int kRelu6ZeroPoint = -128;
constexpr float kLinearScale = 16.0f / 255.0f;
constexpr int kLinearZeroPoint = 0;

struct Activation {
  int tensor;
  int h, w, c;
  float scale;
  int zero_point;
};

struct Stage {
  int expansion, channels, blocks, stride;
};
constexpr Stage kStages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                             {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};

int Scaled(int channels, float width) {
  return std::max(8, static_cast<int>(std::lround(channels * width / 8.0f)) * 8);
}

class Builder {
 public:
  Builder(const MobileNetV2Config& c) : config_(c), rng_(c.seed) {
    conv_ = b_.AddOperatorCode(tflite::BuiltinOperator_CONV_2D, 3);
    dw_ = b_.AddOperatorCode(tflite::BuiltinOperator_DEPTHWISE_CONV_2D, 3);
    add_ = b_.AddOperatorCode(tflite::BuiltinOperator_ADD, 2);
    mean_ = b_.AddOperatorCode(tflite::BuiltinOperator_MEAN, 2);
    fc_ = b_.AddOperatorCode(tflite::BuiltinOperator_FULLY_CONNECTED, 4);
    softmax_ = b_.AddOperatorCode(tflite::BuiltinOperator_SOFTMAX, 2);
  }

  std::vector<uint8_t> Build() {
    const int r = config_.resolution;
    Activation x{Tensor({1, r, r, 3}, "input", 1.0f / 128, 0), r, r, 3, 1.0f / 128, 0};
    b_.SetInputs({x.tensor});
    x = Conv(x, Scaled(32, config_.width), 3, 2, true);
    for (const Stage& s : kStages) {
      const int blocks =
          config_.blocks_per_stage < 0 ? s.blocks : std::min(s.blocks, config_.blocks_per_stage);
      for (int i = 0; i < blocks; ++i) {
        x = InvertedResidual(x, s.expansion, Scaled(s.channels, config_.width),
                             i == 0 ? s.stride : 1);
      }
    }
    x = Conv(x, config_.width > 1.0f ? Scaled(1280, config_.width) : 1280, 1, 1, true);
    // Global average pooling (MEAN over H and W), same quantization in and out.
    const int axes = b_.AddConstTensor(TensorType_INT32, {2}, std::vector<int32_t>{1, 2}, "axes");
    const int pooled = Tensor({1, x.c}, "pool", x.scale, x.zero_point);
    octet::format::BuiltOptions mean_options;
    mean_options.type = tflite::BuiltinOptions_ReducerOptions;
    mean_options.offset = tflite::CreateReducerOptions(b_.fbb(), false).Union();
    b_.AddOperator(mean_, {x.tensor, axes}, {pooled}, mean_options);
    const Activation p{pooled, 1, 1, x.c, x.scale, x.zero_point};
    const int logits = FullyConnected(p, config_.classes);
    const int probs = Tensor({1, config_.classes}, "probs", 1.0f / 256, -128);
    b_.AddOperator(softmax_, {logits}, {probs}, b_.SoftmaxOptions(1.0f));
    // The logits too: a second output whose bytes vary with every weight of the network.
    b_.SetOutputs({probs, logits});
    b_.SetDescription("octet MobileNetV2-style int8 network (synthetic weights)");
    return b_.Finish();
  }

 private:
  int Tensor(std::vector<int32_t> shape, const std::string& name, float scale, int zero_point) {
    return b_.AddQuantizedTensor(TensorType_INT8, std::move(shape), name + std::to_string(count_++),
                                 {scale}, {zero_point});
  }

  // Seeded int8 weights and per-channel scales making each output channel's standard deviation
  // about the same whatever the fan-in, plus a small int32 bias.
  void Weights(int channels, int fan_in, float input_scale, int weights_per_channel,
               std::vector<int8_t>* w, std::vector<float>* scales, std::vector<int32_t>* bias,
               bool channels_last) {
    std::uniform_int_distribution<int> value(-127, 127);
    std::uniform_real_distribution<float> jitter(0.7f, 1.3f);
    w->resize(static_cast<size_t>(channels) * weights_per_channel);
    for (auto& v : *w) v = static_cast<int8_t>(value(rng_));
    if (!w->empty() && (rng_() % 2)) (*w)[0] = -128;  // the value VNNI kernels must handle
    (void)channels_last;
    scales->resize(channels);
    bias->resize(channels);
    // int8 weights uniform in [-127, 127] have std ~73; aim each product sum at std ~2 (real).
    for (int c = 0; c < channels; ++c) {
      (*scales)[c] = 2.0f * jitter(rng_) / (73.0f * std::sqrt(static_cast<float>(fan_in)) * 1.5f);
      const float bias_real = std::uniform_real_distribution<float>(-0.5f, 0.5f)(rng_);
      (*bias)[c] = static_cast<int32_t>(std::lround(bias_real / (input_scale * (*scales)[c])));
    }
  }

  Activation Conv(const Activation& x, int out_c, int k, int stride, bool relu6) {
    std::vector<int8_t> w;
    std::vector<float> scales;
    std::vector<int32_t> bias;
    Weights(out_c, k * k * x.c, x.scale, k * k * x.c, &w, &scales, &bias, false);
    const int wt = b_.AddBuffer(w.data(), w.size());
    const int weights =
        b_.AddQuantizedTensor(TensorType_INT8, {out_c, k, k, x.c}, "w" + std::to_string(count_++),
                              scales, std::vector<int64_t>(out_c, 0), 0, wt);
    const int bias_t = BiasTensor(bias, scales, x.scale);
    const int oh = (x.h + stride - 1) / stride, ow = (x.w + stride - 1) / stride;
    const float scale = relu6 ? kRelu6Scale : kLinearScale;
    const int zp = relu6 ? kRelu6ZeroPoint : kLinearZeroPoint;
    const int out = Tensor({1, oh, ow, out_c}, "conv", scale, zp);
    b_.AddOperator(conv_, {x.tensor, weights, bias_t}, {out},
                   b_.Conv2DOptions(Padding::Padding_SAME, stride, stride,
                                    relu6 ? ActivationFunctionType::ActivationFunctionType_RELU6
                                          : ActivationFunctionType::ActivationFunctionType_NONE));
    return {out, oh, ow, out_c, scale, zp};
  }

  Activation Depthwise(const Activation& x, int stride) {
    std::vector<int8_t> w;
    std::vector<float> scales;
    std::vector<int32_t> bias;
    Weights(x.c, 9, x.scale, 9, &w, &scales, &bias, true);
    // [1, 3, 3, C]: channel fastest; the generated values are reused as they come.
    const int wt = b_.AddBuffer(w.data(), w.size());
    const int weights =
        b_.AddQuantizedTensor(TensorType_INT8, {1, 3, 3, x.c}, "dw" + std::to_string(count_++),
                              scales, std::vector<int64_t>(x.c, 0), 3, wt);
    const int bias_t = BiasTensor(bias, scales, x.scale);
    const int oh = (x.h + stride - 1) / stride, ow = (x.w + stride - 1) / stride;
    const int out = Tensor({1, oh, ow, x.c}, "dw", kRelu6Scale, kRelu6ZeroPoint);
    b_.AddOperator(dw_, {x.tensor, weights, bias_t}, {out},
                   b_.DepthwiseConv2DOptions(Padding::Padding_SAME, stride, stride, 1,
                                             ActivationFunctionType::ActivationFunctionType_RELU6));
    return {out, oh, ow, x.c, kRelu6Scale, kRelu6ZeroPoint};
  }

  Activation InvertedResidual(const Activation& x, int expansion, int out_c, int stride) {
    Activation y = x;
    if (expansion != 1) y = Conv(y, x.c * expansion, 1, 1, true);
    y = Depthwise(y, stride);
    y = Conv(y, out_c, 1, 1, false);
    if (stride != 1 || x.c != out_c) return y;
    const int sum = Tensor({1, y.h, y.w, y.c}, "add", kLinearScale, kLinearZeroPoint);
    b_.AddOperator(add_, {x.tensor, y.tensor}, {sum}, b_.AddOptions());
    return {sum, y.h, y.w, y.c, kLinearScale, kLinearZeroPoint};
  }

  int FullyConnected(const Activation& x, int units) {
    std::vector<int8_t> w;
    std::vector<float> scales;
    std::vector<int32_t> bias;
    Weights(1, x.c, x.scale, static_cast<int>(units) * x.c, &w, &scales, &bias, false);
    const int wt = b_.AddBuffer(w.data(), w.size());
    const int weights =
        b_.AddQuantizedTensor(TensorType_INT8, {units, x.c}, "fc_w", scales, {0}, 0, wt);
    std::vector<int32_t> fc_bias(units);
    for (int u = 0; u < units; ++u) fc_bias[u] = bias[0] + static_cast<int32_t>(rng_() % 200) - 100;
    const int bias_t = BiasTensor(fc_bias, std::vector<float>(units, scales[0]), x.scale);
    const int out = Tensor({1, units}, "logits", 0.1f, 0);
    b_.AddOperator(fc_, {x.tensor, weights, bias_t}, {out}, b_.FullyConnectedOptions());
    return out;
  }

  int BiasTensor(const std::vector<int32_t>& bias, const std::vector<float>& weight_scales,
                 float input_scale) {
    std::vector<float> scales;
    for (float s : weight_scales) scales.push_back(s * input_scale);
    const int buffer = b_.AddTypedBuffer(bias);
    const bool per_tensor =
        scales.size() > 1 && std::equal(scales.begin() + 1, scales.end(), scales.begin());
    if (per_tensor) scales.resize(1);
    return b_.AddQuantizedTensor(TensorType_INT32, {static_cast<int32_t>(bias.size())},
                                 "b" + std::to_string(count_++), scales,
                                 std::vector<int64_t>(scales.size(), 0), 0, buffer);
  }

  MobileNetV2Config config_;
  std::mt19937 rng_;
  octet::format::ModelBuilder b_;
  int conv_, dw_, add_, mean_, fc_, softmax_;
  int count_ = 0;
};

}  // namespace

std::vector<uint8_t> BuildMobileNetV2Int8(const MobileNetV2Config& config) {
  return Builder(config).Build();
}

int64_t MobileNetV2Macs(const MobileNetV2Config& config) {
  int64_t macs = 0;
  int h = (config.resolution + 1) / 2;
  int c = Scaled(32, config.width);
  macs += int64_t{h} * h * c * 27;
  for (const Stage& s : kStages) {
    const int blocks =
        config.blocks_per_stage < 0 ? s.blocks : std::min(s.blocks, config.blocks_per_stage);
    for (int i = 0; i < blocks; ++i) {
      const int stride = i == 0 ? s.stride : 1;
      const int out_c = Scaled(s.channels, config.width);
      const int mid = c * s.expansion;
      if (s.expansion != 1) macs += int64_t{h} * h * c * mid;
      h = (h + stride - 1) / stride;
      macs += int64_t{h} * h * mid * 9;
      macs += int64_t{h} * h * mid * out_c;
      c = out_c;
    }
  }
  const int last = config.width > 1.0f ? Scaled(1280, config.width) : 1280;
  macs += int64_t{h} * h * c * last;
  macs += int64_t{last} * config.classes;
  return macs;
}

}  // namespace octet::models
