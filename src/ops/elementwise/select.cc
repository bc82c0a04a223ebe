// SELECT (v1): out = cond ? x : y where x and y have one shape and cond either has that shape
// too, is a scalar (choosing all of x or all of y) or is a vector choosing along the first
// dimension. Unlike SELECT_V2 there is no general broadcasting.
#include <cstdint>

#include "kernels/reference/extra_elementwise.h"
#include "kernels/shape.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"

namespace octet::ops::elementwise {
namespace {

constexpr const char *kOp = "SELECT";

struct SelectData;
using SelectFn = void (*)(const SelectData &, const TfLiteTensor *, const TfLiteTensor *,
                          const TfLiteTensor *, TfLiteTensor *);

struct SelectData {
  int64_t outer = 0, inner = 0;
  SelectFn fn = nullptr;
};

// Selection only moves values, so the kernel is chosen by element size.
template <typename Storage>
void SelectKernel(const SelectData &d, const TfLiteTensor *cond, const TfLiteTensor *x,
                  const TfLiteTensor *y, TfLiteTensor *out) {
  reference::SelectRuns(tflite::GetTensorData<uint8_t>(cond), d.outer, d.inner,
                        tflite::GetTensorData<Storage>(x), tflite::GetTensorData<Storage>(y),
                        tflite::GetTensorData<Storage>(out));
}

TfLiteStatus Prepare(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<SelectData *>(node->user_data);
  const TfLiteTensor *in[3];
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kOp, 3, in, &output));
  OCTET_OP_ENSURE(context, in[0]->type == kTfLiteBool, kOp, "condition type must be BOOL, got %s",
                  TypeName(in[0]->type));
  TF_LITE_ENSURE_STATUS(CheckSameInputTypes(context, kOp, in + 1, 2));
  const TfLiteType type = in[1]->type;
  switch (type) {
    case kTfLiteBool:
    case kTfLiteInt8:
    case kTfLiteUInt8:
      data->fn = SelectKernel<uint8_t>;
      break;
    case kTfLiteInt16:
      data->fn = SelectKernel<int16_t>;
      break;
    case kTfLiteInt32:
    case kTfLiteUInt32:
    case kTfLiteFloat32:
      data->fn = SelectKernel<int32_t>;
      break;
    case kTfLiteInt64:
      data->fn = SelectKernel<int64_t>;
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", kOp, TypeName(type));
      return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kOp, output, type));
  const Shape cond = Shape::Of(in[0]), x = Shape::Of(in[1]), y = Shape::Of(in[2]);
  OCTET_OP_ENSURE(context, x == y, kOp, "x shape %s and y shape %s differ", ShapeString(x).c_str(),
                  ShapeString(y).c_str());
  const int64_t n = x.FlatSize();
  if (cond == x) {
    data->outer = n;
    data->inner = 1;
  } else if (cond.rank() == 0) {
    data->outer = 1;
    data->inner = n;
  } else {
    OCTET_OP_ENSURE(context, cond.rank() == 1 && x.rank() >= 1 && cond.dim(0) == x.dim(0), kOp,
                    "condition shape %s must equal input shape %s, be a scalar or be a vector "
                    "of its first dimension",
                    ShapeString(cond).c_str(), ShapeString(x).c_str());
    data->outer = cond.dim(0);
    data->inner = data->outer == 0 ? 0 : n / data->outer;
  }
  return ResizeOutput(context, output, x);
}

TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const SelectData *>(node->user_data);
  const TfLiteTensor *cond = tflite::GetInput(context, node, 0);
  const TfLiteTensor *x = tflite::GetInput(context, node, 1);
  const TfLiteTensor *y = tflite::GetInput(context, node, 2);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "condition", cond));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input 1", x));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input 2", y));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  data.fn(data, cond, x, y, output);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

TfLiteRegistration *Register_SELECT() {
  namespace ew = octet::ops::elementwise;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::InitData<ew::SelectData>,
                                   octet::ops::FreeData<ew::SelectData>, ew::Prepare, ew::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
