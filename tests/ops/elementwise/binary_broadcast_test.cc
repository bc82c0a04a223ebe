// ADD / SUB / MUL (and float DIV) broadcasts on the optimized kernels (PlanBinaryRows +
// RunBinaryRows) against the reference path: random shapes of every covered kind (equal,
// single value, a vector repeating along leading dims, an operand constant along trailing
// dims, outer products), either operand the small one, ranks that differ, short vectors tiled with
// a remainder; int8, uint8 and float; byte- or bit-identical on every path this CPU runs.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/cpu_features.h"
#include "ops/elementwise/binary_rows.h"
#include "ops/elementwise/elementwise_ops.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "util/kernel_paths.h"
#include "util/op_model.h"

namespace octet::ops::elementwise {
namespace {

namespace builtin = tflite::ops::builtin;
using octet::testing::IsaScope;
using octet::testing::OpModel;

TEST(BinaryRows, PlansTheCoveredBroadcasts) {
  BinaryRows p;
  ASSERT_TRUE(PlanBinaryRows(Shape{2, 3, 4}, Shape{2, 3, 4}, Shape{2, 3, 4}, &p));
  EXPECT_EQ(p.rows, 1);
  EXPECT_EQ(p.len, 24);
  ASSERT_TRUE(PlanBinaryRows(Shape{1, 192, 192, 3}, Shape{1, 1, 1, 3}, Shape{1, 192, 192, 3}, &p));
  EXPECT_EQ(p.rows, 192 * 192);
  EXPECT_EQ(p.len, 3);
  EXPECT_EQ(p.repeated, 2);
  ASSERT_TRUE(PlanBinaryRows(Shape{3}, Shape{5, 3}, Shape{5, 3}, &p));  // ranks differ
  EXPECT_EQ(p.repeated, 1);
  EXPECT_EQ(p.b_step, 3);
  ASSERT_TRUE(PlanBinaryRows(Shape{48, 48, 17}, Shape{48, 48, 1}, Shape{48, 48, 17}, &p));
  EXPECT_EQ(p.rows, 48 * 48);
  EXPECT_EQ(p.len, 17);
  EXPECT_TRUE(p.b_scalar);
  // An outer product: a value per row against a vector every row reuses.
  ASSERT_TRUE(PlanBinaryRows(Shape{48, 48, 1}, Shape{1, 17}, Shape{48, 48, 17}, &p));
  EXPECT_EQ(p.rows, 48 * 48);
  EXPECT_TRUE(p.a_scalar);
  EXPECT_EQ(p.a_step, 1);
  EXPECT_EQ(p.b_step, 0);
  // A middle dimension broadcast: not covered.
  EXPECT_FALSE(PlanBinaryRows(Shape{2, 3, 4}, Shape{2, 1, 4}, Shape{2, 3, 4}, &p));
}

struct Case {
  std::vector<int> big, small, out;
  bool small_first;
};

// A random broadcast of a covered kind, or (one in six) of an uncovered one.
Case RandomCase(std::mt19937& rng) {
  Case c;
  const int rank = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < rank; ++i) c.big.push_back(1 + static_cast<int>(rng() % 9));
  if (rng() % 5 == 0) c.big.back() = 300 + static_cast<int>(rng() % 700);  // long rows
  c.small = c.big;
  const int kind = static_cast<int>(rng() % 6);
  const int k = static_cast<int>(rng() % (rank + 1));
  if (kind == 0) {
    c.small.assign(1, 1);               // one value
  } else if (kind == 1 || kind == 2) {  // repeating along leading dims; maybe lower rank
    for (int i = 0; i < k; ++i) c.small[i] = 1;
    if (kind == 2) c.small.erase(c.small.begin(), c.small.begin() + k);
    if (c.small.empty()) c.small.push_back(1);
  } else if (kind == 3) {  // constant along trailing dims
    for (int i = k; i < rank; ++i) c.small[i] = 1;
  } else if (kind == 4) {  // uncovered: one middle dimension broadcast
    c.small[rng() % rank] = 1;
  }
  c.out = c.big;
  if (kind == 5 && rank >= 2) {  // an outer product: [.., d, 1] op [1, .., e]
    c.big.back() = 1;
    c.small.assign(rank, 1);
    c.small.back() = c.out.back();
  }
  c.small_first = rng() % 2;
  return c;
}

template <typename T>
std::vector<T> RandomValues(std::mt19937& rng, size_t n) {
  std::vector<T> v(n);
  for (T& x : v) {
    if constexpr (std::is_same_v<T, float>) {
      x = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 97.f;
      if (x == 0.f) x = 0.5f;  // DIV
    } else {
      x = static_cast<T>(rng());
    }
  }
  return v;
}

size_t Count(const std::vector<int>& dims) {
  size_t n = 1;
  for (int d : dims) n *= static_cast<size_t>(d);
  return n;
}

template <typename T>
std::vector<T> Run(int code, const TfLiteRegistration* reg, const Case& c, const std::vector<T>& a,
                   const std::vector<T>& b, bool relu, std::string* error) {
  constexpr TfLiteType kType = std::is_same_v<T, float>    ? kTfLiteFloat32
                               : std::is_same_v<T, int8_t> ? kTfLiteInt8
                                                           : kTfLiteUInt8;
  constexpr bool kQuant = kType != kTfLiteFloat32;
  const std::vector<int>& first = c.small_first ? c.small : c.big;
  const std::vector<int>& second = c.small_first ? c.big : c.small;
  OpModel m;
  const int zp = kType == kTfLiteInt8 ? -3 : 120;
  const int i1 = kQuant ? m.AddInput({kType, first, {0.05f}, {zp}}) : m.AddInput({kType, first});
  const int i2 =
      kQuant ? m.AddInput({kType, second, {0.03f}, {zp + 5}}) : m.AddInput({kType, second});
  const int o = kQuant
                    ? m.AddOutput({kType, c.out, {code == kTfLiteBuiltinMul ? 0.01f : 0.07f}, {zp}})
                    : m.AddOutput({kType, c.out});
  const TfLiteFusedActivation act = relu ? kTfLiteActRelu : kTfLiteActNone;
  if (code == kTfLiteBuiltinAdd) {
    TfLiteAddParams p{};
    p.activation = act;
    m.SetBuiltinOp(code, reg, p);
  } else if (code == kTfLiteBuiltinSub) {
    TfLiteSubParams p{};
    p.activation = act;
    m.SetBuiltinOp(code, reg, p);
  } else if (code == kTfLiteBuiltinMul) {
    TfLiteMulParams p{};
    p.activation = act;
    m.SetBuiltinOp(code, reg, p);
  } else {
    TfLiteDivParams p{};
    p.activation = act;
    m.SetBuiltinOp(code, reg, p);
  }
  if (m.Build() != kTfLiteOk) {
    *error = m.error();
    return {};
  }
  m.SetInput<T>(i1, c.small_first ? b : a);
  m.SetInput<T>(i2, c.small_first ? a : b);
  if (m.Invoke() != kTfLiteOk) {
    *error = m.error();
    return {};
  }
  return m.GetOutput<T>(o);
}

template <typename T>
void ExpectPathsEqualReference(uint32_t seed) {
  struct Op {
    int code;
    const TfLiteRegistration* reg;
  };
  std::vector<Op> ops = {{kTfLiteBuiltinAdd, builtin::Register_ADD()},
                         {kTfLiteBuiltinSub, builtin::Register_SUB()},
                         {kTfLiteBuiltinMul, builtin::Register_MUL()}};
  if (std::is_same_v<T, float>) ops.push_back({kTfLiteBuiltinDiv, builtin::Register_DIV()});
  std::mt19937 rng(seed);
  int compared = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Case c = RandomCase(rng);
    const Op op = ops[rng() % ops.size()];
    const bool relu = rng() % 3 == 0;
    const std::vector<T> a = RandomValues<T>(rng, Count(c.big));
    const std::vector<T> b = RandomValues<T>(rng, Count(c.small));
    std::string error;
    std::vector<T> want;
    {
      IsaScope scope(cpu::Isa::kReference);
      want = Run<T>(op.code, op.reg, c, a, b, relu, &error);
    }
    ASSERT_FALSE(want.empty()) << error;
    for (cpu::Isa isa : octet::testing::OptimizedPaths()) {
      IsaScope scope(isa);
      const std::vector<T> got = Run<T>(op.code, op.reg, c, a, b, relu, &error);
      ASSERT_EQ(got.size(), want.size()) << error;
      ASSERT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(T)))
          << "op " << op.code << " on " << cpu::IsaName(isa) << " trial " << trial;
    }
    ++compared;
  }
  EXPECT_EQ(compared, 150);
}

TEST(BinaryBroadcast, Int8PathsEqualReference) { ExpectPathsEqualReference<int8_t>(1); }
TEST(BinaryBroadcast, UInt8PathsEqualReference) { ExpectPathsEqualReference<uint8_t>(2); }
TEST(BinaryBroadcast, FloatPathsEqualReference) { ExpectPathsEqualReference<float>(3); }

}  // namespace
}  // namespace octet::ops::elementwise
