// STRIDED_SLICE: begin/end/strides (int32 vectors) with begin/end/ellipsis/new_axis/
// shrink_axis masks and the `offset` flag (end is relative to begin). Masks are first
// folded into an "effective" input shape with new axes inserted and the ellipsis
// expanded, as TFLite does; then each axis is resolved with TFLite's clamping rules.
#include <algorithm>
#include <vector>

#include "kernels/reference/slice.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "STRIDED_SLICE";
constexpr int kMaxDims = 8;

struct Plan {
  std::vector<int> effective_dims;
  std::vector<int> start, stop, stride;
  std::vector<int> output_dims;
};

struct AxisSpec {
  int begin = 0, end = 0, stride = 1;
  bool begin_masked = false, end_masked = false, shrink = false;
};

int Clamp(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

TfLiteStatus MakePlan(TfLiteContext* context, TfLiteNode* node, Plan* plan) {
  const auto* params = static_cast<const TfLiteStridedSliceParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* begin = tflite::GetInput(context, node, 1);
  const TfLiteTensor* end = tflite::GetInput(context, node, 2);
  const TfLiteTensor* strides = tflite::GetInput(context, node, 3);
  const int input_rank = tflite::NumDimensions(input);
  const int count = static_cast<int>(tflite::NumElements(begin));
  OCTET_ENSURE(context, count <= 31, "%s: too many slice specs (%d)", kOp, count);

  // New axes requested outside the ellipsis each add one effective dim.
  int num_new = 0;
  for (int i = 0; i < count; ++i) {
    if (!(params->ellipsis_mask & (1 << i)) && (params->new_axis_mask & (1 << i))) ++num_new;
  }
  const int eff_rank = input_rank + num_new;
  OCTET_ENSURE(context, params->ellipsis_mask != 0 || count <= eff_rank,
               "%s: slice specs do not fit an input of rank %d", kOp, input_rank);
  OCTET_ENSURE(context, eff_rank <= kMaxDims, "%s: %d dims after adding new axes (at most %d)", kOp,
               eff_rank, kMaxDims);

  // Which effective dims the ellipsis covers and which are new axes.
  std::vector<bool> is_ellipsis(eff_rank, false), is_new(eff_rank, false);
  int ellipsis_start = eff_rank, expanded = 0;
  for (int i = 0; i < eff_rank;) {
    if (params->ellipsis_mask & (1 << i)) {
      ellipsis_start = i;
      const int stop = std::max(i + 1, std::min(i + 1 + num_new + input_rank - count, eff_rank));
      expanded = stop - ellipsis_start - 1;
      for (; i < stop; ++i) is_ellipsis[i] = true;
      continue;
    }
    if (i - expanded < 31 && (params->new_axis_mask & (1 << (i - expanded)))) is_new[i] = true;
    ++i;
  }

  std::vector<AxisSpec> specs(eff_rank);
  plan->effective_dims.assign(eff_rank, 1);
  int added_ellipsis = 0, added_axes = 0;
  for (int i = 0; i < eff_rank; ++i) {
    AxisSpec& s = specs[i];
    if (!is_new[i] || is_ellipsis[i]) {
      const int src = i - added_axes;
      OCTET_ENSURE(context, src >= 0 && src < input_rank,
                   "%s: slice specs do not fit an input of rank %d", kOp, input_rank);
      plan->effective_dims[i] = input->dims->data[src];
    }
    if (is_ellipsis[i]) {
      added_ellipsis = std::max(0, i - ellipsis_start);
      s.begin_masked = s.end_masked = true;
    } else if (is_new[i]) {
      s.begin = 0;
      s.end = 1;
      ++added_axes;
    } else if (i >= count + expanded) {
      // Dims past the last spec are taken whole.
      s.begin_masked = s.end_masked = true;
    } else {
      const int k = i - added_ellipsis;
      OCTET_ENSURE(context, k >= 0 && k < count, "%s: slice specs do not fit an input of rank %d",
                   kOp, input_rank);
      s.begin = begin->data.i32[k];
      s.end = end->data.i32[k];
      s.stride = strides->data.i32[k];
      s.begin_masked = params->begin_mask & (1 << k);
      s.end_masked = params->end_mask & (1 << k);
      s.shrink = params->shrink_axis_mask & (1 << k);
    }
  }

  plan->start.resize(eff_rank);
  plan->stop.resize(eff_rank);
  plan->stride.resize(eff_rank);
  plan->output_dims.clear();
  for (int i = 0; i < eff_rank; ++i) {
    const AxisSpec& s = specs[i];
    const int size = plan->effective_dims[i];
    OCTET_ENSURE(context, s.stride != 0, "%s: stride of axis %d is zero", kOp, i);
    int start = s.begin;
    if (start < 0) start += size;
    start = s.stride > 0 ? Clamp(start, 0, size) : Clamp(start, -1, size - 1);
    if (s.begin_masked) start = s.stride > 0 ? 0 : size - 1;
    if (s.shrink) {
      OCTET_ENSURE(context, start >= 0 && start < size,
                   "%s: shrink index %d out of range [0, %d) on axis %d", kOp, s.begin, size, i);
      // One element; its stride does not matter.
      plan->start[i] = start;
      plan->stop[i] = start + 1;
      plan->stride[i] = 1;
      continue;
    }
    int64_t stop64 = s.end;
    if (params->offset) stop64 += start;
    if (stop64 < 0) stop64 += size;
    int stop =
        static_cast<int>(s.stride > 0 ? std::min<int64_t>(std::max<int64_t>(stop64, 0), size)
                                      : std::min<int64_t>(std::max<int64_t>(stop64, -1), size - 1));
    if (s.end_masked) stop = s.stride > 0 ? size : -1;
    plan->start[i] = start;
    plan->stop[i] = stop;
    plan->stride[i] = s.stride;
    plan->output_dims.push_back(reference::StridedCount(start, stop, s.stride));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 4, 4, 1));
  OCTET_ENSURE(context, node->builtin_data != nullptr, "%s: missing options", kOp);
  const TfLiteTensor *input, *begin, *end, *strides;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &begin));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &end));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 3, &strides));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kOp, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  const TfLiteTensor* index_tensors[] = {begin, end, strides};
  const char* names[] = {"begin", "end", "strides"};
  for (int i = 0; i < 3; ++i) {
    OCTET_ENSURE(context, index_tensors[i]->type == kTfLiteInt32, "%s: %s must be int32, got %s",
                 kOp, names[i], TfLiteTypeGetName(index_tensors[i]->type));
    OCTET_ENSURE(context, tflite::NumDimensions(index_tensors[i]) == 1,
                 "%s: %s must be a vector, got rank %d", kOp, names[i],
                 tflite::NumDimensions(index_tensors[i]));
  }
  OCTET_ENSURE(context,
               tflite::NumElements(begin) == tflite::NumElements(end) &&
                   tflite::NumElements(begin) == tflite::NumElements(strides),
               "%s: begin, end and strides lengths differ (%d, %d, %d)", kOp,
               static_cast<int>(tflite::NumElements(begin)),
               static_cast<int>(tflite::NumElements(end)),
               static_cast<int>(tflite::NumElements(strides)));
  OCTET_ENSURE(context, tflite::NumDimensions(input) <= kMaxDims, "%s: input rank %d exceeds %d",
               kOp, tflite::NumDimensions(input), kMaxDims);
  if (!(IsConstant(begin) && IsConstant(end) && IsConstant(strides))) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  Plan plan;
  TF_LITE_ENSURE_STATUS(MakePlan(context, node, &plan));
  return ResizeOutput(context, output, plan.output_dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  Plan plan;
  TF_LITE_ENSURE_STATUS(MakePlan(context, node, &plan));
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, plan.output_dims));
  }
  const Shape shape(plan.effective_dims);
  if (shape.FlatSize() == 0) return kTfLiteOk;
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::StridedSlice(shape, plan.start, plan.stop, plan.stride,
                            reinterpret_cast<const T*>(input->data.raw),
                            reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STRIDED_SLICE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
