#include "ops/elementwise/quantized_div.h"

#include "kernels/reference/broadcast.h"
#include "ops/op_util.h"
#include "quant/spec_checks.h"

namespace octet::ops::elementwise {

namespace {

constexpr char kOp[] = "DIV";

// The rounding shift is recip_shift + headroom - output_shift, and recip_shift + headroom
// is at least 23 for 8-bit operands (|dividend| <= 255, divisor >= 1): a larger output
// shift would turn it into a left shift, which TFLite's arithmetic leaves undefined.
constexpr quant::ShiftRange kDivShifts{-31, 23};

}  // namespace

TfLiteStatus PrepareQuantizedDiv(TfLiteContext *context, TfLiteFusedActivation activation,
                                 const TfLiteTensor *input1, const TfLiteTensor *input2,
                                 const TfLiteTensor *output,
                                 reference::integer::DivParams *params) {
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, kOp, "input 0", input1));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, kOp, "input 1", input2));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, kOp, "output", output));
  TF_LITE_ENSURE_STATUS(QuantizedActivationRange(context, kOp, activation, output, &params->act_min,
                                                 &params->act_max));
  params->input1_offset = -input1->params.zero_point;
  params->input2_offset = -input2->params.zero_point;
  params->output_offset = output->params.zero_point;
  // TFLite forms the ratio in float before widening it.
  const float ratio = input1->params.scale / (input2->params.scale * output->params.scale);
  return quant::QuantizeMultiplierChecked(
      context, kOp, "output", output, "input0_scale / (input1_scale * output_scale)",
      static_cast<double>(ratio), &params->output_multiplier, &params->output_shift, kDivShifts);
}

TfLiteStatus EvalQuantizedDiv(TfLiteContext *context, const reference::integer::DivParams &params,
                              const Shape &shape1, const uint8_t *input1, const Shape &shape2,
                              const uint8_t *input2, const Shape &out_shape, uint8_t *output) {
  const int64_t n = shape2.FlatSize();
  for (int64_t i = 0; i < n; ++i) {
    OCTET_OP_ENSURE(context, params.input2_offset + input2[i] != 0, kOp,
                    "division by zero (divisor element %lld equals the zero point %d)",
                    static_cast<long long>(i), -params.input2_offset);
  }
  reference::BroadcastBinary(
      shape1, input1, shape2, input2, out_shape, output,
      [&params](uint8_t a, uint8_t b) { return reference::integer::Div<uint8_t>(a, b, params); });
  return kTfLiteOk;
}

}  // namespace octet::ops::elementwise
