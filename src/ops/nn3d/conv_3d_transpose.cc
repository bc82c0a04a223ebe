// CONV_3D_TRANSPOSE, float32. Inputs: output_shape (int32 [5]), filter [KD,KH,KW,Cout,Cin],
// input [N,D,H,W,Cin], optional bias of Cout elements. The output takes output_shape: in
// prepare when that tensor is constant, otherwise the output is dynamic and sized at
// invoke. As in TFLite, the forward convolution of the requested output (same strides,
// dilations and padding) must give the input's spatial sizes; its padding is the one used.
#include <cstdint>
#include <memory>

#include "kernels/reference/conv_3d.h"
#include "ops/nn/nn_util.h"
#include "ops/nn3d/nn3d_ops.h"
#include "ops/nn3d/nn3d_util.h"
#include "ops/op_util.h"

namespace octet::ops::nn3d {
namespace {

constexpr char kOp[] = "CONV_3D_TRANSPOSE";
constexpr int kOutputShape = 0;
constexpr int kFilter = 1;
constexpr int kInput = 2;
constexpr int kBias = 3;
constexpr int kOutput = 0;

struct OpData {
  TfLitePadding padding = kTfLitePaddingSame;
  reference::Conv3DGeometry geometry;
};

// TFLite's IsConstantOrPersistentTensor: data fixed before prepare runs.
bool IsKnownInPrepare(const TfLiteTensor* t) {
  return tflite::IsConstantTensor(t) || t->allocation_type == kTfLitePersistentRo;
}

// One spatial axis of the requested output: must be > 0, and the forward convolution of
// it must have exactly the input's size. Sets the output size and its leading padding.
TfLiteStatus Axis(TfLiteContext* context, const char* axis, TfLitePadding padding, int requested,
                  int in_size, int filter_size, int stride, int dilation, int* out_size, int* pad) {
  OCTET_OP_ENSURE(context, requested > 0, kOp, "output_shape %s must be > 0, got %d", axis,
                  requested);
  int64_t conv_out = 0;
  TF_LITE_ENSURE_OK(context, ForwardAxis(context, kOp, axis, padding, requested, filter_size,
                                         stride, dilation, &conv_out, pad));
  OCTET_OP_ENSURE(context, conv_out == in_size, kOp,
                  "output_shape %s %d does not match the input %s %d: with filter %d, stride %d, "
                  "dilation %d and %s padding it maps to %lld",
                  axis, requested, axis, in_size, filter_size, stride, dilation,
                  padding == kTfLitePaddingSame ? "SAME" : "VALID",
                  static_cast<long long>(conv_out));
  *out_size = requested;
  return kTfLiteOk;
}

// Checks the requested output shape against the input and filter, derives the padding and
// resizes the output.
TfLiteStatus ApplyOutputShape(TfLiteContext* context, OpData* data, const TfLiteTensor* shape,
                              TfLiteTensor* output) {
  TF_LITE_ENSURE_OK(context, RequireData(context, kOp, "output_shape", shape));
  const int32_t* dims = shape->data.i32;
  reference::Conv3DGeometry& g = data->geometry;
  OCTET_OP_ENSURE(context, dims[0] == g.batches, kOp,
                  "output_shape batch (%d) must equal the input batch (%d)", dims[0], g.batches);
  // TFLite only asks for a multiple of the filter's output channels, but its kernel then
  // reads past the filter; exactly the filter's count is what it can compute.
  OCTET_OP_ENSURE(context, dims[4] == g.out_channels, kOp,
                  "output_shape channels (%d) must equal the filter output channels (%d, "
                  "dimension 3)",
                  dims[4], g.out_channels);
  const TfLitePadding p = data->padding;
  TF_LITE_ENSURE_OK(context, Axis(context, "depth", p, dims[1], g.in_depth, g.filter_depth,
                                  g.stride_depth, g.dilation_depth, &g.out_depth, &g.pad_depth));
  TF_LITE_ENSURE_OK(
      context, Axis(context, "height", p, dims[2], g.in_height, g.filter_height, g.stride_height,
                    g.dilation_height, &g.out_height, &g.pad_height));
  TF_LITE_ENSURE_OK(context, Axis(context, "width", p, dims[3], g.in_width, g.filter_width,
                                  g.stride_width, g.dilation_width, &g.out_width, &g.pad_width));
  int64_t count = 0;
  TF_LITE_ENSURE_OK(context, CheckedCount(context, kOp, "output",
                                          {dims[0], dims[1], dims[2], dims[3], dims[4]}, &count));
  return ResizeOutput(context, output, {dims[0], dims[1], dims[2], dims[3], dims[4]});
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConv3DTransposeParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, kOp, 3, 4, 1));
  const TfLiteTensor* shape;
  const TfLiteTensor* filter;
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kOutputShape, &shape));
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kFilter, &filter));
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kInput, &input));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kOutput, &output));
  const TfLiteTensor* bias = tflite::GetOptionalInputTensor(context, node, kBias);

  OCTET_OP_ENSURE(context, tflite::NumDimensions(shape) == 1 && tflite::NumElements(shape) == 5,
                  kOp, "output_shape must be a 1-D tensor of 5 elements");
  TF_LITE_ENSURE_OK(context, nn::RequireRank(context, kOp, "input", input, 5));
  TF_LITE_ENSURE_OK(context, nn::RequireRank(context, kOp, "filter", filter, 5));
  const int* in = input->dims->data;
  const int* f = filter->dims->data;
  OCTET_OP_ENSURE(context, f[4] == in[4], kOp,
                  "filter input channels (%d, dimension 4) must equal input channels (%d)", f[4],
                  in[4]);
  TF_LITE_ENSURE_OK(context, nn::RequireFloat(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, nn::RequireFloat(context, kOp, "output", output));
  OCTET_OP_ENSURE(context, shape->type == kTfLiteInt32, kOp, "output_shape type %s is not INT32",
                  TfLiteTypeGetName(shape->type));
  TF_LITE_ENSURE_OK(context, nn::RequireFloat(context, kOp, "filter", filter));
  if (bias != nullptr) {
    TF_LITE_ENSURE_OK(context, nn::RequireFloat(context, kOp, "bias", bias));
    // TFLite checks the element count only, not the rank.
    OCTET_OP_ENSURE(context, tflite::NumElements(bias) == f[3], kOp,
                    "bias has %lld elements, expected %d (filter output channels)",
                    static_cast<long long>(tflite::NumElements(bias)), f[3]);
  }
  OCTET_OP_ENSURE(context, f[0] > 0 && f[1] > 0 && f[2] > 0, kOp,
                  "filter depth, height and width must be > 0, got %d, %d and %d", f[0], f[1],
                  f[2]);

  reference::Conv3DGeometry& g = data->geometry;
  TF_LITE_ENSURE_OK(context, ReadOptions(context, kOp, params, &g));
  data->padding = params->padding;
  g.batches = in[0];
  g.in_depth = in[1];
  g.in_height = in[2];
  g.in_width = in[3];
  g.in_channels = in[4];
  g.filter_depth = f[0];
  g.filter_height = f[1];
  g.filter_width = f[2];
  g.out_channels = f[3];
  if (!IsKnownInPrepare(shape)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ApplyOutputShape(context, data, shape, output);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const TfLiteTensor* shape = tflite::GetInput(context, node, kOutputShape);
  const TfLiteTensor* filter = tflite::GetInput(context, node, kFilter);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor* bias = tflite::GetOptionalInputTensor(context, node, kBias);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_OK(context, ApplyOutputShape(context, data, shape, output));
  }
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, RequireBuffers(context, kOp, input, filter, bias, output));
  reference::Conv3DTranspose(data->geometry, input->data.f, filter->data.f,
                             bias ? bias->data.f : nullptr, output->data.f);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn3d

namespace tflite::ops::builtin {

TfLiteRegistration* Register_CONV_3D_TRANSPOSE() {
  namespace op = octet::ops::nn3d;
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<op::OpData>, octet::ops::FreeData<op::OpData>, op::Prepare, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
