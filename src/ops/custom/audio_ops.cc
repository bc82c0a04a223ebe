// AudioSpectrogram and Mfcc: TFLite's audio feature custom ops, float32.
//   AudioSpectrogram: samples [samples, channels] -> [channels, frames, fft/2 + 1], options
//     window_size, stride (ints), magnitude_squared (bool, default false).
//   Mfcc: spectrogram [channels, frames, bins] (squared magnitudes) and sample rate (int32,
//     one element) -> [channels, frames, dct_coefficient_count], options
//     upper_frequency_limit, lower_frequency_limit (Hz; TFLite reads them as integers, so
//     fractions are dropped here too), filterbank_channel_count, dct_coefficient_count.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/alloc_guard.h"
#include "kernels/reference/audio.h"
#include "ops/custom/custom_ops.h"
#include "ops/custom/flex_options.h"
#include "ops/op_util.h"
#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/kernels/kernel_util.h"

namespace octet::ops::custom {
namespace {

namespace audio = reference::audio;

constexpr const char *kSpectrogram = "AudioSpectrogram";
constexpr const char *kMfcc = "Mfcc";
constexpr int64_t kMaxWindow = 1 << 24;

TfLiteStatus CheckIo(TfLiteContext *context, TfLiteNode *node, const char *op, int inputs) {
  if (tflite::NumInputs(node) != inputs || tflite::NumOutputs(node) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: expects %d input%s and 1 output, got %d and %d", op, inputs,
                       inputs == 1 ? "" : "s", tflite::NumInputs(node), tflite::NumOutputs(node));
    return kTfLiteError;
  }
  for (int i = 0; i < inputs; ++i) {
    if (tflite::GetInput(context, node, i) == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: input %d is missing", op, i);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus CheckData(TfLiteContext *context, const char *op, const TfLiteTensor *t) {
  if (t->data.raw == nullptr && tflite::NumElements(t) > 0) {
    TF_LITE_KERNEL_LOG(context, "%s: a tensor has no data", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus Resize3(TfLiteContext *context, TfLiteTensor *t, int a, int b, int c) {
  TfLiteIntArray *dims = octet::OrThrow(TfLiteIntArrayCreate(3));
  dims->data[0] = a;
  dims->data[1] = b;
  dims->data[2] = c;
  return context->ResizeTensor(context, t, dims);
}

// ---- AudioSpectrogram

struct SpectrogramData {
  std::string options_error;
  int window = 0, stride = 0;
  bool magnitude_squared = false;
  int frames = 0;
};

void *SpectrogramInit(TfLiteContext *, const char *buffer, size_t length) {
  auto *data = new SpectrogramData;
  FlexOptions o(kSpectrogram, buffer, length);
  int64_t window = 0, stride = 0;
  o.Int("window_size", true, &window);
  o.Int("stride", true, &stride);
  o.Bool("magnitude_squared", false, &data->magnitude_squared);
  if (o.ok() && (window < 2 || window > kMaxWindow)) {
    o.Fail("window_size must be in [2, " + std::to_string(kMaxWindow) + "], got " +
           std::to_string(window));
  }
  if (o.ok() && (stride < 1 || stride > kMaxWindow)) {
    o.Fail("stride must be in [1, " + std::to_string(kMaxWindow) + "], got " +
           std::to_string(stride));
  }
  data->options_error = o.error();
  data->window = static_cast<int>(window);
  data->stride = static_cast<int>(stride);
  return data;
}

void SpectrogramFree(TfLiteContext *, void *buffer) {
  delete static_cast<SpectrogramData *>(buffer);
}

TfLiteStatus SpectrogramPrepare(TfLiteContext *context, TfLiteNode *node) {
  auto &data = *static_cast<SpectrogramData *>(node->user_data);
  if (!data.options_error.empty()) {
    TF_LITE_KERNEL_LOG(context, "%s", data.options_error.c_str());
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckIo(context, node, kSpectrogram, 1));
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  if (input->type != kTfLiteFloat32 || output->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "%s: input and output must be float32, got %s and %s", kSpectrogram,
                       TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));
    return kTfLiteError;
  }
  if (tflite::NumDimensions(input) != 2) {
    TF_LITE_KERNEL_LOG(context, "%s: input must be 2-D [samples, channels], got rank %d",
                       kSpectrogram, tflite::NumDimensions(input));
    return kTfLiteError;
  }
  const int samples = input->dims->data[0];
  const int channels = input->dims->data[1];
  data.frames = static_cast<int>(audio::Spectrogram::Frames(samples, data.window, data.stride));
  const int bins = audio::NextPowerOfTwo(data.window) / 2 + 1;
  return Resize3(context, output, channels, data.frames, bins);
}

TfLiteStatus SpectrogramEval(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const SpectrogramData *>(node->user_data);
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(CheckData(context, kSpectrogram, input));
  TF_LITE_ENSURE_STATUS(CheckData(context, kSpectrogram, output));
  const int64_t samples = input->dims->data[0];
  const int64_t channels = input->dims->data[1];
  const audio::Spectrogram spectrogram(data.window, data.stride);
  const int64_t per_channel = static_cast<int64_t>(data.frames) * spectrogram.bins();
  for (int64_t c = 0; c < channels; ++c) {
    spectrogram.Compute(input->data.f + c, samples, channels, data.magnitude_squared,
                        output->data.f + c * per_channel);
  }
  return kTfLiteOk;
}

// ---- Mfcc

struct MfccData {
  std::string options_error;
  double upper = 0, lower = 0;
  int channels = 0, coefficients = 0;
};

void *MfccInit(TfLiteContext *, const char *buffer, size_t length) {
  auto *data = new MfccData;
  FlexOptions o(kMfcc, buffer, length);
  double upper = 0, lower = 0;
  int64_t channels = 0, coefficients = 0;
  o.Float("upper_frequency_limit", true, &upper);
  o.Float("lower_frequency_limit", true, &lower);
  o.Int("filterbank_channel_count", true, &channels);
  o.Int("dct_coefficient_count", true, &coefficients);
  upper = std::trunc(upper);
  lower = std::trunc(lower);
  if (o.ok()) {
    if (lower < 0) o.Fail("lower_frequency_limit must be >= 0, got " + std::to_string(lower));
    if (upper <= lower) {
      o.Fail("upper_frequency_limit (" + std::to_string(upper) +
             ") must be above lower_frequency_limit (" + std::to_string(lower) + ")");
    }
    if (channels < 1 || channels > 4096) {
      o.Fail("filterbank_channel_count must be in [1, 4096], got " + std::to_string(channels));
    } else if (coefficients < 1 || coefficients > channels) {
      o.Fail("dct_coefficient_count must be in [1, filterbank_channel_count = " +
             std::to_string(channels) + "], got " + std::to_string(coefficients));
    }
  }
  data->options_error = o.error();
  data->upper = upper;
  data->lower = lower;
  data->channels = static_cast<int>(channels);
  data->coefficients = static_cast<int>(coefficients);
  return data;
}

void MfccFree(TfLiteContext *, void *buffer) { delete static_cast<MfccData *>(buffer); }

TfLiteStatus MfccPrepare(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const MfccData *>(node->user_data);
  if (!data.options_error.empty()) {
    TF_LITE_KERNEL_LOG(context, "%s", data.options_error.c_str());
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckIo(context, node, kMfcc, 2));
  const TfLiteTensor *spectrogram = tflite::GetInput(context, node, 0);
  const TfLiteTensor *rate = tflite::GetInput(context, node, 1);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  if (spectrogram->type != kTfLiteFloat32 || output->type != kTfLiteFloat32) {
    TF_LITE_KERNEL_LOG(context, "%s: spectrogram and output must be float32, got %s and %s", kMfcc,
                       TfLiteTypeGetName(spectrogram->type), TfLiteTypeGetName(output->type));
    return kTfLiteError;
  }
  if (rate->type != kTfLiteInt32 || tflite::NumElements(rate) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: sample rate must be one int32 value, got %s with %lld", kMfcc,
                       TfLiteTypeGetName(rate->type),
                       static_cast<long long>(tflite::NumElements(rate)));
    return kTfLiteError;
  }
  if (tflite::NumDimensions(spectrogram) != 3) {
    TF_LITE_KERNEL_LOG(context, "%s: spectrogram must be 3-D [channels, frames, bins], got rank %d",
                       kMfcc, tflite::NumDimensions(spectrogram));
    return kTfLiteError;
  }
  if (spectrogram->dims->data[2] < 2) {
    TF_LITE_KERNEL_LOG(context, "%s: spectrogram needs at least 2 bins, got %d", kMfcc,
                       spectrogram->dims->data[2]);
    return kTfLiteError;
  }
  return Resize3(context, output, spectrogram->dims->data[0], spectrogram->dims->data[1],
                 data.coefficients);
}

TfLiteStatus MfccEval(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const MfccData *>(node->user_data);
  const TfLiteTensor *spectrogram = tflite::GetInput(context, node, 0);
  const TfLiteTensor *rate_tensor = tflite::GetInput(context, node, 1);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(CheckData(context, kMfcc, spectrogram));
  TF_LITE_ENSURE_STATUS(CheckData(context, kMfcc, rate_tensor));
  TF_LITE_ENSURE_STATUS(CheckData(context, kMfcc, output));
  const int32_t rate = rate_tensor->data.i32[0];
  const int bins = spectrogram->dims->data[2];
  if (rate <= 0) {
    TF_LITE_KERNEL_LOG(context, "%s: sample rate must be positive, got %d", kMfcc, rate);
    return kTfLiteError;
  }
  const audio::MelFilterbank bank(bins, rate, data.channels, data.lower, data.upper);
  if (bank.end_index() >= bins) {
    TF_LITE_KERNEL_LOG(context,
                       "%s: upper_frequency_limit %g Hz is above the spectrogram's range (%d "
                       "bins up to %g Hz at sample rate %d)",
                       kMfcc, data.upper, bins, 0.5 * rate, rate);
    return kTfLiteError;
  }
  const int64_t rows =
      static_cast<int64_t>(spectrogram->dims->data[0]) * spectrogram->dims->data[1];
  std::vector<double> frame(bins);
  for (int64_t r = 0; r < rows; ++r) {
    const float *in = spectrogram->data.f + r * bins;
    for (int i = 0; i < bins; ++i) frame[i] = in[i];
    const std::vector<double> mfcc = audio::Mfcc(bank, frame, data.coefficients);
    float *out = output->data.f + r * data.coefficients;
    for (int i = 0; i < data.coefficients; ++i) out[i] = static_cast<float>(mfcc[i]);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::custom

namespace tflite::ops::custom {

namespace oc = octet::ops::custom;

TfLiteRegistration *Register_AUDIO_SPECTROGRAM() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      oc::SpectrogramInit, oc::SpectrogramFree, oc::SpectrogramPrepare, oc::SpectrogramEval);
  return &r;
}

TfLiteRegistration *Register_MFCC() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(oc::MfccInit, oc::MfccFree, oc::MfccPrepare, oc::MfccEval);
  return &r;
}

}  // namespace tflite::ops::custom
