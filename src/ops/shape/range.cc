// RANGE: start, limit and delta scalars of one type (int32, float32, int64) give the vector
// start, start + delta, ... up to (not including) limit. The length depends on the values,
// so the output is dynamic unless all three inputs are constant.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "RANGE";

template <typename T>
TfLiteStatus Length(TfLiteContext* context, T start, T limit, T delta, int64_t* length) {
  OCTET_ENSURE(context, delta != T(0), "%s: delta must not be zero", kOp);
  OCTET_ENSURE(context, !((start > limit && delta > 0) || (start < limit && delta < 0)),
               "%s: delta has the wrong sign to go from start to limit", kOp);
  double n;
  if constexpr (std::is_integral_v<T>) {
    // Unsigned 64-bit differences are exact for any int32/int64 pair (no overflow).
    const auto as_u64 = [](T v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); };
    const uint64_t span =
        start <= limit ? as_u64(limit) - as_u64(start) : as_u64(start) - as_u64(limit);
    const uint64_t step = delta > 0 ? as_u64(delta) : uint64_t{0} - as_u64(delta);
    n = static_cast<double>(span / step + (span % step != 0 ? 1 : 0));
  } else {
    // In T, as TFLite computes it: the float rounding decides the length at the edges.
    n = static_cast<double>(std::ceil(std::abs((limit - start) / delta)));
    OCTET_ENSURE(context, std::isfinite(n), "%s: start, limit and delta must be finite", kOp);
  }
  OCTET_ENSURE(context, n <= std::numeric_limits<int>::max(), "%s: %g elements are too many", kOp,
               n);
  *length = static_cast<int64_t>(n);
  return kTfLiteOk;
}

template <typename T>
const T& Scalar(const TfLiteTensor* t) {
  return *reinterpret_cast<const T*>(t->data.raw);
}

TfLiteStatus OutputDims(TfLiteContext* context, TfLiteNode* node, std::vector<int>* dims) {
  const TfLiteTensor* start = tflite::GetInput(context, node, 0);
  const TfLiteTensor* limit = tflite::GetInput(context, node, 1);
  const TfLiteTensor* delta = tflite::GetInput(context, node, 2);
  for (const TfLiteTensor* t : {start, limit, delta}) {
    OCTET_ENSURE(context, t->data.raw != nullptr, "%s: an input has no data", kOp);
  }
  int64_t n = 0;
  switch (start->type) {
    case kTfLiteInt32:
      TF_LITE_ENSURE_STATUS(Length(context, Scalar<int32_t>(start), Scalar<int32_t>(limit),
                                   Scalar<int32_t>(delta), &n));
      break;
    case kTfLiteInt64:
      TF_LITE_ENSURE_STATUS(Length(context, Scalar<int64_t>(start), Scalar<int64_t>(limit),
                                   Scalar<int64_t>(delta), &n));
      break;
    default:
      TF_LITE_ENSURE_STATUS(
          Length(context, Scalar<float>(start), Scalar<float>(limit), Scalar<float>(delta), &n));
      break;
  }
  *dims = {static_cast<int>(n)};
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 3, 3, 1));
  const TfLiteTensor* in[3];
  TfLiteTensor* output;
  for (int i = 0; i < 3; ++i) TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, i, &in[i]));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  const TfLiteType type = in[0]->type;
  OCTET_ENSURE(context, type == kTfLiteInt32 || type == kTfLiteFloat32 || type == kTfLiteInt64,
               "%s: input type %s is not supported (int32, float32, int64)", kOp,
               TfLiteTypeGetName(type));
  static const char* const kNames[] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; ++i) {
    OCTET_ENSURE(context, tflite::NumElements(in[i]) == 1 && tflite::NumDimensions(in[i]) <= 1,
                 "%s: %s must be a scalar", kOp, kNames[i]);
    if (i > 0) TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, in[0], in[i], kNames[i]));
  }
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, in[0], output, "output"));
  const bool known = IsConstant(in[0]) && IsConstant(in[1]) && IsConstant(in[2]);
  return ResizeOrMarkDynamic(context, node, output, known, OutputDims);
}

// value accumulates delta step by step, as TFLite's kernel does (not start + i * delta).
template <typename T>
void Fill(const TfLiteTensor* start, const TfLiteTensor* delta, TfLiteTensor* output) {
  T value = Scalar<T>(start);
  const T step = Scalar<T>(delta);
  T* out = reinterpret_cast<T*>(output->data.raw);
  const int64_t n = tflite::NumElements(output);
  for (int64_t i = 0; i < n; ++i) {
    out[i] = value;
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      value = static_cast<T>(static_cast<U>(value) + static_cast<U>(step));
    } else {
      value += step;
    }
  }
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* start = tflite::GetInput(context, node, 0);
  const TfLiteTensor* delta = tflite::GetInput(context, node, 2);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(ResizeDynamicOutput(context, node, output, OutputDims));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  switch (start->type) {
    case kTfLiteInt32:
      Fill<int32_t>(start, delta, output);
      break;
    case kTfLiteInt64:
      Fill<int64_t>(start, delta, output);
      break;
    default:
      Fill<float>(start, delta, output);
      break;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RANGE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
