// DYNAMIC_UPDATE_SLICE: operand, update (same type and rank, no dim larger than operand's)
// and start_indices (int32/int64 vector, one per dim) give operand with update written at
// the start position, each start clamped into [0, operand dim - update dim] as in XLA. Any
// element type 1, 2, 4 or 8 bytes wide is moved as raw bytes.
#include <cstdint>
#include <vector>

#include "kernels/reference/scatter.h"
#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

constexpr char kOp[] = "DYNAMIC_UPDATE_SLICE";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor *operand, *update, *start;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &operand));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &update));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &start));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  const size_t width = TfLiteTypeGetSize(operand->type);
  OCTET_ENSURE(context, width == 1 || width == 2 || width == 4 || width == 8,
               "%s: unsupported operand type %s", kOp, TfLiteTypeGetName(operand->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, operand, update, "update"));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, operand, output, "output"));
  TF_LITE_ENSURE_STATUS(shape::CheckSameQuantization(context, kOp, operand, update));
  TF_LITE_ENSURE_STATUS(shape::CheckSameQuantization(context, kOp, operand, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, start, "start_indices"));
  const int rank = tflite::NumDimensions(operand);
  OCTET_ENSURE(context, tflite::NumDimensions(start) == 1 && start->dims->data[0] == rank,
               "%s: start_indices must be a vector of %d (the operand's rank)", kOp, rank);
  OCTET_ENSURE(context, tflite::NumDimensions(update) == rank,
               "%s: update rank %d differs from operand rank %d", kOp,
               tflite::NumDimensions(update), rank);
  for (int d = 0; d < rank; ++d) {
    OCTET_ENSURE(context, update->dims->data[d] <= operand->dims->data[d],
                 "%s: update dim %d is %d, larger than the operand's %d", kOp, d,
                 update->dims->data[d], operand->dims->data[d]);
  }
  return ResizeOutput(context, output, DimsOf(operand));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* operand = tflite::GetInput(context, node, 0);
  const TfLiteTensor* update = tflite::GetInput(context, node, 1);
  const TfLiteTensor* start = tflite::GetInput(context, node, 2);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "operand", operand));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "update", update));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "start_indices", start));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  std::vector<int64_t> starts;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, start, "start_indices", &starts));
  const Shape operand_shape = Shape::Of(operand);
  const Shape update_shape = Shape::Of(update);
  const bool done =
      reference::DispatchByElementSize(TfLiteTypeGetSize(operand->type), [&](auto tag) {
        using T = decltype(tag);
        reference::DynamicUpdateSlice(operand_shape, reinterpret_cast<const T*>(operand->data.raw),
                                      update_shape, reinterpret_cast<const T*>(update->data.raw),
                                      starts.data(), reinterpret_cast<T*>(output->data.raw));
      });
  OCTET_ENSURE(context, done, "%s: unsupported operand type %s", kOp,
               TfLiteTypeGetName(operand->type));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

TfLiteRegistration* Register_DYNAMIC_UPDATE_SLICE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare, octet::ops::index::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
