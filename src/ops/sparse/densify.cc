// DENSIFY: a constant sparse tensor (float32, float16 or int8, with SparsityParameters) to
// the dense tensor of the same type and shape. Prepare validates all of the sparse metadata
// (see sparsity_format.h) and sizes the output, which is persistent; the first invoke after
// each prepare fills it, later invokes leave it as it is (TFLite converts once, in the first
// invoke, since the output has no memory before allocation).
#include <cstdint>
#include <string>

#include "ops/op_util.h"
#include "ops/sparse/sparse_ops.h"
#include "ops/sparse/sparsity_format.h"

namespace octet::ops::sparse {
namespace {

constexpr char kOp[] = "DENSIFY";

struct OpData {
  DensifyPlan plan;
  bool filled = false;
};

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(
      context,
      input->type == kTfLiteFloat32 || input->type == kTfLiteFloat16 || input->type == kTfLiteInt8,
      kOp, "input must be FLOAT32, FLOAT16 or INT8, got %s", TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, tflite::IsConstantTensor(input), kOp, "input must be a constant");
  OCTET_OP_ENSURE(context, input->sparsity != nullptr, kOp, "input has no sparsity parameters");
  OCTET_OP_ENSURE(context, output->type == input->type, kOp, "output must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));

  auto* data = static_cast<OpData*>(node->user_data);
  data->filled = false;
  const std::vector<int> shape(input->dims->data, input->dims->data + input->dims->size);
  std::string error;
  OCTET_OP_ENSURE(context, BuildDensifyPlan(*input->sparsity, shape, &data->plan, &error), kOp,
                  "invalid sparsity: %s", error.c_str());
  const size_t element_size = TfLiteTypeGetSize(input->type);
  OCTET_OP_ENSURE(
      context,
      input->bytes == static_cast<size_t>(data->plan.value_count) * element_size &&
          (data->plan.value_count == 0 || input->data.raw_const != nullptr),
      kOp, "sparse input holds %zu bytes but its metadata describes %lld values of %zu bytes",
      input->bytes, static_cast<long long>(data->plan.value_count), element_size);

  output->allocation_type = kTfLiteArenaRwPersistent;
  return ResizeOutput(context, output, shape);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  if (data->filled) return kTfLiteOk;
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const size_t element_size = TfLiteTypeGetSize(input->type);
  OCTET_OP_ENSURE(context,
                  output->bytes == static_cast<size_t>(data->plan.dense_elements) * element_size,
                  kOp, "output has %zu bytes, expected %lld elements", output->bytes,
                  static_cast<long long>(data->plan.dense_elements));
  if (data->plan.dense_elements > 0) {
    Densify(data->plan, reinterpret_cast<const uint8_t*>(input->data.raw_const), element_size,
            reinterpret_cast<uint8_t*>(output->data.raw));
  }
  data->filled = true;
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::sparse

namespace tflite::ops::builtin {

TfLiteRegistration* Register_DENSIFY() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::InitData<octet::ops::sparse::OpData>,
                                   octet::ops::FreeData<octet::ops::sparse::OpData>,
                                   octet::ops::sparse::Prepare, octet::ops::sparse::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
