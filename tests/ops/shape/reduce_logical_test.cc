// REDUCE_ANY / REDUCE_ALL against a naive or / and over the reduced positions.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ops/shape/shape_ops.h"
#include "ops/shape/shape_test_util.h"

namespace octet::shape_test {
namespace {

using tflite::ops::builtin::Register_REDUCE_ALL;
using tflite::ops::builtin::Register_REDUCE_ANY;

struct Case {
  std::vector<int> dims;
  std::vector<int32_t> axes;
  bool keep_dims;
  std::vector<int> want_dims;
};

void Check(bool any, const Case& c, const std::vector<uint8_t>& data, bool dynamic_axes) {
  OpModel m;
  const int in = m.AddInput({kTfLiteBool, c.dims});
  const int n = static_cast<int>(c.axes.size());
  int axes_id = -1;
  if (dynamic_axes) {
    axes_id = m.AddInput({kTfLiteInt32, {n}});
  } else {
    m.AddConstInput<int32_t>({kTfLiteInt32, {n}}, c.axes);
  }
  const int out = m.AddOutput({kTfLiteBool, {}});
  TfLiteReducerParams p{};
  p.keep_dims = c.keep_dims;
  m.SetBuiltinOp(any ? kTfLiteBuiltinReduceAny : kTfLiteBuiltinReduceAll,
                 any ? Register_REDUCE_ANY() : Register_REDUCE_ALL(), p);
  ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
  m.SetInput(in, data);
  if (dynamic_axes) m.SetInput(axes_id, c.axes);
  ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.GetShape(out), c.want_dims);
  // Naive: fold every input position into its output position.
  std::vector<bool> reduced(c.dims.size(), false);
  for (int a : c.axes) reduced[a < 0 ? a + c.dims.size() : a] = true;
  std::vector<int> kept;
  for (size_t d = 0; d < c.dims.size(); ++d) kept.push_back(reduced[d] ? 1 : c.dims[d]);
  std::vector<uint8_t> want(Count(kept), any ? 0 : 1);
  for (int64_t i = 0; i < Count(c.dims); ++i) {
    std::vector<int> idx = Unravel(i, c.dims);
    for (size_t d = 0; d < idx.size(); ++d)
      if (reduced[d]) idx[d] = 0;
    uint8_t& w = want[Ravel(idx, kept)];
    w = any ? (w || data[i]) : (w && data[i]);
  }
  EXPECT_EQ(m.GetOutput<uint8_t>(out), want) << (any ? "any" : "all");
}

TEST(Shape_ReduceLogical, AnyAndAllOverAxes) {
  const std::vector<Case> cases = {
      {{2, 3, 4}, {1}, false, {2, 4}},
      {{2, 3, 4}, {0, -1}, true, {1, 3, 1}},
      {{2, 3, 4}, {2, 2, -1}, false, {2, 3}},
      {{2, 3, 4}, {0, 1, 2}, false, {}},
      {{2, 3}, {}, false, {2, 3}},
  };
  std::vector<uint8_t> data(24);
  for (int i = 0; i < 24; ++i) data[i] = (i * 7 + i / 5) % 3 == 0;
  std::vector<uint8_t> all_true(24, 1), all_false(24, 0);
  for (const Case& c : cases) {
    for (bool any : {true, false}) {
      for (const auto* d : {&data, &all_true, &all_false}) {
        std::vector<uint8_t> v(d->begin(), d->begin() + Count(c.dims));
        Check(any, c, v, false);
        Check(any, c, v, true);
      }
    }
  }
}

TEST(Shape_ReduceLogical, EmptyReductionIsIdentity) {
  // Reducing a zero-sized dim: any -> false, all -> true.
  for (bool any : {true, false}) {
    OpModel m;
    m.AddInput({kTfLiteBool, {2, 0}});
    m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {1});
    const int out = m.AddOutput({kTfLiteBool, {}});
    m.SetBuiltinOp(any ? kTfLiteBuiltinReduceAny : kTfLiteBuiltinReduceAll,
                   any ? Register_REDUCE_ANY() : Register_REDUCE_ALL(), TfLiteReducerParams{});
    ASSERT_EQ(m.Build(), kTfLiteOk) << m.error();
    ASSERT_EQ(m.Invoke(), kTfLiteOk) << m.error();
    EXPECT_EQ(m.GetOutput<uint8_t>(out), std::vector<uint8_t>(2, any ? 0 : 1));
  }
}

TEST(Shape_ReduceLogical, RefusesNonBoolAndBadAxes) {
  for (bool any : {true, false}) {
    const std::string op = any ? "REDUCE_ANY" : "REDUCE_ALL";
    TfLiteRegistration* reg = any ? Register_REDUCE_ANY() : Register_REDUCE_ALL();
    const int code = any ? kTfLiteBuiltinReduceAny : kTfLiteBuiltinReduceAll;
    {
      OpModel m;
      m.AddInput({kTfLiteFloat32, {2, 3}});
      m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {0});
      m.AddOutput({kTfLiteFloat32, {}});
      m.SetBuiltinOp(code, reg, TfLiteReducerParams{});
      EXPECT_NE(m.Build(), kTfLiteOk);
      EXPECT_NE(m.error().find(op + ": input type must be BOOL, got FLOAT32"), std::string::npos)
          << m.error();
    }
    {
      OpModel m;
      m.AddInput({kTfLiteBool, {2, 3}});
      m.AddConstInput<int32_t>({kTfLiteInt32, {1}}, {-3});
      m.AddOutput({kTfLiteBool, {}});
      m.SetBuiltinOp(code, reg, TfLiteReducerParams{});
      EXPECT_NE(m.Build(), kTfLiteOk);
      EXPECT_NE(m.error().find(op + ": axis -3 out of range for rank 2"), std::string::npos)
          << m.error();
    }
  }
}

}  // namespace
}  // namespace octet::shape_test
