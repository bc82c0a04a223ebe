// MATRIX_DIAG / MATRIX_SET_DIAG / REVERSE_SEQUENCE against naive index loops in the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/shape/shape_ops.h"
#include "ops/shape/shape_test_util.h"

namespace octet::shape_test {
namespace {

using tflite::ops::builtin::Register_MATRIX_DIAG;
using tflite::ops::builtin::Register_MATRIX_SET_DIAG;
using tflite::ops::builtin::Register_REVERSE_SEQUENCE;

TEST(Shape_MatrixDiag, BatchedDiagonals) {
  OpModel m;
  const int in = m.AddInput({kTfLiteFloat32, {2, 3}});
  const int out = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinMatrixDiag, Register_MATRIX_DIAG());
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(in, {1, 2, 3, 4, 5, 6});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), std::vector<int>({2, 3, 3}));
  EXPECT_EQ(m.GetOutput<float>(out), std::vector<float>({1, 0, 0, 0, 2, 0, 0, 0, 3,  //
                                                         4, 0, 0, 0, 5, 0, 0, 0, 6}));
  // int64 and bool through the same width-based kernel.
  OpModel b;
  const int bi = b.AddInput({kTfLiteBool, {2}});
  const int bo = b.AddOutput({kTfLiteBool, {}});
  b.SetBuiltinOp(kTfLiteBuiltinMatrixDiag, Register_MATRIX_DIAG());
  ASSERT_EQ(b.Build(), kTfLiteOk) << b.error();
  b.SetInput<uint8_t>(bi, {1, 1});
  ASSERT_EQ(b.Invoke(), kTfLiteOk) << b.error();
  EXPECT_EQ(b.GetOutput<uint8_t>(bo), std::vector<uint8_t>({1, 0, 0, 1}));
}

TEST(Shape_MatrixDiag, RefusesScalarAndTypeMismatch) {
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {}});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinMatrixDiag, Register_MATRIX_DIAG());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("MATRIX_DIAG: input must have rank >= 1"), std::string::npos)
        << m.error();
  }
  {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {3}});
    m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinMatrixDiag, Register_MATRIX_DIAG());
    EXPECT_NE(m.Build(), kTfLiteOk);
    EXPECT_NE(m.error().find("MATRIX_DIAG: output type INT32 does not match"), std::string::npos)
        << m.error();
  }
}

TEST(Shape_MatrixSetDiag, WideAndTallMatrices) {
  for (const std::vector<int>& dims : {std::vector<int>{2, 2, 3}, std::vector<int>{2, 3, 2}}) {
    const int rows = dims[1], cols = dims[2], len = std::min(rows, cols);
    OpModel m;
    const int in = m.AddInput({kTfLiteInt32, dims});
    const int diag = m.AddInput({kTfLiteInt32, {2, len}});
    const int out = m.AddOutput({kTfLiteInt32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinMatrixSetDiag, Register_MATRIX_SET_DIAG());
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    const std::vector<int32_t> x = Iota<int32_t>(Count(dims), 1);
    const std::vector<int32_t> d = Iota<int32_t>(2 * len, -100);
    m.SetInput(in, x);
    m.SetInput(diag, d);
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetShape(out), dims);
    std::vector<int32_t> want = x;
    for (int64_t i = 0; i < Count(dims); ++i) {
      const std::vector<int> idx = Unravel(i, dims);
      if (idx[1] == idx[2]) want[i] = d[idx[0] * len + idx[1]];
    }
    EXPECT_EQ(m.GetOutput<int32_t>(out), want);
  }
}

TEST(Shape_MatrixSetDiag, RefusesBadDiagonal) {
  struct Case {
    std::vector<int> in, diag;
    const char* message;
  };
  const Case cases[] = {
      {{2, 3, 4}, {2, 4}, "MATRIX_SET_DIAG: diagonal shape must be the input's batch dims"},
      {{2, 3, 4}, {3, 3}, "MATRIX_SET_DIAG: diagonal shape must be"},
      {{3}, {3}, "MATRIX_SET_DIAG: input must have rank >= 2, got 1"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({kTfLiteFloat32, c.in});
    m.AddInput({kTfLiteFloat32, c.diag});
    m.AddOutput({kTfLiteFloat32, {}});
    m.SetBuiltinOp(kTfLiteBuiltinMatrixSetDiag, Register_MATRIX_SET_DIAG());
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << m.error();
  }
}

// REVERSE_SEQUENCE: out[idx] = in[idx with idx[seq] -> len - 1 - idx[seq]] when idx[seq] < len.
template <typename T>
void CheckReverseSequence(TfLiteType type, const std::vector<int>& dims, int seq_dim, int batch_dim,
                          const std::vector<int32_t>& lengths, bool constant) {
  OpModel m;
  const int in = m.AddInput({type, dims});
  int len_id = -1;
  if (constant) {
    m.AddConstInput<int32_t>({kTfLiteInt32, {static_cast<int>(lengths.size())}}, lengths);
  } else {
    len_id = m.AddInput({kTfLiteInt32, {static_cast<int>(lengths.size())}});
  }
  const int out = m.AddOutput({type, {}});
  TfLiteReverseSequenceParams p{};
  p.seq_dim = seq_dim;
  p.batch_dim = batch_dim;
  m.SetBuiltinOp(kTfLiteBuiltinReverseSequence, Register_REVERSE_SEQUENCE(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  const std::vector<T> x = Iota<T>(Count(dims), T(1));
  m.SetInput(in, x);
  if (!constant) m.SetInput(len_id, lengths);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  std::vector<T> want(x.size());
  for (int64_t i = 0; i < Count(dims); ++i) {
    std::vector<int> idx = Unravel(i, dims);
    const int len = lengths[idx[batch_dim]];
    if (idx[seq_dim] < len) idx[seq_dim] = len - 1 - idx[seq_dim];
    want[i] = x[Ravel(idx, dims)];
  }
  EXPECT_EQ(m.GetOutput<T>(out), want) << "seq " << seq_dim << " batch " << batch_dim;
}

TEST(Shape_ReverseSequence, DimsLengthsAndTypes) {
  CheckReverseSequence<float>(kTfLiteFloat32, {3, 4, 2}, 1, 0, {4, 0, 2}, true);
  CheckReverseSequence<float>(kTfLiteFloat32, {3, 4, 2}, 0, 2, {3, 1}, false);
  CheckReverseSequence<int32_t>(kTfLiteInt32, {2, 5}, 1, 0, {5, 3}, true);
  CheckReverseSequence<int64_t>(kTfLiteInt64, {4, 2, 3}, 0, 1, {2, 4}, false);
  CheckReverseSequence<uint8_t>(kTfLiteUInt8, {2, 3}, 1, 0, {1, 3}, true);
  CheckReverseSequence<int16_t>(kTfLiteInt16, {3, 2}, 0, 1, {3, 2}, true);
}

TEST(Shape_ReverseSequence, RefusesBadOptionsAndLengths) {
  struct Case {
    TfLiteType type;
    int seq_dim, batch_dim;
    std::vector<int32_t> lengths;
    const char* message;
  };
  const Case cases[] = {
      {kTfLiteFloat32, 1, 1, {3, 3}, "REVERSE_SEQUENCE: seq_dim and batch_dim are both 1"},
      {kTfLiteFloat32, 2, 0, {3, 3}, "REVERSE_SEQUENCE: seq_dim 2 out of range for rank 2"},
      {kTfLiteFloat32, 1, -1, {3, 3}, "REVERSE_SEQUENCE: batch_dim -1 out of range"},
      {kTfLiteFloat32, 1, 0, {3}, "REVERSE_SEQUENCE: seq_lengths must be a vector of 2 lengths"},
      {kTfLiteFloat32, 1, 0, {3, 4}, "REVERSE_SEQUENCE: seq_lengths[1] = 4 is outside [0, 3]"},
      {kTfLiteFloat32, 1, 0, {-1, 0}, "REVERSE_SEQUENCE: seq_lengths[0] = -1 is outside"},
      {kTfLiteInt8, 1, 0, {3, 3}, "REVERSE_SEQUENCE: input type INT8 is not supported"},
  };
  for (const Case& c : cases) {
    OpModel m;
    m.AddInput({c.type, {2, 3}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {static_cast<int>(c.lengths.size())}}, c.lengths);
    m.AddOutput({c.type, {}});
    TfLiteReverseSequenceParams p{};
    p.seq_dim = c.seq_dim;
    p.batch_dim = c.batch_dim;
    m.SetBuiltinOp(kTfLiteBuiltinReverseSequence, Register_REVERSE_SEQUENCE(), p);
    EXPECT_NE(m.Build(), kTfLiteOk) << c.message;
    EXPECT_NE(m.error().find(c.message), std::string::npos) << m.error();
  }
  // Runtime lengths out of range fail at invoke.
  OpModel m;
  m.AddInput({kTfLiteFloat32, {2, 3}});
  const int len = m.AddInput({kTfLiteInt32, {2}});
  m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(kTfLiteBuiltinReverseSequence, Register_REVERSE_SEQUENCE(),
                 TfLiteReverseSequenceParams{1, 0});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<int32_t>(len, {2, 9});
  EXPECT_NE(m.Invoke(), kTfLiteOk);
  EXPECT_NE(m.error().find("REVERSE_SEQUENCE: seq_lengths[1] = 9 is outside [0, 3]"),
            std::string::npos)
      << m.error();
}

}  // namespace
}  // namespace octet::shape_test
