// TFLite's basic LSTM cell (see lstm_basic_cell.h), as reference_ops::LstmCell computes it.
// Gate order in the weights, biases and activation_temp: input, input modulation (tanh),
// forget, output, each `depth` rows.
#include "ops/nn/lstm_basic_cell.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

#include "ops/nn/nn_util.h"
#include "ops/op_util.h"
#include "quant/fixed_point.h"
#include "quant/quantization_util.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::nn {

namespace {

constexpr char kOp[] = "LSTM";

enum { kInputData = 0, kPrevActivation, kWeights, kBiases, kPrevState, kInputCount };
enum { kActivationOut = 0, kStateOut, kConcatTemp, kActivationTemp, kOutputCount };

struct Shape {
  int n_batch, input_depth, depth;
};

// The float cell: concat = [input, prev_activation]; each gate row's dot product plus its
// bias; c' = sigmoid(i) * tanh(g) + sigmoid(f) * c; h = sigmoid(o) * tanh(c').
void FloatCell(const Shape& s, const float* input, const float* prev_activation,
               const float* weights, const float* bias, const float* prev_state, float* state_out,
               float* activation_out, float* concat, float* activ) {
  const int total = s.input_depth + s.depth;
  const int rows = 4 * s.depth;
  for (int b = 0; b < s.n_batch; ++b) {
    float* cat = concat + int64_t{b} * total;
    std::copy(input + int64_t{b} * s.input_depth, input + int64_t{b + 1} * s.input_depth, cat);
    std::copy(prev_activation + int64_t{b} * s.depth, prev_activation + int64_t{b + 1} * s.depth,
              cat + s.input_depth);
    for (int r = 0; r < rows; ++r) {
      const float* w = weights + int64_t{r} * total;
      float sum = 0.f;
      for (int d = 0; d < total; ++d) sum += cat[d] * w[d];
      activ[int64_t{b} * rows + r] = sum + bias[r];
    }
  }
  auto sigmoid = [](float v) { return 1.f / (1.f + std::exp(-v)); };
  for (int b = 0; b < s.n_batch; ++b) {
    const float* a = activ + int64_t{b} * rows;
    for (int c = 0; c < s.depth; ++c) {
      const int64_t i = int64_t{b} * s.depth + c;
      const float input_gate = sigmoid(a[c]);
      const float new_input = std::tanh(a[s.depth + c]);
      const float forget_gate = sigmoid(a[2 * s.depth + c]);
      const float output_gate = sigmoid(a[3 * s.depth + c]);
      const float new_state = input_gate * new_input + forget_gate * prev_state[i];
      state_out[i] = new_state;
      activation_out[i] = output_gate * std::tanh(new_state);
    }
  }
}

// The quantized cell. Activations are uint8 with zero point 128 read as Q0.7, the gate
// accumulators go to int16 Q3.12, the state is int16 Q4.11.
void QuantizedCell(const Shape& s, const BasicLstmData& q, const uint8_t* input,
                   const uint8_t* prev_activation, const uint8_t* weights, const int32_t* bias,
                   const int16_t* prev_state, int16_t* state_out, uint8_t* activation_out,
                   uint8_t* concat, int16_t* activ) {
  namespace fp = quant::fixed_point;
  using F0 = fp::FixedPoint<int16_t, 0>;
  using F3 = fp::FixedPoint<int16_t, 3>;
  using FS = fp::FixedPoint<int16_t, 4>;
  const int total = s.input_depth + s.depth;
  const int rows = 4 * s.depth;
  for (int b = 0; b < s.n_batch; ++b) {
    uint8_t* cat = concat + int64_t{b} * total;
    std::copy(input + int64_t{b} * s.input_depth, input + int64_t{b + 1} * s.input_depth, cat);
    std::copy(prev_activation + int64_t{b} * s.depth, prev_activation + int64_t{b + 1} * s.depth,
              cat + s.input_depth);
    for (int r = 0; r < rows; ++r) {
      const uint8_t* w = weights + int64_t{r} * total;
      // TFLite sums in int32; wrap-around (not UB) for the huge depths that could overflow.
      uint32_t acc = static_cast<uint32_t>(bias[r]);
      for (int d = 0; d < total; ++d) {
        const int32_t x = int32_t{cat[d]} - 128;
        const int32_t wv = int32_t{w[d]} - q.weights_zero_point;
        acc += static_cast<uint32_t>(x * wv);
      }
      int32_t scaled = quant::MultiplyByQuantizedMultiplier(static_cast<int32_t>(acc),
                                                            q.accum_multiplier, q.accum_shift);
      scaled = std::max(-32768, std::min(32767, scaled));
      activ[int64_t{b} * rows + r] = static_cast<int16_t>(scaled);
    }
  }
  for (int b = 0; b < s.n_batch; ++b) {
    const int16_t* a = activ + int64_t{b} * rows;
    for (int c = 0; c < s.depth; ++c) {
      const int64_t i = int64_t{b} * s.depth + c;
      const F0 input_gate = fp::logistic(F3::FromRaw(a[c]));
      const F0 modulation = fp::tanh(F3::FromRaw(a[s.depth + c]));
      const F0 forget_gate = fp::logistic(F3::FromRaw(a[2 * s.depth + c]));
      const F0 output_gate = fp::logistic(F3::FromRaw(a[3 * s.depth + c]));
      const F0 input_times_modulation = input_gate * modulation;
      const FS kept = forget_gate * FS::FromRaw(prev_state[i]);
      const FS new_state = fp::SaturatingAdd(fp::Rescale<4>(input_times_modulation), kept);
      // tanh of the state read with 3 integer bits (saturating), as the reference does.
      const F0 h = output_gate * fp::tanh(fp::Rescale<3>(new_state));
      state_out[i] = new_state.raw();
      const int16_t rescaled = fp::RoundingDivideByPOT(h.raw(), 8);
      const int clamped = std::max<int>(-128, std::min<int>(127, rescaled));
      activation_out[i] = static_cast<uint8_t>(128 + clamped);
    }
  }
}

// TFLite's CheckedLog2: log2(x) when x is a power of two (within 1e-3 in the exponent).
bool CheckedLog2(float x, int* log2_result) {
  const float x_log2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(x_log2);
  *log2_result = static_cast<int>(rounded);
  return std::abs(x_log2 - rounded) < 1e-3f;
}

TfLiteStatus CheckDims(TfLiteContext* context, const char* name, const TfLiteTensor* t,
                       std::initializer_list<int> dims) {
  bool match = tflite::NumDimensions(t) == static_cast<int>(dims.size());
  int i = 0;
  for (int d : dims) match = match && t->dims->data[i++] == d;
  if (!match) {
    std::string want = "[", got = "[";
    i = 0;
    for (int d : dims) want += (i++ ? ", " : "") + std::to_string(d);
    for (int k = 0; k < tflite::NumDimensions(t); ++k) {
      got += (k ? ", " : "") + std::to_string(t->dims->data[k]);
    }
    TF_LITE_KERNEL_LOG(context, "%s: %s must have shape %s], got %s]", kOp, name, want.c_str(),
                       got.c_str());
    return kTfLiteError;
  }
  return kTfLiteOk;
}

const char* const kInputNames[kInputCount] = {"input", "prev_activation", "weights", "biases",
                                              "prev_state"};
const char* const kOutputNames[kOutputCount] = {"output", "state_out", "concat_temp",
                                                "activation_temp"};

}  // namespace

TfLiteStatus BasicLstmPrepare(TfLiteContext* context, TfLiteNode* node, BasicLstmData* data) {
  OCTET_OP_ENSURE(context, tflite::NumInputs(node) == kInputCount, kOp,
                  "the basic kernel takes 5 inputs, got %d", tflite::NumInputs(node));
  OCTET_OP_ENSURE(context, tflite::NumOutputs(node) == kOutputCount, kOp,
                  "the basic kernel has 4 outputs, got %d", tflite::NumOutputs(node));
  const TfLiteTensor* in[kInputCount];
  for (int i = 0; i < kInputCount; ++i) {
    in[i] = tflite::GetOptionalInputTensor(context, node, i);
    OCTET_OP_ENSURE(context, in[i] != nullptr, kOp, "%s (input %d) is required", kInputNames[i], i);
  }
  TfLiteTensor* out[kOutputCount];
  for (int i = 0; i < kOutputCount; ++i) {
    TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, i, &out[i]));
  }
  OCTET_OP_ENSURE(context, tflite::NumDimensions(in[kInputData]) == 2, kOp,
                  "input must be 2-D [batch, depth], got rank %d",
                  tflite::NumDimensions(in[kInputData]));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(in[kPrevActivation]) == 2, kOp,
                  "prev_activation must be 2-D [batch, depth], got rank %d",
                  tflite::NumDimensions(in[kPrevActivation]));
  const int n_batch = in[kInputData]->dims->data[0];
  const int input_depth = in[kInputData]->dims->data[1];
  const int depth = in[kPrevActivation]->dims->data[1];
  OCTET_OP_ENSURE(context, n_batch >= 0 && input_depth >= 0 && depth > 0, kOp,
                  "sizes must be positive, got batch %d, input depth %d, activation depth %d",
                  n_batch, input_depth, depth);
  OCTET_OP_ENSURE(context, depth <= (1 << 24) && input_depth <= (1 << 24), kOp,
                  "depths too large (%d, %d)", input_depth, depth);
  const int total = input_depth + depth;
  TF_LITE_ENSURE_OK(context,
                    CheckDims(context, "prev_activation", in[kPrevActivation], {n_batch, depth}));
  TF_LITE_ENSURE_OK(context, CheckDims(context, "weights", in[kWeights], {4 * depth, total}));
  TF_LITE_ENSURE_OK(context, CheckDims(context, "biases", in[kBiases], {4 * depth}));
  TF_LITE_ENSURE_OK(context, CheckDims(context, "prev_state", in[kPrevState], {n_batch, depth}));

  // Types: all float32, or the quantized set.
  const bool quantized = in[kInputData]->type == kTfLiteUInt8;
  const TfLiteType q_in[kInputCount] = {kTfLiteUInt8, kTfLiteUInt8, kTfLiteUInt8, kTfLiteInt32,
                                        kTfLiteInt16};
  const TfLiteType q_out[kOutputCount] = {kTfLiteUInt8, kTfLiteInt16, kTfLiteUInt8, kTfLiteInt16};
  OCTET_OP_ENSURE(context, quantized || in[kInputData]->type == kTfLiteFloat32, kOp,
                  "the basic kernel takes FLOAT32 or UINT8 input, got %s",
                  TfLiteTypeGetName(in[kInputData]->type));
  for (int i = 0; i < kInputCount; ++i) {
    const TfLiteType want = quantized ? q_in[i] : kTfLiteFloat32;
    OCTET_OP_ENSURE(context, in[i]->type == want, kOp, "%s must be %s with %s input, got %s",
                    kInputNames[i], TfLiteTypeGetName(want),
                    TfLiteTypeGetName(in[kInputData]->type), TfLiteTypeGetName(in[i]->type));
  }
  for (int i = 0; i < kOutputCount; ++i) {
    const TfLiteType want = quantized ? q_out[i] : kTfLiteFloat32;
    OCTET_OP_ENSURE(context, out[i]->type == want, kOp, "%s must be %s with %s input, got %s",
                    kOutputNames[i], TfLiteTypeGetName(want),
                    TfLiteTypeGetName(in[kInputData]->type), TfLiteTypeGetName(out[i]->type));
  }

  data->quantized = quantized;
  data->n_batch = n_batch;
  data->input_depth = input_depth;
  data->depth = depth;
  if (quantized) {
    // The state must be Q4.11: a power-of-two scale of 2^-11.
    const float state_scale = out[kStateOut]->params.scale;
    int log2_scale = 0;
    OCTET_OP_ENSURE(
        context,
        state_scale > 0.f && std::isfinite(state_scale) && CheckedLog2(state_scale, &log2_scale),
        kOp, "state_out scale must be a power of two, got %g", static_cast<double>(state_scale));
    OCTET_OP_ENSURE(context, 15 + log2_scale == 4, kOp,
                    "only a state with 4 integer bits (scale 2^-11) is supported, got scale 2^%d",
                    log2_scale);
    const int32_t zp = in[kWeights]->params.zero_point;
    OCTET_OP_ENSURE(context, zp >= 0 && zp <= 255, kOp,
                    "weights zero point must be in [0, 255], got %d", static_cast<int>(zp));
    const float bias_scale = in[kBiases]->params.scale;
    OCTET_OP_ENSURE(context, bias_scale > 0.f && std::isfinite(bias_scale), kOp,
                    "biases scale must be finite and > 0, got %g", static_cast<double>(bias_scale));
    quant::QuantizeMultiplier(4096.0 * bias_scale, &data->accum_multiplier, &data->accum_shift);
    OCTET_OP_ENSURE(context, data->accum_shift <= 30, kOp,
                    "biases scale %g is too large for the Q3.12 gate accumulators",
                    static_cast<double>(bias_scale));
    data->weights_zero_point = zp;
  }

  TF_LITE_ENSURE_OK(context, ResizeOutput(context, out[kActivationOut], {n_batch, depth}));
  TF_LITE_ENSURE_OK(context, ResizeOutput(context, out[kStateOut], {n_batch, depth}));
  TF_LITE_ENSURE_OK(context, ResizeOutput(context, out[kConcatTemp], {n_batch, total}));
  return ResizeOutput(context, out[kActivationTemp], {n_batch, 4 * depth});
}

TfLiteStatus BasicLstmEval(TfLiteContext* context, TfLiteNode* node, const BasicLstmData& data) {
  const TfLiteTensor* in[kInputCount];
  for (int i = 0; i < kInputCount; ++i) {
    in[i] = tflite::GetInput(context, node, i);
    TF_LITE_ENSURE_OK(context, RequireData(context, kOp, kInputNames[i], in[i]));
  }
  TfLiteTensor* out[kOutputCount];
  for (int i = 0; i < kOutputCount; ++i) {
    out[i] = tflite::GetOutput(context, node, i);
    TF_LITE_ENSURE_OK(context, RequireData(context, kOp, kOutputNames[i], out[i]));
  }
  const Shape s{data.n_batch, data.input_depth, data.depth};
  if (data.quantized) {
    QuantizedCell(s, data, in[kInputData]->data.uint8, in[kPrevActivation]->data.uint8,
                  in[kWeights]->data.uint8, in[kBiases]->data.i32, in[kPrevState]->data.i16,
                  out[kStateOut]->data.i16, out[kActivationOut]->data.uint8,
                  out[kConcatTemp]->data.uint8, out[kActivationTemp]->data.i16);
  } else {
    FloatCell(s, in[kInputData]->data.f, in[kPrevActivation]->data.f, in[kWeights]->data.f,
              in[kBiases]->data.f, in[kPrevState]->data.f, out[kStateOut]->data.f,
              out[kActivationOut]->data.f, out[kConcatTemp]->data.f, out[kActivationTemp]->data.f);
  }
  return kTfLiteOk;
}

}  // namespace octet::ops::nn
