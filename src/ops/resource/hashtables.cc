// HASHTABLE, HASHTABLE_IMPORT, HASHTABLE_FIND and HASHTABLE_SIZE, as TFLite's builtin kernels:
//  - HASHTABLE (no inputs) makes table `table_id` (int64 -> string or string -> int64 keys
//    and values) if it does not exist, and outputs its id as a one-element resource tensor;
//  - HASHTABLE_IMPORT (id, keys, values; same shapes) fills the table on its first call and
//    ignores later ones (converters leave the initializer in the main graph); a repeated key
//    keeps its first value;
//  - HASHTABLE_FIND (id, keys, default) looks each key up, the default's first element
//    standing for missing keys; the output has the keys' shape; a table not yet imported is
//    an error;
//  - HASHTABLE_SIZE (id) gives the number of entries as int64 [1].
#include <cstring>
#include <string>

#include "core/resources.h"
#include "ops/lookup/lookup_ops.h"
#include "ops/op_util.h"
#include "ops/resource/resource_ops.h"
#include "ops/resource/resources_of.h"
#include "tensorflow/lite/core/subgraph.h"
#include "tensorflow/lite/string_util.h"

namespace octet::ops::resource {
namespace {

bool ValidPair(TfLiteType key, TfLiteType value) {
  return (key == kTfLiteInt64 && value == kTfLiteString) ||
         (key == kTfLiteString && value == kTfLiteInt64);
}

// The table id input: a one-element [1] resource or int32 tensor.
TfLiteStatus CheckTableId(TfLiteContext* context, const char* op, const TfLiteTensor* id) {
  OCTET_OP_ENSURE(context, id->type == kTfLiteResource || id->type == kTfLiteInt32, op,
                  "the table id must be a resource or int32 tensor (got %s)",
                  TfLiteTypeGetName(id->type));
  OCTET_OP_ENSURE(context, id->dims->size == 1 && id->dims->data[0] == 1, op,
                  "the table id must have shape [1]");
  OCTET_OP_ENSURE(context, ResourcesOf(context) != nullptr, op,
                  "lookup tables need an interpreter (this subgraph has none)");
  return kTfLiteOk;
}

// The table the id input names, which must exist (made by its HASHTABLE node).
TfLiteStatus TableOf(TfLiteContext* context, const char* op, const TfLiteTensor* id,
                     LookupTable** table) {
  OCTET_OP_ENSURE(context, id->data.raw != nullptr, op, "the table id has no data");
  int32_t table_id = 0;
  std::memcpy(&table_id, id->data.raw, sizeof table_id);
  *table = ResourcesOf(context)->FindTable(table_id);
  OCTET_OP_ENSURE(context, *table != nullptr, op, "there is no table %d", table_id);
  return kTfLiteOk;
}

// ---- HASHTABLE ----

constexpr char kHashtable[] = "HASHTABLE";

TfLiteStatus PrepareHashtable(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kHashtable, 0, 0, 1));
  TF_LITE_ENSURE_STATUS(RequireParams(context, kHashtable, node->builtin_data));
  const auto* params = static_cast<const TfLiteHashtableParams*>(node->builtin_data);
  OCTET_OP_ENSURE(context, ValidPair(params->key_dtype, params->value_dtype), kHashtable,
                  "tables map int64 to string or string to int64 (got %s to %s)",
                  TfLiteTypeGetName(params->key_dtype), TfLiteTypeGetName(params->value_dtype));
  OCTET_OP_ENSURE(context, ResourcesOf(context) != nullptr, kHashtable,
                  "lookup tables need an interpreter (this subgraph has none)");
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kHashtable, 0, &output));
  OCTET_OP_ENSURE(context, output->type == kTfLiteResource, kHashtable,
                  "the output must be a resource tensor (got %s)", TfLiteTypeGetName(output->type));
  TfLiteIntArray* one = TfLiteIntArrayCreate(1);
  one->data[0] = 1;
  return context->ResizeTensor(context, output, one);
}

TfLiteStatus EvalHashtable(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteHashtableParams*>(node->builtin_data);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  TF_LITE_ENSURE_STATUS(RequireData(context, kHashtable, "output", output));
  std::string error;
  OCTET_OP_ENSURE(context,
                  ResourcesOf(context)->MakeTable(params->table_id, params->key_dtype,
                                                  params->value_dtype, &error),
                  kHashtable, "%s", error.c_str());
  const int32_t id = params->table_id;
  std::memcpy(output->data.raw, &id, sizeof id);
  return kTfLiteOk;
}

// ---- HASHTABLE_IMPORT ----

constexpr char kImport[] = "HASHTABLE_IMPORT";

TfLiteStatus PrepareImport(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kImport, 3, 3, 0));
  const TfLiteTensor *id, *keys, *values;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kImport, 0, &id));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kImport, 1, &keys));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kImport, 2, &values));
  TF_LITE_ENSURE_STATUS(CheckTableId(context, kImport, id));
  OCTET_OP_ENSURE(context, ValidPair(keys->type, values->type), kImport,
                  "tables map int64 to string or string to int64 (got %s keys, %s values)",
                  TfLiteTypeGetName(keys->type), TfLiteTypeGetName(values->type));
  OCTET_OP_ENSURE(context, tflite::HaveSameShapes(keys, values), kImport,
                  "keys and values must have the same shape");
  return kTfLiteOk;
}

TfLiteStatus EvalImport(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* keys = tflite::GetInput(context, node, 1);
  const TfLiteTensor* values = tflite::GetInput(context, node, 2);
  LookupTable* table;
  TF_LITE_ENSURE_STATUS(TableOf(context, kImport, tflite::GetInput(context, node, 0), &table));
  OCTET_OP_ENSURE(context, table->key_type == keys->type && table->value_type == values->type,
                  kImport, "the table maps %s to %s, the inputs are %s and %s",
                  TfLiteTypeGetName(table->key_type), TfLiteTypeGetName(table->value_type),
                  TfLiteTypeGetName(keys->type), TfLiteTypeGetName(values->type));
  if (table->imported) return kTfLiteOk;  // the first import wins, as in TFLite
  const int64_t n = tflite::NumElements(keys);
  const TfLiteTensor* strings = keys->type == kTfLiteString ? keys : values;
  const TfLiteTensor* ints = keys->type == kTfLiteString ? values : keys;
  int count = 0;
  TF_LITE_ENSURE_STATUS(CheckStrings(context, kImport, "the strings", strings, &count));
  OCTET_OP_ENSURE(context, count == n, kImport, "%d strings for %lld entries", count,
                  static_cast<long long>(n));
  if (n > 0) TF_LITE_ENSURE_STATUS(RequireData(context, kImport, "the int64s", ints));
  OCTET_OP_ENSURE(context, ResourcesOf(context)->ChargeTable(strings->bytes + ints->bytes * 4),
                  kImport, "the table's %lld entries need more than the memory limit leaves",
                  static_cast<long long>(n));
  for (int64_t i = 0; i < n; ++i) {
    const tflite::StringRef s = tflite::GetString(strings, static_cast<int>(i));
    std::string text(s.str, static_cast<size_t>(s.len));
    if (keys->type == kTfLiteString) {
      table->string_keys.emplace(std::move(text), ints->data.i64[i]);
    } else {
      table->int_keys.emplace(ints->data.i64[i], std::move(text));
    }
  }
  table->imported = true;
  return kTfLiteOk;
}

// ---- HASHTABLE_FIND ----

constexpr char kFind[] = "HASHTABLE_FIND";

TfLiteStatus PrepareFind(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kFind, 3, 3, 1));
  const TfLiteTensor *id, *keys, *fallback;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kFind, 0, &id));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kFind, 1, &keys));
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kFind, 2, &fallback));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kFind, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckTableId(context, kFind, id));
  OCTET_OP_ENSURE(context, fallback->type == output->type, kFind,
                  "the default value is %s, the output %s", TfLiteTypeGetName(fallback->type),
                  TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, ValidPair(keys->type, output->type), kFind,
                  "tables map int64 to string or string to int64 (got %s keys, %s values)",
                  TfLiteTypeGetName(keys->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, tflite::NumElements(fallback) >= 1, kFind, "the default value is empty");
  // A string output is sized when it is written.
  if (output->type == kTfLiteString) return kTfLiteOk;
  return context->ResizeTensor(context, output, TfLiteIntArrayCopy(keys->dims));
}

TfLiteStatus EvalFind(TfLiteContext* context, TfLiteNode* node) {
  const TfLiteTensor* keys = tflite::GetInput(context, node, 1);
  const TfLiteTensor* fallback = tflite::GetInput(context, node, 2);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  LookupTable* table;
  TF_LITE_ENSURE_STATUS(TableOf(context, kFind, tflite::GetInput(context, node, 0), &table));
  OCTET_OP_ENSURE(context, table->key_type == keys->type && table->value_type == output->type,
                  kFind, "the table maps %s to %s, the keys are %s and the output %s",
                  TfLiteTypeGetName(table->key_type), TfLiteTypeGetName(table->value_type),
                  TfLiteTypeGetName(keys->type), TfLiteTypeGetName(output->type));
  OCTET_OP_ENSURE(context, table->imported, kFind, "the table is looked up before its import");
  const int64_t n = tflite::NumElements(keys);
  if (keys->type == kTfLiteString) {
    int count = 0;
    TF_LITE_ENSURE_STATUS(CheckStrings(context, kFind, "the keys", keys, &count));
    OCTET_OP_ENSURE(context, count == n, kFind, "%d key strings for %lld keys", count,
                    static_cast<long long>(n));
    TF_LITE_ENSURE_STATUS(RequireData(context, kFind, "the default value", fallback));
    if (n > 0) TF_LITE_ENSURE_STATUS(RequireData(context, kFind, "output", output));
    for (int64_t i = 0; i < n; ++i) {
      const tflite::StringRef s = tflite::GetString(keys, static_cast<int>(i));
      const auto it = table->string_keys.find(std::string(s.str, static_cast<size_t>(s.len)));
      output->data.i64[i] = it == table->string_keys.end() ? fallback->data.i64[0] : it->second;
    }
    return kTfLiteOk;
  }
  int fallback_count = 0;
  TF_LITE_ENSURE_STATUS(
      CheckStrings(context, kFind, "the default value", fallback, &fallback_count));
  OCTET_OP_ENSURE(context, fallback_count >= 1, kFind, "the default value has no string");
  if (n > 0) TF_LITE_ENSURE_STATUS(RequireData(context, kFind, "the keys", keys));
  const tflite::StringRef missing = tflite::GetString(fallback, 0);
  tflite::DynamicBuffer buffer;
  for (int64_t i = 0; i < n; ++i) {
    const auto it = table->int_keys.find(keys->data.i64[i]);
    const TfLiteStatus added = it == table->int_keys.end()
                                   ? buffer.AddString(missing)
                                   : buffer.AddString(it->second.data(), it->second.size());
    OCTET_OP_ENSURE(context, added == kTfLiteOk, kFind, "the output strings are too long");
  }
  buffer.WriteToTensor(output, TfLiteIntArrayCopy(keys->dims));
  return kTfLiteOk;
}

// ---- HASHTABLE_SIZE ----

constexpr char kSize[] = "HASHTABLE_SIZE";

TfLiteStatus PrepareSize(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kSize, 1, 1, 1));
  const TfLiteTensor* id;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kSize, 0, &id));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kSize, 0, &output));
  TF_LITE_ENSURE_STATUS(CheckTableId(context, kSize, id));
  OCTET_OP_ENSURE(context, output->type == kTfLiteInt64, kSize, "the output must be int64 (got %s)",
                  TfLiteTypeGetName(output->type));
  TfLiteIntArray* one = TfLiteIntArrayCreate(1);
  one->data[0] = 1;
  return context->ResizeTensor(context, output, one);
}

TfLiteStatus EvalSize(TfLiteContext* context, TfLiteNode* node) {
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  LookupTable* table;
  TF_LITE_ENSURE_STATUS(TableOf(context, kSize, tflite::GetInput(context, node, 0), &table));
  TF_LITE_ENSURE_STATUS(RequireData(context, kSize, "output", output));
  output->data.i64[0] = static_cast<int64_t>(table->size());
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::resource

namespace tflite::ops::builtin {

using namespace octet::ops::resource;  // NOLINT: the kernels above

TfLiteRegistration* Register_HASHTABLE() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, PrepareHashtable, EvalHashtable);
  return &r;
}

TfLiteRegistration* Register_HASHTABLE_IMPORT() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, PrepareImport, EvalImport);
  return &r;
}

TfLiteRegistration* Register_HASHTABLE_FIND() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, PrepareFind, EvalFind);
  return &r;
}

TfLiteRegistration* Register_HASHTABLE_SIZE() {
  static TfLiteRegistration r =
      octet::ops::MakeRegistration(nullptr, nullptr, PrepareSize, EvalSize);
  return &r;
}

}  // namespace tflite::ops::builtin
