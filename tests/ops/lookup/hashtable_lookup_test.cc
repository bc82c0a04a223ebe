// HASHTABLE_LOOKUP: float rows and int32 scalars found and missed (zeros, hit 0), keys at the
// int32 extremes, string values, keys that are not ascending (constant: prepare; input:
// invoke), and prepare's errors.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "tensorflow/lite/string_util.h"
#include "util/op_model.h"

namespace tflite::ops::builtin {
TfLiteRegistration* Register_HASHTABLE_LOOKUP();
}

namespace octet {
namespace {

using testing::OpModel;
using testing::TensorSpec;

TEST(Lookup_HashtableLookup, FloatRowsFoundAndMissing) {
  OpModel m;
  const int lookups = m.AddInput({kTfLiteInt32, {4}});
  m.AddConstInput(TensorSpec{kTfLiteInt32, {3}}, std::vector<int32_t>{-5, 7, 1000});
  m.AddConstInput(TensorSpec{kTfLiteFloat32, {3, 2}}, std::vector<float>{1, 2, 3, 4, 5, 6});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  const int hits = m.AddOutput({kTfLiteUInt8, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_HASHTABLE_LOOKUP,
                 tflite::ops::builtin::Register_HASHTABLE_LOOKUP());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{4, 2}));
  EXPECT_EQ(m.GetShape(hits), (std::vector<int>{4}));
  m.SetInput(lookups, std::vector<int32_t>{1000, 8, -5, 7});
  ASSERT_EQ(m.Invoke(), kTfLiteOk);
  EXPECT_EQ(m.GetOutput<float>(out), (std::vector<float>{5, 6, 0, 0, 1, 2, 3, 4}));
  EXPECT_EQ(m.GetOutput<uint8_t>(hits), (std::vector<uint8_t>{1, 0, 1, 1}));
}

TEST(Lookup_HashtableLookup, ExtremeKeys) {
  // TFLite's comparator subtracts keys (overflowing here); the search must still find them.
  const int32_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  OpModel m;
  const int lookups = m.AddInput({kTfLiteInt32, {4}});
  m.AddConstInput(TensorSpec{kTfLiteInt32, {3}}, std::vector<int32_t>{lo, 0, hi});
  m.AddConstInput(TensorSpec{kTfLiteInt32, {3}}, std::vector<int32_t>{10, 20, 30});
  const int out = m.AddOutput({kTfLiteInt32, {}});
  const int hits = m.AddOutput({kTfLiteUInt8, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_HASHTABLE_LOOKUP,
                 tflite::ops::builtin::Register_HASHTABLE_LOOKUP());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(lookups, std::vector<int32_t>{hi, lo, 1, 0});
  ASSERT_EQ(m.Invoke(), kTfLiteOk);
  EXPECT_EQ(m.GetOutput<int32_t>(out), (std::vector<int32_t>{30, 10, 0, 20}));
  EXPECT_EQ(m.GetOutput<uint8_t>(hits), (std::vector<uint8_t>{1, 1, 0, 1}));
}

std::vector<char> StringBuffer(const std::vector<std::string>& strings) {
  tflite::DynamicBuffer buf;
  for (const auto& s : strings) buf.AddString(s.data(), s.size());
  char* raw = nullptr;
  const int n = buf.WriteToBuffer(&raw);
  std::vector<char> out(raw, raw + n);
  std::free(raw);
  return out;
}

TEST(Lookup_HashtableLookup, StringValues) {
  OpModel m;
  const int lookups = m.AddInput({kTfLiteInt32, {3}});
  m.AddConstInput(TensorSpec{kTfLiteInt32, {2}}, std::vector<int32_t>{3, 9});
  const auto values = StringBuffer({"three", "nine"});
  m.AddConstInput(TensorSpec{kTfLiteString, {2}}, values.data(), values.size());
  const int out = m.AddOutput({kTfLiteString, {}});
  const int hits = m.AddOutput({kTfLiteUInt8, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_HASHTABLE_LOOKUP,
                 tflite::ops::builtin::Register_HASHTABLE_LOOKUP());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(lookups, std::vector<int32_t>{9, 4, 3});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const TfLiteTensor* t = m.tensor(out);
  ASSERT_EQ(tflite::GetStringCount(t), 3);
  auto str = [&](int i) {
    const tflite::StringRef r = tflite::GetString(t, i);
    return std::string(r.str, r.len);
  };
  EXPECT_EQ(str(0), "nine");
  EXPECT_EQ(str(1), "");
  EXPECT_EQ(str(2), "three");
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{3}));
  EXPECT_EQ(m.GetOutput<uint8_t>(hits), (std::vector<uint8_t>{1, 0, 1}));
}

TEST(Lookup_HashtableLookup, UnsortedKeys) {
  {
    OpModel m;
    m.AddInput({kTfLiteInt32, {1}});
    m.AddConstInput(TensorSpec{kTfLiteInt32, {3}}, std::vector<int32_t>{1, 5, 2});
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {3}}, std::vector<float>{1, 2, 3});
    m.AddOutput({kTfLiteFloat32, {}});
    m.AddOutput({kTfLiteUInt8, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_HASHTABLE_LOOKUP,
                   tflite::ops::builtin::Register_HASHTABLE_LOOKUP());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("HASHTABLE_LOOKUP: keys must be ascending; keys[2] = 2 follows "
                             "keys[1] = 5"),
              std::string::npos)
        << m.error();
  }
  OpModel m;
  const int lookups = m.AddInput({kTfLiteInt32, {1}});
  const int keys = m.AddInput({kTfLiteInt32, {3}});
  m.AddConstInput(TensorSpec{kTfLiteFloat32, {3}}, std::vector<float>{1, 2, 3});
  m.AddOutput({kTfLiteFloat32, {}});
  m.AddOutput({kTfLiteUInt8, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_HASHTABLE_LOOKUP,
                 tflite::ops::builtin::Register_HASHTABLE_LOOKUP());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(lookups, std::vector<int32_t>{2});
  m.SetInput(keys, std::vector<int32_t>{4, 3, 9});
  EXPECT_NE(m.Invoke(), kTfLiteOk);
  EXPECT_NE(m.error().find("keys must be ascending"), std::string::npos) << m.error();
}

TEST(Lookup_HashtableLookup, PrepareErrors) {
  auto build = [](std::vector<int> keys, std::vector<int> values, TfLiteType value_type,
                  TfLiteType out_type, TfLiteType hits_type) {
    OpModel m;
    m.AddInput({kTfLiteInt32, {2}});
    m.AddInput({kTfLiteInt32, keys});
    m.AddInput({value_type, values});
    m.AddOutput({out_type, {}});
    m.AddOutput({hits_type, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_HASHTABLE_LOOKUP,
                   tflite::ops::builtin::Register_HASHTABLE_LOOKUP());
    return m.Build() == kTfLiteOk ? std::string() : m.error();
  };
  EXPECT_EQ(build({3}, {3, 2}, kTfLiteFloat32, kTfLiteFloat32, kTfLiteUInt8), "");
  auto has = [](const std::string& e, const char* what) {
    return e.find("HASHTABLE_LOOKUP: ") != std::string::npos && e.find(what) != std::string::npos;
  };
  std::string e = build({3}, {4, 2}, kTfLiteFloat32, kTfLiteFloat32, kTfLiteUInt8);
  EXPECT_TRUE(has(e, "must have one row per key (3)")) << e;
  e = build({3}, {3, 2}, kTfLiteFloat32, kTfLiteInt32, kTfLiteUInt8);
  EXPECT_TRUE(has(e, "output type INT32 does not match values type FLOAT32")) << e;
  e = build({3}, {3, 2}, kTfLiteFloat32, kTfLiteFloat32, kTfLiteInt32);
  EXPECT_TRUE(has(e, "hits (output 1) must be UINT8")) << e;
  e = build({3, 1}, {3, 2}, kTfLiteFloat32, kTfLiteFloat32, kTfLiteUInt8);
  EXPECT_TRUE(has(e, "keys (input 1) must be 1-D")) << e;
  e = build({3}, {3, 2}, kTfLiteString, kTfLiteString, kTfLiteUInt8);
  EXPECT_TRUE(has(e, "string values (input 2) must be 1-D")) << e;
}

TEST(Lookup_HashtableLookup, VersionRange) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  EXPECT_NE(resolver.FindOp(tflite::BuiltinOperator_HASHTABLE_LOOKUP, 1), nullptr);
  EXPECT_EQ(resolver.FindOp(tflite::BuiltinOperator_HASHTABLE_LOOKUP, 2), nullptr);
}

}  // namespace
}  // namespace octet
