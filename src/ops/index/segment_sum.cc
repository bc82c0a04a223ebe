// SEGMENT_SUM: data (int32 or float32, rank >= 1) and segment_ids (int32 vector, one per
// data row) give the sum of the rows of each segment. The ids must start at 0 and grow by 0
// or 1 from row to row (TFLite's rule), so the output has last id + 1 rows. The output is
// dynamic unless both inputs are constant.
#include <cstdint>
#include <vector>

#include "kernels/reference/segment.h"
#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

constexpr char kOp[] = "SEGMENT_SUM";

TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  const TfLiteTensor* data = tflite::GetInput(context, node, 0);
  const TfLiteTensor* ids = tflite::GetInput(context, node, 1);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "segment_ids", ids));
  const int n = static_cast<int>(Count(ids));
  int last = -1;
  for (int i = 0; i < n; ++i) {
    const int32_t id = ids->data.i32[i];
    if (i == 0) {
      OCTET_ENSURE(context, id == 0, "%s: segment_ids[0] must be 0, got %d", kOp, id);
    } else {
      OCTET_ENSURE(context, id == last || id == last + 1,
                   "%s: segment_ids must be sorted and step by at most 1: segment_ids[%d] = %d "
                   "follows %d",
                   kOp, i, id, last);
    }
    last = id;
  }
  *dims = DimsOf(data);
  (*dims)[0] = last + 1;
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *data, *ids;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &data));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &ids));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckTypeIn(context, kOp, "data", data, {kTfLiteInt32, kTfLiteFloat32}));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, data, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "segment_ids", ids, kTfLiteInt32));
  OCTET_ENSURE(context, tflite::NumDimensions(data) >= 1, "%s: data must have rank >= 1", kOp);
  OCTET_ENSURE(context, tflite::NumDimensions(ids) == 1,
               "%s: segment_ids must be a vector, got rank %d", kOp, tflite::NumDimensions(ids));
  OCTET_ENSURE(context, ids->dims->data[0] == data->dims->data[0],
               "%s: %d segment_ids for %d data rows", kOp, ids->dims->data[0], data->dims->data[0]);
  return ResizeOrMarkDynamic(context, node, output, IsConstant(data) && IsConstant(ids),
                             OutputDims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* data = tflite::GetInput(context, node, 0);
  const TfLiteTensor* ids = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicOutput(context, node, output, OutputDims));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "data", data));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "segment_ids", ids));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const int64_t rows = data->dims->data[0];
  const int64_t inner = Shape::Of(data).SizeBetween(1, data->dims->size);
  const int64_t segments = output->dims->data[0];
  if (data->type == kTfLiteInt32) {
    reference::SegmentSum(data->data.i32, ids->data.i32, rows, inner, segments, output->data.i32);
  } else {
    reference::SegmentSum(data->data.f, ids->data.i32, rows, inner, segments, output->data.f);
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SEGMENT_SUM() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare, octet::ops::index::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
