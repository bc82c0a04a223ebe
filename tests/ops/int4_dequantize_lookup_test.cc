// INT4 tensors (two signed 4-bit values per byte, low nibble first) in DEQUANTIZE (TFLite op
// version 6) and EMBEDDING_LOOKUP (op version 4), against the math written out here:
// DEQUANTIZE gives (q - zero_point) * scale per element (the channel's along the quantized
// dimension), EMBEDDING_LOOKUP gives row ids[i] of the table times its scale (one, or the
// row's). Every int4 value, odd element counts and odd row widths (rows that start
// mid-byte). Also the refusals: a short packed buffer, a non-constant INT4 tensor, bad
// quantization, a non-float lookup output.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "format/model_builder.h"
#include "ops/elementwise/elementwise_ops.h"
#include "ops/lookup/lookup_ops.h"
#include "tensorflow/lite/interpreter.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/model.h"
#include "tensorflow/lite/mutable_op_resolver.h"
#include "util/capture_reporter.h"

namespace octet {
namespace {

using format::ModelBuilder;

// Values -8..7 over and over, starting at `offset`.
std::vector<int8_t> EveryInt4(size_t n, int offset = 0) {
  std::vector<int8_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<int8_t>((static_cast<int>(i) + offset) % 16 - 8);
  return v;
}

// Two values per byte, the first in the low nibble; an odd count leaves the last high nibble 0.
std::vector<uint8_t> Pack(const std::vector<int8_t>& v) {
  std::vector<uint8_t> bytes((v.size() + 1) / 2, 0);
  for (size_t i = 0; i < v.size(); ++i) {
    const auto nibble = static_cast<uint8_t>(v[i] & 0x0F);
    bytes[i / 2] |= static_cast<uint8_t>(i % 2 == 0 ? nibble : nibble << 4);
  }
  return bytes;
}

size_t Count(const std::vector<int32_t>& shape) {
  size_t n = 1;
  for (int d : shape) n *= static_cast<size_t>(d);
  return n;
}

struct Int4Table {
  std::vector<int32_t> shape;
  std::vector<int8_t> values;
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int axis = 0;
  bool quantized = true;
};

int AddInt4(ModelBuilder& b, const Int4Table& t) {
  format::TensorSpec spec;
  spec.type = tflite::TensorType_INT4;
  spec.shape = t.shape;
  spec.name = "int4";
  spec.buffer = static_cast<uint32_t>(b.AddBuffer(Pack(t.values)));
  if (t.quantized) spec.quantization = format::QuantParams{t.scales, t.zero_points, t.axis};
  return b.AddTensor(spec);
}

using Reporter = ::octet::testing::CaptureReporter;

// A loaded model; `edit` may change the tensors before AllocateTensors (prepare).
struct Loaded {
  Reporter reporter;
  std::unique_ptr<tflite::FlatBufferModel> model;
  std::unique_ptr<tflite::Interpreter> interpreter;
  TfLiteStatus allocate = kTfLiteError;
  std::vector<uint8_t> bytes;  // the model file (the loaded model points into it)
};

std::unique_ptr<Loaded> Load(std::vector<uint8_t> file,
                             void (*edit)(tflite::Interpreter*) = nullptr) {
  auto l = std::make_unique<Loaded>();
  l->bytes = std::move(file);
  l->model = tflite::FlatBufferModel::BuildFromBuffer(
      reinterpret_cast<const char*>(l->bytes.data()), l->bytes.size(), &l->reporter);
  // The two ops up to the versions that take INT4 (DEQUANTIZE 6, EMBEDDING_LOOKUP 4).
  tflite::MutableOpResolver resolver;
  resolver.AddBuiltin(tflite::BuiltinOperator_DEQUANTIZE,
                      tflite::ops::builtin::Register_DEQUANTIZE(), 1, 6);
  resolver.AddBuiltin(tflite::BuiltinOperator_EMBEDDING_LOOKUP,
                      tflite::ops::builtin::Register_EMBEDDING_LOOKUP(), 1, 4);
  if (l->model) tflite::InterpreterBuilder(*l->model, resolver)(&l->interpreter);
  if (l->interpreter == nullptr) return l;
  if (edit) edit(l->interpreter.get());
  l->allocate = l->interpreter->AllocateTensors();
  return l;
}

std::vector<float> Output(tflite::Interpreter* interpreter) {
  const TfLiteTensor* t = interpreter->tensor(interpreter->outputs()[0]);
  return std::vector<float>(t->data.f, t->data.f + t->bytes / sizeof(float));
}

void ExpectLogHas(const Loaded& l, const std::string& what) {
  EXPECT_NE(l.reporter.text.find(what), std::string::npos) << l.reporter.text;
}

// ---- DEQUANTIZE ----------------------------------------------------------------------------

std::vector<uint8_t> DequantizeModel(const Int4Table& t) {
  ModelBuilder b;
  const int in = AddInt4(b, t);
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, t.shape, "out");
  b.AddOperator(b.AddOperatorCode(tflite::BuiltinOperator_DEQUANTIZE, 6), {in}, {out});
  b.SetInputs({});
  b.SetOutputs({out});
  return b.Finish();
}

// (q - zero_point) * scale, the channel of element i being its index along `axis`.
std::vector<float> DequantizeMath(const Int4Table& t) {
  size_t inner = 1;
  for (size_t d = static_cast<size_t>(t.axis) + 1; d < t.shape.size(); ++d) inner *= t.shape[d];
  std::vector<float> want(t.values.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const size_t c = t.scales.size() == 1 ? 0 : (i / inner) % static_cast<size_t>(t.shape[t.axis]);
    want[i] = static_cast<float>(t.values[i] - t.zero_points[c]) * t.scales[c];
  }
  return want;
}

void ExpectDequantize(const Int4Table& t) {
  auto l = Load(DequantizeModel(t));
  ASSERT_NE(l->interpreter, nullptr) << l->reporter.text;
  ASSERT_EQ(l->allocate, kTfLiteOk) << l->reporter.text;
  ASSERT_EQ(l->interpreter->Invoke(), kTfLiteOk) << l->reporter.text;
  const std::vector<float> got = Output(l->interpreter.get());
  const std::vector<float> want = DequantizeMath(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << "element " << i << " (q = " << int{t.values[i]} << ")";
  }
}

TEST(Int4Dequantize, PerTensorEveryValueOddCount) {
  Int4Table t;
  t.shape = {3, 7};  // 21 values: the last byte holds one
  t.values = EveryInt4(21);
  t.scales = {0.25f};
  t.zero_points = {0};
  ExpectDequantize(t);
  t.scales = {0.037f};
  t.zero_points = {-3};
  t.values = EveryInt4(21, 5);
  ExpectDequantize(t);
  t.shape = {1};  // one value, one byte
  t.values = {-8};
  t.zero_points = {7};
  ExpectDequantize(t);
}

TEST(Int4Dequantize, PerChannel) {
  Int4Table t;
  t.shape = {4, 5};  // channels along dimension 0
  t.values = EveryInt4(20, 3);
  t.scales = {0.5f, 0.013f, 2.f, 0.7f};
  t.zero_points = {0, 1, -2, 4};
  ExpectDequantize(t);
  t.shape = {3, 5};  // along dimension 1, 15 values
  t.axis = 1;
  t.values = EveryInt4(15, 9);
  t.scales = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f};
  t.zero_points = {0, 0, 1, 0, -1};
  ExpectDequantize(t);
  t.shape = {2, 3, 3};  // along dimension 2 of three
  t.axis = 2;
  t.values = EveryInt4(18, 1);
  t.scales = {1.5f, 0.02f, 0.3f};
  t.zero_points = {2, 0, -8};
  ExpectDequantize(t);
}

void ShortBuffer(tflite::Interpreter* i) { i->tensor(0)->bytes -= 1; }
// The INT4 tensor as if it were not a constant (memory someone else owns).
void NotConstant(tflite::Interpreter* i) { i->tensor(0)->allocation_type = kTfLiteCustom; }

TEST(Int4Dequantize, Refusals) {
  Int4Table t;
  t.shape = {3, 7};
  t.values = EveryInt4(21);
  t.scales = {0.25f};
  t.zero_points = {0};
  {
    auto l = Load(DequantizeModel(t), ShortBuffer);
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l, "DEQUANTIZE: INT4 input 'int4': 10 bytes, 21 elements need 11 (two per byte)");
  }
  {
    auto l = Load(DequantizeModel(t), NotConstant);
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l, "DEQUANTIZE: INT4 input must be a constant tensor");
  }
  {
    Int4Table bad = t;
    bad.quantized = false;
    auto l = Load(DequantizeModel(bad));
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l, "DEQUANTIZE: INT4 tensor has no affine quantization");
  }
  {
    Int4Table bad = t;
    bad.scales = {0.f};
    auto l = Load(DequantizeModel(bad));
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l, "DEQUANTIZE: scale 0 is not a positive finite number");
  }
  {
    Int4Table bad = t;
    bad.scales = {1.f, 2.f};  // two scales for three channels
    bad.zero_points = {0, 0};
    auto l = Load(DequantizeModel(bad));
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l, "DEQUANTIZE: 2 per-axis scales do not match quantized dimension 0");
  }
}

// ---- EMBEDDING_LOOKUP ----------------------------------------------------------------------

std::vector<uint8_t> LookupModel(const Int4Table& t, int n_ids) {
  ModelBuilder b;
  const int ids = b.AddTensor(tflite::TensorType_INT32, {n_ids}, "ids");
  const int table = AddInt4(b, t);
  std::vector<int32_t> out_shape = t.shape;
  out_shape[0] = n_ids;
  const int out = b.AddTensor(tflite::TensorType_FLOAT32, out_shape, "out");
  b.AddOperator(b.AddOperatorCode(tflite::BuiltinOperator_EMBEDDING_LOOKUP, 4), {ids, table},
                {out});
  b.SetInputs({ids});
  b.SetOutputs({out});
  return b.Finish();
}

struct LookupRun {
  std::unique_ptr<Loaded> loaded;
  TfLiteStatus invoke = kTfLiteError;
};

LookupRun RunLookup(const std::vector<uint8_t>& model, const std::vector<int32_t>& ids) {
  LookupRun r;
  r.loaded = Load(model);
  if (r.loaded->allocate != kTfLiteOk) return r;
  tflite::Interpreter* i = r.loaded->interpreter.get();
  std::memcpy(i->tensor(i->inputs()[0])->data.raw, ids.data(), ids.size() * sizeof(int32_t));
  r.invoke = i->Invoke();
  return r;
}

void ExpectLookup(const Int4Table& t, const std::vector<int32_t>& ids) {
  const LookupRun r = RunLookup(LookupModel(t, static_cast<int>(ids.size())), ids);
  ASSERT_EQ(r.loaded->allocate, kTfLiteOk) << r.loaded->reporter.text;
  ASSERT_EQ(r.invoke, kTfLiteOk) << r.loaded->reporter.text;
  const size_t cols = Count(t.shape) / static_cast<size_t>(t.shape[0]);
  const std::vector<float> got = Output(r.loaded->interpreter.get());
  ASSERT_EQ(got.size(), ids.size() * cols);
  for (size_t i = 0; i < ids.size(); ++i) {
    const float scale = t.scales.size() == 1 ? t.scales[0] : t.scales[ids[i]];
    for (size_t j = 0; j < cols; ++j) {
      const float want = static_cast<float>(t.values[ids[i] * cols + j]) * scale;
      EXPECT_EQ(got[i * cols + j], want) << "id " << ids[i] << " column " << j;
    }
  }
}

TEST(Int4EmbeddingLookup, PerTensorOddRowWidth) {
  Int4Table t;
  t.shape = {5, 7};  // rows 1 and 3 start in the high nibble of a byte
  t.values = EveryInt4(35);
  t.scales = {0.125f};
  t.zero_points = {0};
  ExpectLookup(t, {4, 1, 3, 3, 0, 2});
  t.shape = {4, 3, 3};  // rank 3: 9 values per row
  t.values = EveryInt4(36, 7);
  t.scales = {0.031f};
  ExpectLookup(t, {3, 0, 1});
  t.shape = {6, 4};  // even width
  t.values = EveryInt4(24, 2);
  ExpectLookup(t, {5, 5, 2});
}

TEST(Int4EmbeddingLookup, PerRowScales) {
  Int4Table t;
  t.shape = {5, 3};
  t.values = EveryInt4(15, 11);
  t.scales = {0.5f, 0.011f, 1.75f, 0.3f, 0.09f};
  t.zero_points = {0, 0, 0, 0, 0};
  ExpectLookup(t, {1, 3, 4, 0, 2, 1});
}

TEST(Int4EmbeddingLookup, Refusals) {
  Int4Table t;
  t.shape = {5, 7};
  t.values = EveryInt4(35);
  t.scales = {0.125f};
  t.zero_points = {0};
  {
    const LookupRun r = RunLookup(LookupModel(t, 2), {1, 5});
    ASSERT_EQ(r.loaded->allocate, kTfLiteOk) << r.loaded->reporter.text;
    EXPECT_NE(r.invoke, kTfLiteOk);
    ExpectLogHas(*r.loaded, "EMBEDDING_LOOKUP: id 5 at position 1 is out of range [0, 5)");
  }
  {
    auto l = Load(LookupModel(t, 2), [](tflite::Interpreter* i) { i->tensor(1)->bytes = 17; });
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l,
                 "EMBEDDING_LOOKUP: INT4 table (input 1) 'int4': 17 bytes, 35 elements need 18 "
                 "(two per byte)");
  }
  {
    auto l = Load(LookupModel(t, 2),
                  [](tflite::Interpreter* i) { i->tensor(1)->allocation_type = kTfLiteCustom; });
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l, "EMBEDDING_LOOKUP: INT4 table (input 1) must be a constant tensor");
  }
  {
    auto l =
        Load(LookupModel(t, 2), [](tflite::Interpreter* i) { i->tensor(2)->type = kTfLiteInt8; });
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(
        *l, "EMBEDDING_LOOKUP: output of an INT4 table must be float32 (dequantized), got INT8");
  }
  {
    Int4Table bad = t;
    bad.zero_points = {1};
    auto l = Load(LookupModel(bad, 2));
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l, "EMBEDDING_LOOKUP: a dequantized table must be symmetric (zero point 0 is 1)");
  }
  {
    Int4Table bad = t;
    bad.scales = {0.1f, 0.2f};  // neither one nor one per row
    bad.zero_points = {0, 0};
    auto l = Load(LookupModel(bad, 2));
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l, "EMBEDDING_LOOKUP: table has 2 scales; expected 1 or one per row (5)");
  }
  {
    Int4Table bad = t;
    bad.quantized = false;
    auto l = Load(LookupModel(bad, 2));
    EXPECT_NE(l->allocate, kTfLiteOk);
    ExpectLogHas(*l,
                 "EMBEDDING_LOOKUP: a INT4 table with float32 output needs a quantization scale");
  }
}

// The builtin resolver takes the op versions that introduced int4 (DEQUANTIZE v6,
// EMBEDDING_LOOKUP v4), not the later int2/uint4/float8 ones.
TEST(Int4Dequantize, BuiltinResolverVersions) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  EXPECT_NE(resolver.FindOp(tflite::BuiltinOperator_DEQUANTIZE, 6), nullptr);
  EXPECT_EQ(resolver.FindOp(tflite::BuiltinOperator_DEQUANTIZE, 7), nullptr);
  EXPECT_NE(resolver.FindOp(tflite::BuiltinOperator_EMBEDDING_LOOKUP, 4), nullptr);
  EXPECT_EQ(resolver.FindOp(tflite::BuiltinOperator_EMBEDDING_LOOKUP, 5), nullptr);
}

}  // namespace
}  // namespace octet
