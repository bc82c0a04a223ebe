// REVERSE_SEQUENCE: for each slice b along batch_dim, reverses the first seq_lengths[b]
// elements along seq_dim (options seq_dim, batch_dim: distinct, in [0, rank)). Input
// float32, uint8, int16, int32 or int64; seq_lengths an int32/int64 vector with one length
// in [0, dim(seq_dim)] per batch.
#include <cstdint>
#include <vector>

#include "kernels/reference/matrix_diag.h"
#include "ops/shape/common.h"
#include "ops/shape/shape_ops.h"

namespace octet::ops::shape {
namespace {

constexpr char kOp[] = "REVERSE_SEQUENCE";

TfLiteStatus ReadLengths(TfLiteContext* context, const TfLiteTensor* input,
                         const TfLiteTensor* lengths_t, int seq_dim,
                         std::vector<int64_t>* lengths) {
  OCTET_ENSURE(context, lengths_t->data.raw != nullptr || tflite::NumElements(lengths_t) == 0,
               "%s: seq_lengths has no data", kOp);
  TF_LITE_ENSURE_STATUS(ReadIndices(context, kOp, lengths_t, "seq_lengths", lengths));
  const int max_len = input->dims->data[seq_dim];
  for (size_t b = 0; b < lengths->size(); ++b) {
    const int64_t len = (*lengths)[b];
    OCTET_ENSURE(context, len >= 0 && len <= max_len,
                 "%s: seq_lengths[%zu] = %lld is outside [0, %d] (dim %d of the input)", kOp, b,
                 static_cast<long long>(len), max_len, seq_dim);
  }
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *input, *lengths;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &lengths));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, node->builtin_data));
  const TfLiteType t = input->type;
  OCTET_ENSURE(context,
               t == kTfLiteFloat32 || t == kTfLiteUInt8 || t == kTfLiteInt16 || t == kTfLiteInt32 ||
                   t == kTfLiteInt64,
               "%s: input type %s is not supported (float32, uint8, int16, int32, int64)", kOp,
               TfLiteTypeGetName(t));
  TF_LITE_ENSURE_STATUS(CheckSameType(context, kOp, input, output, "output"));
  TF_LITE_ENSURE_STATUS(CheckSameQuantization(context, kOp, input, output));
  TF_LITE_ENSURE_STATUS(CheckIndexType(context, kOp, lengths, "seq_lengths"));
  const auto& p = *static_cast<const TfLiteReverseSequenceParams*>(node->builtin_data);
  const int rank = tflite::NumDimensions(input);
  OCTET_ENSURE(context, p.seq_dim >= 0 && p.seq_dim < rank,
               "%s: seq_dim %d out of range for rank %d", kOp, p.seq_dim, rank);
  OCTET_ENSURE(context, p.batch_dim >= 0 && p.batch_dim < rank,
               "%s: batch_dim %d out of range for rank %d", kOp, p.batch_dim, rank);
  OCTET_ENSURE(context, p.seq_dim != p.batch_dim, "%s: seq_dim and batch_dim are both %d", kOp,
               p.seq_dim);
  OCTET_ENSURE(context,
               tflite::NumDimensions(lengths) == 1 &&
                   lengths->dims->data[0] == input->dims->data[p.batch_dim],
               "%s: seq_lengths must be a vector of %d lengths (dim %d of the input)", kOp,
               input->dims->data[p.batch_dim], p.batch_dim);
  if (IsConstant(lengths)) {
    std::vector<int64_t> values;
    TF_LITE_ENSURE_STATUS(ReadLengths(context, input, lengths, p.seq_dim, &values));
  }
  return ResizeOutput(context, output, DimsOf(input));
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  const auto& p = *static_cast<const TfLiteReverseSequenceParams*>(node->builtin_data);
  std::vector<int64_t> lengths;
  TF_LITE_ENSURE_STATUS(
      ReadLengths(context, input, tflite::GetInput(context, node, 1), p.seq_dim, &lengths));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "input", input));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  return ByElementWidth(context, kOp, input, [&](auto tag) {
    using T = decltype(tag);
    reference::ReverseSequence(Shape::Of(input), p.seq_dim, p.batch_dim, lengths,
                               reinterpret_cast<const T*>(input->data.raw),
                               reinterpret_cast<T*>(output->data.raw));
  });
}

}  // namespace
}  // namespace octet::ops::shape

namespace tflite::ops::builtin {

TfLiteRegistration* Register_REVERSE_SEQUENCE() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::shape::Prepare, octet::ops::shape::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
