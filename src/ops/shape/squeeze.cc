// SQUEEZE: drops the listed size-1 dims (negative ones count from the back), or every
// size-1 dim when none are listed.
#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "SQUEEZE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckFixedSizeType(context, kOp, input));
  const auto* params = static_cast<const TfLiteSqueezeParams*>(node->builtin_data);
  const int rank = tflite::NumDimensions(input);
  const int num = params ? params->num_squeeze_dims : 0;
  OCTET_ENSURE(context, num >= 0 && num <= 8, "%s: %d squeeze dims (at most 8)", kOp, num);
  std::vector<bool> drop(rank, false);
  if (num == 0) {
    for (int d = 0; d < rank; ++d) drop[d] = input->dims->data[d] == 1;
  } else {
    for (int i = 0; i < num; ++i) {
      int d;
      OCTET_ENSURE(context, NormalizeAxis(params->squeeze_dims[i], rank, &d),
                   "%s: squeeze dim %d out of range for rank %d", kOp, params->squeeze_dims[i],
                   rank);
      OCTET_ENSURE(context, input->dims->data[d] == 1, "%s: dim %d has size %d, not 1", kOp, d,
                   input->dims->data[d]);
      drop[d] = true;
    }
  }
  std::vector<int> dims;
  for (int d = 0; d < rank; ++d) {
    if (!drop[d]) dims.push_back(input->dims->data[d]);
  }
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  CopyUnlessShared(input, output);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SQUEEZE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
