// EMBEDDING_LOOKUP: float rows (a 3-D table), 8-bit rows copied into an 8-bit output, the
// hybrid dequantizing path (int8 and uint8 tables, one scale or one per row) against
// hand-worked values, out-of-range ids at invoke, and prepare's errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace tflite::ops::builtin {
TfLiteRegistration* Register_EMBEDDING_LOOKUP();
}

namespace octet {
namespace {

using testing::OpModel;
using testing::TensorSpec;

template <typename T>
struct Model {
  OpModel m;
  int ids = -1, out = -1;
  Model(int num_ids, const TensorSpec& table, const std::vector<T>& values, TfLiteType out_type) {
    ids = m.AddInput({kTfLiteInt32, {num_ids}});
    m.AddConstInput(table, values);
    out = m.AddOutput({out_type, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_EMBEDDING_LOOKUP,
                   tflite::ops::builtin::Register_EMBEDDING_LOOKUP());
  }
};

TEST(Lookup_EmbeddingLookup, FloatRowsOf3DTable) {
  std::vector<float> table;  // value i + j / 10 + k / 100 at [i, j, k] of [3, 2, 4]
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 4; ++k) table.push_back(i + j / 10.f + k / 100.f);
    }
  }
  Model<float> model(4, {kTfLiteFloat32, {3, 2, 4}}, table, kTfLiteFloat32);
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  EXPECT_EQ(model.m.GetShape(model.out), (std::vector<int>{4, 2, 4}));
  model.m.SetInput(model.ids, std::vector<int32_t>{1, 0, 2, 1});
  ASSERT_EQ(model.m.Invoke(), kTfLiteOk);
  const auto out = model.m.GetOutput<float>(model.out);
  const int rows[] = {1, 0, 2, 1};
  for (int i = 0; i < 4; ++i) {
    for (int e = 0; e < 8; ++e) EXPECT_EQ(out[i * 8 + e], table[rows[i] * 8 + e]) << i << " " << e;
  }
}

TEST(Lookup_EmbeddingLookup, OutOfRangeIdFailsAtInvoke) {
  Model<float> model(2, {kTfLiteFloat32, {3, 2}}, std::vector<float>(6, 1.f), kTfLiteFloat32);
  ASSERT_EQ(model.m.Build(), kTfLiteOk);
  for (int bad : {3, -1}) {
    model.m.SetInput(model.ids, std::vector<int32_t>{0, bad});
    EXPECT_NE(model.m.Invoke(), kTfLiteOk);
    EXPECT_NE(model.m.error().find("EMBEDDING_LOOKUP: id " + std::to_string(bad) +
                                   " at position 1 is out of range [0, 3)"),
              std::string::npos)
        << model.m.error();
  }
}

TEST(Lookup_EmbeddingLookup, ByteTableCopiedIntoByteOutput) {
  // TFLite copies a uint8 table's bytes into an int8 output unchanged.
  std::vector<uint8_t> table;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 4; ++k) table.push_back(static_cast<uint8_t>(100 * i + k));
  }
  Model<uint8_t> model(3, {kTfLiteUInt8, {3, 4}}, table, kTfLiteInt8);
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  model.m.SetInput(model.ids, std::vector<int32_t>{2, 0, 2});
  ASSERT_EQ(model.m.Invoke(), kTfLiteOk);
  const auto out = model.m.GetOutput<uint8_t>(model.out);
  EXPECT_EQ(out, (std::vector<uint8_t>{200, 201, 202, 203, 0, 1, 2, 3, 200, 201, 202, 203}));
}

TEST(Lookup_EmbeddingLookup, HybridInt8OneScale) {
  const std::vector<int8_t> table = {1, -2, 3, 127, -127, 0, 5, 6, -7};
  Model<int8_t> model(2, {kTfLiteInt8, {3, 3}, {0.5f}, {0}}, table, kTfLiteFloat32);
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  model.m.SetInput(model.ids, std::vector<int32_t>{1, 2});
  ASSERT_EQ(model.m.Invoke(), kTfLiteOk);
  EXPECT_EQ(model.m.GetOutput<float>(model.out),
            (std::vector<float>{63.5f, -63.5f, 0.f, 2.5f, 3.f, -3.5f}));
}

TEST(Lookup_EmbeddingLookup, HybridUint8BytesReadAsInt8) {
  // The bytes 0xFF and 0x80 are -1 and -128 (TFLite reads uint8 tables as int8 too).
  const std::vector<uint8_t> table = {0xFF, 0x80, 0x01, 0x7F};
  Model<uint8_t> model(2, {kTfLiteUInt8, {2, 2}, {0.25f}, {0}}, table, kTfLiteFloat32);
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  model.m.SetInput(model.ids, std::vector<int32_t>{0, 1});
  ASSERT_EQ(model.m.Invoke(), kTfLiteOk);
  EXPECT_EQ(model.m.GetOutput<float>(model.out),
            (std::vector<float>{-0.25f, -32.f, 0.25f, 31.75f}));
}

TEST(Lookup_EmbeddingLookup, HybridPerRowScales) {
  const std::vector<int8_t> table = {2, 4, 2, 4, 2, 4};
  TensorSpec spec{kTfLiteInt8, {3, 1, 2}, {1.f, 0.5f, 0.25f}, {0, 0, 0}, 0};
  Model<int8_t> model(3, spec, table, kTfLiteFloat32);
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  EXPECT_EQ(model.m.GetShape(model.out), (std::vector<int>{3, 1, 2}));
  model.m.SetInput(model.ids, std::vector<int32_t>{2, 0, 1});
  ASSERT_EQ(model.m.Invoke(), kTfLiteOk);
  EXPECT_EQ(model.m.GetOutput<float>(model.out),
            (std::vector<float>{0.5f, 1.f, 2.f, 4.f, 1.f, 2.f}));
}

TEST(Lookup_EmbeddingLookup, HybridMatchesDequantizedFloat) {
  // Against float rows of the dequantized table (exact: q * scale in double, rounded once).
  std::vector<int8_t> table(5 * 7);
  for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<int8_t>((i * 37) % 255 - 127);
  const float scale = 0.0123f;
  Model<int8_t> model(4, {kTfLiteInt8, {5, 7}, {scale}, {0}}, table, kTfLiteFloat32);
  ASSERT_EQ(model.m.Build(), kTfLiteOk);
  const std::vector<int32_t> ids = {4, 0, 3, 3};
  model.m.SetInput(model.ids, ids);
  ASSERT_EQ(model.m.Invoke(), kTfLiteOk);
  const auto out = model.m.GetOutput<float>(model.out);
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < 7; ++k) {
      const double want = table[ids[i] * 7 + k] * static_cast<double>(scale);
      EXPECT_EQ(out[i * 7 + k], static_cast<float>(want));
    }
  }
}

std::string PrepareError(const TensorSpec& ids, const TensorSpec& table, TfLiteType out_type) {
  OpModel m;
  m.AddInput(ids);
  size_t n = 1;
  for (int d : table.shape) n *= d;
  m.AddConstInput(table, std::vector<uint8_t>(n * TfLiteTypeGetSize(table.type), 0));
  m.AddOutput({out_type, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_EMBEDDING_LOOKUP,
                 tflite::ops::builtin::Register_EMBEDDING_LOOKUP());
  return m.Build() == kTfLiteOk ? "" : m.error();
}

TEST(Lookup_EmbeddingLookup, PrepareErrors) {
  const TensorSpec ids{kTfLiteInt32, {2}};
  const TensorSpec table{kTfLiteFloat32, {3, 2}};
  EXPECT_EQ(PrepareError(ids, table, kTfLiteFloat32), "");
  auto has = [](const std::string& e, const char* what) {
    return e.find("EMBEDDING_LOOKUP: ") != std::string::npos && e.find(what) != std::string::npos;
  };
  std::string e = PrepareError({kTfLiteInt64, {2}}, table, kTfLiteFloat32);
  EXPECT_TRUE(has(e, "ids (input 0) must be INT32")) << e;
  e = PrepareError({kTfLiteInt32, {2, 1}}, table, kTfLiteFloat32);
  EXPECT_TRUE(has(e, "ids (input 0) must be 1-D")) << e;
  e = PrepareError(ids, {kTfLiteFloat32, {3}}, kTfLiteFloat32);
  EXPECT_TRUE(has(e, "table (input 1) must have rank >= 2")) << e;
  e = PrepareError(ids, table, kTfLiteInt8);
  EXPECT_TRUE(has(e, "output of a float32 table must be FLOAT32")) << e;
  e = PrepareError(ids, {kTfLiteInt32, {3, 2}}, kTfLiteInt32);
  EXPECT_TRUE(has(e, "table type INT32 is not supported")) << e;
  e = PrepareError(ids, {kTfLiteInt8, {3, 2}}, kTfLiteFloat32);
  EXPECT_TRUE(has(e, "needs a quantization scale")) << e;
  e = PrepareError(ids, {kTfLiteInt8, {3, 2}, {0.1f, 0.2f}, {0, 0}, 0}, kTfLiteFloat32);
  EXPECT_TRUE(has(e, "table has 2 scales")) << e;
  e = PrepareError(ids, {kTfLiteInt8, {3, 2}, {0.1f}, {4}}, kTfLiteFloat32);
  EXPECT_TRUE(has(e, "must be symmetric")) << e;
  e = PrepareError(ids, {kTfLiteInt8, {3, 2}, {0.1f}, {0}}, kTfLiteInt16);
  EXPECT_TRUE(has(e, "must be float32 (dequantized) or int8/uint8")) << e;
}

TEST(Lookup_EmbeddingLookup, VersionRange) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  const auto op = tflite::BuiltinOperator_EMBEDDING_LOOKUP;
  // v4 adds int4 tables (int4_dequantize_lookup_test.cc); v5 (int2) is not registered.
  for (int v = 1; v <= 4; ++v) EXPECT_NE(resolver.FindOp(op, v), nullptr);
  EXPECT_EQ(resolver.FindOp(op, 5), nullptr);
}

}  // namespace
}  // namespace octet
