// SCATTER_ND: indices (int32, [..., depth]), updates ([..., slice dims]) and shape (int32
// vector, the output's dims) give a zero tensor of that shape with each updates slice added
// at its index tuple (repeated indices accumulate; bool ors). Update types: float32, uint8,
// bool, int8, int32, int64. A non-constant shape makes the output dynamic. Every coordinate
// must lie inside its dimension (TFLite only bounds the flat offset).
#include <cstdint>
#include <vector>

#include "kernels/reference/scatter.h"
#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

constexpr char kOp[] = "SCATTER_ND";

// The output dims from `shape`, checked against indices and updates:
// indices [outer..., depth], updates [outer..., shape[depth:]...].
TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  const TfLiteTensor* indices = tflite::GetInput(context, node, 0);
  const TfLiteTensor* updates = tflite::GetInput(context, node, 1);
  const TfLiteTensor* shape = tflite::GetInput(context, node, 2);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "shape", shape));
  const int n = static_cast<int>(Count(shape));
  dims->assign(shape->data.i32, shape->data.i32 + n);
  for (int i = 0; i < n; ++i) {
    OCTET_ENSURE(context, (*dims)[i] >= 0, "%s: shape[%d] = %d is negative", kOp, i, (*dims)[i]);
  }
  const int outer = tflite::NumDimensions(indices) - 1;
  const int depth = indices->dims->data[outer];
  OCTET_ENSURE(context, depth <= n, "%s: indices address %d dims but the shape has %d", kOp, depth,
               n);
  const int updates_rank = tflite::NumDimensions(updates);
  OCTET_ENSURE(
      context, updates_rank == outer + n - depth,
      "%s: updates must have rank %d (indices outer dims %d + shape dims after %d), got %d", kOp,
      outer + n - depth, outer, depth, updates_rank);
  for (int i = 0; i < outer; ++i) {
    OCTET_ENSURE(context, updates->dims->data[i] == indices->dims->data[i],
                 "%s: updates dim %d is %d but indices dim %d is %d", kOp, i,
                 updates->dims->data[i], i, indices->dims->data[i]);
  }
  for (int i = 0; outer + i < updates_rank; ++i) {
    OCTET_ENSURE(context, updates->dims->data[outer + i] == (*dims)[depth + i],
                 "%s: updates dim %d is %d but shape[%d] is %d", kOp, outer + i,
                 updates->dims->data[outer + i], depth + i, (*dims)[depth + i]);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor *indices, *updates, *shape;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &indices));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &updates));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &shape));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckTypeIn(
      context, kOp, "updates", updates,
      {kTfLiteFloat32, kTfLiteUInt8, kTfLiteBool, kTfLiteInt8, kTfLiteInt32, kTfLiteInt64}));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, updates, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "indices", indices, kTfLiteInt32));
  TF_LITE_ENSURE_STATUS(CheckTypeIs(context, kOp, "shape", shape, kTfLiteInt32));
  OCTET_ENSURE(context, tflite::NumDimensions(indices) >= 1, "%s: indices must have rank >= 1",
               kOp);
  OCTET_ENSURE(context, tflite::NumDimensions(updates) >= 1, "%s: updates must have rank >= 1",
               kOp);
  OCTET_ENSURE(context, tflite::NumDimensions(shape) == 1,
               "%s: shape must be a vector, got rank %d", kOp, tflite::NumDimensions(shape));
  return ResizeOrMarkDynamic(context, node, output, IsConstant(shape), OutputDims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* indices = tflite::GetInput(context, node, 0);
  const TfLiteTensor* updates = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicOutput(context, node, output, OutputDims));
  // No early return for an empty output: its indices must still be in range.
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "indices", indices));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "updates", updates));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const int outer = tflite::NumDimensions(indices) - 1;
  const int depth = indices->dims->data[outer];
  const int64_t rows = Shape::Of(indices).SizeBetween(0, outer);
  const Shape out_shape = Shape::Of(output);
  reference::IndexError err;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    err = reference::ScatterNd(indices->data.i32, rows, depth, out_shape,
                               reinterpret_cast<const T*>(updates->data.raw),
                               reinterpret_cast<T*>(output->data.raw));
  };
  switch (updates->type) {
    case kTfLiteFloat32:
      run(float{});
      break;
    case kTfLiteUInt8:
      run(uint8_t{});
      break;
    case kTfLiteBool:
      run(bool{});
      break;
    case kTfLiteInt8:
      run(int8_t{});
      break;
    case kTfLiteInt32:
      run(int32_t{});
      break;
    case kTfLiteInt64:
      run(int64_t{});
      break;
    default:
      OCTET_ENSURE(context, false, "%s: unsupported updates type %s", kOp,
                   TfLiteTypeGetName(updates->type));
  }
  OCTET_ENSURE(context, err.ok, "%s: index %lld (row %lld, coordinate %d) out of range [0, %lld)",
               kOp, static_cast<long long>(err.value), static_cast<long long>(err.row), err.dim,
               static_cast<long long>(err.limit));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SCATTER_ND() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare, octet::ops::index::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
