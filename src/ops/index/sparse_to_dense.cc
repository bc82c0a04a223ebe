// SPARSE_TO_DENSE: indices (int32/int64; a scalar, a vector of positions in a 1-D output, or
// [n, rank] tuples), output_shape (int32/int64 vector, at most 4 dims as in TFLite), values
// (int32, int64, int8, uint8, float32; one per index, or a scalar for all) and default_value
// give a dense tensor of default_value with the values at the indices (a repeated index
// keeps the last value). Indices outside the shape are refused at invoke. validate_indices
// is accepted and, as in TFLite, does not require sorted indices. The output is dynamic
// unless output_shape is constant.
#include <cstdint>
#include <vector>

#include "kernels/reference/scatter.h"
#include "ops/index/common.h"
#include "ops/index/index_ops.h"

namespace octet::ops::index {
namespace {

constexpr char kOp[] = "SPARSE_TO_DENSE";
constexpr int kMaxRank = 4;

int64_t NumIndices(const TfLiteTensor* indices) {
  return tflite::NumDimensions(indices) == 0 ? 1 : indices->dims->data[0];
}

TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  const TfLiteTensor* shape = tflite::GetInput(context, node, 1);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output_shape", shape));
  std::vector<int64_t> values;
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, shape, "output_shape", &values));
  dims->clear();
  for (size_t i = 0; i < values.size(); ++i) {
    OCTET_ENSURE(context, values[i] >= 0 && values[i] <= INT32_MAX,
                 "%s: output_shape[%zu] = %lld is out of range", kOp, i,
                 static_cast<long long>(values[i]));
    dims->push_back(static_cast<int>(values[i]));
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 4, 4, 1));
  const TfLiteTensor *indices, *shape, *values, *def;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &indices));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &shape));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &values));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 3, &def));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, indices, "indices"));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, shape, "output_shape"));
  TF_LITE_ENSURE_STATUS(
      CheckTypeIn(context, kOp, "values", values,
                  {kTfLiteInt32, kTfLiteInt64, kTfLiteInt8, kTfLiteUInt8, kTfLiteFloat32}));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, values, def, "default_value"));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, values, output, "output"));
  OCTET_ENSURE(context, Count(def) == 1, "%s: default_value must hold one element", kOp);
  const int indices_rank = tflite::NumDimensions(indices);
  OCTET_ENSURE(context, indices_rank <= 2, "%s: indices must have rank 0, 1 or 2, got %d", kOp,
               indices_rank);
  OCTET_ENSURE(context, tflite::NumDimensions(shape) == 1,
               "%s: output_shape must be a vector, got rank %d", kOp, tflite::NumDimensions(shape));
  const int64_t out_rank = Count(shape);
  OCTET_ENSURE(context, out_rank <= kMaxRank, "%s: the output may have at most %d dims, got %lld",
               kOp, kMaxRank, static_cast<long long>(out_rank));
  const int64_t depth = indices_rank == 2 ? indices->dims->data[1] : 1;
  OCTET_ENSURE(context, depth == out_rank,
               "%s: indices give %lld coordinates but output_shape has %lld dims", kOp,
               static_cast<long long>(depth), static_cast<long long>(out_rank));
  const int values_rank = tflite::NumDimensions(values);
  OCTET_ENSURE(context, values_rank <= 1, "%s: values must be a scalar or a vector, got rank %d",
               kOp, values_rank);
  if (values_rank == 1) {
    OCTET_ENSURE(context, values->dims->data[0] == NumIndices(indices),
                 "%s: %d values for %lld indices", kOp, values->dims->data[0],
                 static_cast<long long>(NumIndices(indices)));
  }
  return ResizeOrMarkDynamic(context, node, output, IsConstant(shape), OutputDims);
}

template <typename T, typename Index>
reference::IndexError Run(const TfLiteTensor* indices, const TfLiteTensor* values,
                          const TfLiteTensor* def, TfLiteTensor* output) {
  return reference::SparseToDense(
      reinterpret_cast<const Index*>(indices->data.raw), NumIndices(indices), Shape::Of(output),
      reinterpret_cast<const T*>(values->data.raw), tflite::NumDimensions(values) == 0,
      *reinterpret_cast<const T*>(def->data.raw), reinterpret_cast<T*>(output->data.raw));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* indices = tflite::GetInput(context, node, 0);
  const TfLiteTensor* values = tflite::GetInput(context, node, 2);
  const TfLiteTensor* def = tflite::GetInput(context, node, 3);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicOutput(context, node, output, OutputDims));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "indices", indices));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "values", values));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "default_value", def));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  OCTET_ENSURE(context, NumIndices(indices) == 0 || Count(values) > 0,
               "%s: values is empty but there are indices", kOp);
  reference::IndexError err;
  const bool wide = indices->type == kTfLiteInt64;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    err = wide ? Run<T, int64_t>(indices, values, def, output)
               : Run<T, int32_t>(indices, values, def, output);
  };
  switch (values->type) {
    case kTfLiteInt32:
      run(int32_t{});
      break;
    case kTfLiteInt64:
      run(int64_t{});
      break;
    case kTfLiteInt8:
      run(int8_t{});
      break;
    case kTfLiteUInt8:
      run(uint8_t{});
      break;
    case kTfLiteFloat32:
      run(float{});
      break;
    default:
      OCTET_ENSURE(context, false, "%s: unsupported values type %s", kOp,
                   TfLiteTypeGetName(values->type));
  }
  OCTET_ENSURE(context, err.ok, "%s: index %lld (entry %lld, coordinate %d) out of range [0, %lld)",
               kOp, static_cast<long long>(err.value), static_cast<long long>(err.row), err.dim,
               static_cast<long long>(err.limit));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::index

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SPARSE_TO_DENSE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::index::Prepare, octet::ops::index::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
