// STABLEHLO_ADD, _MULTIPLY, _MAXIMUM, _MINIMUM and _AND: two operands of one type and one
// shape (StableHLO does not broadcast) give an output of that type and shape. Types as
// TFLite's kernel: float16/32/64, int8/16/32/64, uint8/16/32/64 and bool (AND: no floats).
// As there, MAXIMUM / MINIMUM are std::max / std::min (a NaN in the first operand wins, one in
// the second loses), float16 sums and products are rounded from float, and bool ADD / MAXIMUM
// are OR while MULTIPLY / MINIMUM / AND are AND; unlike there, integer ADD / MULTIPLY wrap
// (two's complement) instead of overflowing.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/reference/quantize.h"
#include "ops/op_util.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "ops/stablehlo/stablehlo_util.h"

namespace octet::ops::stablehlo {
namespace {

enum class Fn { kAdd, kMul, kMax, kMin, kAnd };

const char* OpName(Fn fn) {
  switch (fn) {
    case Fn::kAdd:
      return "STABLEHLO_ADD";
    case Fn::kMul:
      return "STABLEHLO_MULTIPLY";
    case Fn::kMax:
      return "STABLEHLO_MAXIMUM";
    case Fn::kMin:
      return "STABLEHLO_MINIMUM";
    default:
      return "STABLEHLO_AND";
  }
}

// Integer ADD / MULTIPLY in an unsigned type at least as wide as int: wraps without UB (a
// uint16 product promoted to int could overflow it).
template <typename T>
using Wide = std::make_unsigned_t<std::conditional_t<(sizeof(T) < sizeof(int)), int, T>>;

// Bool tensors are read as bytes (any nonzero byte is true: loading a byte other than 0 or 1
// as bool is UB) and written as 0 / 1.
struct BoolByte {
  uint8_t value;
};

template <Fn fn, typename T>
T Apply(T a, T b) {
  if constexpr (std::is_same_v<T, BoolByte>) {
    const bool x = a.value != 0, y = b.value != 0;
    return {static_cast<uint8_t>((fn == Fn::kAdd || fn == Fn::kMax) ? (x || y) : (x && y))};
  } else if constexpr (fn == Fn::kMax) {
    return std::max(a, b);
  } else if constexpr (fn == Fn::kMin) {
    return std::min(a, b);
  } else if constexpr (std::is_integral_v<T>) {
    if constexpr (fn == Fn::kAnd) return static_cast<T>(a & b);
    const Wide<T> x = static_cast<Wide<T>>(a), y = static_cast<Wide<T>>(b);
    return static_cast<T>(fn == Fn::kAdd ? x + y : x * y);
  } else {
    return fn == Fn::kAdd ? a + b : a * b;  // prepare admits no float AND
  }
}

template <Fn fn, typename T>
void Run(const T* a, const T* b, int64_t n, T* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = Apply<fn, T>(a[i], b[i]);
}

// float16 operands are binary16 bit patterns: compared and combined as floats.
template <Fn fn>
void RunHalf(const uint16_t* a, const uint16_t* b, int64_t n, uint16_t* out) {
  using reference::HalfToFloat;
  for (int64_t i = 0; i < n; ++i) {
    const float x = HalfToFloat(a[i]), y = HalfToFloat(b[i]);
    if constexpr (fn == Fn::kMax) {
      out[i] = x < y ? b[i] : a[i];
    } else if constexpr (fn == Fn::kMin) {
      out[i] = y < x ? b[i] : a[i];
    } else {
      out[i] = reference::FloatToHalf(fn == Fn::kAdd ? x + y : x * y);
    }
  }
}

bool Supported(Fn fn, TfLiteType type) {
  switch (type) {
    case kTfLiteFloat16:
    case kTfLiteFloat32:
    case kTfLiteFloat64:
      return fn != Fn::kAnd;
    case kTfLiteInt8:
    case kTfLiteInt16:
    case kTfLiteInt32:
    case kTfLiteInt64:
    case kTfLiteUInt8:
    case kTfLiteUInt16:
    case kTfLiteUInt32:
    case kTfLiteUInt64:
    case kTfLiteBool:
      return true;
    default:
      return false;
  }
}

template <Fn fn>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const char* op = OpName(fn);
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, op, 2, 2, 1));
  const TfLiteTensor *lhs, *rhs;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 0, &lhs));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 1, &rhs));
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, 0, &output));
  OCTET_OP_ENSURE(context, Supported(fn, lhs->type), op, "type %s is not supported",
                  TfLiteTypeGetName(lhs->type));
  OCTET_OP_ENSURE(context, rhs->type == lhs->type, op, "operands must have one type, got %s and %s",
                  TfLiteTypeGetName(lhs->type), TfLiteTypeGetName(rhs->type));
  OCTET_OP_ENSURE(context, output->type == lhs->type, op, "output must be %s, got %s",
                  TfLiteTypeGetName(lhs->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, TfLiteIntArrayEqual(lhs->dims, rhs->dims), op,
                  "operands must have one shape (no broadcasting), got %s and %s",
                  DimsString(lhs->dims).c_str(), DimsString(rhs->dims).c_str());
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(lhs->dims));
}

template <Fn fn, typename T>
void RunTyped(const TfLiteTensor* lhs, const TfLiteTensor* rhs, int64_t n, TfLiteTensor* out) {
  Run<fn, T>(reinterpret_cast<const T*>(lhs->data.raw_const),
             reinterpret_cast<const T*>(rhs->data.raw_const), n,
             reinterpret_cast<T*>(out->data.raw));
}

template <Fn fn>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const char* op = OpName(fn);
  const TfLiteTensor* lhs = tflite::GetInput(context, node, 0);
  const TfLiteTensor* rhs = tflite::GetInput(context, node, 1);
  TfLiteTensor* out = tflite::GetOutput(context, node, 0);
  const int64_t n = tflite::NumElements(out);
  if (n == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "lhs", lhs));
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "rhs", rhs));
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "output", out));
  switch (lhs->type) {
    case kTfLiteFloat16:
      RunHalf<fn>(reinterpret_cast<const uint16_t*>(lhs->data.raw_const),
                  reinterpret_cast<const uint16_t*>(rhs->data.raw_const), n,
                  reinterpret_cast<uint16_t*>(out->data.raw));
      break;
    case kTfLiteFloat32:
      if constexpr (fn != Fn::kAnd) RunTyped<fn, float>(lhs, rhs, n, out);
      break;
    case kTfLiteFloat64:
      if constexpr (fn != Fn::kAnd) RunTyped<fn, double>(lhs, rhs, n, out);
      break;
    case kTfLiteInt8:
      RunTyped<fn, int8_t>(lhs, rhs, n, out);
      break;
    case kTfLiteInt16:
      RunTyped<fn, int16_t>(lhs, rhs, n, out);
      break;
    case kTfLiteInt32:
      RunTyped<fn, int32_t>(lhs, rhs, n, out);
      break;
    case kTfLiteInt64:
      RunTyped<fn, int64_t>(lhs, rhs, n, out);
      break;
    case kTfLiteUInt8:
      RunTyped<fn, uint8_t>(lhs, rhs, n, out);
      break;
    case kTfLiteUInt16:
      RunTyped<fn, uint16_t>(lhs, rhs, n, out);
      break;
    case kTfLiteUInt32:
      RunTyped<fn, uint32_t>(lhs, rhs, n, out);
      break;
    case kTfLiteUInt64:
      RunTyped<fn, uint64_t>(lhs, rhs, n, out);
      break;
    case kTfLiteBool:
      RunTyped<fn, BoolByte>(lhs, rhs, n, out);
      break;
    default:
      TF_LITE_KERNEL_LOG(context, "%s: type %s is not supported", op, TfLiteTypeGetName(lhs->type));
      return kTfLiteError;
  }
  return kTfLiteOk;
}

template <Fn fn>
TfLiteRegistration* Registration() {
  static TfLiteRegistration r = MakeRegistration(nullptr, nullptr, Prepare<fn>, Eval<fn>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::stablehlo

namespace tflite::ops::builtin {

using octet::ops::stablehlo::Fn;
using octet::ops::stablehlo::Registration;

TfLiteRegistration* Register_STABLEHLO_ADD() { return Registration<Fn::kAdd>(); }
TfLiteRegistration* Register_STABLEHLO_MULTIPLY() { return Registration<Fn::kMul>(); }
TfLiteRegistration* Register_STABLEHLO_MAXIMUM() { return Registration<Fn::kMax>(); }
TfLiteRegistration* Register_STABLEHLO_MINIMUM() { return Registration<Fn::kMin>(); }
TfLiteRegistration* Register_STABLEHLO_AND() { return Registration<Fn::kAnd>(); }

}  // namespace tflite::ops::builtin
