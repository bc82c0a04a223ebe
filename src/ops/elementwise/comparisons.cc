// Comparisons (bool output, broadcasting): LESS, LESS_EQUAL, GREATER,
// GREATER_EQUAL, EQUAL, NOT_EQUAL on float32/int32/int64 and quantized
// int8/uint8/int16, whose inputs may be quantized differently: both are rescaled
// as TFLite does ((x - z) << 8, times the scale in fixed point) and then compared,
// even when they share quantization (TFLite Micro always takes that path, and small
// scales can make neighbouring raw values compare equal). EQUAL/NOT_EQUAL also on
// bool. LOGICAL_AND/OR/NOT.
#include "kernels/reference/comparisons.h"

#include <cstdint>

#include "ops/elementwise/binary_kernel.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/elementwise/op_util.h"
#include "quant/quantization_util.h"
#include "quant/spec_checks.h"

namespace octet::ops::elementwise {
namespace {

namespace ref = octet::reference;
using ref::CompareOp;

template <CompareOp kOp, typename T>
constexpr BinaryFn kCmp = ApplyBinary<T, bool, ref::Compare<kOp, T>>;

// Bool tensors are read as bytes (see reference/comparisons.h).
template <CompareOp kOp>
bool CompareBytesAsBool(uint8_t a, uint8_t b) {
  return ref::Compare<kOp, bool>(a != 0, b != 0);
}

// TFLite's comparison rescale: each input becomes (x - z) * 2^8 * scale, in fixed point.
// TFLite derives the multipliers with QuantizeMultiplierSmallerThanOneExp and so needs
// scales below 1 (it aborts otherwise); larger scales are rescaled exactly here.
TfLiteStatus PrepareCompareParams(TfLiteContext *context, const char *op, const TfLiteTensor *in1,
                                  const TfLiteTensor *in2, const TfLiteTensor *, BinaryData *data) {
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "input 0", in1));
  TF_LITE_ENSURE_STATUS(quant::CheckActivation(context, op, "input 1", in2));
  reference::integer::CompareParams &p = data->compare;
  p = reference::integer::CompareParams();
  p.left_shift = 8;
  p.input1_offset = -in1->params.zero_point;
  p.input2_offset = -in2->params.zero_point;
  TF_LITE_ENSURE_STATUS(quant::QuantizeMultiplierChecked(context, op, "input 0", in1, "input_scale",
                                                         static_cast<double>(in1->params.scale),
                                                         &p.input1_multiplier, &p.input1_shift));
  return quant::QuantizeMultiplierChecked(context, op, "input 1", in2, "input_scale",
                                          static_cast<double>(in2->params.scale),
                                          &p.input2_multiplier, &p.input2_shift);
}

template <CompareOp kOp, typename T>
TfLiteStatus CompareQuantized(TfLiteContext *, const BinaryData &d, const TfLiteTensor *a,
                              const TfLiteTensor *b, TfLiteTensor *out) {
  const reference::integer::CompareParams &p = d.compare;
  reference::BroadcastBinary(
      d.shape1, tflite::GetTensorData<T>(a), d.shape2, tflite::GetTensorData<T>(b), d.out_shape,
      tflite::GetTensorData<bool>(out), [&p](T x, T y) {
        return reference::integer::CompareQuantized(x, y, p, ref::Compare<kOp, int32_t>);
      });
  return kTfLiteOk;
}

template <CompareOp kOp>
constexpr BinaryTable OrderingTable() {
  BinaryTable t = {kCmp<kOp, float>,
                   kCmp<kOp, int32_t>,
                   kCmp<kOp, int64_t>,
                   CompareQuantized<kOp, int8_t>,
                   CompareQuantized<kOp, uint8_t>,
                   CompareQuantized<kOp, int16_t>};
  t.prepare_quantized = PrepareCompareParams;
  return t;
}
template <CompareOp kOp>
constexpr BinaryTable EqualityTable() {
  BinaryTable t = OrderingTable<kOp>();
  t.boolean = ApplyBinary<uint8_t, bool, CompareBytesAsBool<kOp>>;
  return t;
}

constexpr BinaryTable kLessTable = OrderingTable<CompareOp::kLess>();
constexpr BinaryTable kLessEqualTable = OrderingTable<CompareOp::kLessEqual>();
constexpr BinaryTable kGreaterTable = OrderingTable<CompareOp::kGreater>();
constexpr BinaryTable kGreaterEqualTable = OrderingTable<CompareOp::kGreaterEqual>();
constexpr BinaryTable kEqualTable = EqualityTable<CompareOp::kEqual>();
constexpr BinaryTable kNotEqualTable = EqualityTable<CompareOp::kNotEqual>();

bool And(uint8_t a, uint8_t b) { return a != 0 && b != 0; }
bool Or(uint8_t a, uint8_t b) { return a != 0 || b != 0; }

constexpr BinaryTable LogicalTable(BinaryFn fn) {
  BinaryTable t;
  t.boolean = fn;
  return t;
}
constexpr BinaryTable kLogicalAndTable = LogicalTable(ApplyBinary<uint8_t, bool, And>);
constexpr BinaryTable kLogicalOrTable = LogicalTable(ApplyBinary<uint8_t, bool, Or>);

constexpr char kLess[] = "LESS";
constexpr char kLessEqual[] = "LESS_EQUAL";
constexpr char kGreater[] = "GREATER";
constexpr char kGreaterEqual[] = "GREATER_EQUAL";
constexpr char kEqual[] = "EQUAL";
constexpr char kNotEqual[] = "NOT_EQUAL";
constexpr char kLogicalAnd[] = "LOGICAL_AND";
constexpr char kLogicalOr[] = "LOGICAL_OR";
constexpr const char *kLogicalNot = "LOGICAL_NOT";

TfLiteStatus LogicalNotPrepare(TfLiteContext *context, TfLiteNode *node) {
  const TfLiteTensor *input;
  TfLiteTensor *output;
  TF_LITE_ENSURE_STATUS(GetIo(context, node, kLogicalNot, 1, &input, &output));
  if (input->type != kTfLiteBool) {
    TF_LITE_KERNEL_LOG(context, "%s: input type %s is not supported", kLogicalNot,
                       TypeName(input->type));
    return kTfLiteError;
  }
  TF_LITE_ENSURE_STATUS(CheckOutputType(context, kLogicalNot, output, kTfLiteBool));
  return ResizeOutput(context, output, Shape::Of(input));
}

TfLiteStatus LogicalNotEval(TfLiteContext *context, TfLiteNode *node) {
  const TfLiteTensor *input = tflite::GetInput(context, node, 0);
  TfLiteTensor *output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kLogicalNot, "input 0", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kLogicalNot, "output", output));
  ref::LogicalNot(tflite::GetTensorData<uint8_t>(input), tflite::NumElements(input),
                  tflite::GetTensorData<bool>(output));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::elementwise

namespace tflite::ops::builtin {

namespace ew = octet::ops::elementwise;

TfLiteRegistration *Register_LESS() {
  return ew::BinaryRegistration<ew::kLess, ew::kLessTable, kTfLiteBool>();
}
TfLiteRegistration *Register_LESS_EQUAL() {
  return ew::BinaryRegistration<ew::kLessEqual, ew::kLessEqualTable, kTfLiteBool>();
}
TfLiteRegistration *Register_GREATER() {
  return ew::BinaryRegistration<ew::kGreater, ew::kGreaterTable, kTfLiteBool>();
}
TfLiteRegistration *Register_GREATER_EQUAL() {
  return ew::BinaryRegistration<ew::kGreaterEqual, ew::kGreaterEqualTable, kTfLiteBool>();
}
TfLiteRegistration *Register_EQUAL() {
  return ew::BinaryRegistration<ew::kEqual, ew::kEqualTable, kTfLiteBool>();
}
TfLiteRegistration *Register_NOT_EQUAL() {
  return ew::BinaryRegistration<ew::kNotEqual, ew::kNotEqualTable, kTfLiteBool>();
}
TfLiteRegistration *Register_LOGICAL_AND() {
  return ew::BinaryRegistration<ew::kLogicalAnd, ew::kLogicalAndTable, kTfLiteBool>();
}
TfLiteRegistration *Register_LOGICAL_OR() {
  return ew::BinaryRegistration<ew::kLogicalOr, ew::kLogicalOrTable, kTfLiteBool>();
}
TfLiteRegistration *Register_LOGICAL_NOT() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, ew::LogicalNotPrepare, ew::LogicalNotEval);
  return &r;
}

}  // namespace tflite::ops::builtin
