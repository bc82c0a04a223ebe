#include "ops/elementwise/op_util.h"

#include "kernels/reference/broadcast.h"

namespace octet::ops::elementwise {

std::string ShapeString(const Shape &shape) {
  std::string s = "[";
  for (int i = 0; i < shape.rank(); ++i) {
    if (i > 0) s += ",";
    s += std::to_string(shape.dim(i));
  }
  return s + "]";
}

TfLiteStatus GetIo(TfLiteContext *context, TfLiteNode *node, const char *op, int num_inputs,
                   const TfLiteTensor **inputs, TfLiteTensor **output) {
  if (tflite::NumInputs(node) != num_inputs) {
    TF_LITE_KERNEL_LOG(context, "%s: expected %d input(s), got %d", op, num_inputs,
                       tflite::NumInputs(node));
    return kTfLiteError;
  }
  if (tflite::NumOutputs(node) != 1) {
    TF_LITE_KERNEL_LOG(context, "%s: expected 1 output, got %d", op, tflite::NumOutputs(node));
    return kTfLiteError;
  }
  for (int i = 0; i < num_inputs; ++i) {
    inputs[i] = tflite::GetInput(context, node, i);
    if (inputs[i] == nullptr) {
      TF_LITE_KERNEL_LOG(context, "%s: input %d is missing", op, i);
      return kTfLiteError;
    }
  }
  *output = tflite::GetOutput(context, node, 0);
  if (*output == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: output is missing", op);
    return kTfLiteError;
  }
  return kTfLiteOk;
}

TfLiteStatus CheckSameInputTypes(TfLiteContext *context, const char *op,
                                 const TfLiteTensor *const *inputs, int n) {
  for (int i = 1; i < n; ++i) {
    if (inputs[i]->type != inputs[0]->type) {
      TF_LITE_KERNEL_LOG(context, "%s: input types differ (%s vs %s)", op,
                         TypeName(inputs[0]->type), TypeName(inputs[i]->type));
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

TfLiteStatus CheckOutputType(TfLiteContext *context, const char *op, const TfLiteTensor *output,
                             TfLiteType expected) {
  if (output->type != expected) {
    TF_LITE_KERNEL_LOG(context, "%s: output type %s does not match expected %s", op,
                       TypeName(output->type), TypeName(expected));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

namespace {
TfLiteStatus CheckBroadcastRank(TfLiteContext *context, const char *op, bool all_same,
                                const Shape &out) {
  if (!all_same && out.rank() > reference::kMaxBroadcastRank) {
    TF_LITE_KERNEL_LOG(context, "%s: broadcasting supports at most %d dimensions, got %d", op,
                       reference::kMaxBroadcastRank, out.rank());
    return kTfLiteError;
  }
  return kTfLiteOk;
}
}  // namespace

TfLiteStatus BroadcastOutputShape(TfLiteContext *context, const char *op, const Shape &a,
                                  const Shape &b, Shape *out) {
  if (!reference::BroadcastShapes(a, b, out)) {
    TF_LITE_KERNEL_LOG(context, "%s: shapes %s and %s cannot be broadcast together", op,
                       ShapeString(a).c_str(), ShapeString(b).c_str());
    return kTfLiteError;
  }
  return CheckBroadcastRank(context, op, a == b, *out);
}

TfLiteStatus BroadcastOutputShape(TfLiteContext *context, const char *op, const Shape &a,
                                  const Shape &b, const Shape &c, Shape *out) {
  if (!reference::BroadcastShapes(a, b, c, out)) {
    TF_LITE_KERNEL_LOG(context, "%s: shapes %s, %s and %s cannot be broadcast together", op,
                       ShapeString(a).c_str(), ShapeString(b).c_str(), ShapeString(c).c_str());
    return kTfLiteError;
  }
  return CheckBroadcastRank(context, op, a == b && b == c, *out);
}

}  // namespace octet::ops::elementwise
