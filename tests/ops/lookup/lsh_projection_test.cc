// LSH_PROJECTION: FarmHash's Fingerprint64 pinned to published values, TFLite's own expected
// outputs for its dense / sparse test cases (little-endian), the projection against a
// direct computation from the fingerprint, and prepare's errors.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernels/reference/fingerprint.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace tflite::ops::builtin {
TfLiteRegistration* Register_LSH_PROJECTION();
}

namespace octet {
namespace {

using reference::Fingerprint64;
using testing::OpModel;
using testing::TensorSpec;

TEST(Lookup_LshProjection, Fingerprint64PublishedValues) {
  // TensorFlow's fingerprint test ("forever frozen" values of farmhash::Fingerprint64).
  EXPECT_EQ(Fingerprint64("Hello", 5), 15404698994557526151ULL);
  EXPECT_EQ(Fingerprint64("World", 5), 18308117990299812472ULL);
  // BigQuery's FARM_FINGERPRINT of 'a' repeated 126..130 times (as int64): the long-input
  // loop, including a length that is a multiple of 64.
  const int64_t want[] = {6261940804893177895LL, 7531535164187061522LL, -4747627967806356490LL,
                          -266561011801984384LL, 7135893960687184995LL};
  for (int len = 126; len <= 130; ++len) {
    const std::string s(len, 'a');
    EXPECT_EQ(static_cast<int64_t>(Fingerprint64(s.data(), s.size())), want[len - 126]) << len;
  }
  EXPECT_EQ(Fingerprint64("", 0), 0x9ae16a3b2f90404fULL);  // the empty input is k2
}

TEST(Lookup_LshProjection, Fingerprint64EveryLengthClass) {
  // Bytes (i * 131 + len * 7 + 13) mod 256; values from an independent FarmHash port.
  struct Case {
    int len;
    uint64_t want;
  };
  const Case cases[] = {{0, 11160318154034397263ULL},  {1, 14553896469309921886ULL},
                        {2, 9309123398018808790ULL},   {17, 15078284527088931467ULL},
                        {20, 399369367692250710ULL},   {33, 250894185501196825ULL},
                        {40, 897040026066673778ULL},   {64, 10548226791787047229ULL},
                        {65, 5927829062797334452ULL},  {100, 11121896443690221127ULL},
                        {200, 1371885960828152835ULL}, {300, 16569133865139525957ULL}};
  for (const Case& c : cases) {
    std::vector<unsigned char> bytes(c.len);
    for (int i = 0; i < c.len; ++i)
      bytes[i] = static_cast<unsigned char>((i * 131 + c.len * 7 + 13) & 255);
    EXPECT_EQ(Fingerprint64(bytes.data(), bytes.size()), c.want) << c.len;
  }
}

struct Model {
  OpModel m;
  int hash = -1, input = -1, weight = -1, out = -1;
  Model(TfLiteLSHProjectionType type, std::vector<int> hash_shape, std::vector<int> input_shape,
        std::vector<int> weight_shape) {
    hash = m.AddInput({kTfLiteFloat32, hash_shape});
    input = m.AddInput({kTfLiteInt32, input_shape});
    if (!weight_shape.empty()) weight = m.AddInput({kTfLiteFloat32, weight_shape});
    out = m.AddOutput({kTfLiteInt32, {}});
    TfLiteLSHProjectionParams p{};
    p.type = type;
    m.SetBuiltinOp(tflite::BuiltinOperator_LSH_PROJECTION,
                   tflite::ops::builtin::Register_LSH_PROJECTION(), p);
  }
};

const std::vector<float> kSeeds = {0.123f, 0.456f, -0.321f, 1.234f, 5.678f, -4.321f};
const std::vector<int32_t> kInput1D = {12345, 54321, 67890, 9876, -12345678};

// TFLite's lsh_projection_test expectations (little-endian machines).
TEST(Lookup_LshProjection, TfliteDense1D) {
  Model model(kTfLiteLshProjectionDense, {3, 2}, {5}, {5});
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  model.m.SetInput(model.hash, kSeeds);
  model.m.SetInput(model.input, kInput1D);
  model.m.SetInput(model.weight, std::vector<float>(5, 1.f));
  ASSERT_EQ(model.m.Invoke(), kTfLiteOk);
  EXPECT_EQ(model.m.GetOutput<int32_t>(model.out), (std::vector<int32_t>{0, 0, 0, 1, 0, 0}));
}

TEST(Lookup_LshProjection, TfliteSparse1D) {
  Model model(kTfLiteLshProjectionSparse, {3, 2}, {5}, {});
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  EXPECT_EQ(model.m.GetShape(model.out), (std::vector<int>{3}));
  model.m.SetInput(model.hash, kSeeds);
  model.m.SetInput(model.input, kInput1D);
  ASSERT_EQ(model.m.Invoke(), kTfLiteOk);
  EXPECT_EQ(model.m.GetOutput<int32_t>(model.out), (std::vector<int32_t>{0 + 0, 4 + 1, 8 + 0}));
}

TEST(Lookup_LshProjection, TfliteSparse3D) {
  Model model(kTfLiteLshProjectionSparse, {3, 2}, {5, 2, 2}, {5});
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  model.m.SetInput(model.hash, kSeeds);
  model.m.SetInput(model.input, std::vector<int32_t>{1234, 2345, 3456, 1234, 4567, 5678, 6789,
                                                     4567, 7891, 8912, 9123, 7890, -987, -876,
                                                     -765, -987, -543, -432, -321, -543});
  model.m.SetInput(model.weight, std::vector<float>{0.12f, 0.34f, 0.56f, 0.67f, 0.78f});
  ASSERT_EQ(model.m.Invoke(), kTfLiteOk);
  EXPECT_EQ(model.m.GetOutput<int32_t>(model.out), (std::vector<int32_t>{0 + 2, 4 + 1, 8 + 1}));
}

// Each bit from its definition: sign of Σ w_i * double(int64(Fingerprint64(seed ++ item_i))).
TEST(Lookup_LshProjection, DenseAndSparseFromDefinition) {
  const int num_hash = 4, num_bits = 3, items = 6;
  std::vector<float> seeds;
  for (int i = 0; i < num_hash * num_bits; ++i) seeds.push_back(0.37f * i - 1.9f);
  std::vector<int32_t> input;
  for (int i = 0; i < items * 2; ++i) input.push_back(i * 7919 - 30000);
  const std::vector<float> weights = {0.5f, -1.25f, 2.f, 0.75f, -0.3f, 1.f};
  std::vector<int> bits;
  for (float seed : seeds) {
    double score = 0;
    for (int i = 0; i < items; ++i) {
      unsigned char key[12];
      std::memcpy(key, &seed, 4);
      std::memcpy(key + 4, &input[i * 2], 8);
      score += weights[i] * static_cast<double>(static_cast<int64_t>(Fingerprint64(key, 12)));
    }
    bits.push_back(score > 0 ? 1 : 0);
  }
  Model dense(kTfLiteLshProjectionDense, {num_hash, num_bits}, {items, 2}, {items});
  Model sparse(kTfLiteLshProjectionSparse, {num_hash, num_bits}, {items, 2}, {items});
  for (Model* model : {&dense, &sparse}) {
    ASSERT_EQ(model->m.Build(), kTfLiteOk) << model->m.error();
    model->m.SetInput(model->hash, seeds);
    model->m.SetInput(model->input, input);
    model->m.SetInput(model->weight, weights);
    ASSERT_EQ(model->m.Invoke(), kTfLiteOk);
  }
  EXPECT_EQ(dense.m.GetOutput<int32_t>(dense.out), std::vector<int32_t>(bits.begin(), bits.end()));
  std::vector<int32_t> signatures;
  for (int h = 0; h < num_hash; ++h) {
    int32_t s = 0;
    for (int b = 0; b < num_bits; ++b) s = (s << 1) | bits[h * num_bits + b];
    signatures.push_back(s + h * (1 << num_bits));
  }
  EXPECT_EQ(sparse.m.GetOutput<int32_t>(sparse.out), signatures);
}

TEST(Lookup_LshProjection, PrepareErrors) {
  auto build = [](int type, std::vector<int> hash, TfLiteType input_type, std::vector<int> weight,
                  TfLiteType weight_type, TfLiteType out_type) {
    OpModel m;
    m.AddInput({kTfLiteFloat32, hash});
    m.AddInput({input_type, {5}});
    if (!weight.empty()) m.AddInput({weight_type, weight});
    m.AddOutput({out_type, {}});
    TfLiteLSHProjectionParams p{};
    p.type = static_cast<TfLiteLSHProjectionType>(type);
    m.SetBuiltinOp(tflite::BuiltinOperator_LSH_PROJECTION,
                   tflite::ops::builtin::Register_LSH_PROJECTION(), p);
    return m.Build() == kTfLiteOk ? std::string() : m.error();
  };
  const int dense = kTfLiteLshProjectionDense, sparse = kTfLiteLshProjectionSparse;
  EXPECT_EQ(build(sparse, {3, 2}, kTfLiteInt32, {5}, kTfLiteFloat32, kTfLiteInt32), "");
  EXPECT_EQ(build(dense, {2, 32}, kTfLiteFloat32, {}, kTfLiteFloat32, kTfLiteInt32), "");
  auto has = [](const std::string& e, const char* what) {
    return e.find("LSH_PROJECTION: ") != std::string::npos && e.find(what) != std::string::npos;
  };
  std::string e =
      build(kTfLiteLshProjectionUnknown, {3, 2}, kTfLiteInt32, {}, kTfLiteFloat32, kTfLiteInt32);
  EXPECT_TRUE(has(e, "projection type 0 is not SPARSE or DENSE")) << e;
  e = build(dense, {6}, kTfLiteInt32, {}, kTfLiteFloat32, kTfLiteInt32);
  EXPECT_TRUE(has(e, "hash (input 0) must be 2-D")) << e;
  e = build(dense, {1, 33}, kTfLiteInt32, {}, kTfLiteFloat32, kTfLiteInt32);
  EXPECT_TRUE(has(e, "more than 32 bits")) << e;
  e = build(sparse, {2, 32}, kTfLiteInt32, {}, kTfLiteFloat32, kTfLiteInt32);
  EXPECT_TRUE(has(e, "num_hash * 2^num_bits <= 2^32")) << e;
  e = build(dense, {3, 2}, kTfLiteInt32, {4}, kTfLiteFloat32, kTfLiteInt32);
  EXPECT_TRUE(has(e, "one entry per input item")) << e;
  e = build(dense, {3, 2}, kTfLiteInt32, {5}, kTfLiteInt32, kTfLiteInt32);
  EXPECT_TRUE(has(e, "weight (input 2) must be FLOAT32")) << e;
  e = build(dense, {3, 2}, kTfLiteInt32, {}, kTfLiteFloat32, kTfLiteFloat32);
  EXPECT_TRUE(has(e, "output must be INT32")) << e;
  e = build(dense, {3, 2}, kTfLiteString, {}, kTfLiteFloat32, kTfLiteInt32);
  EXPECT_TRUE(has(e, "input type STRING is not supported")) << e;
}

TEST(Lookup_LshProjection, VersionRange) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  EXPECT_NE(resolver.FindOp(tflite::BuiltinOperator_LSH_PROJECTION, 1), nullptr);
  EXPECT_EQ(resolver.FindOp(tflite::BuiltinOperator_LSH_PROJECTION, 2), nullptr);
}

}  // namespace
}  // namespace octet
