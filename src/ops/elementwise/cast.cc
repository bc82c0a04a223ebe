// CAST between float32, float64, float16, bfloat16, int64, int32, uint32,
// int16, uint16, int8, uint8, bool and complex64: every pair TFLite's kernel
// takes except those with int4 (the output tensor's type is the target).
// Values convert as static_cast does (to bool: x != 0), with the cases C++
// leaves undefined pinned down: float -> integer truncates, saturates and maps
// NaN to 0 (reference/cast.h), float64 -> float32 overflows to infinity. The
// 16-bit floats and complex64 go through float32 as TFLite's do: complex64 ->
// real takes the real part, real -> complex64 gives (x, 0), and float16 /
// bfloat16 results round to nearest even.
#include "kernels/reference/cast.h"

#include <cstdint>
#include <type_traits>

#include "kernels/reference/cast_types.h"
#include "kernels/reference/quantize.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"

namespace octet::ops::elementwise {
namespace {

constexpr const char *kOp = "CAST";

using CastFn = void (*)(const TfLiteTensor *, TfLiteTensor *);

struct CastData {
  CastFn fn = nullptr;
};

// Element types that are not C++ arithmetic types, named by tags.
struct BoolByte {};   // a bool read as a byte: any nonzero byte is true
struct Half {};       // IEEE binary16 bits
struct BFloat16 {};   // bfloat16 bits
struct Complex64 {};  // (real, imaginary) float32 pairs

template <typename T>
struct StorageOf {
  using type = T;
};
template <>
struct StorageOf<BoolByte> {
  using type = uint8_t;
};
template <>
struct StorageOf<Half> {
  using type = uint16_t;
};
template <>
struct StorageOf<BFloat16> {
  using type = uint16_t;
};
template <>
struct StorageOf<Complex64> {
  using type = float;
};
template <typename T>
using Storage = typename StorageOf<T>::type;

// Element i of a source as the real number CAST converts (a complex value's
// real part).
template <typename From>
auto Load(const Storage<From> *src, int64_t i) {
  if constexpr (std::is_same_v<From, BoolByte>) {
    return uint8_t{src[i] != 0};
  } else if constexpr (std::is_same_v<From, Half>) {
    return reference::HalfToFloat(src[i]);
  } else if constexpr (std::is_same_v<From, BFloat16>) {
    return reference::BFloat16ToFloat(src[i]);
  } else if constexpr (std::is_same_v<From, Complex64>) {
    return src[2 * i];
  } else {
    return src[i];
  }
}

// The float32 that the float16, bfloat16 and complex64 targets start from.
template <typename V>
float ToFloat(V v) {
  if constexpr (std::is_same_v<V, double>) {
    return reference::DoubleToFloat(v);
  } else {
    return static_cast<float>(v);
  }
}

template <typename To, typename V>
void Store(Storage<To> *dst, int64_t i, V v) {
  if constexpr (std::is_same_v<To, Half>) {
    dst[i] = reference::FloatToHalf(ToFloat(v));
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    dst[i] = reference::FloatToBFloat16(ToFloat(v));
  } else if constexpr (std::is_same_v<To, Complex64>) {
    dst[2 * i] = ToFloat(v);
    dst[2 * i + 1] = 0.0f;
  } else if constexpr (std::is_same_v<To, float> && std::is_same_v<V, double>) {
    dst[i] = reference::DoubleToFloat(v);
  } else {
    dst[i] = reference::CastValue<To>(v);
  }
}

template <typename From, typename To>
void CastKernel(const TfLiteTensor *in, TfLiteTensor *out) {
  const int64_t n = tflite::NumElements(in);
  const auto *src = static_cast<const Storage<From> *>(in->data.data);
  auto *dst = static_cast<Storage<To> *>(out->data.data);
  if constexpr (std::is_same_v<From, To> &&
                (std::is_same_v<From, Complex64> || std::is_same_v<From, BFloat16>)) {
    // TFLite copies these unchanged (imaginary parts and NaN payloads kept);
    // float16 -> float16 instead goes through float32 like every other pair.
    const int64_t lanes = std::is_same_v<From, Complex64> ? 2 * n : n;
    for (int64_t i = 0; i < lanes; ++i) dst[i] = src[i];
  } else {
    for (int64_t i = 0; i < n; ++i) Store<To>(dst, i, Load<From>(src, i));
  }
}

template <typename From>
CastFn PickTarget(TfLiteType to) {
  switch (to) {
    case kTfLiteFloat32:
      return CastKernel<From, float>;
    case kTfLiteFloat64:
      return CastKernel<From, double>;
    case kTfLiteFloat16:
      return CastKernel<From, Half>;
    case kTfLiteBFloat16:
      return CastKernel<From, BFloat16>;
    case kTfLiteInt64:
      return CastKernel<From, int64_t>;
    case kTfLiteInt32:
      return CastKernel<From, int32_t>;
    case kTfLiteUInt32:
      return CastKernel<From, uint32_t>;
    case kTfLiteInt16:
      return CastKernel<From, int16_t>;
    case kTfLiteUInt16:
      return CastKernel<From, uint16_t>;
    case kTfLiteInt8:
      return CastKernel<From, int8_t>;
    case kTfLiteUInt8:
      return CastKernel<From, uint8_t>;
    case kTfLiteBool:
      return CastKernel<From, bool>;
    case kTfLiteComplex64:
      return CastKernel<From, Complex64>;
    default:
      return nullptr;
  }
}

CastFn PickCast(TfLiteType from, TfLiteType to) {
  switch (from) {
    case kTfLiteFloat32:
      return PickTarget<float>(to);
    case kTfLiteFloat64:
      return PickTarget<double>(to);
    case kTfLiteFloat16:
      return PickTarget<Half>(to);
    case kTfLiteBFloat16:
      return PickTarget<BFloat16>(to);
    case kTfLiteInt64:
      return PickTarget<int64_t>(to);
    case kTfLiteInt32:
      return PickTarget<int32_t>(to);
    case kTfLiteUInt32:
      return PickTarget<uint32_t>(to);
    case kTfLiteInt16:
      return PickTarget<int16_t>(to);
    case kTfLiteUInt16:
      return PickTarget<uint16_t>(to);
    case kTfLiteInt8:
      return PickTarget<int8_t>(to);
    case kTfLiteUInt8:
      return PickTarget<uint8_t>(to);
    case kTfLiteBool:
      return PickTarget<BoolByte>(to);
    case kTfLiteComplex64:
      return PickTarget<Complex64>(to);
    default:
      return nullptr;
  }
}

TfLiteStatus Prepare(TfLiteContext *context, TfLiteNode *node) {
  auto *data = static_cast<CastData *>(node->user_data);
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kOp, 1, &input, &output));
  data->fn = PickCast(input->type, output->type);
  if (data->fn == nullptr) {
    TF_LITE_KERNEL_LOG(context, "%s: cast from %s to %s is not supported", kOp,
                       TypeName(input->type), TypeName(output->type));
    return kTfLiteError;
  }
  return ResizeOutput(context, output, Shape::Of(input));
}

TfLiteStatus Eval(TfLiteContext *context, TfLiteNode *node) {
  const auto &data = *static_cast<const CastData *>(node->user_data);
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input 0", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  data.fn(input, output);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

TfLiteRegistration *Register_CAST() {
  namespace ew = octet::ops::elementwise;
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(octet::ops::InitData<ew::CastData>,
                                   octet::ops::FreeData<ew::CastData>, ew::Prepare, ew::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
