// UNSORTED_SEGMENT_SUM / PROD / MAX / MIN: data (int32 or float32), segment_ids (int32,
// shaped like a leading part of data's dims) and num_segments (int32, shape [] or [1]) give
// num_segments rows, each reducing the data slices whose id names it. Negative ids drop
// their slice; ids >= num_segments are refused. Segments nothing reaches hold the
// reduction's identity (0, 1, the type's lowest, the type's largest). The output is dynamic
// unless segment_ids and num_segments are constant.
#include <cstdint>
#include <vector>

#include "kernels/reference/segment.h"
#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

using reference::SegmentReduction;

template <SegmentReduction kOpKind>
constexpr const char* OpName() {
  switch (kOpKind) {
    case SegmentReduction::kSum:
      return "UNSORTED_SEGMENT_SUM";
    case SegmentReduction::kProd:
      return "UNSORTED_SEGMENT_PROD";
    case SegmentReduction::kMax:
      return "UNSORTED_SEGMENT_MAX";
    default:
      return "UNSORTED_SEGMENT_MIN";
  }
}

template <SegmentReduction kOpKind>
TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  constexpr const char* kOp = OpName<kOpKind>();
  const TfLiteTensor* data = tflite::GetInput(context, node, 0);
  const TfLiteTensor* ids = tflite::GetInput(context, node, 1);
  const TfLiteTensor* num = tflite::GetInput(context, node, 2);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "segment_ids", ids));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "num_segments", num));
  const int32_t segments = num->data.i32[0];
  OCTET_ENSURE(context, segments >= 0, "%s: num_segments must be non-negative, got %d", kOp,
               segments);
  const int64_t n = Count(ids);
  for (int64_t i = 0; i < n; ++i) {
    OCTET_ENSURE(context, ids->data.i32[i] < segments,
                 "%s: segment_ids[%lld] = %d is not below num_segments %d", kOp,
                 static_cast<long long>(i), ids->data.i32[i], segments);
  }
  const int ids_rank = tflite::NumDimensions(ids);
  dims->assign(1, segments);
  for (int d = ids_rank; d < tflite::NumDimensions(data); ++d) dims->push_back(data->dims->data[d]);
  return kTfLiteOk;
}

template <SegmentReduction kOpKind>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = OpName<kOpKind>();
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor *data, *ids, *num;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &data));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &ids));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &num));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckTypeIn(context, kOp, "data", data, {kTfLiteInt32, kTfLiteFloat32}));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, data, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "segment_ids", ids, kTfLiteInt32));
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "num_segments", num, kTfLiteInt32));
  const int ids_rank = tflite::NumDimensions(ids);
  const int data_rank = tflite::NumDimensions(data);
  OCTET_ENSURE(context, ids_rank >= 1 && ids_rank <= data_rank,
               "%s: segment_ids rank %d must be in [1, data rank %d]", kOp, ids_rank, data_rank);
  for (int d = 0; d < ids_rank; ++d) {
    OCTET_ENSURE(context, ids->dims->data[d] == data->dims->data[d],
                 "%s: segment_ids dim %d is %d but data dim %d is %d", kOp, d, ids->dims->data[d],
                 d, data->dims->data[d]);
  }
  const int num_rank = tflite::NumDimensions(num);
  OCTET_ENSURE(context, num_rank == 0 || (num_rank == 1 && num->dims->data[0] == 1),
               "%s: num_segments must have shape [] or [1]", kOp);
  const bool known = !tflite::IsDynamicTensor(data) && IsConstant(ids) && IsConstant(num);
  return ResizeOrMarkDynamic(context, node, output, known, OutputDims<kOpKind>);
}

template <SegmentReduction kOpKind>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  constexpr const char* kOp = OpName<kOpKind>();
  const TfLiteTensor* data = tflite::GetInput(context, node, 0);
  const TfLiteTensor* ids = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicOutput(context, node, output, OutputDims<kOpKind>));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "data", data));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "segment_ids", ids));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const int64_t num_ids = Count(ids);
  const int64_t inner = Shape::Of(data).SizeBetween(ids->dims->size, data->dims->size);
  const int64_t segments = output->dims->data[0];
  if (data->type == kTfLiteInt32) {
    reference::UnsortedSegment(kOpKind, data->data.i32, ids->data.i32, num_ids, inner, segments,
                               output->data.i32);
  } else {
    reference::UnsortedSegment(kOpKind, data->data.f, ids->data.i32, num_ids, inner, segments,
                               output->data.f);
  }
  return kTfLiteOk;
}

template <SegmentReduction kOpKind>
TfLiteRegistration* Registration() {
  static TfLiteRegistration r = MakeRegistration(nullptr, nullptr, Prepare<kOpKind>, Eval<kOpKind>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

using octet::reference::SegmentReduction;

TfLiteRegistration* Register_UNSORTED_SEGMENT_SUM() {
  return octet::ops::index::Registration<SegmentReduction::kSum>();
}
TfLiteRegistration* Register_UNSORTED_SEGMENT_PROD() {
  return octet::ops::index::Registration<SegmentReduction::kProd>();
}
TfLiteRegistration* Register_UNSORTED_SEGMENT_MAX() {
  return octet::ops::index::Registration<SegmentReduction::kMax>();
}
TfLiteRegistration* Register_UNSORTED_SEGMENT_MIN() {
  return octet::ops::index::Registration<SegmentReduction::kMin>();
}

}  // namespace tflite::ops::builtin
