// FAKE_QUANT: float32 values quantized to a num_bits grid over the nudged [min, max] and
// dequantized again (TFLite's FakeQuantWithMinMaxArgs semantics, bit-exact).
// Like TFLite we reject narrow_range (its runtime does not implement it). Beyond TFLite,
// whose checks here are debug-only, we refuse what would make the grid meaningless:
// num_bits outside [2, 16] (TensorFlow's own limit; the zero point is a uint16), min/max
// that are not finite, and min >= max (TensorFlow's "min has to be smaller than max").
// A range that excludes zero is accepted: the nudge then pins zero to a grid end.
#include "kernels/reference/fake_quant.h"

#include <cmath>
#include <cstdint>

#include "ops/op_util.h"
#include "ops/spectral/spectral_ops.h"

namespace octet::ops::spectral {
namespace {

constexpr char kOp[] = "FAKE_QUANT";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const auto* params = static_cast<const TfLiteFakeQuantParams*>(node->builtin_data);
  OCTET_OP_ENSURE(context, !params->narrow_range, kOp,
                  "narrow_range is not supported at runtime (as in TFLite: it is meant for "
                  "weights, not activations)");
  OCTET_OP_ENSURE(context, params->num_bits >= 2 && params->num_bits <= 16, kOp,
                  "num_bits must be in [2, 16], got %d", params->num_bits);
  OCTET_OP_ENSURE(context, std::isfinite(params->min) && std::isfinite(params->max), kOp,
                  "min and max must be finite, got [%g, %g]", params->min, params->max);
  OCTET_OP_ENSURE(context, params->min < params->max, kOp,
                  "min must be smaller than max, got [%g, %g]", params->min, params->max);
  // A span that overflows float would give an infinite scale.
  OCTET_OP_ENSURE(context, std::isfinite(params->max - params->min), kOp,
                  "the range [%g, %g] is too wide", params->min, params->max);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, input->type == kTfLiteFloat32, kOp, "input must be FLOAT32, got %s",
                  TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, output->type == kTfLiteFloat32, kOp, "output must be FLOAT32, got %s",
                  TfLiteTypeGetName(output->type));
  return ResizeOutput(context, output, Shape(input->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteFakeQuantParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const int64_t n = tflite::NumElements(input);
  if (n == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const reference::FakeQuantGrid grid =
      reference::NudgeFakeQuantRange(params->min, params->max, 0, (1 << params->num_bits) - 1);
  reference::FakeQuantize(grid, input->data.f, output->data.f, n);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::spectral

namespace tflite::ops::builtin {

TfLiteRegistration* Register_FAKE_QUANT() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::spectral::Prepare, octet::ops::spectral::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
