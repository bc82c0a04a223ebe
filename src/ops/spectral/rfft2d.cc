// RFFT2D: input float32 [..., H, W] (rank >= 2) and fft_length int32 [2] = {fft_h, fft_w}
// (positive powers of two) give complex64 [..., fft_h, fft_w / 2 + 1], the 2-D real FFT of
// each innermost [H, W] slice after cropping or zero-padding it to [fft_h, fft_w].
// As in TFLite the output is sized in prepare when fft_length is constant and is dynamic
// (sized at invoke) otherwise; we also refuse non-positive lengths explicitly, which TFLite's
// unsigned power-of-two test would let through for INT32_MIN.
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/reference/fft.h"
#include "ops/op_util.h"
#include "ops/spectral/spectral_ops.h"

namespace octet::ops::spectral {
namespace {

constexpr char kOp[] = "RFFT2D";

bool IsPowerOfTwo(int32_t v) { return v > 0 && (v & (v - 1)) == 0; }

// Validates fft_length and sizes the output from it.
TfLiteStatus ResizeFromFftLength(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* fft_length = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "fft_length", fft_length));
  const int32_t fft_h = fft_length->data.i32[0];
  const int32_t fft_w = fft_length->data.i32[1];
  OCTET_OP_ENSURE(context, IsPowerOfTwo(fft_h) && IsPowerOfTwo(fft_w), kOp,
                  "fft_length must be powers of two, got [%d, %d]", fft_h, fft_w);
  const int rank = input->dims->size;
  std::vector<int> dims(input->dims->data, input->dims->data + rank);
  dims[rank - 2] = fft_h;
  dims[rank - 1] = fft_w / 2 + 1;
  int64_t elements = 1;
  for (int d : dims) {
    elements *= d;
    // Stop before overflow; element counts are int-indexed downstream.
    OCTET_OP_ENSURE(context, elements <= std::numeric_limits<int32_t>::max(), kOp,
                    "output for fft_length [%d, %d] is too large", fft_h, fft_w);
  }
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *fft_length;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &fft_length));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  OCTET_OP_ENSURE(context, input->type == kTfLiteFloat32, kOp, "input must be FLOAT32, got %s",
                  TfLiteTypeGetName(input->type));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(input) >= 2, kOp,
                  "input must have rank >= 2, got %d", tflite::NumDimensions(input));
  OCTET_OP_ENSURE(context, fft_length->type == kTfLiteInt32, kOp,
                  "fft_length must be INT32, got %s", TfLiteTypeGetName(fft_length->type));
  OCTET_OP_ENSURE(context, tflite::NumDimensions(fft_length) == 1 && fft_length->dims->data[0] == 2,
                  kOp, "fft_length must have shape [2]");
  OCTET_OP_ENSURE(context, output->type == kTfLiteComplex64, kOp,
                  "output must be COMPLEX64, got %s", TfLiteTypeGetName(output->type));
  if (!tflite::IsConstantTensor(fft_length)) {
    tflite::SetTensorToDynamic(output);
    return kTfLiteOk;
  }
  return ResizeFromFftLength(context, node);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* fft_length = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  if (tflite::IsDynamicTensor(output)) {
    TF_LITE_ENSURE_STATUS(ResizeFromFftLength(context, node));
  }
  if (tflite::NumElements(output) == 0) return kTfLiteOk;
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const int rank = input->dims->size;
  int64_t slices = 1;
  for (int i = 0; i < rank - 2; ++i) slices *= input->dims->data[i];
  reference::Rfft2d(input->data.f, slices, input->dims->data[rank - 2], input->dims->data[rank - 1],
                    fft_length->data.i32[0], fft_length->data.i32[1],
                    reinterpret_cast<std::complex<float>*>(output->data.c64));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::spectral

namespace tflite::ops::builtin {

TfLiteRegistration* Register_RFFT2D() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::spectral::Prepare, octet::ops::spectral::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
