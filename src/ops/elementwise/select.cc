// SELECT and SELECT_V2: out = cond ? x : y, one implementation for both. SELECT (v1): x and
// y have one shape and cond either has that shape too, is a scalar (choosing all of x or all
// of y) or is a vector choosing along the first dimension; no general broadcasting.
// SELECT_V2: cond, x and y broadcast together (up to 6-D).
#include <cstdint>

#include "kernels/reference/comparisons.h"
#include "kernels/reference/extra_elementwise.h"
#include "kernels/shape.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"

namespace octet::ops::elementwise {
namespace {

template <bool kV2>
constexpr const char *kOp = kV2 ? "SELECT_V2" : "SELECT";

struct SelectData;
using SelectFn = void (*)(const SelectData &, const TfLiteTensor *, const TfLiteTensor *,
                          const TfLiteTensor *, TfLiteTensor *);

struct SelectData {
  int64_t outer = 0, inner = 0;                   // SELECT: outer runs of inner elements
  Shape cond_shape, x_shape, y_shape, out_shape;  // SELECT_V2: the broadcast shapes
  SelectFn fn = nullptr;
};

// Selection only moves values, so the kernel is chosen by element size.
template <bool kV2, typename Storage>
void SelectKernel(const SelectData &d, const TfLiteTensor *cond, const TfLiteTensor *x,
                  const TfLiteTensor *y, TfLiteTensor *out) {
  if constexpr (kV2) {
    reference::SelectBroadcast(d.cond_shape, tflite::GetTensorData<uint8_t>(cond), d.x_shape,
                               tflite::GetTensorData<Storage>(x), d.y_shape,
                               tflite::GetTensorData<Storage>(y), d.out_shape,
                               tflite::GetTensorData<Storage>(out));
  } else {
    reference::SelectRuns(tflite::GetTensorData<uint8_t>(cond), d.outer, d.inner,
                          tflite::GetTensorData<Storage>(x), tflite::GetTensorData<Storage>(y),
                          tflite::GetTensorData<Storage>(out));
  }
}

// SELECT's condition: x's shape, a scalar, or a vector over x's first dimension.
TfLiteStatus PlanRuns(TfLiteContext *context, const Shape &cond, const Shape &x, SelectData *data) {
  const int64_t n = x.FlatSize();
  if (cond == x) {
    data->outer = n;
    data->inner = 1;
  } else if (cond.rank() == 0) {
    data->outer = 1;
    data->inner = n;
  } else {
    OCTET_OP_ENSURE(context, cond.rank() == 1 && x.rank() >= 1 && cond.dim(0) == x.dim(0),
                    kOp<false>,
                    "condition shape %s must equal input shape %s, be a scalar or be a vector "
                    "of its first dimension",
                    ShapeString(cond).c_str(), ShapeString(x).c_str());
    data->outer = cond.dim(0);
    data->inner = data->outer == 0 ? 0 : n / data->outer;
  }
  return kTfLiteOk;
}

template <bool kV2>
TfLiteStatus Prepare(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<SelectData *>(node->user_data);
  const TfLiteTensor *in[3];
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kOp<kV2>, 3, in, &output));
  OCTET_OP_ENSURE(context, in[0]->type == kTfLiteBool, kOp<kV2>,
                  "condition type must be BOOL, got %s", TypeName(in[0]->type));
  TF_LITE_ENSURE_STATUS(CheckSameInputTypes(context, kOp<kV2>, in + 1, 2));
  const TfLiteType type = in[1]->type;
  switch (type) {
    case kTfLiteBool:
    case kTfLiteInt8:
    case kTfLiteUInt8:
      data->fn = SelectKernel<kV2, uint8_t>;
      break;
    case kTfLiteInt16:
      data->fn = SelectKernel<kV2, int16_t>;
      break;
    case kTfLiteUInt32:  // SELECT only, as in TFLite
      if (kV2) {
        TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", kOp<kV2>, TypeName(type));
        return kTfLiteError;
      }
      data->fn = SelectKernel<kV2, int32_t>;
      break;
    case kTfLiteInt32:
    case kTfLiteFloat32:
      data->fn = SelectKernel<kV2, int32_t>;
      break;
    case kTfLiteInt64:
      data->fn = SelectKernel<kV2, int64_t>;
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", kOp<kV2>, TypeName(type));
      return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kOp<kV2>, output, type));
  const Shape cond = Shape::Of(in[0]), x = Shape::Of(in[1]), y = Shape::Of(in[2]);
  if constexpr (kV2) {
    data->cond_shape = cond;
    data->x_shape = x;
    data->y_shape = y;
    TF_LITE_ENSURE_STATUS(BroadcastOutputShape(context, kOp<kV2>, cond, x, y, &data->out_shape));
    return ResizeOutput(context, output, data->out_shape);
  } else {
    OCTET_OP_ENSURE(context, x == y, kOp<kV2>, "x shape %s and y shape %s differ",
                    ShapeString(x).c_str(), ShapeString(y).c_str());
    TF_LITE_ENSURE_STATUS(PlanRuns(context, cond, x, data));
    return ResizeOutput(context, output, x);
  }
}

template <bool kV2>
TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const SelectData *>(node->user_data);
  const TfLiteTensor *cond = tflite::GetInput(context, node, 0);
  const TfLiteTensor *x = tflite::GetInput(context, node, 1);
  const TfLiteTensor *y = tflite::GetInput(context, node, 2);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp<kV2>, "condition", cond));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp<kV2>, "input 1", x));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp<kV2>, "input 2", y));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp<kV2>, "output", output));
  data.fn(data, cond, x, y, output);
  return kTfLiteOk;
}

template <bool kV2>
TfLiteRegistration *Registration() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      octet::ops::InitData<SelectData>, octet::ops::FreeData<SelectData>, Prepare<kV2>, Eval<kV2>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

TfLiteRegistration *Register_SELECT() { return octet::ops::elementwise::Registration<false>(); }

TfLiteRegistration *Register_SELECT_V2() { return octet::ops::elementwise::Registration<true>(); }

}  // namespace tflite::ops::builtin
