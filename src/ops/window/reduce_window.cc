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
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "ops/op_util.h"
#include "ops/window/window_ops.h"

namespace octet::ops::window {
namespace {

constexpr char kOp[] = "REDUCE_WINDOW";
constexpr int kMaxRank = 6;

enum Input { kInput, kInit, kWindowShape, kWindowStrides, kWindowDilations };

struct Geometry {
  int rank = 0;
  int64_t in_strides[kMaxRank] = {};
  int64_t window[kMaxRank] = {};
  int64_t window_steps[kMaxRank] = {};  // input offset of one step inside the window
  int64_t output_steps[kMaxRank] = {};  // input offset of one output step
  int out_dims[kMaxRank] = {};
};

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
                     const int64_t* dilations, Geometry* g) {
  const int rank = input->dims->size;
  g->rank = rank;
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    g->in_strides[i] = stride;
    stride *= input->dims->data[i];
  }
  for (int i = 0; i < rank; ++i) {
    const int64_t in = input->dims->data[i];
    g->window[i] = shape[i];
    // The dilated window (w - 1) * dilation + 1 fits iff (w - 1) * dilation < in; tested
    // without forming a product that could overflow.
    const bool fits = in > 0 && (shape[i] - 1) <= (in - 1) / dilations[i];
    g->out_dims[i] =
        fits ? static_cast<int>((in - 1 - (shape[i] - 1) * dilations[i]) / strides[i] + 1) : 0;
    g->window_steps[i] = fits ? g->in_strides[i] * dilations[i] : 0;
    g->output_steps[i] = fits ? g->in_strides[i] * strides[i] : 0;
  }
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 5, 5, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const TfLiteTensor* in[5];
  for (int i = 0; i < 5; ++i) TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, i, &in[i]));
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  const TfLiteTensor* input = in[kInput];
  switch (input->type) {
    case kTfLiteBool:
    case kTfLiteInt8:
    case kTfLiteInt16:
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteUInt8:
    case kTfLiteFloat32:
    case kTfLiteFloat64:
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", kOp,
                         TfLiteTypeGetName(input->type));
      return kTfLiteError;
  }
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
  Geometry g;
  ComputeGeometry(input, in[kWindowShape]->data.i64, in[kWindowStrides]->data.i64,
                  in[kWindowDilations]->data.i64, &g);
  return ResizeOutput(context, output, std::vector<int>(g.out_dims, g.out_dims + rank));
}

// Signed integer ADD / MUL in two's complement without UB.
template <typename T>
T WrapAdd(T a, T b) {
  if constexpr (std::is_integral_v<T> && sizeof(T) >= sizeof(int)) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return static_cast<T>(a + b);
  }
}
template <typename T>
T WrapMul(T a, T b) {
  if constexpr (std::is_integral_v<T> && sizeof(T) >= sizeof(int)) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else if constexpr (std::is_integral_v<T>) {
    // int8 / int16 / uint8 promote to int; the product of two such values fits.
    return static_cast<T>(static_cast<int>(a) * static_cast<int>(b));
  } else {
    return a * b;
  }
}

template <typename T>
T Apply(TfLiteReduceWindowFunction f, T a, T b) {
  switch (f) {
    case TfLiteReduceWindowFunctionAdd:
      return WrapAdd(a, b);
    case TfLiteReduceWindowFunctionMul:
      return WrapMul(a, b);
    case TfLiteReduceWindowFunctionMin:
      return a <= b ? a : b;
    case TfLiteReduceWindowFunctionMax:
      return a >= b ? a : b;
    case TfLiteReduceWindowFunctionAll:
      return static_cast<T>(a && b);
    default:  // ANY (prepare admits nothing else)
      return static_cast<T>(a || b);
  }
}

template <typename T>
void ReduceWindow(const Geometry& g, TfLiteReduceWindowFunction f, const T* in, T init, T* out) {
  const int rank = g.rank;
  int64_t out_elements = 1, window_elements = 1;
  for (int i = 0; i < rank; ++i) out_elements *= g.out_dims[i];
  if (out_elements == 0) return;
  // Every window fits in the input here, so this product is at most its element count.
  for (int i = 0; i < rank; ++i) window_elements *= g.window[i];
  int64_t o_index[kMaxRank] = {}, base = 0;
  for (int64_t o = 0; o < out_elements; ++o) {
    T acc = init;
    int64_t w_index[kMaxRank] = {}, offset = 0;
    for (int64_t w = 0; w < window_elements; ++w) {
      acc = Apply(f, acc, in[base + offset]);
      for (int d = rank - 1; d >= 0; --d) {  // odometer over the window
        offset += g.window_steps[d];
        if (++w_index[d] < g.window[d]) break;
        offset -= g.window_steps[d] * g.window[d];
        w_index[d] = 0;
      }
    }
    out[o] = acc;
    for (int d = rank - 1; d >= 0; --d) {  // odometer over the output
      base += g.output_steps[d];
      if (++o_index[d] < g.out_dims[d]) break;
      base -= g.output_steps[d] * g.out_dims[d];
      o_index[d] = 0;
    }
  }
}

template <typename T>
void Run(const Geometry& g, TfLiteReduceWindowFunction f, const TfLiteTensor* input,
         const TfLiteTensor* init, TfLiteTensor* output) {
  T init_value;
  std::memcpy(&init_value, init->data.raw_const, sizeof(T));
  ReduceWindow<T>(g, f, reinterpret_cast<const T*>(input->data.raw_const), init_value,
                  reinterpret_cast<T*>(output->data.raw));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, kInput);
  const TfLiteTensor* init = tflite::GetInput(context, node, kInit);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "init value", init));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  Geometry g;
  ComputeGeometry(input, tflite::GetInput(context, node, kWindowShape)->data.i64,
                  tflite::GetInput(context, node, kWindowStrides)->data.i64,
                  tflite::GetInput(context, node, kWindowDilations)->data.i64, &g);
  const auto f = static_cast<const TfLiteReduceWindowParams*>(node->builtin_data)->reduce_function;
  switch (input->type) {
    case kTfLiteBool:  // one byte per element, reduced as int8 (as TFLite)
    case kTfLiteInt8:
      Run<int8_t>(g, f, input, init, output);
      break;
    case kTfLiteInt16:
      Run<int16_t>(g, f, input, init, output);
      break;
    case kTfLiteInt32:
      Run<int32_t>(g, f, input, init, output);
      break;
    case kTfLiteInt64:
      Run<int64_t>(g, f, input, init, output);
      break;
    case kTfLiteUInt8:
      Run<uint8_t>(g, f, input, init, output);
      break;
    case kTfLiteFloat32:
      Run<float>(g, f, input, init, output);
      break;
    default:  // kTfLiteFloat64 (prepare admits nothing else)
      Run<double>(g, f, input, init, output);
      break;
  }
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
