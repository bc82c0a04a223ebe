// BITCAST: reinterprets the input's bytes as the output's type. Equal element sizes keep
// the shape; a wider input gains a last dim of (input size / output size); a narrower one
// must end in a dim of (output size / input size), which is dropped.
#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "BITCAST";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  const size_t in_size = TfLiteTypeGetSize(input->type);
  const size_t out_size = TfLiteTypeGetSize(output->type);
  OCTET_ENSURE(context, in_size > 0, "%s: input type %s has no fixed size", kOp,
               TfLiteTypeGetName(input->type));
  OCTET_ENSURE(context, out_size > 0, "%s: output type %s has no fixed size", kOp,
               TfLiteTypeGetName(output->type));
  std::vector<int> dims = DimsOf(input);
  if (in_size > out_size) {
    OCTET_ENSURE(context, in_size % out_size == 0, "%s: %s is not a whole number of %s", kOp,
                 TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));
    dims.push_back(static_cast<int>(in_size / out_size));
  } else if (in_size < out_size) {
    OCTET_ENSURE(context, !dims.empty() && static_cast<size_t>(dims.back()) * in_size == out_size,
                 "%s: casting %s to %s needs a last dim of %zu", kOp,
                 TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type),
                 out_size / in_size);
    dims.pop_back();
  }
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  OCTET_ENSURE(context, input->bytes == output->bytes, "%s: input has %zu bytes, output %zu", kOp,
               input->bytes, output->bytes);
  CopyUnlessShared(input, output);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_BITCAST() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
