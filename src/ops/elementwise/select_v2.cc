// SELECT_V2: out = cond ? x : y with cond, x and y broadcast together (up to
// 6-D).
#include <cstdint>

#include "kernels/reference/comparisons.h"
#include "kernels/shape.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"

namespace octet::ops::elementwise {
namespace {

constexpr const char *kOp = "SELECT_V2";

struct SelectData;
using SelectFn = void (*)(const SelectData &, const TfLiteTensor *, const TfLiteTensor *,
                          const TfLiteTensor *, TfLiteTensor *);

struct SelectData {
  Shape cond_shape, x_shape, y_shape, out_shape;
  SelectFn fn = nullptr;
};

// Selection only moves values, so the kernel is chosen by element size.
template <typename Storage>
void SelectKernel(const SelectData &d, const TfLiteTensor *cond, const TfLiteTensor *x,
                  const TfLiteTensor *y, TfLiteTensor *out) {
  reference::SelectBroadcast(d.cond_shape, tflite::GetTensorData<uint8_t>(cond), d.x_shape,
                             tflite::GetTensorData<Storage>(x), d.y_shape,
                             tflite::GetTensorData<Storage>(y), d.out_shape,
                             tflite::GetTensorData<Storage>(out));
}

TfLiteStatus Prepare(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<SelectData *>(node->user_data);
  const TfLiteTensor *in[3];
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kOp, 3, in, &output));
  if (in[0]->type != kTfLiteBool) {
    TF_LITE_KERNEL_LOG(context, "%s: condition type must be BOOL, got %s", kOp,
                       TypeName(in[0]->type));
    return kTfLiteError;
  }
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
  data->cond_shape = Shape::Of(in[0]);
  data->x_shape = Shape::Of(in[1]);
  data->y_shape = Shape::Of(in[2]);
  TF_LITE_ENSURE_STATUS(BroadcastOutputShape(context, kOp, data->cond_shape, data->x_shape,
                                             data->y_shape, &data->out_shape));
  return ResizeOutput(context, output, data->out_shape);
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

TfLiteRegistration *Register_SELECT_V2() {
  namespace ew = octet::ops::elementwise;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::InitData<ew::SelectData>,
                                   octet::ops::FreeData<ew::SelectData>, ew::Prepare, ew::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
