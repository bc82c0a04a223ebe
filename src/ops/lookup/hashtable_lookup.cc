// HASHTABLE_LOOKUP: for each key of lookups (input 0, [n] int32), the row of values (input 2,
// rank >= 1, one row per key) at that key's position in keys (input 1, [k] int32, ascending)
// goes to output 0 (zeros, or an empty string, when the key is absent) and hits (output 1,
// [n] uint8) says whether it was found. Values of any fixed-size type, or 1-D strings.
// Keys that are not ascending are an error (TFLite's binary search would silently miss):
// at prepare when they are constant, else at invoke.
#include <vector>

#include "kernels/reference/lookup.h"
#include "ops/lookup/lookup_ops.h"
#include "tensorflow/lite/string_util.h"

namespace octet::ops::lookup {
namespace {

constexpr char kOp[] = "HASHTABLE_LOOKUP";

TfLiteStatus CheckSorted(TfLiteContext* context, const TfLiteTensor* keys) {
  const int64_t at = reference::FirstUnsortedKey(keys->data.i32, keys->dims->data[0]);
  OCTET_OP_ENSURE(context, at < 0, kOp,
                  "keys must be ascending; keys[%lld] = %d follows keys[%lld] = %d",
                  static_cast<long long>(at), at < 0 ? 0 : keys->data.i32[at],
                  static_cast<long long>(at - 1), at < 1 ? 0 : keys->data.i32[at - 1]);
  return kTfLiteOk;
}

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 3, 3, 2));
  const TfLiteTensor *lookups, *keys, *values;
  TfLiteTensor *output, *hits;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &lookups));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 1, &keys));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 2, &values));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 1, &hits));
  TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "lookups (input 0)", lookups, 1));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "lookups (input 0)", lookups, kTfLiteInt32));
  TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "keys (input 1)", keys, 1));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "keys (input 1)", keys, kTfLiteInt32));
  TF_LITE_ENSURE_STATUS(RequireMinRank(context, kOp, "values (input 2)", values, 1));
  OCTET_OP_ENSURE(context, values->dims->data[0] == keys->dims->data[0], kOp,
                  "values %s must have one row per key (%d)", DimsString(values).c_str(),
                  keys->dims->data[0]);
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "hits (output 1)", hits, kTfLiteUInt8));
  OCTET_OP_ENSURE(context, output->type == values->type, kOp,
                  "output type %s does not match values type %s", TfLiteTypeGetName(output->type),
                  TfLiteTypeGetName(values->type));
  if (values->type == kTfLiteString) {
    TF_LITE_ENSURE_STATUS(RequireRank(context, kOp, "string values (input 2)", values, 1));
  } else {
    OCTET_OP_ENSURE(context, TfLiteTypeGetSize(values->type) > 0, kOp,
                    "values type %s is not supported", TfLiteTypeGetName(values->type));
  }
  if (tflite::IsConstantTensor(keys)) {
    TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "keys", keys));
    TF_LITE_ENSURE_STATUS(CheckSorted(context, keys));
  }
  const int n = lookups->dims->data[0];
  TF_LITE_ENSURE_STATUS(ResizeOutput(context, hits, {n}));
  // A string output is sized when it is written.
  if (output->type == kTfLiteString) return kTfLiteOk;
  std::vector<int> dims(values->dims->data, values->dims->data + values->dims->size);
  dims[0] = n;
  return ResizeOutput(context, output, dims);
}

TfLiteStatus EvalStrings(TfLiteContext* context, const TfLiteTensor* lookups,
                         const TfLiteTensor* keys, const TfLiteTensor* values, TfLiteTensor* output,
                         TfLiteTensor* hits) {
  const int64_t num_keys = keys->dims->data[0];
  int strings = 0;
  TF_LITE_ENSURE_STATUS(CheckStrings(context, kOp, "values", values, &strings));
  OCTET_OP_ENSURE(context, strings == num_keys, kOp, "values hold %d strings for %lld keys",
                  strings, static_cast<long long>(num_keys));
  tflite::DynamicBuffer buffer;
  for (int64_t i = 0; i < lookups->dims->data[0]; ++i) {
    const int64_t at = reference::HashtableFind(keys->data.i32, num_keys, lookups->data.i32[i]);
    const TfLiteStatus added =
        at < 0 ? buffer.AddString(nullptr, 0) : buffer.AddString(tflite::GetString(values, at));
    OCTET_OP_ENSURE(context, added == kTfLiteOk, kOp, "the output strings are too long");
    hits->data.uint8[i] = at < 0 ? 0 : 1;
  }
  buffer.WriteToTensorAsVector(output);
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* lookups = tflite::GetInput(context, node, 0);
  const TfLiteTensor* keys = tflite::GetInput(context, node, 1);
  const TfLiteTensor* values = tflite::GetInput(context, node, 2);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TfLiteTensor* hits = tflite::GetOutput(context, node, 1);
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "lookups", lookups));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "keys", keys));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "hits", hits));
  if (!tflite::IsConstantTensor(keys)) TF_LITE_ENSURE_STATUS(CheckSorted(context, keys));
  if (values->type == kTfLiteString) {
    return EvalStrings(context, lookups, keys, values, output, hits);
  }
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "values", values));
  TF_LITE_ENSURE_STATUS(RequireData(context, kOp, "output", output));
  int64_t row_elements = 1;
  for (int k = 1; k < values->dims->size; ++k) row_elements *= values->dims->data[k];
  const int64_t row_bytes = row_elements * static_cast<int64_t>(TfLiteTypeGetSize(values->type));
  reference::HashtableLookupBytes(lookups->data.i32, lookups->dims->data[0], keys->data.i32,
                                  keys->dims->data[0],
                                  reinterpret_cast<const uint8_t*>(values->data.raw), row_bytes,
                                  reinterpret_cast<uint8_t*>(output->data.raw), hits->data.uint8);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::lookup

namespace tflite::ops::builtin {

TfLiteRegistration* Register_HASHTABLE_LOOKUP() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::lookup::Prepare, octet::ops::lookup::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
