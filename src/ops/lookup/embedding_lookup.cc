// EMBEDDING_LOOKUP: output row i = row ids[i] of the table (input 1, rank >= 2), ids (input
// 0) a 1-D int32 tensor. Output dims: [len(ids)] + table dims[1:]. Tables are float32, or
// int8/uint8: copied as they are into an 8-bit output, or dequantized into a float32 output
// (TFLite's hybrid path: the bytes are read as int8 for both types, times the table's scale,
// or the row's scale when the table has one per row). A constant INT4 table (two values per
// byte, low nibble first, as TFLite's op version 4 takes it) is dequantized the same way into
// a float32 output, each row read from the packed table. Ids outside the table fail at invoke.
#include <cmath>
#include <vector>

#include "kernels/reference/lookup.h"
#include "ops/lookup/lookup_ops.h"
#include "ops/nn/int4_weights.h"

namespace octet::ops::lookup {
namespace {

constexpr char kOp[] = "EMBEDDING_LOOKUP";

bool IsByteType(TfLiteType t) { return t == kTfLiteInt8 || t == kTfLiteUInt8; }

const TfLiteAffineQuantization* Affine(const TfLiteTensor* t) {
  return t->quantization.type == kTfLiteAffineQuantization
             ? static_cast<const TfLiteAffineQuantization*>(t->quantization.params)
             : nullptr;
}

// The hybrid path's scales: one, or one per table row along dimension 0; all finite and > 0,
// zero points 0 (the dequantization ignores them).
TfLiteStatus CheckHybridScales(TfLiteContext* context, const TfLiteTensor* table) {
  const TfLiteAffineQuantization* q = Affine(table);
  OCTET_OP_ENSURE(context, q != nullptr && q->scale != nullptr && q->scale->size > 0, kOp,
                  "a %s table with float32 output needs a quantization scale",
                  TfLiteTypeGetName(table->type));
  const int rows = table->dims->data[0];
  const int n = q->scale->size;
  OCTET_OP_ENSURE(context, n == 1 || (n == rows && q->quantized_dimension == 0), kOp,
                  "table has %d scales; expected 1 or one per row (%d) along dimension 0", n, rows);
  for (int i = 0; i < n; ++i) {
    const float s = q->scale->data[i];
    OCTET_OP_ENSURE(context, std::isfinite(s) && s > 0.f, kOp,
                    "table scale %d must be finite and > 0, got %g", i, static_cast<double>(s));
  }
  if (q->zero_point != nullptr) {
    for (int i = 0; i < q->zero_point->size; ++i) {
      OCTET_OP_ENSURE(context, q->zero_point->data[i] == 0, kOp,
                      "a dequantized table must be symmetric (zero point %d is %d)", i,
                      q->zero_point->data[i]);
    }
  }
  return kTfLiteOk;
}

// Rows of a packed INT4 table times their scale (one, or one per row). Element j of row r is
// nibble r * cols + j of the whole table: rows of an odd width start mid-byte.
reference::LookupError EmbeddingLookupInt4(const int32_t* ids, int64_t count, int64_t rows,
                                           int64_t cols, const uint8_t* packed,
                                           const TfLiteFloatArray* scales, float* out) {
  const reference::LookupError err = reference::CheckIds(ids, count, rows);
  if (!err.ok) return err;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t row = ids[i];
    const float scale = scales->data[scales->size > 1 ? row : 0];
    const auto first = static_cast<size_t>(row * cols);
    float* dst = out + i * cols;
    for (int64_t j = 0; j < cols; ++j) {
      dst[j] = static_cast<float>(nn::Int4At(packed, first + static_cast<size_t>(j))) * scale;
    }
  }
  return err;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 2, 2, 1));
  const TfLiteTensor *ids, *table;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &ids));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &table));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "ids (input 0)", ids, 1));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "ids (input 0)", ids, kTfLiteInt32));
  TF_LITE_ENSURE_STATUS(RequireMinRank(context, kOp, "table (input 1)", table, 2));
  if (table->type == kTfLiteFloat32) {
    TF_LITE_ENSURE_STATUS(
        RequireType(context, kOp, "output of a float32 table", output, kTfLiteFloat32));
  } else if (IsByteType(table->type)) {
    // TFLite copies the bytes into any 8-bit output (a uint8 table into int8 too).
    OCTET_OP_ENSURE(context, output->type == kTfLiteFloat32 || IsByteType(output->type), kOp,
                    "output of a %s table must be float32 (dequantized) or int8/uint8, got %s",
                    TfLiteTypeGetName(table->type), TfLiteTypeGetName(output->type));
    if (output->type == kTfLiteFloat32) TF_LITE_ENSURE_STATUS(CheckHybridScales(context, table));
  } else if (table->type == kTfLiteInt4) {
    OCTET_OP_ENSURE(context, output->type == kTfLiteFloat32, kOp,
                    "output of an INT4 table must be float32 (dequantized), got %s",
                    TfLiteTypeGetName(output->type));
    size_t elements = 0;
    TF_LITE_ENSURE_STATUS(nn::CheckInt4Constant(context, kOp, "table (input 1)", table, &elements));
    TF_LITE_ENSURE_STATUS(CheckHybridScales(context, table));
  } else {
    OCTET_OP_ENSURE(context, false, kOp,
                    "table type %s is not supported (float32, int8, uint8, int4)",
                    TfLiteTypeGetName(table->type));
  }
  std::vector<int> dims(table->dims->data, table->dims->data + table->dims->size);
  dims[0] = ids->dims->data[0];
  return ResizeOutput(context, output, dims);
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* ids = tflite::GetInput(context, node, 0);
  const TfLiteTensor* table = tflite::GetInput(context, node, 1);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "ids", ids));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "table", table));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  const int64_t count = ids->dims->data[0];
  const int64_t rows = table->dims->data[0];
  const int64_t row_elements = rows > 0 ? tflite::NumElements(table) / rows : 0;
  reference::LookupError err;
  if (table->type == kTfLiteInt4) {
    err = EmbeddingLookupInt4(ids->data.i32, count, rows, row_elements,
                              reinterpret_cast<const uint8_t*>(table->data.raw_const),
                              Affine(table)->scale, output->data.f);
  } else if (output->type == kTfLiteFloat32 && IsByteType(table->type)) {
    const TfLiteAffineQuantization* q = Affine(table);
    err = reference::EmbeddingLookupDequantize(ids->data.i32, count, rows, row_elements,
                                               reinterpret_cast<const int8_t*>(table->data.raw),
                                               q->scale->data, q->scale->size > 1, output->data.f);
  } else {
    const int64_t row_bytes = row_elements * static_cast<int64_t>(TfLiteTypeGetSize(table->type));
    err = reference::EmbeddingLookupBytes(ids->data.i32, count, rows, row_bytes,
                                          reinterpret_cast<const uint8_t*>(table->data.raw),
                                          reinterpret_cast<uint8_t*>(output->data.raw));
  }
  OCTET_OP_ENSURE(context, err.ok, kOp, "id %lld at position %lld is out of range [0, %lld)",
                  static_cast<long long>(err.id), static_cast<long long>(err.position),
                  static_cast<long long>(err.limit));
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::lookup

namespace tflite::ops::builtin {

TfLiteRegistration* Register_EMBEDDING_LOOKUP() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::lookup::Prepare, octet::ops::lookup::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
