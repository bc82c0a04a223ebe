// REAL, IMAG, COMPLEX_ABS: complex64 -> float32 and complex128 -> float64, element-wise, the
// output taking the input's shape. TFLite requires the output to be declared with the
// matching real type; so do we.
#include <complex>
#include <cstdint>

#include "kernels/reference/complex.h"
#include "ops/op_util.h"
#include "ops/spectral/spectral_ops.h"

namespace octet::ops::spectral {
namespace {

enum class Part { kReal, kImag, kAbs };

template <Part P>
constexpr const char* OpName() {
  return P == Part::kReal ? "REAL" : P == Part::kImag ? "IMAG" : "COMPLEX_ABS";
}

template <Part P>
TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  const char* op = OpName<P>();
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, op, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, op, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, op, 0, &output));
  OCTET_OP_ENSURE(context, input->type == kTfLiteComplex64 || input->type == kTfLiteComplex128, op,
                  "input must be COMPLEX64 or COMPLEX128, got %s", TfLiteTypeGetName(input->type));
  const TfLiteType want = input->type == kTfLiteComplex64 ? kTfLiteFloat32 : kTfLiteFloat64;
  OCTET_OP_ENSURE(context, output->type == want, op, "output must be %s for a %s input, got %s",
                  TfLiteTypeGetName(want), TfLiteTypeGetName(input->type),
                  TfLiteTypeGetName(output->type));
  return ResizeOutput(context, output, Shape(input->dims));
}

template <Part P, typename T>
void Run(const TfLiteTensor* input, TfLiteTensor* output) {
  const auto* in = reinterpret_cast<const std::complex<T>*>(input->data.raw);
  T* out = reinterpret_cast<T*>(output->data.raw);
  const int64_t n = tflite::NumElements(input);
  if constexpr (P == Part::kReal) {
    reference::ComplexReal(in, out, n);
  } else if constexpr (P == Part::kImag) {
    reference::ComplexImag(in, out, n);
  } else {
    reference::ComplexAbs(in, out, n);
  }
}

template <Part P>
TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const char* op = OpName<P>();
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::NumElements(input) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, op, "output", output));
  if (input->type == kTfLiteComplex64) {
    Run<P, float>(input, output);
  } else {
    Run<P, double>(input, output);
  }
  return kTfLiteOk;
}

template <Part P>
TfLiteRegistration* Registration() {
  static TfLiteRegistration r = MakeRegistration(nullptr, nullptr, Prepare<P>, Eval<P>);
  return &r;
}

}  // namespace
}  // namespace octet::ops::spectral

namespace tflite::ops::builtin {

using octet::ops::spectral::Part;

TfLiteRegistration* Register_REAL() { return octet::ops::spectral::Registration<Part::kReal>(); }
TfLiteRegistration* Register_IMAG() { return octet::ops::spectral::Registration<Part::kImag>(); }
TfLiteRegistration* Register_COMPLEX_ABS() {
  return octet::ops::spectral::Registration<Part::kAbs>();
}

}  // namespace tflite::ops::builtin
