// STABLEHLO_GATHER: slices of `operand` (rank <= 8) at the starts given by `start_indices`
// (INT32 or INT64) stacked into the result (StablehloGatherOptions). Each index vector of
// start_indices (along index_vector_dim; a single element when index_vector_dim equals its
// rank) gives the start along the operand axes of start_index_map, clamped into
// [0, dim - slice_size] so the whole slice fits; collapsed_slice_dims (slice size 1) are
// dropped from the slice, whose other axes land at offset_dims of the result and the index
// vectors' batch axes at the remaining ones. Operand types as TFLite's kernel: float16/32/64,
// int8/16/32/64 and uint8/16/32/64 (elements are copied as bytes).
// Unlike TFLite, which trusts the options, prepare checks them against the StableHLO
// constraints (a collapsed slice size must be 1, not 0: an empty collapsed slice has no
// element to read), the result rank comes from the options rather than the output tensor,
// and index_vector_dim may equal the indices' rank, as the spec allows.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ops/op_util.h"
#include "ops/stablehlo/gather_scatter_util.h"
#include "ops/stablehlo/stablehlo_ops.h"

namespace octet::ops::stablehlo {
namespace {

constexpr char kOp[] = "STABLEHLO_GATHER";
constexpr int kMaxCount = TFLITE_STABLEHLO_GATHER_PARAMS_MAX_DIMENSION_COUNT;

// The copy prepare works out: per batch position a clamped start, then the slice.
struct Plan {
  IndexVectors vectors;
  std::vector<int64_t> batch_result_strides;  // result stride of each index-vector batch axis
  std::vector<int64_t> start_strides;         // operand stride of start_index_map[k]
  std::vector<int64_t> start_limits;          // largest start there: dim - slice size
  std::vector<int64_t> slice_dims;            // sizes of the slice's kept axes
  std::vector<int64_t> slice_operand_strides;
  std::vector<int64_t> slice_result_strides;
  size_t element_size = 0;
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

TfLiteStatus CheckCounts(TfLiteContext* context, const TfLiteStablehloGatherParams& p) {
  const int counts[] = {p.num_offset_dims, p.num_collapsed_slice_dims, p.num_start_index_map,
                        p.num_slice_sizes};
  for (int n : counts) {
    OCTET_OP_ENSURE(context, n >= 0 && n <= kMaxCount, kOp,
                    "an option list has %d entries (0 to %d allowed)", n, kMaxCount);
  }
  return kTfLiteOk;
}

// The StableHLO constraints on the options that involve the operand.
TfLiteStatus CheckOperandDims(TfLiteContext* context, const TfLiteStablehloGatherParams& p,
                              const std::vector<int64_t>& dims) {
  const int rank = static_cast<int>(dims.size());
  OCTET_OP_ENSURE(context, p.num_slice_sizes == rank, kOp,
                  "slice_sizes has %d entries but the operand has rank %d", p.num_slice_sizes,
                  rank);
  OCTET_OP_ENSURE(context, p.num_offset_dims + p.num_collapsed_slice_dims == rank, kOp,
                  "offset_dims (%d) and collapsed_slice_dims (%d) must together have an entry "
                  "per operand dimension (%d)",
                  p.num_offset_dims, p.num_collapsed_slice_dims, rank);
  TF_LITE_ENSURE_STATUS(CheckDimList(context, kOp, "collapsed_slice_dims", p.collapsed_slice_dims,
                                     p.num_collapsed_slice_dims, rank, /*sorted=*/true));
  TF_LITE_ENSURE_STATUS(CheckDimList(context, kOp, "start_index_map", p.start_index_map,
                                     p.num_start_index_map, rank, /*sorted=*/false));
  for (int d = 0; d < rank; ++d) {
    const int64_t s = p.slice_sizes[d];
    OCTET_OP_ENSURE(context, s >= 0 && s <= dims[d], kOp,
                    "slice_sizes[%d] = %lld is out of range [0, %lld] (the operand dimension)", d,
                    static_cast<long long>(s), static_cast<long long>(dims[d]));
    OCTET_OP_ENSURE(context,
                    s == 1 || !Contains(p.collapsed_slice_dims, p.num_collapsed_slice_dims, d), kOp,
                    "slice_sizes[%d] must be 1 as dimension %d is collapsed, got %lld", d, d,
                    static_cast<long long>(s));
  }
  return kTfLiteOk;
}

// Fills the plan and the result dims from validated options.
void MakePlan(const TfLiteStablehloGatherParams& p, const std::vector<int64_t>& operand_dims,
              const TfLiteTensor* indices, Plan* plan, std::vector<int64_t>* result_dims) {
  plan->vectors = DescribeIndexVectors(indices, p.index_vector_dim);
  const std::vector<int64_t> operand_strides = Strides(operand_dims);
  plan->start_strides.clear();
  plan->start_limits.clear();
  for (int k = 0; k < p.num_start_index_map; ++k) {
    const int64_t d = p.start_index_map[k];
    plan->start_strides.push_back(operand_strides[d]);
    plan->start_limits.push_back(operand_dims[d] - p.slice_sizes[d]);
  }
  plan->slice_dims.clear();
  plan->slice_operand_strides.clear();
  for (size_t d = 0; d < operand_dims.size(); ++d) {
    if (Contains(p.collapsed_slice_dims, p.num_collapsed_slice_dims, d)) continue;
    plan->slice_dims.push_back(p.slice_sizes[d]);
    plan->slice_operand_strides.push_back(operand_strides[d]);
  }
  // Result axes: offset_dims take the slice's kept axes in order, the others the batch axes.
  const size_t batch_rank = plan->vectors.batch_dims.size();
  const size_t result_rank = batch_rank + plan->slice_dims.size();
  std::vector<bool> is_offset(result_rank, false);
  for (int i = 0; i < p.num_offset_dims; ++i) is_offset[p.offset_dims[i]] = true;
  result_dims->assign(result_rank, 0);
  for (size_t r = 0, b = 0, s = 0; r < result_rank; ++r) {
    (*result_dims)[r] = is_offset[r] ? plan->slice_dims[s++] : plan->vectors.batch_dims[b++];
  }
  const std::vector<int64_t> result_strides = Strides(*result_dims);
  plan->batch_result_strides.clear();
  plan->slice_result_strides.clear();
  for (size_t r = 0; r < result_rank; ++r) {
    (is_offset[r] ? plan->slice_result_strides : plan->batch_result_strides)
        .push_back(result_strides[r]);
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const auto& p = *static_cast<const TfLiteStablehloGatherParams*>(node->builtin_data);
  const TfLiteTensor *operand, *indices;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &operand));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &indices));
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, Supported(operand->type), kOp, "operand type %s is not supported",
                  TfLiteTypeGetName(operand->type));
  OCTET_OP_ENSURE(context, output->type == operand->type, kOp, "output must be %s, got %s",
                  TfLiteTypeGetName(operand->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, indices->type == kTfLiteInt32 || indices->type == kTfLiteInt64, kOp,
                  "start indices must be INT32 or INT64, got %s", TfLiteTypeGetName(indices->type));
  TF_LITE_ENSURE_STATUS(CheckCounts(context, p));
  const std::vector<int64_t> operand_dims = TensorDims(operand);
  OCTET_OP_ENSURE(context, operand_dims.size() <= kMaxCount, kOp,
                  "operand rank must be at most %d, got %zu", kMaxCount, operand_dims.size());
  TF_LITE_ENSURE_STATUS(CheckOperandDims(context, p, operand_dims));
  TF_LITE_ENSURE_STATUS(CheckIndexVectorDim(context, kOp, indices, p.index_vector_dim,
                                            p.num_start_index_map, "start_index_map"));
  const int batch_rank = indices->dims->size - (p.index_vector_dim < indices->dims->size ? 1 : 0);
  const int result_rank = batch_rank + p.num_offset_dims;
  TF_LITE_ENSURE_STATUS(CheckDimList(context, kOp, "offset_dims", p.offset_dims, p.num_offset_dims,
                                     result_rank, /*sorted=*/true));

  auto* plan = static_cast<Plan*>(node->user_data);
  std::vector<int64_t> result_dims;
  MakePlan(p, operand_dims, indices, plan, &result_dims);
  plan->element_size = TfLiteTypeGetSize(operand->type);
  int64_t count = 0, bytes = 0;
  OCTET_OP_ENSURE(
      context,
      CountElements(result_dims, &count) &&
          !__builtin_mul_overflow(count, static_cast<int64_t>(plan->element_size), &bytes),
      kOp, "the result has too many elements");
  return ResizeOutput(context, output, std::vector<int>(result_dims.begin(), result_dims.end()));
}

// Copies one clamped slice per batch position.
void Gather(const Plan& plan, const TfLiteTensor* indices, const char* operand, char* result) {
  const IndexVectors& v = plan.vectors;
  const size_t elem = plan.element_size;
  std::vector<int64_t> batch(v.batch_dims.size(), 0), slice(plan.slice_dims.size(), 0);
  do {
    int64_t index_base = 0, result_base = 0, operand_base = 0;
    for (size_t j = 0; j < batch.size(); ++j) {
      index_base += batch[j] * v.batch_strides[j];
      result_base += batch[j] * plan.batch_result_strides[j];
    }
    for (size_t k = 0; k < plan.start_strides.size(); ++k) {
      const int64_t start = ReadIndex(indices, index_base + static_cast<int64_t>(k) * v.stride);
      operand_base += std::clamp<int64_t>(start, 0, plan.start_limits[k]) * plan.start_strides[k];
    }
    std::fill(slice.begin(), slice.end(), 0);
    do {
      int64_t from = operand_base, to = result_base;
      for (size_t i = 0; i < slice.size(); ++i) {
        from += slice[i] * plan.slice_operand_strides[i];
        to += slice[i] * plan.slice_result_strides[i];
      }
      std::memcpy(result + to * elem, operand + from * elem, elem);
    } while (NextIndex(plan.slice_dims, &slice) >= 0);
  } while (NextIndex(v.batch_dims, &batch) >= 0);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* operand = tflite::GetInput(context, node, 0);
  const TfLiteTensor* indices = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  // A non-empty result reads a non-empty slice (collapsed axes have size 1, kept axes are
  // result axes) at every batch position, so the operand has elements too.
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "operand", operand));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const auto& plan = *static_cast<const Plan*>(node->user_data);
  if (!plan.start_strides.empty()) {
    TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "start indices", indices));
  }
  Gather(plan, indices, operand->data.raw_const, output->data.raw);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::stablehlo

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STABLEHLO_GATHER() {
  using Plan = octet::ops::stablehlo::Plan;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::InitData<Plan>, octet::ops::FreeData<Plan>,
                                   octet::ops::stablehlo::Prepare, octet::ops::stablehlo::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
