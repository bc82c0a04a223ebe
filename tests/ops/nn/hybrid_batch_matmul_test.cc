// Hybrid BATCH_MATMUL (float lhs, int8 rhs, float output). The reference kernel against an
// independent truth — TFLite's hybrid math written out here: each lhs row quantized by TFLite's
// float formulas, the dot products and column sums as exact integers, the zero-point correction
// as TFLite does it (in float, truncated to int32), the scaling in double — and hand-worked
// cases; then the optimized path (qgemm in raw int32 mode) on every kernel path against
// Register_BATCH_MATMUL_REF, bit for bit, over ranks, broadcast batches, adj_x / adj_y,
// symmetric and asymmetric inputs, per-tensor and per-column scales; then the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "octet/kernel_info.h"
#include "ops/nn/nn_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "util/kernel_paths.h"
#include "util/node_outcome.h"
#include "util/op_model.h"

namespace octet {
namespace {

using testing::IsaScope;
using testing::OpModel;
using testing::OptimizedPaths;
using Outcome = testing::NodeOutcome<float>;
namespace builtin = tflite::ops::builtin;

struct BmmCase {
  std::vector<int> lhs, rhs;
  bool adj_x = false, adj_y = false;
  bool asymmetric = false;
  bool per_channel = false;
  bool const_rhs = true;
  float lo = -1.f, hi = 1.f;  // lhs value range
  std::string Describe() const {
    std::string s = "lhs";
    for (int d : lhs) s += " " + std::to_string(d);
    s += " rhs";
    for (int d : rhs) s += " " + std::to_string(d);
    return s + (adj_x ? " adj_x" : "") + (adj_y ? " adj_y" : "") + (asymmetric ? " asym" : "") +
           (per_channel ? " per-channel" : " per-tensor") + (const_rhs ? "" : " variable-rhs");
  }
  int n() const { return adj_y ? rhs[rhs.size() - 2] : rhs.back(); }
};

size_t Count(const std::vector<int>& shape) {
  size_t n = 1;
  for (int d : shape) n *= static_cast<size_t>(d);
  return n;
}

struct Operands {
  std::vector<float> lhs;
  std::vector<int8_t> rhs;
  std::vector<float> scales;
};

Operands MakeOperands(const BmmCase& c, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> in_range(c.lo, c.hi);
  std::uniform_real_distribution<float> scale(0.002f, 0.05f);
  Operands o;
  o.lhs.resize(Count(c.lhs));
  for (float& x : o.lhs) x = in_range(rng);
  o.rhs.resize(Count(c.rhs));
  for (int8_t& w : o.rhs) w = static_cast<int8_t>(rng());
  if (!o.rhs.empty()) o.rhs[0] = -128;
  o.scales.resize(c.per_channel ? c.n() : 1);
  for (float& s : o.scales) s = scale(rng);
  return o;
}

// With `resized`, invokes once, resizes the lhs to it (fresh values) and runs again.
Outcome RunNode(const BmmCase& c, const Operands& o, bool reference,
                const std::vector<int>& resized = {}) {
  OpModel m;
  const int lhs = m.AddInput({kTfLiteFloat32, c.lhs});
  const testing::TensorSpec rhs_spec{kTfLiteInt8, c.rhs, o.scales,
                                     std::vector<int>(o.scales.size(), 0),
                                     static_cast<int>(c.rhs.size()) - (c.adj_y ? 2 : 1)};
  const int rhs =
      c.const_rhs ? m.AddConstInput(rhs_spec, o.rhs.data(), o.rhs.size()) : m.AddInput(rhs_spec);
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  TfLiteBatchMatMulParams p{};
  p.adj_x = c.adj_x;
  p.adj_y = c.adj_y;
  p.asymmetric_quantize_inputs = c.asymmetric;
  m.SetBuiltinOp(
      tflite::BuiltinOperator_BATCH_MATMUL,
      reference ? builtin::Register_BATCH_MATMUL_REF() : builtin::Register_BATCH_MATMUL(), p);
  Outcome first = testing::BuildAndRun<float>(m, output, [&] {
    m.SetInput(lhs, o.lhs);
    if (!c.const_rhs) m.SetInput(rhs, o.rhs);
  });
  if (resized.empty() || !first.error.empty()) return first;
  Outcome second;
  std::vector<float> values(Count(resized));
  for (size_t i = 0; i < values.size(); ++i) values[i] = std::sin(0.37f * static_cast<float>(i));
  if (m.ResizeInput(lhs, resized) != kTfLiteOk) {
    second.error = m.error();
    return second;
  }
  m.SetInput(lhs, values);
  if (!c.const_rhs) m.SetInput(rhs, o.rhs);  // the arena was planned again
  if (m.Invoke() != kTfLiteOk) {
    second.error = m.error();
    return second;
  }
  second.output = m.GetOutput<float>(output);
  second.kernel = GetNodeKernelName(m.interpreter()->primary_subgraph(), 0);
  return second;
}

// ---- The independent truth ----------------------------------------------------------------

double RoundHalfAway(double v) { return v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5); }

// TFLite's per-row quantization, in its float arithmetic: q, scale, zero point.
void TruthQuantize(const std::vector<float>& x, bool asymmetric, std::vector<int>* q, float* scale,
                   int* zero_point) {
  float lo = 0.f, hi = 0.f;
  for (float v : x) lo = std::min(lo, v), hi = std::max(hi, v);
  q->assign(x.size(), 0);
  *scale = 1.f;
  *zero_point = 0;
  if (!asymmetric) {
    const float range = std::max(-lo, hi);
    if (range == 0.f) return;
    *scale = range / 127.f;
    const float inv = 127.f / range;
    for (size_t i = 0; i < x.size(); ++i) {
      (*q)[i] = static_cast<int>(std::clamp(RoundHalfAway(x[i] * inv), -127.0, 127.0));
    }
    return;
  }
  if (lo == hi) return;  // both 0: the range always holds 0
  const double s = (double{hi} - double{lo}) / 255.0;
  const double from_min = -128.0 - lo / s, from_max = 127.0 - hi / s;
  const double zp = (128.0 + std::fabs(lo / s)) < (127.0 + std::fabs(hi / s)) ? from_min : from_max;
  *zero_point = zp <= -128.0 ? -128 : zp >= 127.0 ? 127 : static_cast<int>(RoundHalfAway(zp));
  *scale = static_cast<float>(s);
  const float inv = 1.f / *scale;
  for (size_t i = 0; i < x.size(); ++i) {
    const float v = static_cast<float>(*zero_point) + x[i] * inv;
    (*q)[i] = static_cast<int>(std::clamp(RoundHalfAway(v), -128.0, 127.0));
  }
}

// out[b..., i, j] of the broadcast batch matmul, from the definition.
std::vector<double> Truth(const BmmCase& c, const Operands& o) {
  const int lr = static_cast<int>(c.lhs.size()), rr = static_cast<int>(c.rhs.size());
  const int rank = std::max(lr, rr);
  std::vector<int> lb(rank - 2, 1), rb(rank - 2, 1), ob(rank - 2, 1);
  for (int i = 0; i < lr - 2; ++i) lb[rank - lr + i] = c.lhs[i];
  for (int i = 0; i < rr - 2; ++i) rb[rank - rr + i] = c.rhs[i];
  for (int i = 0; i < rank - 2; ++i) ob[i] = std::max(lb[i], rb[i]);
  const int m = c.adj_x ? c.lhs[lr - 1] : c.lhs[lr - 2];
  const int k = c.adj_x ? c.lhs[lr - 2] : c.lhs[lr - 1];
  const int n = c.n();
  std::vector<double> out;
  std::vector<int> index(rank - 2, 0);
  for (size_t b = 0; b < Count(ob); ++b) {
    int64_t l_off = 0, r_off = 0;
    for (int d = 0; d < rank - 2; ++d) {
      l_off = l_off * lb[d] + (lb[d] == 1 ? 0 : index[d]);
      r_off = r_off * rb[d] + (rb[d] == 1 ? 0 : index[d]);
    }
    l_off *= static_cast<int64_t>(m) * k;
    r_off *= static_cast<int64_t>(k) * n;
    for (int i = 0; i < m; ++i) {
      std::vector<float> row(k);
      for (int t = 0; t < k; ++t) row[t] = o.lhs[l_off + (c.adj_x ? t * m + i : i * k + t)];
      std::vector<int> q;
      float scale;
      int zp;
      TruthQuantize(row, c.asymmetric, &q, &scale, &zp);
      for (int j = 0; j < n; ++j) {
        int64_t dot = 0, sum = 0;
        for (int t = 0; t < k; ++t) {
          const int w = o.rhs[r_off + (c.adj_y ? j * k + t : t * n + j)];
          dot += int64_t{w} * q[t];
          sum += w;
        }
        // TFLite corrects in float and truncates to int32.
        const float corrected = static_cast<float>(dot) - static_cast<float>(sum) * float(zp);
        const auto total = static_cast<int64_t>(corrected);
        const double w_scale = o.scales[c.per_channel ? j : 0];
        out.push_back(double{scale} * w_scale * static_cast<double>(total));
      }
    }
    for (int d = rank - 3; d >= 0; --d) {
      if (++index[d] < ob[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

void ExpectNearTruth(const BmmCase& c, const Operands& o, const Outcome& got) {
  ASSERT_TRUE(got.error.empty()) << c.Describe() << ": " << got.error;
  const std::vector<double> want = Truth(c, o);
  ASSERT_EQ(got.output.size(), want.size()) << c.Describe();
  for (size_t i = 0; i < want.size(); ++i) {
    // Two float products (scale x weight scale, x total) round: a few ulps.
    ASSERT_NEAR(got.output[i], want[i], 4e-7 * std::fabs(want[i]) + 1e-30)
        << c.Describe() << " at " << i;
  }
}

TEST(Nn_HybridBatchMatMul, HandWorkedSymmetric) {
  // lhs [2, 0.5]: scale 2/127, q = [127, round(31.75) = 32]; rhs [[3], [5]] with scale 0.5:
  // dot = 381 + 160 = 541, out = (2/127 * 0.5) * 541.
  BmmCase c;
  c.lhs = {1, 2};
  c.rhs = {2, 1};
  const Operands o{{2.f, 0.5f}, {3, 5}, {0.5f}};
  const Outcome got = RunNode(c, o, true);
  ASSERT_TRUE(got.error.empty()) << got.error;
  const float scale = 2.f / 127.f * 0.5f;
  EXPECT_EQ(got.output, (std::vector<float>{scale * 541.f}));
}

TEST(Nn_HybridBatchMatMul, HandWorkedAsymmetricPerColumn) {
  // lhs [0, 2.55]: zero point -128, q = [-128, 127]; q - zp = [0, 255]. rhs [[2, 1], [-1, 4]]
  // with column scales [1, 0.5]: totals -255 and 1020.
  BmmCase c;
  c.lhs = {1, 2};
  c.rhs = {2, 2};
  c.asymmetric = true;
  c.per_channel = true;
  const Operands o{{0.f, 2.55f}, {2, 1, -1, 4}, {1.f, 0.5f}};
  const Outcome got = RunNode(c, o, true);
  ASSERT_TRUE(got.error.empty()) << got.error;
  const float s = static_cast<float>(static_cast<double>(2.55f) / 255.0);
  EXPECT_EQ(got.output, (std::vector<float>{s * 1.f * -255.f, s * 0.5f * 1020.f}));
}

// A sum beyond 2^24: TFLite's float correction rounds it, and so must the kernel.
TEST(Nn_HybridBatchMatMul, CorrectionRoundsInFloatAsTFLite) {
  BmmCase c;
  const int k = 2076;
  c.lhs = {1, k};
  c.rhs = {k, 1};
  c.asymmetric = true;
  Operands o;
  o.lhs.assign(k, 1.f);
  o.lhs[0] = 0.f;  // range [0, 1]: zero point -128, q = 127 but one -128
  o.rhs.assign(k, 127);
  o.scales = {0.01f};
  const int64_t dot = int64_t{127} * (127 * (k - 1) - 128);
  const int64_t sum = int64_t{127} * k;
  const int64_t exact = dot + 128 * sum;
  const auto rounded =
      static_cast<int64_t>(static_cast<float>(dot) + static_cast<float>(sum) * 128.f);
  ASSERT_NE(static_cast<float>(exact), static_cast<float>(rounded));  // the case discriminates
  const Outcome got = RunNode(c, o, true);
  ASSERT_TRUE(got.error.empty()) << got.error;
  const float scale = static_cast<float>(1.0 / 255.0) * 0.01f;
  EXPECT_EQ(got.output, (std::vector<float>{0.f + scale * static_cast<float>(rounded)}));
  ExpectNearTruth(c, o, got);
}

BmmCase RandomCase(int trial, std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  BmmCase c;
  c.adj_x = trial % 4 >= 2;
  c.adj_y = trial % 2 == 1;
  c.asymmetric = trial % 3 != 0;
  c.per_channel = trial % 5 >= 2;
  static const float kRanges[][2] = {{-1.f, 1.f}, {0.1f, 2.f}, {-3.f, -0.5f}, {-0.3f, 4.f}};
  c.lo = kRanges[trial % 4][0];
  c.hi = kRanges[trial % 4][1];
  const int lhs_rank = pick(2, 5), rhs_rank = trial % 3 == 0 ? 2 : pick(2, 5);
  const int rank = std::max(lhs_rank, rhs_rank);
  std::vector<int> lb, rb;
  for (int d = 0; d < rank - 2; ++d) {
    const int size = pick(1, 3);
    const int kind = pick(0, 2);  // both, lhs only (rhs 1), rhs only (lhs 1)
    lb.push_back(kind == 2 ? 1 : size);
    rb.push_back(kind == 1 ? 1 : size);
  }
  const int m = pick(1, 9), k = trial % 7 == 0 ? pick(100, 300) : pick(1, 70), n = pick(1, 40);
  c.lhs.assign(lb.end() - (lhs_rank - 2), lb.end());
  c.rhs.assign(rb.end() - (rhs_rank - 2), rb.end());
  c.lhs.insert(c.lhs.end(), {c.adj_x ? k : m, c.adj_x ? m : k});
  c.rhs.insert(c.rhs.end(), {c.adj_y ? n : k, c.adj_y ? k : n});
  return c;
}

TEST(Nn_HybridBatchMatMul, ReferenceMatchesTheTruth) {
  std::mt19937 rng(41);
  for (int trial = 0; trial < 60; ++trial) {
    BmmCase c = RandomCase(trial, rng);
    c.const_rhs = trial % 4 != 3;
    const Operands o = MakeOperands(c, 500 + trial);
    ExpectNearTruth(c, o, RunNode(c, o, true));
    if (HasFatalFailure()) return;
  }
}

TEST(Nn_HybridBatchMatMul, EveryPathGivesTheReferenceBits) {
  std::mt19937 rng(43);
  for (int trial = 0; trial < 80; ++trial) {
    const BmmCase c = RandomCase(trial, rng);
    const Operands o = MakeOperands(c, 700 + trial);
    const Outcome want = RunNode(c, o, true);
    ASSERT_TRUE(want.error.empty()) << c.Describe() << ": " << want.error;
    EXPECT_EQ(want.kernel, "reference");
    for (cpu::Isa isa : OptimizedPaths()) {
      IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      const Outcome got = RunNode(c, o, false);
      ASSERT_TRUE(got.error.empty()) << c.Describe() << ": " << got.error;
      EXPECT_EQ(got.kernel.substr(0, 5), "qgemm") << c.Describe() << ": " << got.kernel;
      ASSERT_EQ(got.output.size(), want.output.size()) << c.Describe();
      ASSERT_EQ(std::memcmp(got.output.data(), want.output.data(), want.output.size() * 4), 0)
          << c.Describe() << " on " << cpu::IsaName(isa);
    }
  }
}

// A resize re-prepares on the packed rhs; a variable rhs stays on the reference; the
// reference is pinned by OCTET_ISA=reference.
TEST(Nn_HybridBatchMatMul, ResizeVariableRhsAndPinning) {
  BmmCase c;
  c.lhs = {2, 3, 20};
  c.rhs = {2, 20, 7};
  c.asymmetric = true;
  const Operands o = MakeOperands(c, 9);
  const std::vector<int> resized = {2, 5, 20};
  const Outcome want = RunNode(c, o, true, resized);
  ASSERT_TRUE(want.error.empty()) << want.error;
  ASSERT_EQ(want.output.size(), Count({2, 5, 7}));
  BmmCase variable = c;
  variable.const_rhs = false;
  for (cpu::Isa isa : OptimizedPaths()) {
    IsaScope scope(isa);
    const Outcome got = RunNode(c, o, false, resized);
    EXPECT_EQ(got.kernel.substr(0, 5), "qgemm") << got.kernel;
    EXPECT_EQ(got.output, want.output) << cpu::IsaName(isa);
    const Outcome plain = RunNode(variable, o, false, resized);
    EXPECT_EQ(plain.kernel, "reference");
    EXPECT_EQ(plain.output, want.output) << cpu::IsaName(isa);
  }
  IsaScope scope(cpu::Isa::kReference);
  EXPECT_EQ(RunNode(c, o, false).kernel, "reference");
}

TEST(Nn_HybridBatchMatMul, Rejections) {
  auto error = [](const testing::TensorSpec& rhs, TfLiteType output = kTfLiteFloat32) {
    OpModel m;
    m.AddInput({kTfLiteFloat32, {2, 3}});
    // Bytes for the declared type (INT16 is two per element).
    const std::vector<int8_t> w(Count(rhs.shape) * (rhs.type == kTfLiteInt16 ? 2 : 1), 1);
    m.AddConstInput(rhs, w.data(), w.size());
    m.AddOutput({output, {}, {0.1f}, {0}});
    m.SetBuiltinOp(tflite::BuiltinOperator_BATCH_MATMUL, builtin::Register_BATCH_MATMUL(),
                   TfLiteBatchMatMulParams{});
    EXPECT_NE(m.Build(), kTfLiteOk);
    return m.error();
  };
  auto has = [](const std::string& error, const char* text) {
    return error.find(text) != std::string::npos;
  };
  EXPECT_TRUE(has(error({kTfLiteInt8, {3, 4}}), "need quantization scales"));
  EXPECT_TRUE(has(error({kTfLiteInt8, {3, 4}, {0.1f, 0.2f, 0.3f}, {0, 0, 0}, 0}),
                  "expected 1 or 4 along dimension 1"));
  EXPECT_TRUE(has(error({kTfLiteInt8, {3, 4}, {0.1f}, {3}}), "must be symmetric"));
  EXPECT_TRUE(has(error({kTfLiteInt8, {3, 4}, {0.f}, {0}}), "must be finite and > 0"));
  EXPECT_TRUE(has(error({kTfLiteInt8, {3, 4}, {0.1f}, {0}}, kTfLiteInt8), "output"));
  EXPECT_TRUE(
      has(error({kTfLiteInt16, {3, 4}, {0.1f}, {0}}), "rhs must be FLOAT32 or INT8 (hybrid)"));
}

}  // namespace
}  // namespace octet
