// Lookup tables through whole models: HASHTABLE + HASHTABLE_IMPORT of constant keys and
// values, then HASHTABLE_FIND and HASHTABLE_SIZE, both key directions. The truth is the
// table written in the test.
#include <gtest/gtest.h>

#include <cstdarg>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "resource_test_util.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/string_util.h"
#include "tensorflow/lite/util.h"

namespace octet {
namespace {

using namespace tflite;  // NOLINT: BuiltinOperator_*, TensorType_*
using format::ModelBuilder;

using Loaded = resource_test::LoadedModel;

// A serialized string tensor buffer.
std::vector<uint8_t> Strings(const std::vector<std::string>& strings) {
  DynamicBuffer buffer;
  for (const std::string& s : strings) buffer.AddString(s.data(), s.size());
  char* raw = nullptr;
  const int size = buffer.WriteToBuffer(&raw);
  std::vector<uint8_t> bytes(raw, raw + size);
  free(raw);
  return bytes;
}

void SetStrings(TfLiteTensor* tensor, const std::vector<std::string>& strings,
                const std::vector<int>& dims) {
  DynamicBuffer buffer;
  for (const std::string& s : strings) buffer.AddString(s.data(), s.size());
  buffer.WriteToTensor(tensor, ConvertVectorToTfLiteIntArray(dims));
}

const std::vector<std::string> kWords = {"cat", "dog", "", "eel", "dog"};
const std::vector<int64_t> kIds = {7, 3, -1, 42, 99};  // "dog" repeats: its first id stays

// string -> int64: ids = FIND(table, words, default -5); size = SIZE(table). The import runs
// on every invoke (as converters leave it); only the first fills the table.
std::vector<uint8_t> WordsToIdsModel() {
  ModelBuilder b;
  const int hashtable = b.AddOperatorCode(BuiltinOperator_HASHTABLE);
  const int import = b.AddOperatorCode(BuiltinOperator_HASHTABLE_IMPORT);
  const int find = b.AddOperatorCode(BuiltinOperator_HASHTABLE_FIND);
  const int size = b.AddOperatorCode(BuiltinOperator_HASHTABLE_SIZE);
  const int words = b.AddTensor(TensorType_STRING, {2, 2}, "words");
  const int handle = b.AddTensor(TensorType_RESOURCE, {}, "table");
  const int keys = b.AddTensor(TensorType_STRING, {5}, "keys",
                               static_cast<uint32_t>(b.AddBuffer(Strings(kWords))));
  const int values = b.AddConstTensor(TensorType_INT64, {5}, kIds, "values");
  const int fallback = b.AddConstTensor(TensorType_INT64, {}, std::vector<int64_t>{-5}, "default");
  const int ids = b.AddTensor(TensorType_INT64, {2, 2}, "ids");
  const int count = b.AddTensor(TensorType_INT64, {1}, "count");
  b.AddOperator(hashtable, {}, {handle},
                b.HashtableOptions(3, TensorType_STRING, TensorType_INT64));
  b.AddOperator(import, {handle, keys, values}, {});
  b.AddOperator(find, {handle, words, fallback}, {ids});
  b.AddOperator(size, {handle}, {count});
  b.SetInputs({words});
  b.SetOutputs({ids, count});
  return b.Finish();
}

TEST(Hashtables, StringKeysFindTheirIdsAndMissingOnesTheDefault) {
  Loaded m(WordsToIdsModel());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  for (int k = 0; k < 2; ++k) {
    SetStrings(m.interpreter->input_tensor(0), {"dog", "fox", "", "cat"}, {2, 2});
    ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
    const TfLiteTensor* ids = m.interpreter->output_tensor(0);
    ASSERT_EQ(ids->dims->size, 2);
    EXPECT_EQ(std::vector<int64_t>(ids->data.i64, ids->data.i64 + 4),
              (std::vector<int64_t>{3, -5, -1, 7}));
    EXPECT_EQ(m.interpreter->output_tensor(1)->data.i64[0], 4);  // 5 pairs, "dog" twice
  }
}

TEST(Hashtables, IntKeysFindTheirStrings) {
  ModelBuilder b;
  const int hashtable = b.AddOperatorCode(BuiltinOperator_HASHTABLE);
  const int import = b.AddOperatorCode(BuiltinOperator_HASHTABLE_IMPORT);
  const int find = b.AddOperatorCode(BuiltinOperator_HASHTABLE_FIND);
  const int query = b.AddTensor(TensorType_INT64, {3}, "query");
  const int handle = b.AddTensor(TensorType_RESOURCE, {}, "table");
  const int keys = b.AddConstTensor(TensorType_INT64, {5}, kIds, "keys");
  const int values = b.AddTensor(TensorType_STRING, {5}, "values",
                                 static_cast<uint32_t>(b.AddBuffer(Strings(kWords))));
  const int fallback = b.AddTensor(TensorType_STRING, {1}, "default",
                                   static_cast<uint32_t>(b.AddBuffer(Strings({"<unk>"}))));
  const int words = b.AddTensor(TensorType_STRING, {3}, "words");
  b.AddOperator(hashtable, {}, {handle},
                b.HashtableOptions(0, TensorType_INT64, TensorType_STRING));
  b.AddOperator(import, {handle, keys, values}, {});
  b.AddOperator(find, {handle, query, fallback}, {words});
  b.SetInputs({query});
  b.SetOutputs({words});
  Loaded m(b.Finish());
  ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
  ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
  int64_t* q = m.interpreter->typed_input_tensor<int64_t>(0);
  q[0] = 42, q[1] = 8, q[2] = 99;
  ASSERT_EQ(m.interpreter->Invoke(), kTfLiteOk) << m.reporter.text;
  const TfLiteTensor* out = m.interpreter->output_tensor(0);
  ASSERT_EQ(GetStringCount(out), 3);
  const std::vector<std::string> want = {"eel", "<unk>", "dog"};
  for (int i = 0; i < 3; ++i) {
    const StringRef s = GetString(out, i);
    EXPECT_EQ(std::string(s.str, s.len), want[i]) << i;
  }
}

TEST(Hashtables, FindBeforeImportAndBadTypesAreErrors) {
  // FIND without an import.
  {
    ModelBuilder b;
    const int hashtable = b.AddOperatorCode(BuiltinOperator_HASHTABLE);
    const int find = b.AddOperatorCode(BuiltinOperator_HASHTABLE_FIND);
    const int query = b.AddTensor(TensorType_STRING, {1}, "query");
    const int handle = b.AddTensor(TensorType_RESOURCE, {}, "table");
    const int fallback = b.AddConstTensor(TensorType_INT64, {}, std::vector<int64_t>{0}, "default");
    const int ids = b.AddTensor(TensorType_INT64, {1}, "ids");
    b.AddOperator(hashtable, {}, {handle},
                  b.HashtableOptions(1, TensorType_STRING, TensorType_INT64));
    b.AddOperator(find, {handle, query, fallback}, {ids});
    b.SetInputs({query});
    b.SetOutputs({ids});
    Loaded m(b.Finish());
    ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
    ASSERT_EQ(m.interpreter->AllocateTensors(), kTfLiteOk) << m.reporter.text;
    SetStrings(m.interpreter->input_tensor(0), {"x"}, {1});
    EXPECT_EQ(m.interpreter->Invoke(), kTfLiteError);
    EXPECT_NE(m.reporter.text.find("HASHTABLE_FIND: the table is looked up before its import"),
              std::string::npos)
        << m.reporter.text;
  }
  // A table of int64 -> int64 is not one TFLite has.
  {
    ModelBuilder b;
    const int hashtable = b.AddOperatorCode(BuiltinOperator_HASHTABLE);
    const int handle = b.AddTensor(TensorType_RESOURCE, {}, "table");
    b.AddOperator(hashtable, {}, {handle},
                  b.HashtableOptions(1, TensorType_INT64, TensorType_INT64));
    b.SetOutputs({handle});
    Loaded m(b.Finish());
    ASSERT_NE(m.interpreter, nullptr) << m.reporter.text;
    EXPECT_EQ(m.interpreter->AllocateTensors(), kTfLiteError);
    EXPECT_NE(m.reporter.text.find("HASHTABLE: tables map int64 to string or string to int64 "
                                   "(got INT64 to INT64)"),
              std::string::npos)
        << m.reporter.text;
  }
}

}  // namespace
}  // namespace octet
