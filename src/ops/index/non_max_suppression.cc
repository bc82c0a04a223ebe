// NON_MAX_SUPPRESSION_V4 (5 inputs, 2 outputs) and _V5 (6 inputs, 3 outputs) on float32:
// boxes [n, 4] as [y1, x1, y2, x2], scores [n], max_output_size (int32 scalar),
// iou_threshold and score_threshold (float32 scalars) and, for V5, soft_nms_sigma (float32
// scalar >= 0). Outputs: selected indices (int32 [max_output_size]), for V5 their scores
// (float32, decayed by soft-NMS), and the valid count (int32 scalar); entries past the count
// are zero. The selected outputs are dynamic unless max_output_size is constant.
#include "kernels/reference/non_max_suppression.h"

#include <cmath>
#include <cstdint>

#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

template <bool kSoft>
constexpr const char* OpName() {
  return kSoft ? "NON_MAX_SUPPRESSION_V5" : "NON_MAX_SUPPRESSION_V4";
}

TfLiteStatus CheckFloatScalar(TfLiteContext* context, const char* op, const char* what,
                              const TfLiteTensor* t) {
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, op, what, t, kTfLiteFloat32));
  OCTET_ENSURE(context, tflite::NumDimensions(t) == 0, "%s: %s must be a scalar, got rank %d", op,
               what, tflite::NumDimensions(t));
  return kTfLiteOk;
}

// Sizes the selected-indices (and, for V5, selected-scores) outputs to max_output_size.
template <bool kSoft>
TfLiteStatus ResizeSelected(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = OpName<kSoft>();
  const TfLiteTensor* max_size = tflite::GetInput(context, node, 2);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "max_output_size", max_size));
  const int32_t n = max_size->data.i32[0];
  OCTET_ENSURE(context, n >= 0, "%s: max_output_size must be non-negative, got %d", kOp, n);
  TF_LITE_ENSURE_STATUS(ResizeOutput(context, tflite::GetOutput(context, node, 0), {n}));
  if (kSoft) TF_LITE_ENSURE_STATUS(ResizeOutput(context, tflite::GetOutput(context, node, 1), {n}));
  return kTfLiteOk;
}

template <bool kSoft>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = OpName<kSoft>();
  constexpr int kInputs = kSoft ? 6 : 5;
  constexpr int kOutputs = kSoft ? 3 : 2;
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, kInputs, kInputs, kOutputs));
  const TfLiteTensor* in[kInputs];
  for (int i = 0; i < kInputs; ++i)
    TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, i, &in[i]));
  TfLiteTensor* out[kOutputs];
  for (int i = 0; i < kOutputs; ++i) {
    TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, i, &out[i]));
  }
  const TfLiteTensor* boxes = in[0];
  const TfLiteTensor* scores = in[1];
  const TfLiteTensor* max_size = in[2];
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "boxes", boxes, kTfLiteFloat32));
  OCTET_ENSURE(context, tflite::NumDimensions(boxes) == 2 && boxes->dims->data[1] == 4,
               "%s: boxes must have shape [num_boxes, 4]", kOp);
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "scores", scores, kTfLiteFloat32));
  OCTET_ENSURE(context,
               tflite::NumDimensions(scores) == 1 && scores->dims->data[0] == boxes->dims->data[0],
               "%s: scores must have shape [%d] (one per box)", kOp, boxes->dims->data[0]);
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "max_output_size", max_size, kTfLiteInt32));
  OCTET_ENSURE(context, tflite::NumDimensions(max_size) == 0,
               "%s: max_output_size must be a scalar, got rank %d", kOp,
               tflite::NumDimensions(max_size));
  TF_LITE_ENSURE_STATUS(CheckFloatScalar(context, kOp, "iou_threshold", in[3]));
  TF_LITE_ENSURE_STATUS(CheckFloatScalar(context, kOp, "score_threshold", in[4]));
  if (kSoft) TF_LITE_ENSURE_STATUS(CheckFloatScalar(context, kOp, "soft_nms_sigma", in[5]));
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "selected indices", out[0], kTfLiteInt32));
  if (kSoft) {
    TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "selected scores", out[1], kTfLiteFloat32));
  }
  TfLiteTensor* count = out[kOutputs - 1];
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "valid count", count, kTfLiteInt32));
  TF_LITE_ENSURE_STATUS(ResizeOutput(context, count, std::vector<int>{}));
  if (IsConstant(max_size)) return ResizeSelected<kSoft>(context, node);
  tflite::SetTensorToDynamic(out[0]);
  if (kSoft) tflite::SetTensorToDynamic(out[1]);
  return kTfLiteOk;
}

template <bool kSoft>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = OpName<kSoft>();
  const TfLiteTensor* boxes = tflite::GetInput(context, node, 0);
  const TfLiteTensor* scores = tflite::GetInput(context, node, 1);
  TfLiteTensor* selected = tflite::GetOutput(context, node, 0);
  TfLiteTensor* selected_scores = kSoft ? tflite::GetOutput(context, node, 1) : nullptr;
  TfLiteTensor* count = tflite::GetOutput(context, node, kSoft ? 2 : 1);
  if (tflite::IsDynamicTensor(selected)) {
    TF_LITE_ENSURE_STATUS(ResizeSelected<kSoft>(context, node));
  }
  for (int i = 2; i < (kSoft ? 6 : 5); ++i) {
    TF_LITE_ENSURE_STATUS(
        RequireData(context, kOp, "a scalar input", tflite::GetInput(context, node, i)));
  }
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "boxes", boxes));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "scores", scores));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "selected indices", selected));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "valid count", count));
  const int32_t max_output = tflite::GetInput(context, node, 2)->data.i32[0];
  OCTET_ENSURE(context, max_output >= 0, "%s: max_output_size must be non-negative, got %d", kOp,
               max_output);
  // A constant max_output_size sized the outputs in prepare; they must still fit.
  OCTET_ENSURE(context, Count(selected) >= max_output, "%s: selected indices hold %lld, not %d",
               kOp, static_cast<long long>(Count(selected)), max_output);
  const float iou_threshold = tflite::GetInput(context, node, 3)->data.f[0];
  const float score_threshold = tflite::GetInput(context, node, 4)->data.f[0];
  float sigma = 0.0f;
  float* scores_out = nullptr;
  if (kSoft) {
    sigma = tflite::GetInput(context, node, 5)->data.f[0];
    OCTET_ENSURE(context, sigma >= 0.0f, "%s: soft_nms_sigma must be >= 0, got %g", kOp, sigma);
    TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "selected scores", selected_scores));
    scores_out = selected_scores->data.f;
  }
  const int n = reference::NonMaxSuppression(boxes->data.f, boxes->dims->data[0], scores->data.f,
                                             max_output, iou_threshold, score_threshold, sigma,
                                             selected->data.i32, scores_out);
  // Unused slots are zeroed: downstream GATHERs read them as indices.
  for (int i = n; i < max_output; ++i) {
    selected->data.i32[i] = 0;
    if (scores_out != nullptr) scores_out[i] = 0.0f;
  }
  count->data.i32[0] = n;
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V4() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare<false>, octet::ops::index::Eval<false>);
  return &r;
}

TfLiteRegistration* Register_NON_MAX_SUPPRESSION_V5() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare<true>, octet::ops::index::Eval<true>);
  return &r;
}

}  // namespace tflite::ops::builtin
