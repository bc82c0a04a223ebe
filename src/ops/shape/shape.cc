// SHAPE: the input's dims as an int32 or int64 vector (out_type option).
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kShapeOp[] = "SHAPE";

TfLiteStatus PrepareShape(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kShapeOp, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kShapeOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kShapeOp, 0, &output));
  const auto* params = static_cast<const TfLiteShapeParams*>(node->builtin_data);
  // TFLite's converter defaults out_type to int32 when the option is absent.
  const TfLiteType out_type = params ? params->out_type : kTfLiteInt32;
  OCTET_ENSURE(context, out_type == kTfLiteInt32 || out_type == kTfLiteInt64,
               "%s: out_type must be int32 or int64, got %s", kShapeOp,
               TfLiteTypeGetName(out_type));
  output->type = out_type;
  return ResizeOutput(context, output, {tflite::NumDimensions(input)});
}

TfLiteStatus EvalShape(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const int rank = tflite::NumDimensions(input);
  for (int i = 0; i < rank; ++i) {
    if (output->type == kTfLiteInt64) {
      output->data.i64[i] = input->dims->data[i];
    } else {
      output->data.i32[i] = input->dims->data[i];
    }
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SHAPE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::PrepareShape, octet::ops::shape::EvalShape);
  return &r;
}

}  // namespace tflite::ops::builtin
