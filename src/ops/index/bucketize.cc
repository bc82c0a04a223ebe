// BUCKETIZE: each element of the input (int32, int64, float32, float64) becomes the number
// of boundaries (the options' float list) that are <= it, i.e. the index of the first
// boundary greater than it; output int32 with the input's shape. The boundaries must be
// sorted (non-decreasing) and, here, free of NaN. A NaN input lands past the last boundary.
#include <cmath>
#include <cstdint>

#include "kernels/reference/index_select.h"
#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

constexpr char kOp[] = "BUCKETIZE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const auto* params = static_cast<const TfLiteBucketizeParams*>(node->builtin_data);
  const int n = params->num_boundaries;
  OCTET_ENSURE(context, n >= 0 && (n == 0 || params->boundaries != nullptr),
               "%s: the boundaries are missing", kOp);
  for (int i = 0; i < n; ++i) {
    OCTET_ENSURE(context, !std::isnan(params->boundaries[i]), "%s: boundaries[%d] is NaN", kOp, i);
    OCTET_ENSURE(context, i == 0 || !(params->boundaries[i] < params->boundaries[i - 1]),
                 "%s: boundaries must be sorted: boundaries[%d] = %g follows %g", kOp, i,
                 params->boundaries[i], params->boundaries[i - 1]);
  }
  TF_LITE_ENSURE_STATUS(CheckTypeIn(context, kOp, "input", input,
                                    {kTfLiteInt32, kTfLiteFloat32, kTfLiteInt64, kTfLiteFloat64}));
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "output", output, kTfLiteInt32));
  return ResizeOutput(context, output, DimsOf(input));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const auto* params = static_cast<const TfLiteBucketizeParams*>(node->builtin_data);
  const int64_t n = Count(input);
  const float* b = params->boundaries;
  const int nb = params->num_boundaries;
  switch (input->type) {
    case kTfLiteInt32:
      reference::Bucketize(input->data.i32, n, b, nb, output->data.i32);
      break;
    case kTfLiteInt64:
      reference::Bucketize(input->data.i64, n, b, nb, output->data.i32);
      break;
    case kTfLiteFloat32:
      reference::Bucketize(input->data.f, n, b, nb, output->data.i32);
      break;
    case kTfLiteFloat64:
      reference::Bucketize(input->data.f64, n, b, nb, output->data.i32);
      break;
    default:
      OCTET_ENSURE(context, false, "%s: unsupported input type %s", kOp,
                   TfLiteTypeGetName(input->type));
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

TfLiteRegistration* Register_BUCKETIZE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare, octet::ops::index::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
