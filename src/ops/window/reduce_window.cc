// REDUCE_WINDOW (the deprecated builtin 205): input [rank 1..6], a scalar init value of the
// input's type and constant int64 [rank] window_shape, window_strides and window_dilations
// (each >= 1) give, per output position o, init reduced with every input element at
// o * stride + k * dilation for k over the window (row-major order), by the options'
// reduce_function: ADD, MUL, MINIMUM, MAXIMUM, ALL or ANY. Output dims are
// (d - ((w - 1) * dilation + 1)) / stride + 1, or 0 when the dilated window does not fit.
// Types as TFLite: bool, int8, int16, int32, int64, uint8, float32, float64. As there, MIN and
// MAX are `a <= b ? a : b` / `a >= b ? a : b` and ALL / ANY give 1 or 0 in the element type;
// unlike there, integer ADD / MUL wrap instead of overflowing (the same bits, without UB), and
// non-positive window attributes are refused.
#include <cstdint>
#include <vector>

#include "ops/op_util.h"
#include "ops/window/reduce_window_kernel.h"
#include "ops/window/window_ops.h"

namespace octet::ops::window {
namespace {

constexpr char kOp[] = "REDUCE_WINDOW";
constexpr int kMaxRank = kReduceWindowMaxRank;

enum Input { kInput, kInit, kWindowShape, kWindowStrides, kWindowDilations };

TfLiteStatus CheckAttribute(TfLiteContext* context, const TfLiteTensor* t, const char* name,
                            int rank) {
  OCTET_OP_ENSURE(context, t->type == kTfLiteInt64, kOp, "%s must be INT64, got %s", name,
                  TfLiteTypeGetName(t->type));
  OCTET_OP_ENSURE(context, tflite::IsConstantTensor(t), kOp, "%s must be a constant", name);
  OCTET_OP_ENSURE(context, t->dims->size == 1 && t->dims->data[0] == rank, kOp,
                  "%s must have shape [%d] (the input rank)", name, rank);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, name, t));
  for (int i = 0; i < rank; ++i) {
    OCTET_OP_ENSURE(context, t->data.i64[i] >= 1, kOp, "%s[%d] must be >= 1, got %lld", name, i,
                    static_cast<long long>(t->data.i64[i]));
  }
  return kTfLiteOk;
}

void ComputeGeometry(const TfLiteTensor* input, const int64_t* shape, const int64_t* strides,
                     const int64_t* dilations, WindowGeometry* g) {
  int64_t dims[kMaxRank] = {};
  for (int i = 0; i < input->dims->size; ++i) dims[i] = input->dims->data[i];
  ComputeWindowGeometry(input->dims->size, dims, shape, strides, dilations, g);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 5, 5, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const TfLiteTensor* in[5];
  for (int i = 0; i < 5; ++i) TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, i, &in[i]));
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  const TfLiteTensor* input = in[kInput];
  OCTET_OP_ENSURE(context, ReduceWindowTypeSupported(input->type), kOp,
                  "input type %s is not supported", TfLiteTypeGetName(input->type));
  const int rank = input->dims->size;
  OCTET_OP_ENSURE(context, rank >= 1 && rank <= kMaxRank, kOp,
                  "input rank must be in [1, %d], got %d", kMaxRank, rank);
  OCTET_OP_ENSURE(context, output->type == input->type, kOp, "output must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, in[kInit]->type == input->type, kOp, "init value must be %s, got %s",
                  TfLiteTypeGetName(input->type), TfLiteTypeGetName(in[kInit]->type));
  OCTET_OP_ENSURE(context, tflite::NumElements(in[kInit]) == 1, kOp,
                  "init value must have one element");
  TF_LITE_ENSURE_STATUS(CheckAttribute(context, in[kWindowShape], "window_shape", rank));
  TF_LITE_ENSURE_STATUS(CheckAttribute(context, in[kWindowStrides], "window_strides", rank));
  TF_LITE_ENSURE_STATUS(CheckAttribute(context, in[kWindowDilations], "window_dilations", rank));
  const auto* params = static_cast<const TfLiteReduceWindowParams*>(node->builtin_data);
  OCTET_OP_ENSURE(context,
                  params->reduce_function >= TfLiteReduceWindowFunctionAdd &&
                      params->reduce_function <= TfLiteReduceWindowFunctionAny,
                  kOp, "unsupported reduce_function %d", static_cast<int>(params->reduce_function));
  WindowGeometry g;
  ComputeGeometry(input, in[kWindowShape]->data.i64, in[kWindowStrides]->data.i64,
                  in[kWindowDilations]->data.i64, &g);
  return ResizeOutput(context, output, std::vector<int>(g.out_dims, g.out_dims + rank));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor* init = tflite::GetInput(context, node, kInit);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "init value", init));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  WindowGeometry g;
  ComputeGeometry(input, tflite::GetInput(context, node, kWindowShape)->data.i64,
                  tflite::GetInput(context, node, kWindowStrides)->data.i64,
                  tflite::GetInput(context, node, kWindowDilations)->data.i64, &g);
  const auto f = static_cast<const TfLiteReduceWindowParams*>(node->builtin_data)->reduce_function;
  ReduceWindow(input->type, g, f, input->data.raw_const, init->data.raw_const, output->data.raw);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::window

namespace tflite::ops::builtin {

TfLiteRegistration* Register_REDUCE_WINDOW() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::window::Prepare, octet::ops::window::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
