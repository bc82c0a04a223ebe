// CONV_3D, float32 (TFLite has no quantized kernel for it). Inputs: input [N,D,H,W,Cin],
// filter [KD,KH,KW,Cin,Cout], optional bias of Cout elements. Output [N,OD,OH,OW,Cout]
// with each spatial size from SAME/VALID padding as TFLite computes it.
#include "kernels/reference/conv_3d.h"

#include <cstdint>
#include <memory>

#include "ops/nn/nn_util.h"
#include "ops/nn3d/nn3d_ops.h"
#include "ops/nn3d/nn3d_util.h"
#include "ops/op_util.h"

namespace octet::ops::nn3d {
namespace {

constexpr char kOp[] = "CONV_3D";
constexpr int kInput = 0;
constexpr int kFilter = 1;
constexpr int kBias = 2;
constexpr int kOutput = 0;

struct OpData {
  reference::Conv3DGeometry geometry;
};

// Output size and padding of one axis. Like TFLite, a VALID output may be empty (0); a
// negative one is refused (TFLite would size the output with a negative dimension).
TfLiteStatus Axis(TfLiteContext* context, const char* axis, TfLitePadding padding, int in_size,
                  int filter_size, int stride, int dilation, int* out_size, int* pad) {
  int64_t out = 0;
  TF_LITE_ENSURE_OK(context, ForwardAxis(context, kOp, axis, padding, in_size, filter_size, stride,
                                         dilation, &out, pad));
  OCTET_OP_ENSURE(context, out >= 0, kOp,
                  "output %s would be %lld: the dilated filter %s (%lld) exceeds the input %s "
                  "(%d) with VALID padding",
                  axis, static_cast<long long>(out), axis,
                  static_cast<long long>(int64_t{filter_size - 1} * dilation + 1), axis, in_size);
  *out_size = static_cast<int>(out);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  auto* data = static_cast<OpData*>(node->user_data);
  const auto* params = static_cast<const TfLiteConv3DParams*>(node->builtin_data);
  TF_LITE_ENSURE_OK(context, RequireParams(context, kOp, params));
  TF_LITE_ENSURE_OK(context, CheckArity(context, node, kOp, 2, 3, 1));
  const TfLiteTensor* input;
  const TfLiteTensor* filter;
  TfLiteTensor* output;
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kInput, &input));
  TF_LITE_ENSURE_OK(context, RequireInput(context, node, kOp, kFilter, &filter));
  TF_LITE_ENSURE_OK(context, RequireOutput(context, node, kOp, kOutput, &output));
  const TfLiteTensor* bias = tflite::GetOptionalInputTensor(context, node, kBias);

  TF_LITE_ENSURE_OK(context, nn::RequireRank(context, kOp, "input", input, 5));
  TF_LITE_ENSURE_OK(context, nn::RequireRank(context, kOp, "filter", filter, 5));
  const int* in = input->dims->data;
  const int* f = filter->dims->data;
  OCTET_OP_ENSURE(context, f[3] == in[4], kOp,
                  "filter input channels (%d, dimension 3) must equal input channels (%d)", f[3],
                  in[4]);
  TF_LITE_ENSURE_OK(context, nn::RequireFloat(context, kOp, "input", input));
  TF_LITE_ENSURE_OK(context, nn::RequireFloat(context, kOp, "filter", filter));
  TF_LITE_ENSURE_OK(context, nn::RequireFloat(context, kOp, "output", output));
  if (bias != nullptr) {
    TF_LITE_ENSURE_OK(context, nn::RequireFloat(context, kOp, "bias", bias));
    // TFLite checks the element count only, not the rank.
    OCTET_OP_ENSURE(context, tflite::NumElements(bias) == f[4], kOp,
                    "bias has %lld elements, expected %d (filter output channels)",
                    static_cast<long long>(tflite::NumElements(bias)), f[4]);
  }
  OCTET_OP_ENSURE(context, f[0] > 0 && f[1] > 0 && f[2] > 0, kOp,
                  "filter depth, height and width must be > 0, got %d, %d and %d", f[0], f[1],
                  f[2]);

  reference::Conv3DGeometry& g = data->geometry;
  TF_LITE_ENSURE_OK(context, ReadOptions(context, kOp, params, &g));
  g.batches = in[0];
  g.in_depth = in[1];
  g.in_height = in[2];
  g.in_width = in[3];
  g.in_channels = in[4];
  g.filter_depth = f[0];
  g.filter_height = f[1];
  g.filter_width = f[2];
  g.out_channels = f[4];
  TF_LITE_ENSURE_OK(context, Axis(context, "depth", params->padding, g.in_depth, g.filter_depth,
                                  g.stride_depth, g.dilation_depth, &g.out_depth, &g.pad_depth));
  TF_LITE_ENSURE_OK(context,
                    Axis(context, "height", params->padding, g.in_height, g.filter_height,
                         g.stride_height, g.dilation_height, &g.out_height, &g.pad_height));
  TF_LITE_ENSURE_OK(context, Axis(context, "width", params->padding, g.in_width, g.filter_width,
                                  g.stride_width, g.dilation_width, &g.out_width, &g.pad_width));
  int64_t count = 0;
  TF_LITE_ENSURE_OK(
      context,
      CheckedCount(context, kOp, "output",
                   {g.batches, g.out_depth, g.out_height, g.out_width, g.out_channels}, &count));
  return ResizeOutput(context, output,
                      {g.batches, g.out_depth, g.out_height, g.out_width, g.out_channels});
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* data = static_cast<const OpData*>(node->user_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor* filter = tflite::GetInput(context, node, kFilter);
  const TfLiteTensor* bias = tflite::GetOptionalInputTensor(context, node, kBias);
  TfLiteTensor* output = tflite::GetOutput(context, node, kOutput);
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_OK(context, RequireBuffers(context, kOp, input, filter, bias, output));
  reference::Conv3D(data->geometry, input->data.f, filter->data.f, bias ? bias->data.f : nullptr,
                    output->data.f);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::nn3d

namespace tflite::ops::builtin {

TfLiteRegistration* Register_CONV_3D() {
  namespace op = octet::ops::nn3d;
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<op::OpData>, octet::ops::FreeData<op::OpData>, op::Prepare, op::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
