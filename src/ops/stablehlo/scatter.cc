// STABLEHLO_SCATTER: the output is `input` (rank <= 8) with the elements of `updates` combined
// into windows at the starts given by `scatter_indices` (INT32 or INT64), as
// StablehloScatterOptions say. For each update element, its axes outside update_window_dims
// pick an index vector of scatter_indices (along index_vector_dim; a single element when that
// equals the indices' rank) whose entries are starts along the input axes of
// scatter_dims_to_operand_dims; its update_window_dims coordinates, with 0 inserted at
// inserted_window_dims, are added to that start. Targets outside the input are skipped, each
// element on its own (starts are not clamped). Update elements are applied in row-major order,
// so repeated targets see every update in that order.
// The update computation (subgraph update_computation_subgraph_index) must be what TFLite
// recognises: no op, returning the update, or one STABLEHLO_ADD, _MULTIPLY, _MAXIMUM or
// _MINIMUM of its two arguments; it is never run, its op is applied directly. Types as
// TFLite's kernel: float16/32/64, int8/16/32/64, uint8/16/32/64.
// Unlike TFLite: options are checked against the StableHLO constraints, targets below 0 are
// skipped too (TFLite writes before the output), a region that returns its first argument or
// computes from anything but its two arguments is refused rather than taken for an update,
// integer sums and products wrap (two's complement) and index_vector_dim may equal the
// indices' rank.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/reference/quantize.h"
#include "ops/op_util.h"
#include "ops/stablehlo/gather_scatter_util.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "ops/stablehlo/subgraph_call.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/core/subgraph.h"

namespace octet::ops::stablehlo {
namespace {

constexpr char kOp[] = "STABLEHLO_SCATTER";
constexpr int kMaxCount = TFLITE_STABLEHLO_SCATTER_PARAMS_MAX_DIMENSION_COUNT;

enum class Combine { kUpdate, kAdd, kMul, kMax, kMin };

// Where each update element goes, worked out by prepare.
struct Plan {
  Combine combine = Combine::kUpdate;
  IndexVectors vectors;
  std::vector<int64_t> update_dims;
  std::vector<int> scatter_axis_of;  // per update axis: its index-vector batch axis, or -1
  int last_scatter_axis = -1;        // the last update axis that is not a window axis
  std::vector<int64_t> input_dims;
  std::vector<int64_t> input_strides;
  std::vector<int> window_axis_of;  // per input axis: the update axis it takes, or -1
  std::vector<int> start_axes;      // scatter_dims_to_operand_dims
};

bool Supported(TfLiteType t) {
  switch (t) {
    case kTfLiteFloat16:
    case kTfLiteFloat32:
    case kTfLiteFloat64:
    case kTfLiteInt8:
    case kTfLiteInt16:
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteUInt8:
    case kTfLiteUInt16:
    case kTfLiteUInt32:
    case kTfLiteUInt64:
      return true;
    default:
      return false;
  }
}

// The combination the region computes, or an error saying why it is not one Octet runs.
TfLiteStatus ReadComputation(TfLiteContext* context, int index, TfLiteType type, Combine* combine) {
  tflite::Subgraph* g = FindSubgraph(context, kOp, "update_computation_subgraph_index", index);
  if (g == nullptr) return kTfLiteError;
  OCTET_OP_ENSURE(context, g->inputs().size() == 2 && g->outputs().size() == 1, kOp,
                  "update computation (subgraph %d) must take 2 arguments and return 1 value, "
                  "got %zu and %zu",
                  index, g->inputs().size(), g->outputs().size());
  const int lhs = g->inputs()[0], rhs = g->inputs()[1], out = g->outputs()[0];
  for (int t : {lhs, rhs, out}) {
    const TfLiteTensor* tensor = g->tensor(t);
    OCTET_OP_ENSURE(context, tensor != nullptr && tensor->type == type, kOp,
                    "update computation (subgraph %d) must take and return %s values", index,
                    TfLiteTypeGetName(type));
  }
  const std::vector<int>& plan = g->execution_plan();
  if (plan.empty()) {
    OCTET_OP_ENSURE(context, out == rhs, kOp,
                    "update computation (subgraph %d) has no op, so it must return its second "
                    "argument (the update)",
                    index);
    *combine = Combine::kUpdate;
    return kTfLiteOk;
  }
  OCTET_OP_ENSURE(context, plan.size() == 1, kOp,
                  "update computation (subgraph %d) has %zu ops; only one STABLEHLO_ADD, "
                  "_MULTIPLY, _MAXIMUM or _MINIMUM, or returning the update, is supported",
                  index, plan.size());
  const auto* node_and_reg = g->node_and_registration(plan[0]);
  OCTET_OP_ENSURE(context, node_and_reg != nullptr, kOp,
                  "update computation (subgraph %d) has no node %d", index, plan[0]);
  switch (node_and_reg->second.builtin_code) {
    case kTfLiteBuiltinStablehloAdd:
      *combine = Combine::kAdd;
      break;
    case kTfLiteBuiltinStablehloMultiply:
      *combine = Combine::kMul;
      break;
    case kTfLiteBuiltinStablehloMaximum:
      *combine = Combine::kMax;
      break;
    case kTfLiteBuiltinStablehloMinimum:
      *combine = Combine::kMin;
      break;
    default:
      TF_LITE_KERNEL_LOG(context,
                         "%s: update computation (subgraph %d) runs builtin op %d; only "
                         "STABLEHLO_ADD, _MULTIPLY, _MAXIMUM and _MINIMUM are supported",
                         kOp, index, node_and_reg->second.builtin_code);
      return kTfLiteError;
  }
  const TfLiteNode& node = node_and_reg->first;
  const bool args_ok = node.inputs != nullptr && node.inputs->size == 2 &&
                       ((node.inputs->data[0] == lhs && node.inputs->data[1] == rhs) ||
                        (node.inputs->data[0] == rhs && node.inputs->data[1] == lhs));
  const bool result_ok =
      node.outputs != nullptr && node.outputs->size == 1 && node.outputs->data[0] == out;
  OCTET_OP_ENSURE(context, args_ok && result_ok, kOp,
                  "update computation (subgraph %d) must apply its op to its two arguments and "
                  "return the op's result",
                  index);
  return kTfLiteOk;
}

TfLiteStatus CheckCounts(TfLiteContext* context, const TfLiteStablehloScatterParams& p) {
  const std::pair<const char*, int> counts[] = {
      {"update_window_dims", p.num_update_window_dims},
      {"inserted_window_dims", p.num_inserted_window_dims},
      {"scatter_dims_to_operand_dims", p.num_scatter_dims_to_operand_dims}};
  for (const auto& [name, n] : counts) {
    OCTET_OP_ENSURE(context, n >= 0 && n <= kMaxCount, kOp, "%s has %d entries (0 to %d allowed)",
                    name, n, kMaxCount);
  }
  return kTfLiteOk;
}

// The StableHLO constraints on the options and shapes; fills the plan.
TfLiteStatus MakePlan(TfLiteContext* context, const TfLiteStablehloScatterParams& p,
                      const TfLiteTensor* input, const TfLiteTensor* indices,
                      const TfLiteTensor* updates, Plan* plan) {
  TF_LITE_ENSURE_STATUS(CheckCounts(context, p));
  const int rank = input->dims->size;
  OCTET_OP_ENSURE(context, rank <= kMaxCount, kOp, "input rank must be at most %d, got %d",
                  kMaxCount, rank);
  OCTET_OP_ENSURE(context, p.num_update_window_dims + p.num_inserted_window_dims == rank, kOp,
                  "update_window_dims (%d) and inserted_window_dims (%d) must together have an "
                  "entry per input dimension (%d)",
                  p.num_update_window_dims, p.num_inserted_window_dims, rank);
  TF_LITE_ENSURE_STATUS(CheckDimList(context, kOp, "inserted_window_dims", p.inserted_window_dims,
                                     p.num_inserted_window_dims, rank, /*sorted=*/true));
  TF_LITE_ENSURE_STATUS(CheckDimList(context, kOp, "scatter_dims_to_operand_dims",
                                     p.scatter_dims_to_operand_dims,
                                     p.num_scatter_dims_to_operand_dims, rank, /*sorted=*/false));
  TF_LITE_ENSURE_STATUS(CheckIndexVectorDim(context, kOp, indices, p.index_vector_dim,
                                            p.num_scatter_dims_to_operand_dims,
                                            "scatter_dims_to_operand_dims"));
  plan->vectors = DescribeIndexVectors(indices, p.index_vector_dim);
  const std::vector<int64_t>& batch_dims = plan->vectors.batch_dims;
  const int update_rank = updates->dims->size;
  TF_LITE_ENSURE_STATUS(CheckDimList(context, kOp, "update_window_dims", p.update_window_dims,
                                     p.num_update_window_dims, update_rank, /*sorted=*/true));
  OCTET_OP_ENSURE(context,
                  static_cast<size_t>(update_rank) == batch_dims.size() + p.num_update_window_dims,
                  kOp,
                  "updates have rank %d but the indices' batch dimensions (%zu) and "
                  "update_window_dims (%d) need %zu",
                  update_rank, batch_dims.size(), p.num_update_window_dims,
                  batch_dims.size() + p.num_update_window_dims);

  plan->input_dims = TensorDims(input);
  plan->input_strides = Strides(plan->input_dims);
  plan->update_dims = TensorDims(updates);
  plan->scatter_axis_of.assign(update_rank, -1);
  plan->window_axis_of.assign(rank, -1);
  plan->last_scatter_axis = -1;
  int batch = 0, window = 0;
  for (int u = 0; u < update_rank; ++u) {
    const int64_t size = plan->update_dims[u];
    if (!Contains(p.update_window_dims, p.num_update_window_dims, u)) {
      OCTET_OP_ENSURE(context, size == batch_dims[batch], kOp,
                      "updates dimension %d is %lld but the matching indices dimension is %lld", u,
                      static_cast<long long>(size), static_cast<long long>(batch_dims[batch]));
      plan->scatter_axis_of[u] = batch++;
      plan->last_scatter_axis = u;
      continue;
    }
    // The window's axis: the next input axis not in inserted_window_dims.
    while (Contains(p.inserted_window_dims, p.num_inserted_window_dims, window)) ++window;
    OCTET_OP_ENSURE(context, size <= plan->input_dims[window], kOp,
                    "updates dimension %d (a window of %lld) is larger than input dimension %d "
                    "(%lld)",
                    u, static_cast<long long>(size), window,
                    static_cast<long long>(plan->input_dims[window]));
    plan->window_axis_of[window++] = u;
  }
  plan->start_axes.assign(p.scatter_dims_to_operand_dims,
                          p.scatter_dims_to_operand_dims + p.num_scatter_dims_to_operand_dims);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 3, 3, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const auto& p = *static_cast<const TfLiteStablehloScatterParams*>(node->builtin_data);
  const TfLiteTensor *input, *indices, *updates;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &indices));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &updates));
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, Supported(input->type), kOp, "input type %s is not supported",
                  TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, updates->type == input->type, kOp, "updates must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(updates->type));
  OCTET_OP_ENSURE(context, output->type == input->type, kOp, "output must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, indices->type == kTfLiteInt32 || indices->type == kTfLiteInt64, kOp,
                  "scatter indices must be INT32 or INT64, got %s",
                  TfLiteTypeGetName(indices->type));
  auto* plan = static_cast<Plan*>(node->user_data);
  TF_LITE_ENSURE_STATUS(MakePlan(context, p, input, indices, updates, plan));
  TF_LITE_ENSURE_STATUS(
      ReadComputation(context, p.update_computation_subgraph_index, input->type, &plan->combine));
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(input->dims));
}

// Integer sums and products in an unsigned type at least as wide as int: they wrap, no UB.
template <typename T>
using Wide = std::make_unsigned_t<std::conditional_t<(sizeof(T) < sizeof(int)), int, T>>;

template <Combine c, typename T>
T Apply(T current, T update) {
  if constexpr (c == Combine::kUpdate) {
    return update;
  } else if constexpr (c == Combine::kMax) {
    return std::max(current, update);
  } else if constexpr (c == Combine::kMin) {
    return std::min(current, update);
  } else if constexpr (std::is_integral_v<T>) {
    const Wide<T> a = static_cast<Wide<T>>(current), b = static_cast<Wide<T>>(update);
    return static_cast<T>(c == Combine::kAdd ? a + b : a * b);
  } else {
    return c == Combine::kAdd ? current + update : current * update;
  }
}

// float16 values are bit patterns, compared and combined as floats (as Eigen::half).
struct Half {
  uint16_t bits;
};

template <Combine c>
Half ApplyHalf(Half current, Half update) {
  const float a = reference::HalfToFloat(current.bits), b = reference::HalfToFloat(update.bits);
  if constexpr (c == Combine::kUpdate) {
    return update;
  } else if constexpr (c == Combine::kMax) {
    return a < b ? update : current;
  } else if constexpr (c == Combine::kMin) {
    return b < a ? update : current;
  } else {
    return {reference::FloatToHalf(c == Combine::kAdd ? a + b : a * b)};
  }
}

template <Combine c, typename T>
void Scatter(const Plan& plan, const TfLiteTensor* indices, const T* updates, T* out) {
  const IndexVectors& v = plan.vectors;
  const size_t rank = plan.input_dims.size();
  std::vector<int64_t> idx(plan.update_dims.size(), 0), start(rank, 0);
  int64_t update_flat = 0;
  bool new_start = true;
  do {
    if (new_start) {
      int64_t base = 0;
      for (size_t u = 0; u < idx.size(); ++u) {
        if (plan.scatter_axis_of[u] >= 0) base += idx[u] * v.batch_strides[plan.scatter_axis_of[u]];
      }
      std::fill(start.begin(), start.end(), 0);
      for (size_t k = 0; k < plan.start_axes.size(); ++k) {
        start[plan.start_axes[k]] = ReadIndex(indices, base + static_cast<int64_t>(k) * v.stride);
      }
    }
    // start + window must lie in [0, dim) on every axis; compared as start in
    // [-w, dim - w) so a huge start cannot overflow.
    int64_t target = 0;
    bool inside = true;
    for (size_t d = 0; d < rank && inside; ++d) {
      const int64_t w = plan.window_axis_of[d] >= 0 ? idx[plan.window_axis_of[d]] : 0;
      inside = start[d] >= -w && start[d] < plan.input_dims[d] - w;
      if (inside) target += (start[d] + w) * plan.input_strides[d];
    }
    if (inside) {
      if constexpr (std::is_same_v<T, Half>) {
        out[target] = ApplyHalf<c>(out[target], updates[update_flat]);
      } else {
        out[target] = Apply<c, T>(out[target], updates[update_flat]);
      }
    }
    ++update_flat;
    const int moved = NextIndex(plan.update_dims, &idx);
    if (moved < 0) break;
    new_start = moved <= plan.last_scatter_axis;  // a carry past a scatter axis changes it
  } while (true);
}

template <typename T>
void ScatterTyped(const Plan& plan, const TfLiteTensor* indices, const TfLiteTensor* updates,
                  TfLiteTensor* output) {
  const T* u = reinterpret_cast<const T*>(updates->data.raw_const);
  T* out = reinterpret_cast<T*>(output->data.raw);
  switch (plan.combine) {
    case Combine::kUpdate:
      return Scatter<Combine::kUpdate, T>(plan, indices, u, out);
    case Combine::kAdd:
      return Scatter<Combine::kAdd, T>(plan, indices, u, out);
    case Combine::kMul:
      return Scatter<Combine::kMul, T>(plan, indices, u, out);
    case Combine::kMax:
      return Scatter<Combine::kMax, T>(plan, indices, u, out);
    case Combine::kMin:
      return Scatter<Combine::kMin, T>(plan, indices, u, out);
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* indices = tflite::GetInput(context, node, 1);
  const TfLiteTensor* updates = tflite::GetInput(context, node, 2);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::NumElements(output) == 0) return kTfLiteOk;  // every target is outside
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  OCTET_OP_ENSURE(context, output->bytes == input->bytes, kOp, "output holds %zu bytes, not %zu",
                  output->bytes, input->bytes);
  if (output->data.raw != input->data.raw) {
    std::memcpy(output->data.raw, input->data.raw_const, input->bytes);
  }
  if (tflite::NumElements(updates) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "updates", updates));
  const auto& plan = *static_cast<const Plan*>(node->user_data);
  if (!plan.start_axes.empty()) {
    TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "scatter indices", indices));
  }
  switch (input->type) {
    case kTfLiteFloat16:
      ScatterTyped<Half>(plan, indices, updates, output);
      break;
    case kTfLiteFloat32:
      ScatterTyped<float>(plan, indices, updates, output);
      break;
    case kTfLiteFloat64:
      ScatterTyped<double>(plan, indices, updates, output);
      break;
    case kTfLiteInt8:
      ScatterTyped<int8_t>(plan, indices, updates, output);
      break;
    case kTfLiteInt16:
      ScatterTyped<int16_t>(plan, indices, updates, output);
      break;
    case kTfLiteInt32:
      ScatterTyped<int32_t>(plan, indices, updates, output);
      break;
    case kTfLiteInt64:
      ScatterTyped<int64_t>(plan, indices, updates, output);
      break;
    case kTfLiteUInt8:
      ScatterTyped<uint8_t>(plan, indices, updates, output);
      break;
    case kTfLiteUInt16:
      ScatterTyped<uint16_t>(plan, indices, updates, output);
      break;
    case kTfLiteUInt32:
      ScatterTyped<uint32_t>(plan, indices, updates, output);
      break;
    case kTfLiteUInt64:
      ScatterTyped<uint64_t>(plan, indices, updates, output);
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: type %s is not supported", kOp,
                         TfLiteTypeGetName(input->type));
      return kTfLiteError;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::stablehlo

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STABLEHLO_SCATTER() {
  using Plan = octet::ops::stablehlo::Plan;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::InitData<Plan>, octet::ops::FreeData<Plan>,
                                   octet::ops::stablehlo::Prepare, octet::ops::stablehlo::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
