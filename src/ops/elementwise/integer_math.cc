// SIGN (float32, float64, int32), ATAN2 (float32, float64; y and x of one shape), ADD_N
// (float32, int32; two or more inputs of one shape), BITWISE_XOR and RIGHT_SHIFT (int8 to
// uint32, broadcast up to 6-D), with TFLite's builtin kernels' semantics.
#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernels/reference/binary.h"
#include "kernels/reference/broadcast.h"
#include "kernels/reference/extra_elementwise.h"
#include "kernels/shape.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "tensorflow/lite/kernels/internal/tensor_ctypes.h"

namespace octet::ops::elementwise {
namespace {

constexpr char kSign[] = "SIGN";
constexpr char kAtan2[] = "ATAN2";
constexpr char kAddN[] = "ADD_N";
constexpr char kBitwiseXor[] = "BITWISE_XOR";
constexpr char kRightShift[] = "RIGHT_SHIFT";

struct MathData;
using MathFn = void (*)(const MathData &, TfLiteContext *, TfLiteNode *);

struct MathData {
  MathFn fn = nullptr;
  Shape a_shape, b_shape, out_shape;  // binary ops
};

const TfLiteTensor *In(TfLiteContext *context, TfLiteNode *node, int i) {
  return tflite::GetInput(context, node, i);
}
TfLiteTensor *Out(TfLiteContext *context, TfLiteNode *node) {
  return tflite::GetOutput(context, node, 0);
}

// ---- SIGN

template <typename T>
void SignKernel(const MathData &, TfLiteContext *context, TfLiteNode *node) {
  const TfLiteTensor *in = In(context, node, 0);
  const T *x = tflite::GetTensorData<T>(in);
  T *out = tflite::GetTensorData<T>(Out(context, node));
  const int64_t n = tflite::NumElements(in);
  for (int64_t i = 0; i < n; ++i) out[i] = reference::Sign(x[i]);
}

TfLiteStatus SignPrepare(TfLiteContext *context, TfLiteNode *node) {
  auto *d = static_cast<MathData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kSign, 1, &input, &output));
  switch (input->type) {
    case kTfLiteFloat32:
      d->fn = SignKernel<float>;
      break;
    case kTfLiteFloat64:
      d->fn = SignKernel<double>;
      break;
    case kTfLiteInt32:
      d->fn = SignKernel<int32_t>;
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported (float32, float64, int32)",
                         kSign, TypeName(input->type));
      return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kSign, output, input->type));
  return ResizeOutput(context, output, Shape::Of(input));
}

// ---- ATAN2: input 0 is y, input 1 is x.

template <typename T>
void Atan2Kernel(const MathData &, TfLiteContext *context, TfLiteNode *node) {
  const TfLiteTensor *y = In(context, node, 0);
  const T *yd = tflite::GetTensorData<T>(y);
  const T *xd = tflite::GetTensorData<T>(In(context, node, 1));
  T *out = tflite::GetTensorData<T>(Out(context, node));
  const int64_t n = tflite::NumElements(y);
  for (int64_t i = 0; i < n; ++i) out[i] = reference::Atan2(yd[i], xd[i]);
}

TfLiteStatus Atan2Prepare(TfLiteContext *context, TfLiteNode *node) {
  auto *d = static_cast<MathData *>(node->user_data);
  const TfLiteTensor *in[2];
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kAtan2, 2, in, &output));
  TF_LITE_ENSURE_STATUS(CheckSameInputTypes(context, kAtan2, in, 2));
  switch (in[0]->type) {
    case kTfLiteFloat32:
      d->fn = Atan2Kernel<float>;
      break;
    case kTfLiteFloat64:
      d->fn = Atan2Kernel<double>;
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported (float32, float64)", kAtan2,
                         TypeName(in[0]->type));
      return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kAtan2, output, in[0]->type));
  const Shape y = Shape::Of(in[0]), x = Shape::Of(in[1]);
  OCTET_OP_ENSURE(context, y == x, kAtan2, "y shape %s and x shape %s differ (no broadcasting)",
                  ShapeString(y).c_str(), ShapeString(x).c_str());
  return ResizeOutput(context, output, y);
}

// ---- ADD_N: out = in0 + in1 + ... in input order (integers wrap).

template <typename T>
void AddNKernel(const MathData &, TfLiteContext *context, TfLiteNode *node) {
  const int num_inputs = tflite::NumInputs(node);
  const int64_t n = tflite::NumElements(In(context, node, 0));
  T *out = tflite::GetTensorData<T>(Out(context, node));
  std::vector<const T *> ins(num_inputs);
  for (int j = 0; j < num_inputs; ++j) ins[j] = tflite::GetTensorData<T>(In(context, node, j));
  for (int64_t i = 0; i < n; ++i) {
    T acc = ins[0][i];
    for (int j = 1; j < num_inputs; ++j) {
      if constexpr (std::is_integral_v<T>) {
        acc = reference::WrapAdd(acc, ins[j][i]);
      } else {
        acc += ins[j][i];
      }
    }
    out[i] = acc;
  }
}

TfLiteStatus AddNPrepare(TfLiteContext *context, TfLiteNode *node) {
  auto *d = static_cast<MathData *>(node->user_data);
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kAddN, 2, INT_MAX, 1));
  const TfLiteTensor *first;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kAddN, 0, &first));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kAddN, 0, &output));
  switch (first->type) {
    case kTfLiteFloat32:
      d->fn = AddNKernel<float>;
      break;
    case kTfLiteInt32:
      d->fn = AddNKernel<int32_t>;
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported (float32, int32)", kAddN,
                         TypeName(first->type));
      return kTfLiteError;
  }
  const Shape shape = Shape::Of(first);
  for (int i = 1; i < tflite::NumInputs(node); ++i) {
    const TfLiteTensor *in;
    TF_LITE_ENSURE_STATUS(RequireInput(context, node, kAddN, i, &in));
    OCTET_OP_ENSURE(context, in->type == first->type, kAddN, "input %d type %s differs from %s", i,
                    TypeName(in->type), TypeName(first->type));
    OCTET_OP_ENSURE(context, Shape::Of(in) == shape, kAddN,
                    "input %d shape %s differs from input 0 shape %s", i,
                    ShapeString(Shape::Of(in)).c_str(), ShapeString(shape).c_str());
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kAddN, output, first->type));
  return ResizeOutput(context, output, shape);
}

// ---- BITWISE_XOR, RIGHT_SHIFT: broadcasting integer binaries.

template <typename T, T (*F)(T, T)>
void IntBinaryKernel(const MathData &d, TfLiteContext *context, TfLiteNode *node) {
  reference::BroadcastBinary(d.a_shape, tflite::GetTensorData<T>(In(context, node, 0)), d.b_shape,
                             tflite::GetTensorData<T>(In(context, node, 1)), d.out_shape,
                             tflite::GetTensorData<T>(Out(context, node)), F);
}

template <typename T>
MathFn IntBinaryFn(bool is_xor) {
  return is_xor ? IntBinaryKernel<T, reference::BitwiseXor<T>>
                : IntBinaryKernel<T, reference::RightShift<T>>;
}

template <const char *kOp>
TfLiteStatus IntBinaryPrepare(TfLiteContext *context, TfLiteNode *node) {
  constexpr bool kXor = kOp == kBitwiseXor;
  auto *d = static_cast<MathData *>(node->user_data);
  const TfLiteTensor *in[2];
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kOp, 2, in, &output));
  TF_LITE_ENSURE_STATUS(CheckSameInputTypes(context, kOp, in, 2));
  switch (in[0]->type) {
    case kTfLiteInt8:
      d->fn = IntBinaryFn<int8_t>(kXor);
      break;
    case kTfLiteUInt8:
      d->fn = IntBinaryFn<uint8_t>(kXor);
      break;
    case kTfLiteInt16:
      d->fn = IntBinaryFn<int16_t>(kXor);
      break;
    case kTfLiteUInt16:
      d->fn = IntBinaryFn<uint16_t>(kXor);
      break;
    case kTfLiteInt32:
      d->fn = IntBinaryFn<int32_t>(kXor);
      break;
    case kTfLiteUInt32:
      d->fn = IntBinaryFn<uint32_t>(kXor);
      break;
    default:
      TF_LITE_KERNEL_LOG(context,
                         "%s: input type %s is not supported (int8, uint8, int16, uint16, int32, "
                         "uint32)",
                         kOp, TypeName(in[0]->type));
      return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kOp, output, in[0]->type));
  d->a_shape = Shape::Of(in[0]);
  d->b_shape = Shape::Of(in[1]);
  TF_LITE_ENSURE_STATUS(BroadcastOutputShape(context, kOp, d->a_shape, d->b_shape, &d->out_shape));
  return ResizeOutput(context, output, d->out_shape);
}

template <const char *kOp>
TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  const auto &d = *static_cast<const MathData *>(node->user_data);
  for (int i = 0; i < tflite::NumInputs(node); ++i) {
    TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", In(context, node, i)));
  }
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", Out(context, node)));
  d.fn(d, context, node);
  return kTfLiteOk;
}

template <const char *kOp, TfLiteStatus (*Prepare)(TfLiteContext *, TfLiteNode *)>
TfLiteRegistration *MathRegistration() {
  static TfLiteRegistration r =
      MakeRegistration(InitData<MathData>, FreeData<MathData>, Prepare, Eval<kOp>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

namespace ew = octet::ops::elementwise;

TfLiteRegistration *Register_SIGN() { return ew::MathRegistration<ew::kSign, ew::SignPrepare>(); }
TfLiteRegistration *Register_ATAN2() {
  return ew::MathRegistration<ew::kAtan2, ew::Atan2Prepare>();
}
TfLiteRegistration *Register_ADD_N() { return ew::MathRegistration<ew::kAddN, ew::AddNPrepare>(); }
TfLiteRegistration *Register_BITWISE_XOR() {
  return ew::MathRegistration<ew::kBitwiseXor, ew::IntBinaryPrepare<ew::kBitwiseXor>>();
}
TfLiteRegistration *Register_RIGHT_SHIFT() {
  return ew::MathRegistration<ew::kRightShift, ew::IntBinaryPrepare<ew::kRightShift>>();
}

}  // namespace tflite::ops::builtin
