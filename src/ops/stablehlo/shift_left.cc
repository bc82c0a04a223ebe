// STABLEHLO_SHIFT_LEFT: lhs << rhs elementwise for int8, int16 and int32 operands of one shape
// (the types TFLite's kernel takes). As StableHLO defines it, a shift count that is negative
// or at least the bit width gives 0 (TFLite's `<<` is undefined there); bits shifted past the
// width are dropped (two's complement).
#include <cstdint>
#include <type_traits>

#include "ops/op_util.h"
#include "ops/stablehlo/stablehlo_ops.h"
#include "ops/stablehlo/stablehlo_util.h"

namespace octet::ops::stablehlo {
namespace {

constexpr char kOp[] = "STABLEHLO_SHIFT_LEFT";

template <typename T>
T ShiftLeft(T value, T count) {
  constexpr int kBits = 8 * sizeof(T);
  if (count < 0 || count >= kBits) return 0;
  // Shifted as unsigned: a negative lhs would be UB as signed.
  return static_cast<T>(static_cast<uint32_t>(value) << count);
}

template <typename T>
void Run(const TfLiteTensor* lhs, const TfLiteTensor* rhs, int64_t n, TfLiteTensor* out) {
  const T* a = reinterpret_cast<const T*>(lhs->data.raw_const);
  const T* b = reinterpret_cast<const T*>(rhs->data.raw_const);
  T* o = reinterpret_cast<T*>(out->data.raw);
  for (int64_t i = 0; i < n; ++i) o[i] = ShiftLeft(a[i], b[i]);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *lhs, *rhs;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &lhs));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &rhs));
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(
      context, lhs->type == kTfLiteInt8 || lhs->type == kTfLiteInt16 || lhs->type == kTfLiteInt32,
      kOp, "type %s is not supported (int8, int16 or int32)", TfLiteTypeGetName(lhs->type));
  OCTET_OP_ENSURE(context, rhs->type == lhs->type, kOp,
                  "operands must have one type, got %s and %s", TfLiteTypeGetName(lhs->type),
                  TfLiteTypeGetName(rhs->type));
  OCTET_OP_ENSURE(context, output->type == lhs->type, kOp, "output must be %s, got %s",
                  TfLiteTypeGetName(lhs->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, TfLiteIntArrayEqual(lhs->dims, rhs->dims), kOp,
                  "operands must have one shape (no broadcasting), got %s and %s",
                  DimsString(lhs->dims).c_str(), DimsString(rhs->dims).c_str());
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(lhs->dims));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* lhs = tflite::GetInput(context, node, 0);
  const TfLiteTensor* rhs = tflite::GetInput(context, node, 1);
  TfLiteTensor* out = tflite::GetOutput(context, node, 0);
  const int64_t n = tflite::NumElements(out);
  if (n == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "lhs", lhs));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "rhs", rhs));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", out));
  switch (lhs->type) {
    case kTfLiteInt8:
      Run<int8_t>(lhs, rhs, n, out);
      break;
    case kTfLiteInt16:
      Run<int16_t>(lhs, rhs, n, out);
      break;
    default:  // kTfLiteInt32 (prepare admits nothing else)
      Run<int32_t>(lhs, rhs, n, out);
      break;
  }
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::stablehlo

namespace tflite::ops::builtin {

TfLiteRegistration* Register_STABLEHLO_SHIFT_LEFT() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::stablehlo::Prepare, octet::ops::stablehlo::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
