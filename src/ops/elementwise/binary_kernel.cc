#include "ops/elementwise/binary_kernel.h"

namespace octet::ops::elementwise {
namespace {

BinaryFn PickKernel(const BinaryTable &table, TfLiteType type) {
  switch (type) {
    case kTfLiteFloat32:
      return table.f32;
    case kTfLiteInt32:
      return table.i32;
    case kTfLiteInt64:
      return table.i64;
    case kTfLiteInt8:
      return table.i8;
    case kTfLiteUInt8:
      return table.u8;
    case kTfLiteInt16:
      return table.i16;
    case kTfLiteBool:
      return table.boolean;
    default:
      return nullptr;
  }
}

bool SameQuantization(const TfLiteTensor *a, const TfLiteTensor *b) {
  return a->params.scale == b->params.scale && a->params.zero_point == b->params.zero_point;
}

}  // namespace

TfLiteStatus PrepareBinaryImpl(TfLiteContext *context, TfLiteNode *node, const char *op,
                               const BinaryTable &table, TfLiteType out_type) {
  auto *data = static_cast<BinaryData *>(node->user_data);
  data->op = op;
  const TfLiteTensor *in[2];
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, op, 2, in, &output));
  TF_LITE_ENSURE_STATUS(CheckSameInputTypes(context, op, in, 2));
  const TfLiteType type = in[0]->type;
  data->fn = PickKernel(table, type);
  if (data->fn == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", op, TypeName(type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(
      CheckOutputType(context, op, output, out_type == kTfLiteNoType ? type : out_type));
  if (IsQuantizedType(type) && table.prepare_quantized != nullptr) {
    TF_LITE_ENSURE_STATUS(table.prepare_quantized(context, op, in[0], in[1], output, data));
  } else if (IsQuantizedType(type)) {
    const bool out_quantized = out_type == kTfLiteNoType;
    if (!SameQuantization(in[0], in[1]) || (out_quantized && !SameQuantization(in[0], output))) {
      TF_LITE_KERNEL_LOG(context, "%s: %s inputs%s must share scale and zero point", op,
                         TypeName(type), out_quantized ? " and output" : "");
      return kTfLiteError;
    }
  }
  data->shape1 = Shape::Of(in[0]);
  data->shape2 = Shape::Of(in[1]);
  TF_LITE_ENSURE_STATUS(
      BroadcastOutputShape(context, op, data->shape1, data->shape2, &data->out_shape));
  return ResizeOutput(context, output, data->out_shape);
}

TfLiteStatus EvalBinaryImpl(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const BinaryData *>(node->user_data);
  const TfLiteTensor *input1 = tflite::GetInput(context, node, 0);
  const TfLiteTensor *input2 = tflite::GetInput(context, node, 1);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, data.op, "input 0", input1));
  TF_LITE_ENSURE_STATUS(RequireData(context, data.op, "input 1", input2));
  TF_LITE_ENSURE_STATUS(RequireData(context, data.op, "output", output));
  return data.fn(context, data, input1, input2, output);
}

}  // namespace octet::ops::elementwise
