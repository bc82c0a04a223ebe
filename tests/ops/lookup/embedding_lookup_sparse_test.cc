// EMBEDDING_LOOKUP_SPARSE: the three combiners on TFLite's documented example worked by
// hand, a 3-D sparse shape with an empty bucket, a dense_shape known only at invoke, bad ids
// and coordinates at invoke, and prepare's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace tflite::ops::builtin {
TfLiteRegistration* Register_EMBEDDING_LOOKUP_SPARSE();
}

namespace octet {
namespace {

using testing::OpModel;
using testing::TensorSpec;

struct Sparse {
  std::vector<int32_t> ids, indices, dense_shape;
  std::vector<float> weights;
  int rank = 0;
};

// params row r = (r + 1, 10 (r + 1)), shape [rows, 2].
std::vector<float> Params(int rows) {
  std::vector<float> p;
  for (int r = 0; r < rows; ++r) {
    p.push_back(r + 1.f);
    p.push_back(10.f * (r + 1));
  }
  return p;
}

struct Model {
  OpModel m;
  int ids = -1, indices = -1, shape = -1, weights = -1, out = -1;
  Model(const Sparse& s, TfLiteCombinerType combiner, bool const_shape, int rows = 4) {
    const int n = static_cast<int>(s.ids.size());
    ids = m.AddInput({kTfLiteInt32, {n}});
    indices = m.AddInput({kTfLiteInt32, {n, s.rank}});
    if (const_shape) {
      m.AddConstInput(TensorSpec{kTfLiteInt32, {s.rank}}, s.dense_shape);
    } else {
      shape = m.AddInput({kTfLiteInt32, {s.rank}});
    }
    weights = m.AddInput({kTfLiteFloat32, {n}});
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {rows, 2}}, Params(rows));
    out = m.AddOutput({kTfLiteFloat32, {}});
    TfLiteEmbeddingLookupSparseParams p{};
    p.combiner = combiner;
    m.SetBuiltinOp(tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE,
                   tflite::ops::builtin::Register_EMBEDDING_LOOKUP_SPARSE(), p);
  }
  TfLiteStatus Run(const Sparse& s) {
    m.SetInput(ids, s.ids);
    m.SetInput(indices, s.indices);
    if (shape >= 0) m.SetInput(shape, s.dense_shape);
    m.SetInput(weights, s.weights);
    return m.Invoke();
  }
};

// [0, 0]: id 1 weight 2; [0, 1]: id 3 weight 0.5; [1, 0]: id 0 weight 1; [2, 3]: id 1 weight 3.
Sparse Documented() {
  return Sparse{{1, 3, 0, 1}, {0, 0, 0, 1, 1, 0, 2, 3}, {3, 4}, {2.f, 0.5f, 1.f, 3.f}, 2};
}

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
}

TEST(Lookup_EmbeddingLookupSparse, Sum) {
  Model model(Documented(), kTfLiteCombinerTypeSum, true);
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  EXPECT_EQ(model.m.GetShape(model.out), (std::vector<int>{3, 2}));
  ASSERT_EQ(model.Run(Documented()), kTfLiteOk) << model.m.error();
  // 2 (2, 20) + 0.5 (4, 40); (1, 10); 3 (2, 20).
  ExpectNear(model.m.GetOutput<float>(model.out), {6, 60, 1, 10, 6, 60});
}

TEST(Lookup_EmbeddingLookupSparse, Mean) {
  Model model(Documented(), kTfLiteCombinerTypeMean, true);
  ASSERT_EQ(model.m.Build(), kTfLiteOk);
  ASSERT_EQ(model.Run(Documented()), kTfLiteOk);
  ExpectNear(model.m.GetOutput<float>(model.out), {6 / 2.5, 60 / 2.5, 1, 10, 2, 20});
}

TEST(Lookup_EmbeddingLookupSparse, Sqrtn) {
  Model model(Documented(), kTfLiteCombinerTypeSqrtn, true);
  ASSERT_EQ(model.m.Build(), kTfLiteOk);
  ASSERT_EQ(model.Run(Documented()), kTfLiteOk);
  const double d = std::sqrt(4.25);
  ExpectNear(model.m.GetOutput<float>(model.out), {6 / d, 60 / d, 1, 10, 2, 20});
}

TEST(Lookup_EmbeddingLookupSparse, ThreeDimensionalShapeAtInvoke) {
  // dense_shape [2, 2, 3]: buckets (0,0), (0,1), (1,0), (1,1); (0,1) gets nothing.
  Sparse s{{0, 2, 1, 3}, {0, 0, 0, 0, 0, 2, 1, 0, 1, 1, 1, 0}, {2, 2, 3}, {1.f, 1.f, 2.f, 4.f}, 3};
  Model model(s, kTfLiteCombinerTypeMean, /*const_shape=*/false);
  ASSERT_EQ(model.m.Build(), kTfLiteOk) << model.m.error();
  ASSERT_EQ(model.Run(s), kTfLiteOk) << model.m.error();
  EXPECT_EQ(model.m.GetShape(model.out), (std::vector<int>{2, 2, 2}));
  // (0,0): mean of rows 0 and 2 = (2, 20); (0,1): 0; (1,0): row 1 = (2, 20); (1,1): row 3.
  ExpectNear(model.m.GetOutput<float>(model.out), {2, 20, 0, 0, 2, 20, 4, 40});
}

TEST(Lookup_EmbeddingLookupSparse, BadIdsAndCoordinatesFailAtInvoke) {
  Sparse s = Documented();
  s.ids[2] = 4;
  Model model(s, kTfLiteCombinerTypeSum, true);
  ASSERT_EQ(model.m.Build(), kTfLiteOk);
  EXPECT_NE(model.Run(s), kTfLiteOk);
  EXPECT_NE(
      model.m.error().find("EMBEDDING_LOOKUP_SPARSE: id 4 at position 2 is out of range [0, 4)"),
      std::string::npos)
      << model.m.error();
  s = Documented();
  s.indices[6] = 3;  // bucket coordinate 3 of dense dimension 3
  Model m2(s, kTfLiteCombinerTypeSum, true);
  ASSERT_EQ(m2.m.Build(), kTfLiteOk);
  EXPECT_NE(m2.Run(s), kTfLiteOk);
  EXPECT_NE(m2.m.error().find("indices[3][0] = 3 is out of range [0, 3)"), std::string::npos)
      << m2.m.error();
}

TEST(Lookup_EmbeddingLookupSparse, PrepareErrors) {
  auto build = [](std::vector<int> ids, std::vector<int> indices, std::vector<int> shape,
                  std::vector<int> weights, TfLiteType weight_type, int combiner) {
    OpModel m;
    m.AddInput({kTfLiteInt32, ids});
    m.AddInput({kTfLiteInt32, indices});
    m.AddConstInput(TensorSpec{kTfLiteInt32, shape}, std::vector<int32_t>(shape[0], 2));
    m.AddInput({weight_type, weights});
    m.AddConstInput(TensorSpec{kTfLiteFloat32, {4, 2}}, Params(4));
    m.AddOutput({kTfLiteFloat32, {}});
    TfLiteEmbeddingLookupSparseParams p{};
    p.combiner = static_cast<TfLiteCombinerType>(combiner);
    m.SetBuiltinOp(tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE,
                   tflite::ops::builtin::Register_EMBEDDING_LOOKUP_SPARSE(), p);
    return m.Build() == kTfLiteOk ? std::string() : m.error();
  };
  EXPECT_EQ(build({3}, {3, 2}, {2}, {3}, kTfLiteFloat32, 0), "");
  auto has = [](const std::string& e, const char* what) {
    return e.find("EMBEDDING_LOOKUP_SPARSE: ") != std::string::npos &&
           e.find(what) != std::string::npos;
  };
  std::string e = build({3}, {2, 2}, {2}, {3}, kTfLiteFloat32, 0);
  EXPECT_TRUE(has(e, "must have one row per id")) << e;
  e = build({3}, {3, 2}, {3}, {3}, kTfLiteFloat32, 0);
  EXPECT_TRUE(has(e, "must have one entry per indices column (2)")) << e;
  e = build({3}, {3, 2}, {2}, {3}, kTfLiteInt32, 0);
  EXPECT_TRUE(has(e, "weights (input 3) must be FLOAT32")) << e;
  // (3 is within the enum's range, so reading it is defined; it names no combiner.)
  e = build({3}, {3, 2}, {2}, {3}, kTfLiteFloat32, 3);
  EXPECT_TRUE(has(e, "unknown combiner 3")) << e;
  e = build({3}, {3}, {2}, {3}, kTfLiteFloat32, 0);
  EXPECT_TRUE(has(e, "indices (input 1) must be 2-D")) << e;
}

TEST(Lookup_EmbeddingLookupSparse, VersionRange) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  const auto op = tflite::BuiltinOperator_EMBEDDING_LOOKUP_SPARSE;
  EXPECT_NE(resolver.FindOp(op, 1), nullptr);
  EXPECT_EQ(resolver.FindOp(op, 2), nullptr);
}

}  // namespace
}  // namespace octet
