// MATRIX_DIAG: input [..., N] -> output [..., N, N] with the input on each main diagonal and
// zeros elsewhere. MATRIX_SET_DIAG: input [..., M, N] and diagonal [..., min(M, N)] -> the
// input with each main diagonal replaced. Any fixed-width element type the shape kernels move.
#include "kernels/reference/matrix_diag.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kDiag[] = "MATRIX_DIAG";
constexpr char kSetDiag[] = "MATRIX_SET_DIAG";

TfLiteStatus DiagPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kDiag, 1, 1, 1));
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kDiag, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kDiag, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kDiag, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kDiag, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kDiag, input, output));
  OCTET_ENSURE(context, tflite::NumDimensions(input) >= 1, "%s: input must have rank >= 1", kDiag);
  std::vector<int> dims = DimsOf(input);
  dims.push_back(dims.back());
  return ResizeOutput(context, output, dims);
}

TfLiteStatus DiagEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kDiag, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kDiag, "output", output));
  const int rank = tflite::NumDimensions(input);
  const int64_t n = input->dims->data[rank - 1];
  const int64_t batches = n == 0 ? 0 : tflite::NumElements(input) / n;
  return ByElementWidth(context, kDiag, input, [&](auto tag) {
    using T = decltype(tag);
    reference::MatrixDiag(batches, n, reinterpret_cast<const T*>(input->data.raw),
                          reinterpret_cast<T*>(output->data.raw));
  });
}

TfLiteStatus SetDiagPrepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kSetDiag, 2, 2, 1));
  const TfLiteTensor *input, *diag;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kSetDiag, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kSetDiag, 1, &diag));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kSetDiag, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckMovableType(context, kSetDiag, input->type));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kSetDiag, input, diag, "diagonal"));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kSetDiag, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kSetDiag, input, output));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kSetDiag, diag, output));
  const int rank = tflite::NumDimensions(input);
  OCTET_ENSURE(context, rank >= 2, "%s: input must have rank >= 2, got %d", kSetDiag, rank);
  std::vector<int> want(input->dims->data, input->dims->data + rank - 2);
  want.push_back(std::min(input->dims->data[rank - 2], input->dims->data[rank - 1]));
  OCTET_ENSURE(context, DimsOf(diag) == want,
               "%s: diagonal shape must be the input's batch dims followed by min(rows, cols) = %d",
               kSetDiag, want.back());
  return ResizeOutput(context, output, DimsOf(input));
}

TfLiteStatus SetDiagEval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  const TfLiteTensor* diag = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kSetDiag, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kSetDiag, "diagonal", diag));
  TF_LITE_ENSURE_STATUS(RequireData(context, kSetDiag, "output", output));
  const int rank = tflite::NumDimensions(input);
  const int64_t rows = input->dims->data[rank - 2], cols = input->dims->data[rank - 1];
  const int64_t batches = rows * cols == 0 ? 0 : tflite::NumElements(input) / (rows * cols);
  return ByElementWidth(context, kSetDiag, input, [&](auto tag) {
    using T = decltype(tag);
    reference::MatrixSetDiag(batches, rows, cols, reinterpret_cast<const T*>(input->data.raw),
                             reinterpret_cast<const T*>(diag->data.raw),
                             reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_MATRIX_DIAG() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::DiagPrepare, octet::ops::shape::DiagEval);
  return &r;
}

TfLiteRegistration* Register_MATRIX_SET_DIAG() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::SetDiagPrepare, octet::ops::shape::SetDiagEval);
  return &r;
}

}  // namespace tflite::ops::builtin
