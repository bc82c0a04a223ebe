// DILATE (StableHLO interior padding): input of any fixed-size type, dilations int32 [rank]
// (each >= 1) and a scalar padding value of the input's type give the output of dims
// (d - 1) * dilation + 1 (0 for an empty dimension) holding input[i] at i * dilation and the
// padding value everywhere else. As in TFLite the output is sized in prepare when the
// dilations are constant and at invoke otherwise; elements are copied as bytes.
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "ops/op_util.h"
#include "ops/window/window_ops.h"

namespace octet::ops::window {
namespace {

constexpr char kOp[] = "DILATE";

// Validates the dilations and computes the output dims.
TfLiteStatus OutputDims(TfLiteContext* context, const TfLiteTensor* input,
                        const TfLiteTensor* dilations, std::vector<int>* dims) {
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "dilations", dilations));
  const int rank = input->dims->size;
  dims->resize(rank);
  int64_t elements = 1;
  for (int i = 0; i < rank; ++i) {
    const int32_t d = dilations->data.i32[i];
    OCTET_OP_ENSURE(context, d >= 1, kOp, "dilations[%d] must be >= 1, got %d", i, d);
    const int64_t in = input->dims->data[i];
    const int64_t out = in == 0 ? 0 : (in - 1) * d + 1;
    OCTET_OP_ENSURE(context, out <= std::numeric_limits<int32_t>::max(), kOp,
                    "dimension %d dilated by %d is too large", i, d);
    elements *= out;
    OCTET_OP_ENSURE(context, elements <= std::numeric_limits<int32_t>::max(), kOp,
                    "output is too large");
    (*dims)[i] = static_cast<int>(out);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor *input, *dilations, *padding;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &dilations));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &padding));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, TfLiteTypeGetSize(input->type) > 0, kOp,
                  "input type %s is not supported", TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, input->dims->size > 0, kOp, "input must have rank >= 1");
  OCTET_OP_ENSURE(context, output->type == input->type, kOp, "output must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, padding->type == input->type, kOp, "padding value must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(padding->type));
  OCTET_OP_ENSURE(context, tflite::NumElements(padding) == 1, kOp,
                  "padding value must have one element, got %lld",
                  static_cast<long long>(tflite::NumElements(padding)));
  OCTET_OP_ENSURE(context, dilations->type == kTfLiteInt32, kOp, "dilations must be INT32, got %s",
                  TfLiteTypeGetName(dilations->type));
  OCTET_OP_ENSURE(context,
                  dilations->dims->size == 1 && dilations->dims->data[0] == input->dims->size, kOp,
                  "dilations must have shape [%d] (the input rank)", input->dims->size);
  if (!tflite::IsConstantTensor(dilations)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  std::vector<int> dims;
  TF_LITE_ENSURE_STATUS(OutputDims(context, input, dilations, &dims));
  return ResizeOutput(context, output, dims);
}

// Fills `out` with the padding value, then scatters the input to its dilated positions.
void Dilate(const uint8_t* in, const std::vector<int>& in_dims, const int32_t* dilations,
            const uint8_t* pad, size_t element_size, const std::vector<int>& out_dims,
            uint8_t* out) {
  const int rank = static_cast<int>(in_dims.size());
  int64_t out_elements = 1, in_elements = 1;
  for (int i = 0; i < rank; ++i) {
    out_elements *= out_dims[i];
    in_elements *= in_dims[i];
  }
  for (int64_t i = 0; i < out_elements; ++i) {
    std::memcpy(out + i * element_size, pad, element_size);
  }
  // Output element stride of one step along each input dimension.
  std::vector<int64_t> step(rank);
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    step[i] = stride * dilations[i];
    stride *= out_dims[i];
  }
  std::vector<int> index(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < in_elements; ++i) {
    std::memcpy(out + offset * element_size, in + i * element_size, element_size);
    for (int d = rank - 1; d >= 0; --d) {  // odometer over the input
      offset += step[d];
      if (++index[d] < in_dims[d]) break;
      offset -= step[d] * in_dims[d];
      index[d] = 0;
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* dilations = tflite::GetInput(context, node, 1);
  const TfLiteTensor* padding = tflite::GetInput(context, node, 2);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  std::vector<int> dims;
  TF_LITE_ENSURE_STATUS(OutputDims(context, input, dilations, &dims));
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_STATUS(ResizeOutput(context, output, dims));
  }
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "padding value", padding));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const std::vector<int> in_dims(input->dims->data, input->dims->data + input->dims->size);
  Dilate(reinterpret_cast<const uint8_t*>(input->data.raw_const), in_dims, dilations->data.i32,
         reinterpret_cast<const uint8_t*>(padding->data.raw_const), TfLiteTypeGetSize(input->type),
         dims, reinterpret_cast<uint8_t*>(output->data.raw));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::window

namespace tflite::ops::builtin {

TfLiteRegistration* Register_DILATE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::window::Prepare, octet::ops::window::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
