#include "ops/elementwise/unary_kernel.h"

namespace octet::ops::elementwise {

TfLiteStatus PrepareUnaryImpl(TfLiteContext *context, TfLiteNode *node, const char *op, UnaryFn f32,
                              UnaryFn i32, UnaryFn i64) {
  auto *data = static_cast<UnaryData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, op, 1, &input, &output));
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, op, output, input->type));
  switch (input->type) {
    case kTfLiteFloat32:
      data->fn = f32;
      break;
    case kTfLiteInt32:
      data->fn = i32;
      break;
    case kTfLiteInt64:
      data->fn = i64;
      break;
    default:
      data->fn = nullptr;
  }
  if (data->fn == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", op, TypeName(input->type));
    return kTfLiteError;
  }
  return ResizeOutput(context, output, Shape::Of(input));
}

TfLiteStatus EvalUnaryImpl(TfLiteContext *context, TfLiteNode *node, const char *op) {
  const auto &data = *static_cast<const UnaryData *>(node->user_data);
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "input 0", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "output", output));
  data.fn(data, input, output);
  return kTfLiteOk;
}

}  // namespace octet::ops::elementwise
