// DENSIFY: hand-encoded sparse tensors (the dense matrix written out in the test is the truth)
// in every layout TFLite's converter produces: all-dense, CSR on either dimension, both
// sparse, a permuted traversal order and 2x2 block-sparse (BCSR); float32, int8 and float16.
// Plus validation: every kind of corrupt metadata must fail prepare with a clear message
// (never read out of bounds; the suite also runs under ASan+UBSan).
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ops/sparse/sparse_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "util/op_model.h"

namespace octet::sparse_test {
namespace {

using octet::testing::OpModel;
using tflite::ops::builtin::Register_DENSIFY;

struct Level {
  bool sparse = false;
  int dense_size = 0;
  std::vector<int> segments = {};
  std::vector<int> indices = {};
  bool null_arrays = false;  // SPARSE_CSR without segments / indices
};

TfLiteIntArray* IntArray(const std::vector<int>& v) {
  TfLiteIntArray* a = TfLiteIntArrayCreate(static_cast<int>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) a->data[i] = v[i];
  return a;
}

// A TfLiteSparsity as the loader would build it (malloc'd; the tensor takes ownership).
TfLiteSparsity* MakeSparsity(const std::vector<int>& traversal, const std::vector<int>& block_map,
                             const std::vector<Level>& levels) {
  auto* s = static_cast<TfLiteSparsity*>(std::calloc(1, sizeof(TfLiteSparsity)));
  s->traversal_order = IntArray(traversal);
  s->block_map = block_map.empty() ? nullptr : IntArray(block_map);
  s->dim_metadata_size = static_cast<int>(levels.size());
  s->dim_metadata = static_cast<TfLiteDimensionMetadata*>(
      std::calloc(levels.size() + 1, sizeof(TfLiteDimensionMetadata)));
  for (size_t i = 0; i < levels.size(); ++i) {
    TfLiteDimensionMetadata& m = s->dim_metadata[i];
    m.format = levels[i].sparse ? kTfLiteDimSparseCSR : kTfLiteDimDense;
    m.dense_size = levels[i].dense_size;
    if (levels[i].sparse && !levels[i].null_arrays) {
      m.array_segments = IntArray(levels[i].segments);
      m.array_indices = IntArray(levels[i].indices);
    }
  }
  return s;
}

// One DENSIFY node over a sparse constant with `values` (raw bytes kept alive here).
struct DensifyModel {
  OpModel m;
  std::vector<uint8_t> values;
  int output = -1;

  template <typename T>
  DensifyModel(TfLiteType type, const std::vector<int>& shape, const std::vector<T>& vals,
               const std::vector<int>& traversal, const std::vector<int>& block_map,
               const std::vector<Level>& levels, TfLiteType out_type = kTfLiteNoType)
      : values(reinterpret_cast<const uint8_t*>(vals.data()),
               reinterpret_cast<const uint8_t*>(vals.data()) + vals.size() * sizeof(T)) {
    int64_t n = 1;
    for (int d : shape) n *= d;
    const std::vector<uint8_t> dummy(static_cast<size_t>(n) * TfLiteTypeGetSize(type), 0);
    const int input = m.AddConstInput({type, shape}, dummy.data(), dummy.size());
    // Re-declare it sparse over the stored values (the loader's path for sparse constants).
    m.interpreter()->primary_subgraph().SetTensorParametersReadOnly(
        input, type, "sparse", shape, TfLiteQuantization{kTfLiteNoQuantization, nullptr},
        reinterpret_cast<const char*>(values.data()), values.size(), nullptr,
        MakeSparsity(traversal, block_map, levels));
    output = m.AddOutput({out_type == kTfLiteNoType ? type : out_type, {}});
    m.SetBuiltinOp(kTfLiteBuiltinDensify, Register_DENSIFY());
  }
};

const std::vector<float> kDense3x4 = {6, 0, 9, 8, 0, 0, 0, 0, 5, 0, 0, 7};

template <typename T>
void ExpectDense(DensifyModel& d, const std::vector<int>& shape, const std::vector<T>& expected) {
  ASSERT_EQ(d.m.Build(), kTfLiteOk) << d.m.error();
  EXPECT_EQ(d.m.tensor(d.output)->allocation_type, kTfLiteArenaRwPersistent);
  ASSERT_EQ(d.m.Invoke(), kTfLiteOk) << d.m.error();
  EXPECT_EQ(d.m.GetShape(d.output), shape);
  EXPECT_EQ(d.m.GetOutput<T>(d.output), expected);
  ASSERT_EQ(d.m.Invoke(), kTfLiteOk) << d.m.error();  // converted once; stays put
  EXPECT_EQ(d.m.GetOutput<T>(d.output), expected);
}

TEST(DensifyOp, AllDense) {
  DensifyModel d(kTfLiteFloat32, {3, 4}, kDense3x4, {0, 1}, {}, {{false, 3}, {false, 4}});
  ExpectDense(d, {3, 4}, kDense3x4);
}

TEST(DensifyOp, SparseRows) {
  // Rows 0 and 2 are stored (dense), row 1 is absent.
  DensifyModel d(kTfLiteFloat32, {3, 4}, std::vector<float>{6, 0, 9, 8, 5, 0, 0, 7}, {0, 1}, {},
                 {{true, 0, {0, 2}, {0, 2}}, {false, 4}});
  ExpectDense(d, {3, 4}, kDense3x4);
}

TEST(DensifyOp, CsrColumns) {
  DensifyModel d(kTfLiteFloat32, {3, 4}, std::vector<float>{6, 9, 8, 5, 7}, {0, 1}, {},
                 {{false, 3}, {true, 0, {0, 3, 3, 5}, {0, 2, 3, 0, 3}}});
  ExpectDense(d, {3, 4}, kDense3x4);
}

TEST(DensifyOp, BothSparse) {
  DensifyModel d(kTfLiteFloat32, {3, 4}, std::vector<float>{6, 9, 8, 5, 7}, {0, 1}, {},
                 {{true, 0, {0, 2}, {0, 2}}, {true, 0, {0, 3, 5}, {0, 2, 3, 0, 3}}});
  ExpectDense(d, {3, 4}, kDense3x4);
}

TEST(DensifyOp, ColumnMajorTraversal) {
  // Level 0 walks the columns (dense), level 1 the rows present in each column.
  DensifyModel d(kTfLiteFloat32, {3, 4}, std::vector<float>{6, 5, 9, 8, 7}, {1, 0}, {},
                 {{false, 4}, {true, 0, {0, 2, 2, 3, 5}, {0, 2, 0, 0, 2}}});
  ExpectDense(d, {3, 4}, kDense3x4);
}

TEST(DensifyOp, BlockSparse2x2) {
  // Blocks (0,0) = [1 0; 0 2] and (1,1) = [3 0; 5 4] of a 4x4 matrix; BCSR over blocks.
  DensifyModel d(kTfLiteFloat32, {4, 4}, std::vector<float>{1, 0, 0, 2, 3, 0, 5, 4}, {0, 1, 2, 3},
                 {0, 1}, {{false, 2}, {true, 0, {0, 1, 2}, {0, 1}}, {false, 2}, {false, 2}});
  ExpectDense(d, {4, 4}, std::vector<float>{1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 5, 4});
}

TEST(DensifyOp, BlockOnOneDimensionInt8) {
  // 2x6 with 1x3 blocks along dim 1: blocked shape 2x2, blocks (0,1) and (1,0) present.
  DensifyModel d(kTfLiteInt8, {2, 6}, std::vector<int8_t>{1, -2, 3, -128, 0, 127}, {0, 1, 2}, {1},
                 {{false, 2}, {true, 0, {0, 1, 2}, {1, 0}}, {false, 3}});
  ExpectDense(d, {2, 6}, std::vector<int8_t>{0, 0, 0, 1, -2, 3, -128, 0, 127, 0, 0, 0});
}

TEST(DensifyOp, Float16ThreeDimensions) {
  // 2x2x2, dim 1 sparse: [0][*] holds row 1, [1][*] holds rows 0 and 1 (values as half bits).
  DensifyModel d(kTfLiteFloat16, {2, 2, 2},
                 std::vector<uint16_t>{0x3c00, 0x4000, 0x4200, 0, 0xc400, 0x7c00}, {0, 1, 2}, {},
                 {{false, 2}, {true, 0, {0, 1, 3}, {1, 0, 1}}, {false, 2}});
  ExpectDense(d, {2, 2, 2}, std::vector<uint16_t>{0, 0, 0x3c00, 0x4000, 0x4200, 0, 0xc400, 0x7c00});
}

TEST(DensifyOp, EmptySparseTensor) {
  DensifyModel d(kTfLiteFloat32, {3, 4}, std::vector<float>{}, {0, 1}, {},
                 {{false, 3}, {true, 0, {0, 0, 0, 0}, {}}});
  ExpectDense(d, {3, 4}, std::vector<float>(12, 0.0f));
}

// A CSR-columns tensor with one level changed; prepare must fail with `message`.
void ExpectCorrupt(const std::vector<Level>& levels, const std::string& message,
                   std::vector<float> values = {6, 9, 8, 5, 7}, std::vector<int> traversal = {0, 1},
                   std::vector<int> block_map = {}, std::vector<int> shape = {3, 4}) {
  SCOPED_TRACE(message);
  DensifyModel d(kTfLiteFloat32, shape, values, traversal, block_map, levels);
  EXPECT_NE(d.m.Build(), kTfLiteOk);
  EXPECT_NE(d.m.error().find("DENSIFY: "), std::string::npos) << d.m.error();
  EXPECT_NE(d.m.error().find(message), std::string::npos) << d.m.error();
}

TEST(DensifyOp, RejectsCorruptSegmentsAndIndices) {
  const Level rows{false, 3};
  ExpectCorrupt({rows, {true, 0, {0, 3, 5}, {0, 2, 3, 0, 3}}}, "has 3 segments, expected 4");
  ExpectCorrupt({rows, {true, 0, {0, 3, 3, 5, 5}, {0, 2, 3, 0, 3}}}, "has 5 segments");
  ExpectCorrupt({rows, {true, 0, {1, 3, 3, 5}, {0, 2, 3, 0, 3}}}, "segments must start at 0");
  ExpectCorrupt({rows, {true, 0, {0, 3, 2, 5}, {0, 2, 3, 0, 3}}}, "segments decrease at 2");
  ExpectCorrupt({rows, {true, 0, {0, 3, 3, 6}, {0, 2, 3, 0, 3}}}, "segments end at 6");
  ExpectCorrupt({rows, {true, 0, {0, INT_MAX, INT_MAX, INT_MAX}, {0, 2, 3, 0, 3}}},
                "segments end at 2147483647");
  ExpectCorrupt({rows, {true, 0, {0, 3, 3, 5}, {0, 2, 4, 0, 3}}}, "index 4 at 2 is outside");
  ExpectCorrupt({rows, {true, 0, {0, 3, 3, 5}, {0, 2, 3, -1, 3}}}, "index -1 at 3 is outside");
  ExpectCorrupt({rows, {true, 0, {}, {}, true}}, "is SPARSE_CSR but has no segments");
  ExpectCorrupt({{false, 3}, {true, 0, {0, 5, 5, 5}, {0, 0, 0, 0, 0}}},
                "more indices than its dense extent", {1, 2, 3, 4, 5}, {0, 1}, {}, {3, 1});
}

TEST(DensifyOp, RejectsCorruptStructure) {
  const Level csr{true, 0, {0, 3, 3, 5}, {0, 2, 3, 0, 3}};
  ExpectCorrupt({{false, 4}, csr}, "dense_size 4 does not match the shape (3)");
  ExpectCorrupt({{false, 3}, csr}, "traversal_order has 1 entries, expected 2", {6, 9, 8, 5, 7},
                {0});
  ExpectCorrupt({{false, 3}, csr}, "traversal_order is not a valid permutation", {6, 9, 8, 5, 7},
                {1, 1});
  ExpectCorrupt({{false, 3}, csr}, "traversal_order is not a valid permutation", {6, 9, 8, 5, 7},
                {0, 7});
  ExpectCorrupt({{false, 3}}, "dim_metadata has 1 entries, expected 2");
  ExpectCorrupt({{false, 3}, csr}, "sparse input holds 16 bytes but its metadata describes 5",
                {6, 9, 8, 5});
  // Blocks: a block map out of range, a block size that does not divide, a sparse block.
  const std::vector<float> block_vals = {1, 0, 0, 2, 3, 0, 5, 4};
  const Level block_csr{true, 0, {0, 1, 2}, {0, 1}};
  ExpectCorrupt({{false, 2}, block_csr, {false, 2}, {false, 2}},
                "block_map must list increasing dimensions", block_vals, {0, 1, 2, 3}, {0, 2},
                {4, 4});
  ExpectCorrupt({{false, 2}, block_csr, {false, 2}, {false, 2}},
                "block_map must list increasing dimensions", block_vals, {0, 1, 2, 3}, {1, 0},
                {4, 4});
  ExpectCorrupt({{false, 2}, block_csr, {false, 3}, {false, 2}}, "block size 3 does not divide",
                block_vals, {0, 1, 2, 3}, {0, 1}, {4, 4});
  ExpectCorrupt({{false, 2}, block_csr, {true, 0, {0, 1}, {0}}, {false, 2}},
                "block dimension 0 must be DENSE", block_vals, {0, 1, 2, 3}, {0, 1}, {4, 4});
  ExpectCorrupt({{false, 2}, block_csr, {false, 2}, {false, 2}},
                "traversal_order is not a valid permutation", block_vals, {0, 2, 1, 3}, {0, 1},
                {4, 4});
}

TEST(DensifyOp, RejectsBadTensors) {
  {
    DensifyModel d(kTfLiteInt32, {3}, std::vector<int32_t>{1, 2, 3}, {0}, {}, {{false, 3}});
    EXPECT_NE(d.m.Build(), kTfLiteOk);
    EXPECT_NE(d.m.error().find("DENSIFY: input must be FLOAT32, FLOAT16 or INT8"),
              std::string::npos)
        << d.m.error();
  }
  {
    DensifyModel d(kTfLiteFloat32, {3}, std::vector<float>{1, 2, 3}, {0}, {}, {{false, 3}},
                   kTfLiteInt8);
    EXPECT_NE(d.m.Build(), kTfLiteOk);
    EXPECT_NE(d.m.error().find("DENSIFY: output must be FLOAT32"), std::string::npos)
        << d.m.error();
  }
  {
    OpModel m;  // a dense constant: no sparsity parameters
    m.AddConstInput<float>({kTfLiteFloat32, {2}}, {1, 2});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinDensify, Register_DENSIFY());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("DENSIFY: input has no sparsity parameters"), std::string::npos)
        << m.error();
  }
  {
    OpModel m;  // not a constant
    m.AddInput({kTfLiteFloat32, {2}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinDensify, Register_DENSIFY());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("DENSIFY: input must be a constant"), std::string::npos) << m.error();
  }
}

}  // namespace
}  // namespace octet::sparse_test
