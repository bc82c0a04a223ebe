// Broadcasting binary math without parameters: POW, SQUARED_DIFFERENCE (also int8/int16),
// FLOOR_DIV, FLOOR_MOD, MAXIMUM, MINIMUM.
#include <algorithm>
#include <cstdint>

#include "kernels/reference/binary.h"
#include "ops/elementwise/binary_kernel.h"
#include "ops/elementwise/elementwise_ops.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"

namespace octet::ops::elementwise {
namespace {

namespace ref = octet::reference;

constexpr char kPow[] = "POW";
constexpr char kSquaredDifference[] = "SQUARED_DIFFERENCE";
constexpr char kFloorDiv[] = "FLOOR_DIV";
constexpr char kFloorMod[] = "FLOOR_MOD";
constexpr char kMaximum[] = "MAXIMUM";
constexpr char kMinimum[] = "MINIMUM";

// Integer POW has no negative exponents (TFLite rejects them too).
TfLiteStatus PowInt32(TfLiteContext *context, const BinaryData &d, const TfLiteTensor *a,
                      const TfLiteTensor *b, TfLiteTensor *out) {
  const int32_t *exponents = tflite::GetTensorData<int32_t>(b);
  const int64_t n = d.shape2.FlatSize();
  for (int64_t i = 0; i < n; ++i) {
    if (exponents[i] < 0) {
      TF_LITE_KERNEL_LOG(context, "POW: negative exponent %d for integer input (element %lld)",
                         exponents[i], static_cast<long long>(i));
      return kTfLiteError;
    }
  }
  return ApplyBinary<int32_t, int32_t, ref::Pow<int32_t>>(context, d, a, b, out);
}

constexpr BinaryTable kPowTable = {ApplyBinary<float, float, ref::Pow<float>>, PowInt32};

// Quantized SQUARED_DIFFERENCE (TFLite Micro): inputs rescaled to twice the larger input
// scale after a left shift of 7 (int8) or 0 (int16), subtracted, squared and requantized by
// (2 max_scale)^2 / (2^(2 shift) s_out) with a general (possibly > 1) multiplier.
TfLiteStatus PrepareSquaredDifferenceQuantized(TfLiteContext *context, const char *op,
                                               const TfLiteTensor *in1, const TfLiteTensor *in2,
                                               const TfLiteTensor *output, BinaryData *data) {
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "input 0", in1));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "input 1", in2));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "output", output));
  auto &p = data->squared_difference;
  p = reference::integer::SquaredDifferenceParams();
  p.input1_offset = -in1->params.zero_point;
  p.input2_offset = -in2->params.zero_point;
  p.output_offset = output->params.zero_point;
  p.left_shift = in1->type == kTfLiteInt16 ? 0 : 7;
  const double twice_max =
      2.0 * static_cast<double>(std::max(in1->params.scale, in2->params.scale));
  // TFLite Micro forms the denominator as int * float (exact: a power of two times a float).
  const float denominator = static_cast<float>(1 << (p.left_shift * 2)) * output->params.scale;
  quant::QuantizeMultiplierSmallerThanOneExp(static_cast<double>(in1->params.scale) / twice_max,
                                             &p.input1_multiplier, &p.input1_shift);
  quant::QuantizeMultiplierSmallerThanOneExp(static_cast<double>(in2->params.scale) / twice_max,
                                             &p.input2_multiplier, &p.input2_shift);
  return quant::QuantizeMultiplierChecked(
      context, op, "output", output,
      "(2 * max_input_scale)^2 / (2^(2 * left_shift) * output_scale)",
      twice_max * twice_max / static_cast<double>(denominator), &p.output_multiplier,
      &p.output_shift);
}

template <typename T>
TfLiteStatus SquaredDifferenceQuantized(TfLiteContext *, const BinaryData &d, const TfLiteTensor *a,
                                        const TfLiteTensor *b, TfLiteTensor *out) {
  const auto &p = d.squared_difference;
  ref::BroadcastBinary(d.shape1, tflite::GetTensorData<T>(a), d.shape2, tflite::GetTensorData<T>(b),
                       d.out_shape, tflite::GetTensorData<T>(out),
                       [&p](T x, T y) { return ref::integer::SquaredDifference<T>(x, y, p); });
  return kTfLiteOk;
}

constexpr BinaryTable SquaredDifferenceTable() {
  BinaryTable t = {ApplyBinary<float, float, ref::SquaredDifference<float>>,
                   ApplyBinary<int32_t, int32_t, ref::SquaredDifference<int32_t>>,
                   nullptr,
                   SquaredDifferenceQuantized<int8_t>,
                   nullptr,  // uint8: not in TFLite Micro either
                   SquaredDifferenceQuantized<int16_t>};
  t.prepare_quantized = PrepareSquaredDifferenceQuantized;
  return t;
}
constexpr BinaryTable kSquaredDifferenceTable = SquaredDifferenceTable();

// TFLite rejects a zero divisor for FLOOR_DIV on every type, float included.
constexpr BinaryTable kFloorDivTable = {ApplyDivision<float, ref::FloorDiv<float>>,
                                        ApplyDivision<int32_t, ref::FloorDiv<int32_t>>};

// FLOOR_MOD: float by zero gives NaN (fmod); integers must not divide by zero.
constexpr BinaryTable kFloorModTable = {ApplyBinary<float, float, ref::FloorMod<float>>,
                                        ApplyDivision<int32_t, ref::FloorMod<int32_t>>,
                                        ApplyDivision<int64_t, ref::FloorMod<int64_t>>};

template <typename T>
constexpr BinaryFn kMax = ApplyBinary<T, T, ref::Maximum<T>>;
template <typename T>
constexpr BinaryFn kMin = ApplyBinary<T, T, ref::Minimum<T>>;

constexpr BinaryTable kMaximumTable = {kMax<float>,  kMax<int32_t>, kMax<int64_t>,
                                       kMax<int8_t>, kMax<uint8_t>, kMax<int16_t>};
constexpr BinaryTable kMinimumTable = {kMin<float>,  kMin<int32_t>, kMin<int64_t>,
                                       kMin<int8_t>, kMin<uint8_t>, kMin<int16_t>};

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

namespace ew = octet::ops::elementwise;

TfLiteRegistration *Register_POW() { return ew::BinaryRegistration<ew::kPow, ew::kPowTable>(); }
TfLiteRegistration *Register_SQUARED_DIFFERENCE() {
  return ew::BinaryRegistration<ew::kSquaredDifference, ew::kSquaredDifferenceTable>();
}
TfLiteRegistration *Register_FLOOR_DIV() {
  return ew::BinaryRegistration<ew::kFloorDiv, ew::kFloorDivTable>();
}
TfLiteRegistration *Register_FLOOR_MOD() {
  return ew::BinaryRegistration<ew::kFloorMod, ew::kFloorModTable>();
}
TfLiteRegistration *Register_MAXIMUM() {
  return ew::BinaryRegistration<ew::kMaximum, ew::kMaximumTable>();
}
TfLiteRegistration *Register_MINIMUM() {
  return ew::BinaryRegistration<ew::kMinimum, ew::kMinimumTable>();
}

}  // namespace tflite::ops::builtin
