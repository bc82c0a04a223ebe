// The float weighted glue's variant choice, per node, on every kernel path this CPU runs:
// random single-node CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED graphs through the builtin
// registration against the same graph on the *_REF registration. The micro-kernels have their
// own error-bound tests (tests/kernels/optimized); these cover which kernel a node gets and how
// its weights are laid out for it, so the tolerance is the worst-case rounding bound for
// values in [-1, 1] (a misplaced weight is off by far more).
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
using Outcome = testing::NodeOutcome<float>;
using testing::OptimizedPaths;
namespace builtin = tflite::ops::builtin;

enum class Kind { kConv, kDepthwise, kFullyConnected };

struct NodeCase {
  Kind kind = Kind::kConv;
  std::vector<int> input, filter;
  int channels = 1;  // output channels / units (the bias size)
  int stride = 1, dilation = 1, multiplier = 1;
  TfLitePadding padding = kTfLitePaddingSame;
  TfLiteFusedActivation activation = kTfLiteActNone;
  int terms = 1;  // products per output
  std::string Describe() const {
    std::string s = kind == Kind::kConv ? "conv" : kind == Kind::kDepthwise ? "dw" : "fc";
    s += " in";
    for (int d : input) s += " " + std::to_string(d);
    s += " filter";
    for (int d : filter) s += " " + std::to_string(d);
    return s + " s" + std::to_string(stride) + " d" + std::to_string(dilation) + " m" +
           std::to_string(multiplier);
  }
};

std::vector<float> Uniform(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

size_t Count(const std::vector<int>& shape) {
  size_t n = 1;
  for (int d : shape) n *= static_cast<size_t>(d);
  return n;
}

Outcome RunNode(const NodeCase& c, bool reference, uint32_t seed) {
  std::mt19937 rng(seed);
  OpModel m;
  const int input = m.AddInput({kTfLiteFloat32, c.input});
  m.AddConstInput<float>({kTfLiteFloat32, c.filter}, Uniform(Count(c.filter), rng));
  m.AddConstInput<float>({kTfLiteFloat32, {c.channels}}, Uniform(c.channels, rng));
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  switch (c.kind) {
    case Kind::kConv: {
      TfLiteConvParams p{};
      p.padding = c.padding;
      p.stride_width = p.stride_height = c.stride;
      p.dilation_width_factor = p.dilation_height_factor = c.dilation;
      p.activation = c.activation;
      m.SetBuiltinOp(tflite::BuiltinOperator_CONV_2D,
                     reference ? builtin::Register_CONV_2D_REF() : builtin::Register_CONV_2D(), p);
      break;
    }
    case Kind::kDepthwise: {
      TfLiteDepthwiseConvParams p{};
      p.padding = c.padding;
      p.stride_width = p.stride_height = c.stride;
      p.dilation_width_factor = p.dilation_height_factor = c.dilation;
      p.depth_multiplier = c.multiplier;
      p.activation = c.activation;
      m.SetBuiltinOp(tflite::BuiltinOperator_DEPTHWISE_CONV_2D,
                     reference ? builtin::Register_DEPTHWISE_CONV_2D_REF()
                               : builtin::Register_DEPTHWISE_CONV_2D(),
                     p);
      break;
    }
    case Kind::kFullyConnected: {
      TfLiteFullyConnectedParams p{};
      p.activation = c.activation;
      m.SetBuiltinOp(
          tflite::BuiltinOperator_FULLY_CONNECTED,
          reference ? builtin::Register_FULLY_CONNECTED_REF() : builtin::Register_FULLY_CONNECTED(),
          p);
      break;
    }
  }
  return testing::BuildAndRun<float>(m, output,
                                     [&] { m.SetInput(input, Uniform(Count(c.input), rng)); });
}

NodeCase RandomCase(int trial, std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  NodeCase c;
  c.kind = static_cast<Kind>(trial % 3);
  c.activation = trial % 4 == 0 ? kTfLiteActRelu6 : kTfLiteActNone;
  c.stride = pick(1, 2);
  c.dilation = trial % 5 == 0 ? 2 : 1;
  c.padding = trial % 2 ? kTfLitePaddingSame : kTfLitePaddingValid;
  const int kh = pick(1, 5), kw = pick(1, 5);
  const int h = pick(1, 12) + (kh - 1) * c.dilation, w = pick(1, 12) + (kw - 1) * c.dilation;
  switch (c.kind) {
    case Kind::kConv: {
      const int groups = trial % 7 == 0 ? 2 : 1;  // grouped: stays on the reference
      const int per_group = pick(1, 20);
      c.channels = groups * pick(1, 20);
      c.input = {pick(1, 2), h, w, groups * per_group};
      c.filter = {c.channels, kh, kw, per_group};
      c.terms = kh * kw * per_group;
      break;
    }
    case Kind::kDepthwise: {
      const int in_c = trial % 4 == 1 ? 1 : pick(1, 40);
      c.multiplier = trial % 4 == 1 ? pick(2, 40) : (trial % 4 == 2 ? pick(2, 3) : 1);
      c.channels = in_c * c.multiplier;
      c.input = {pick(1, 2), h, w, in_c};
      c.filter = {1, kh, kw, c.channels};
      c.terms = kh * kw;
      break;
    }
    case Kind::kFullyConnected: {
      const int depth = pick(1, 300);
      c.channels = pick(1, 70);
      c.input = {pick(1, 9), depth};
      c.filter = {c.channels, depth};
      c.terms = depth;
      break;
    }
  }
  return c;
}

// The kernel a node must get on an optimized path.
std::string ExpectedFamily(const NodeCase& c) {
  switch (c.kind) {
    case Kind::kConv:
      return c.input[3] == c.filter[3] ? "fgemm" : "reference";
    case Kind::kDepthwise:
      if (c.multiplier == 1) return "fdw";
      return c.input[3] == 1 ? "fgemm" : "reference";
    case Kind::kFullyConnected:
      return "fgemm";
  }
  return "";
}

TEST(FloatGluePaths, NodesMatchTheReferenceOnEveryPath) {
  std::mt19937 rng(31);
  const double u = std::ldexp(1.0, -24);
  for (int trial = 0; trial < 90; ++trial) {
    const NodeCase c = RandomCase(trial, rng);
    const uint32_t seed = 500 + trial;
    const Outcome want = RunNode(c, true, seed);
    ASSERT_TRUE(want.error.empty()) << c.Describe() << ": " << want.error;
    // Values and bias in [-1, 1]: Σ|terms| <= terms + 1, for either computation.
    const double tolerance = 4.0 * (c.terms + 2) * u * (c.terms + 1);
    for (cpu::Isa isa : OptimizedPaths()) {
      IsaScope scope(isa);
      ASSERT_TRUE(scope.ok);
      const Outcome got = RunNode(c, false, seed);
      ASSERT_TRUE(got.error.empty()) << c.Describe() << ": " << got.error;
      EXPECT_EQ(got.kernel.substr(0, ExpectedFamily(c).size()), ExpectedFamily(c))
          << c.Describe() << " on " << cpu::IsaName(isa) << " got " << got.kernel;
      ASSERT_EQ(got.output.size(), want.output.size()) << c.Describe();
      for (size_t i = 0; i < got.output.size(); ++i) {
        ASSERT_NEAR(got.output[i], want.output[i], tolerance)
            << c.Describe() << " on " << cpu::IsaName(isa) << " (" << got.kernel << "), output "
            << i;
      }
    }
  }
}

}  // namespace
}  // namespace octet

namespace octet {
namespace {

struct MatMulCase {
  std::vector<int> lhs, rhs;
  bool adj_y = false;
  bool constant_rhs = true;
  int k = 1;
  std::string Describe() const {
    std::string s = "bmm lhs";
    for (int d : lhs) s += " " + std::to_string(d);
    s += " rhs";
    for (int d : rhs) s += " " + std::to_string(d);
    return s + (adj_y ? " adj_y" : "") + (constant_rhs ? " const" : " input");
  }
};

Outcome RunMatMul(const MatMulCase& c, uint32_t seed) {
  std::mt19937 rng(seed);
  OpModel m;
  const int lhs = m.AddInput({kTfLiteFloat32, c.lhs});
  const auto rhs_values = Uniform(Count(c.rhs), rng);
  const int rhs = c.constant_rhs ? m.AddConstInput<float>({kTfLiteFloat32, c.rhs}, rhs_values)
                                 : m.AddInput({kTfLiteFloat32, c.rhs});
  const int output = m.AddOutput({kTfLiteFloat32, {}});
  TfLiteBatchMatMulParams p{};
  p.adj_y = c.adj_y;
  m.SetBuiltinOp(tflite::BuiltinOperator_BATCH_MATMUL, builtin::Register_BATCH_MATMUL(), p);
  // Two invokes: the per-invoke packing is redone each time.
  return testing::BuildAndRun<float>(
      m, output,
      [&] {
        m.SetInput(lhs, Uniform(Count(c.lhs), rng));
        if (!c.constant_rhs) m.SetInput(rhs, rhs_values);
      },
      2);
}

TEST(FloatGluePaths, BatchMatMulMatchesTheReferenceOnEveryPath) {
  std::mt19937 rng(8);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  const double u = std::ldexp(1.0, -24);
  for (int trial = 0; trial < 40; ++trial) {
    MatMulCase c;
    const int m = pick(1, 20), n = pick(1, 40);
    c.k = pick(1, 70);
    c.adj_y = trial % 2 == 1;
    c.constant_rhs = trial % 3 != 2;
    const int batch = pick(1, 3);
    // Broadcasting: the rhs batch is 1 every fourth case, missing every fifth.
    c.lhs = {batch, m, c.k};
    const std::vector<int> matrix = c.adj_y ? std::vector<int>{n, c.k} : std::vector<int>{c.k, n};
    if (trial % 5 == 4) {
      c.rhs = matrix;
    } else {
      c.rhs = {trial % 4 == 3 ? 1 : batch, matrix[0], matrix[1]};
    }
    const uint32_t seed = 70 + trial;
    Outcome want;
    {
      IsaScope scope(cpu::Isa::kReference);
      want = RunMatMul(c, seed);
    }
    ASSERT_TRUE(want.error.empty()) << c.Describe() << ": " << want.error;
    const double tolerance = 4.0 * (c.k + 2) * u * c.k;
    for (cpu::Isa isa : OptimizedPaths()) {
      IsaScope scope(isa);
      const Outcome got = RunMatMul(c, seed);
      ASSERT_TRUE(got.error.empty()) << c.Describe() << ": " << got.error;
      EXPECT_EQ(got.kernel.substr(0, 5), "fgemm") << c.Describe();
      ASSERT_EQ(got.output.size(), want.output.size()) << c.Describe();
      for (size_t i = 0; i < got.output.size(); ++i) {
        ASSERT_NEAR(got.output[i], want.output[i], tolerance)
            << c.Describe() << " on " << cpu::IsaName(isa) << ", output " << i;
      }
    }
  }
}

}  // namespace
}  // namespace octet

namespace octet {
namespace {

TEST(FloatGluePaths, TransposeConvMatchesTheReferenceOnEveryPath) {
  std::mt19937 rng(21);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  const double u = std::ldexp(1.0, -24);
  for (int trial = 0; trial < 40; ++trial) {
    const int batches = pick(1, 2), in_h = pick(1, 8), in_w = pick(1, 8), in_c = pick(1, 20);
    const int out_c = pick(1, 30), kh = pick(1, 5), kw = pick(1, 5), stride = pick(1, 3);
    const bool same = trial % 2 == 0;
    const int out_h = same ? in_h * stride : (in_h - 1) * stride + kh;
    const int out_w = same ? in_w * stride : (in_w - 1) * stride + kw;
    const bool with_bias = trial % 3 != 0;
    auto run = [&](uint32_t seed, bool pinned = false) {
      std::mt19937 values(seed);
      OpModel m;
      m.AddConstInput<int32_t>({kTfLiteInt32, {4}}, {batches, out_h, out_w, out_c});
      m.AddConstInput<float>({kTfLiteFloat32, {out_c, kh, kw, in_c}},
                             Uniform(static_cast<size_t>(out_c) * kh * kw * in_c, values));
      const int input = m.AddInput({kTfLiteFloat32, {batches, in_h, in_w, in_c}});
      if (with_bias) m.AddConstInput<float>({kTfLiteFloat32, {out_c}}, Uniform(out_c, values));
      const int output = m.AddOutput({kTfLiteFloat32, {}});
      TfLiteTransposeConvParams p{};
      p.padding = same ? kTfLitePaddingSame : kTfLitePaddingValid;
      p.stride_height = p.stride_width = stride;
      p.activation = trial % 4 == 1 ? kTfLiteActRelu : kTfLiteActNone;
      m.SetBuiltinOp(
          tflite::BuiltinOperator_TRANSPOSE_CONV,
          pinned ? builtin::Register_TRANSPOSE_CONV_REF() : builtin::Register_TRANSPOSE_CONV(), p);
      return testing::BuildAndRun<float>(m, output, [&] {
        m.SetInput(input, Uniform(static_cast<size_t>(batches) * in_h * in_w * in_c, values));
      });
    };
    const std::string label = "transpose conv in " + std::to_string(in_h) + "x" +
                              std::to_string(in_w) + "x" + std::to_string(in_c) + " k" +
                              std::to_string(kh) + "x" + std::to_string(kw) + " s" +
                              std::to_string(stride) + (same ? " SAME" : " VALID");
    Outcome want;
    {
      IsaScope scope(cpu::Isa::kReference);
      want = run(300 + trial);
    }
    ASSERT_TRUE(want.error.empty()) << label << ": " << want.error;
    // Each output sums at most kh * kw * in_c products, plus the bias.
    const int terms = kh * kw * in_c;
    const double tolerance = 4.0 * (terms + 2) * u * (terms + 1);
    for (cpu::Isa isa : OptimizedPaths()) {
      IsaScope scope(isa);
      const Outcome got = run(300 + trial);
      ASSERT_TRUE(got.error.empty()) << label << ": " << got.error;
      EXPECT_EQ(got.kernel.substr(0, 5), "fgemm") << label;
      ASSERT_EQ(got.output.size(), want.output.size()) << label;
      for (size_t i = 0; i < got.output.size(); ++i) {
        ASSERT_NEAR(got.output[i], want.output[i], tolerance)
            << label << " on " << cpu::IsaName(isa) << ", output " << i;
      }
      // Register_TRANSPOSE_CONV_REF pins the reference: its bits on every path.
      const Outcome pinned = run(300 + trial, true);
      EXPECT_EQ(pinned.kernel, "reference") << label;
      EXPECT_EQ(pinned.output, want.output) << label << " pinned, on " << cpu::IsaName(isa);
    }
  }
}

}  // namespace
}  // namespace octet

namespace octet {
namespace {

// The channel-vectorized float pools repeat the reference's per-channel operations in the
// same order: equal bits, NaN included.
TEST(FloatGluePaths, PoolsGiveTheReferenceBits) {
  std::mt19937 rng(5);
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % (hi - lo + 1)); };
  const TfLiteRegistration* registrations[] = {builtin::Register_AVERAGE_POOL_2D(),
                                               builtin::Register_MAX_POOL_2D(),
                                               builtin::Register_L2_POOL_2D()};
  const int codes[] = {tflite::BuiltinOperator_AVERAGE_POOL_2D, tflite::BuiltinOperator_MAX_POOL_2D,
                       tflite::BuiltinOperator_L2_POOL_2D};
  for (int trial = 0; trial < 60; ++trial) {
    const int kind = trial % 3;
    const std::vector<int> shape = {pick(1, 2), pick(1, 12), pick(1, 12), pick(1, 40)};
    TfLitePoolParams p{};
    p.padding = trial % 2 ? kTfLitePaddingSame : kTfLitePaddingValid;
    p.stride_height = pick(1, 3);
    p.stride_width = pick(1, 3);
    p.filter_height = std::min(pick(1, 5), shape[1]);
    p.filter_width = std::min(pick(1, 5), shape[2]);
    p.activation = trial % 4 == 0 ? kTfLiteActRelu6 : kTfLiteActNone;
    auto run = [&]() {
      std::mt19937 values(40 + trial);
      OpModel m;
      const int input = m.AddInput({kTfLiteFloat32, shape});
      const int output = m.AddOutput({kTfLiteFloat32, {}});
      m.SetBuiltinOp(codes[kind], registrations[kind], p);
      return testing::BuildAndRun<float>(m, output, [&] {
        auto in = Uniform(Count(shape), values);
        if (trial % 5 == 0) in[in.size() / 2] = std::nanf("");
        m.SetInput(input, in);
      });
    };
    Outcome want;
    {
      IsaScope scope(cpu::Isa::kReference);
      want = run();
    }
    ASSERT_TRUE(want.error.empty()) << want.error;
    for (cpu::Isa isa : OptimizedPaths()) {
      IsaScope scope(isa);
      const Outcome got = run();
      ASSERT_TRUE(got.error.empty()) << got.error;
      EXPECT_EQ(got.kernel, "fpool");
      ASSERT_EQ(got.output.size(), want.output.size());
      EXPECT_EQ(
          std::memcmp(got.output.data(), want.output.data(), got.output.size() * sizeof(float)), 0)
          << "pool kind " << kind << " trial " << trial;
    }
  }
}

}  // namespace
}  // namespace octet

namespace octet {
namespace {

// A node re-prepared (after a resize) on another kernel path repacks its constant weights for
// that path's kernel instead of reusing the first path's layout.
TEST(FloatGluePaths, RepreparingOnAnotherPathRepacks) {
  const std::vector<cpu::Isa> paths = OptimizedPaths();
  if (paths.size() < 2) GTEST_SKIP() << "needs two optimized kernel paths on this CPU";
  std::mt19937 rng(3);
  const std::vector<float> rhs = Uniform(24 * 40, rng);
  const std::vector<float> lhs = Uniform(7 * 24, rng);
  auto run = [&](cpu::Isa first, cpu::Isa second) {
    OpModel m;
    const int input = m.AddInput({kTfLiteFloat32, {1, 5, 24}});
    m.AddConstInput<float>({kTfLiteFloat32, {24, 40}}, rhs);
    const int output = m.AddOutput({kTfLiteFloat32, {}});
    TfLiteBatchMatMulParams p{};
    m.SetBuiltinOp(tflite::BuiltinOperator_BATCH_MATMUL, builtin::Register_BATCH_MATMUL(), p);
    {
      IsaScope scope(first);
      EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
    }
    IsaScope scope(second);
    EXPECT_EQ(m.ResizeInput(input, {1, 7, 24}), kTfLiteOk) << m.error();
    m.SetInput(input, lhs);
    EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    return m.GetOutput<float>(output);
  };
  const std::vector<float> want = run(paths.back(), paths.back());
  const std::vector<float> got = run(paths.front(), paths.back());
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0);
}

}  // namespace
}  // namespace octet
