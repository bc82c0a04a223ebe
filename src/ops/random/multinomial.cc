// MULTINOMIAL: logits float32 [batch, classes] and num_samples int32 scalar give int64 or
// int32 [batch, num_samples], each sample a class drawn with probability softmax(logits row)
// by inverting the row's cumulative sum of exp(logit - max) (double) at a uniform double from
// two Philox words. Non-finite logits get zero weight; a row with no finite logit yields
// `classes`. As in TFLite each invoke draws from a copy of the node's stream and then moves
// the stream on by batch * round_up(num_samples, 4) * 512 blocks, so invokes differ.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ops/op_util.h"
#include "ops/random/random_ops.h"

namespace octet::ops::random {
namespace {

constexpr char kOp[] = "MULTINOMIAL";

// num_samples as a count: present, >= 0 and with an int32 output element count.
TfLiteStatus ReadNumSamples(TfLiteContext* context, const TfLiteTensor* logits,
                            const TfLiteTensor* num_samples, int* out) {
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "num_samples", num_samples));
  const int n = num_samples->data.i32[0];
  OCTET_OP_ENSURE(context, n >= 0, kOp, "num_samples must be >= 0, got %d", n);
  const int64_t elements = static_cast<int64_t>(logits->dims->data[0]) * n;
  OCTET_OP_ENSURE(context, elements <= std::numeric_limits<int32_t>::max(), kOp,
                  "output [%d, %d] is too large", logits->dims->data[0], n);
  *out = n;
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const TfLiteTensor *logits, *num_samples;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &logits));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &num_samples));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, logits->type == kTfLiteFloat32, kOp, "logits must be FLOAT32, got %s",
                  TfLiteTypeGetName(logits->type));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(logits) == 2, kOp,
                  "logits must be 2-D [batch, classes], got rank %d",
                  tflite::NumDimensions(logits));
  OCTET_OP_ENSURE(context, logits->dims->data[1] > 0, kOp, "logits must have at least one class");
  OCTET_OP_ENSURE(context, num_samples->type == kTfLiteInt32, kOp,
                  "num_samples must be INT32, got %s", TfLiteTypeGetName(num_samples->type));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(num_samples) == 0, kOp,
                  "num_samples must be a scalar, got rank %d", tflite::NumDimensions(num_samples));
  OCTET_OP_ENSURE(context, output->type == kTfLiteInt64 || output->type == kTfLiteInt32, kOp,
                  "output must be INT64 or INT32, got %s", TfLiteTypeGetName(output->type));
  auto* state = static_cast<RandomState*>(node->user_data);
  state->stream = SeedStream(*static_cast<const TfLiteRandomParams*>(node->builtin_data));
  if (!IsConstantOrPersistent(logits) || !IsConstantOrPersistent(num_samples)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  int n = 0;
  TF_LITE_ENSURE_STATUS(ReadNumSamples(context, logits, num_samples, &n));
  return ResizeOutput(context, output, {logits->dims->data[0], n});
}

template <typename Index>
void Sample(PhiloxStream* stream, const float* logits, int batch, int classes, int num_samples,
            Index* out) {
  PhiloxStream draw = *stream;
  // size_t arithmetic as in TFLite (wraps rather than overflowing).
  const uint64_t rounded = (static_cast<uint64_t>(num_samples) + 3) / 4 * 4;
  stream->Skip(static_cast<uint64_t>(batch) * rounded * 2 * 256);

  std::vector<double> cdf(static_cast<size_t>(classes));
  PhiloxBlock block{};
  int used = 4;  // words of `block` consumed; carried over from one row to the next
  for (int b = 0; b < batch; ++b) {
    const float* row = logits + static_cast<int64_t>(b) * classes;
    float max = std::numeric_limits<float>::lowest();
    for (int c = 0; c < classes; ++c) {
      if (std::isfinite(row[c])) max = std::max(max, row[c]);
    }
    const double max_logit = max;
    double total = 0.0;
    for (int c = 0; c < classes; ++c) {
      if (std::isfinite(row[c])) total += std::exp(row[c] - max_logit);
      cdf[c] = total;
    }
    Index* out_row = out + static_cast<int64_t>(b) * num_samples;
    for (int s = 0; s < num_samples; ++s) {
      if (used == 4) {
        block = draw.Next();
        used = 0;
      }
      const double u = Uint64ToUnitDouble(block[used], block[used + 1]);
      used += 2;
      const double target = u * total;
      out_row[s] =
          static_cast<Index>(std::upper_bound(cdf.begin(), cdf.end(), target) - cdf.begin());
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* logits = tflite::GetInput(context, node, 0);
  const TfLiteTensor* num_samples = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  int n = 0;
  TF_LITE_ENSURE_STATUS(ReadNumSamples(context, logits, num_samples, &n));
  const int batch = logits->dims->data[0];
  const int classes = logits->dims->data[1];
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, {batch, n}));
  }
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "logits", logits));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  OCTET_OP_ENSURE(context, tflite::NumElements(output) == static_cast<int64_t>(batch) * n, kOp,
                  "output must have %d x %d elements", batch, n);
  auto* state = static_cast<RandomState*>(node->user_data);
  if (output->type == kTfLiteInt64) {
    Sample(&state->stream, logits->data.f, batch, classes, n, output->data.i64);
  } else {
    Sample(&state->stream, logits->data.f, batch, classes, n, output->data.i32);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::random

namespace tflite::ops::builtin {

TfLiteRegistration* Register_MULTINOMIAL() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::InitData<octet::ops::random::RandomState>,
                                   octet::ops::FreeData<octet::ops::random::RandomState>,
                                   octet::ops::random::Prepare, octet::ops::random::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
