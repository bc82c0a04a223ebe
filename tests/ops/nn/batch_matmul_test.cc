#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ops/nn/nn_ops.h"
#include "ops/nn/nn_test_util.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/op_model.h"

namespace octet {
namespace {

using testing::OpModel;

int64_t Count(const std::vector<int>& s) {
  int64_t n = 1;
  for (int d : s) n *= d;
  return n;
}

// Row-major offset of `index` in `shape`, where size-1 dimensions broadcast.
int64_t BroadcastOffset(const std::vector<int>& shape, const std::vector<int>& index) {
  int64_t off = 0;
  const size_t lead = index.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    off = off * shape[i] + (shape[i] == 1 ? 0 : index[lead + i]);
  }
  return off;
}

// Direct definition: out[b..., i, j] = sum_k A[b..., i, k] * B[b..., k, j].
std::vector<double> Naive(const std::vector<int>& ls, const std::vector<float>& l, bool adj_x,
                          const std::vector<int>& rs, const std::vector<float>& r, bool adj_y,
                          std::vector<int>* out_shape) {
  const int lr = ls.size(), rr = rs.size(), orank = std::max(lr, rr);
  std::vector<int> lb(ls.begin(), ls.end() - 2), rb(rs.begin(), rs.end() - 2);
  lb.insert(lb.begin(), orank - lr, 1);
  rb.insert(rb.begin(), orank - rr, 1);
  std::vector<int> ob(orank - 2);
  for (int i = 0; i < orank - 2; ++i) ob[i] = std::max(lb[i], rb[i]);
  const int m = adj_x ? ls[lr - 1] : ls[lr - 2];
  const int k = adj_x ? ls[lr - 2] : ls[lr - 1];
  const int n = adj_y ? rs[rr - 2] : rs[rr - 1];
  *out_shape = ob;
  out_shape->push_back(m);
  out_shape->push_back(n);
  std::vector<double> out;
  std::vector<int> idx(orank - 2, 0);
  for (int64_t b = 0; b < Count(ob); ++b) {
    const int64_t lo = BroadcastOffset(lb, idx) * ls[lr - 2] * ls[lr - 1];
    const int64_t ro = BroadcastOffset(rb, idx) * rs[rr - 2] * rs[rr - 1];
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double acc = 0;
        for (int t = 0; t < k; ++t) {
          const double a = adj_x ? l[lo + t * m + i] : l[lo + i * k + t];
          const double bv = adj_y ? r[ro + j * k + t] : r[ro + t * n + j];
          acc += a * bv;
        }
        out.push_back(acc);
      }
    for (int d = orank - 3; d >= 0; --d) {
      if (++idx[d] < ob[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

void Check(const std::vector<int>& ls, bool adj_x, const std::vector<int>& rs, bool adj_y,
           bool const_rhs = false) {
  const auto l = nn_test::Random(Count(ls), 51), r = nn_test::Random(Count(rs), 52);
  OpModel m;
  const int lhs = m.AddInput({kTfLiteFloat32, ls});
  const int rhs =
      const_rhs ? m.AddConstInput({kTfLiteFloat32, rs}, r) : m.AddInput({kTfLiteFloat32, rs});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  TfLiteBatchMatMulParams p{};
  p.adj_x = adj_x;
  p.adj_y = adj_y;
  m.SetBuiltinOp(tflite::BuiltinOperator_BATCH_MATMUL,
                 tflite::ops::builtin::Register_BATCH_MATMUL(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(lhs, l);
  if (!const_rhs) m.SetInput(rhs, r);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  std::vector<int> shape;
  const auto want = Naive(ls, l, adj_x, rs, r, adj_y, &shape);
  EXPECT_EQ(m.GetShape(output), shape);
  nn_test::ExpectAllNear(m.GetOutput<float>(output), want);
}

TEST(Nn_BatchMatMul, HandWorked) {
  OpModel m;
  const int lhs = m.AddInput({kTfLiteFloat32, {2, 2}});
  const int rhs = m.AddInput({kTfLiteFloat32, {2, 3}});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_BATCH_MATMUL,
                 tflite::ops::builtin::Register_BATCH_MATMUL(), TfLiteBatchMatMulParams{});
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput<float>(lhs, {1, 2, 3, 4});
  m.SetInput<float>(rhs, {1, 0, -1, 2, 1, 0});
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(output), (std::vector<int>{2, 3}));
  EXPECT_EQ(m.GetOutput<float>(output), (std::vector<float>{5, 2, -1, 11, 4, -3}));
}

TEST(Nn_BatchMatMul, Adjoints) {
  for (bool ax : {false, true}) {
    for (bool ay : {false, true}) {
      Check(ax ? std::vector<int>{3, 4, 2} : std::vector<int>{3, 2, 4}, ax,
            ay ? std::vector<int>{3, 5, 4} : std::vector<int>{3, 4, 5}, ay);
    }
  }
}

TEST(Nn_BatchMatMul, BroadcastBatchDims) {
  Check({2, 1, 3, 4}, false, {3, 4, 2}, false);      // rhs rank 3 against lhs rank 4
  Check({1, 3, 2, 4}, false, {5, 1, 4, 3}, false);   // both broadcast
  Check({2, 2, 1, 3, 4}, true, {6, 3}, true, true);  // rank 5 with a constant 2-D rhs
}

// TFLite's 16x8: int16 lhs and output, a per-tensor int8 rhs (constant or not), int64 sums
// and the 16-bit requantization. Against the double product, within one output step.
TEST(Nn_BatchMatMul, Int16LhsInt8Rhs) {
  for (bool adj_y : {false, true}) {
    for (bool const_rhs : {false, true}) {
      const std::vector<int> ls = {2, 3, 40},
                             rs = adj_y ? std::vector<int>{7, 40} : std::vector<int>{40, 7};
      std::vector<int16_t> lq(Count(ls));
      std::vector<int8_t> rq(Count(rs));
      for (size_t i = 0; i < lq.size(); ++i)
        lq[i] = static_cast<int16_t>((i * 7919) % 65536 - 32768);
      for (size_t i = 0; i < rq.size(); ++i) rq[i] = static_cast<int8_t>((i * 104729) % 256 - 128);
      rq[0] = -128;
      const float ls_scale = 1.f / 4096, rs_scale = 0.02f, out_scale = 1.f / 64;
      OpModel m;
      const int lhs = m.AddInput({kTfLiteInt16, ls, {ls_scale}, {0}});
      const testing::TensorSpec rspec{kTfLiteInt8, rs, {rs_scale}, {0}};
      const int rhs = const_rhs ? m.AddConstInput<int8_t>(rspec, rq) : m.AddInput(rspec);
      const int output = m.AddOutput({kTfLiteInt16, {}, {out_scale}, {0}});
      TfLiteBatchMatMulParams p{};
      p.adj_y = adj_y;
      m.SetBuiltinOp(tflite::BuiltinOperator_BATCH_MATMUL,
                     tflite::ops::builtin::Register_BATCH_MATMUL(), p);
      ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
      m.SetInput(lhs, lq);
      if (!const_rhs) m.SetInput(rhs, rq);
      ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
      std::vector<float> lf(lq.begin(), lq.end()), rf(rq.begin(), rq.end());
      std::vector<int> shape;
      const auto want = Naive(ls, lf, false, rs, rf, adj_y, &shape);
      EXPECT_EQ(m.GetShape(output), shape);
      const auto got = m.GetOutput<int16_t>(output);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        const double q = std::min(
            32767.0, std::max(-32768.0, std::round(want[i] * ls_scale * rs_scale / out_scale)));
        EXPECT_LE(std::fabs(got[i] - q), 1) << i;
      }
    }
  }
}

TEST(Nn_BatchMatMul, Rejections) {
  auto error = [](std::vector<int> ls, std::vector<int> rs, TfLiteType type = kTfLiteFloat32) {
    OpModel m;
    m.AddInput({type, ls});
    m.AddInput({type, rs});
    m.AddOutput({type, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_BATCH_MATMUL,
                   tflite::ops::builtin::Register_BATCH_MATMUL(), TfLiteBatchMatMulParams{});
    EXPECT_NE(m.Build(), kTfLiteOk);
    return m.error();
  };
  EXPECT_NE(error({2, 3}, {4, 5})
                .find("BATCH_MATMUL: contraction dimensions differ: lhs has 3, "
                      "rhs has 4"),
            std::string::npos);
  EXPECT_NE(error({2, 2, 3}, {3, 3, 4}).find("BATCH_MATMUL: batch dimension 0 cannot broadcast"),
            std::string::npos);
  EXPECT_NE(error({3}, {3, 4}).find("BATCH_MATMUL: lhs must have at least 2 dimensions"),
            std::string::npos);
  EXPECT_NE(error({1, 1, 1, 1, 2, 3}, {3, 4}).find("at most 5 dimensions"), std::string::npos);
  EXPECT_NE(error({2, 3}, {3, 4}, kTfLiteInt32).find("BATCH_MATMUL: lhs type INT32"),
            std::string::npos);
}

}  // namespace
}  // namespace octet
